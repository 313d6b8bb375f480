import { LIMITS } from './generated/limits.js';
import type { Issue } from './generated/types.js';

/** Codes of errors thrown by this package (issues inside carry their own codes). */
export type ToolResultErrorCode =
  | 'invalid_agent_result'
  | 'invalid_tool_result'
  | 'invalid_spec'
  | 'invalid_output'
  | 'invalid_options'
  | 'invalid_schema'
  | 'invalid_definition'
  | 'invalid_value'
  | 'unknown_tool'
  | 'store_conflict'
  | 'store_lost'
  | 'invalid_summary'
  | 'not_found'
  | 'corrupt_store'
  | 'invalid_id'
  | 'invalid_input'
  | 'unknown_status'
  | 'not_initialized'
  | 'internal_trap'
  | 'unsupported_value'
  | 'corrupt_row'
  | 'schema_too_new'
  | 'schema_outdated'
  | 'store_closed'
  | 'storage_error'
  | 'key_unavailable'
  | 'decryption_failed'
  | 'encryption_required'
  | 'invalid_audit_record'
  | 'audit_failed'
  | 'corrupt_audit_log'
  | 'audit_log_locked'
  | 'missing_dependency'
  | 'invalid_document'
  | 'invalid_provenance'
  | 'unsafe_output'
  | 'unscreened_result'
  | 'inbox_conflict';

/**
 * What every fallible call that does not throw returns (validation, wasm
 * replies): the value, or every issue found.
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** A wasm reply (`Outcome` JSON text): its value, or a `ToolResultError` with `code` and its issues. */
export function unwrapOutcome<T>(json: string, code: ToolResultErrorCode, message: string): T {
  const out = JSON.parse(json) as Outcome<T>;
  if (!out.ok) throw new ToolResultError(code, message, out.issues);
  return out.value;
}

/** A screen-module reply: its value, or the error its issues call for. */
export function unwrapScreenReply<T>(json: string, message: string): T {
  const out = JSON.parse(json) as Outcome<T>;
  if (out.ok) return out.value;
  const has = (code: string) => out.issues.some((i) => i.code === code);
  const code = has('invalid_utf8') ? 'invalid_input' : has('invalid_options') ? 'invalid_options' : 'invalid_value';
  throw new ToolResultError(code, message, out.issues);
}

/**
 * The one error type this package throws: a real `Error` with a stable `code`
 * and the list of `issues` (each with a JSON Pointer `path`, a `code` and a
 * `message`).
 */
export class ToolResultError extends Error {
  readonly code: ToolResultErrorCode;
  readonly issues: Issue[];

  constructor(code: ToolResultErrorCode, message: string, issues: Issue[] = []) {
    super(issues.length ? `${message}\n${formatIssues(issues)}` : message);
    this.name = 'ToolResultError';
    this.code = code;
    this.issues = issues;
  }
}

/** One line per issue: `path: message [code]`, the root shown as `(root)` (a long path cut by {@link briefText}). */
export function formatIssues(issues: readonly Issue[], limit = 20): string {
  const lines = issues.slice(0, limit).map((i) => `  ${i.path ? briefText(i.path) : '(root)'}: ${i.message} [${i.code}]`);
  if (issues.length > limit) lines.push(`  ... and ${issues.length - limit} more`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------
// Values in messages (docs/spec.md §15)

/**
 * Characters of a value a message quotes whole (`MESSAGE_QUOTE_CHARS` in the
 * Rust core, which quotes the same way): a longer value is quoted by its
 * first this many characters, `…` and its length, so an error about a 3 MB
 * string is a few hundred characters, not 3 MB.
 */
export const MESSAGE_QUOTE_CHARS: number = LIMITS.messageQuoteChars;

/** `String(value)`, or a stand-in when even that throws (a null-prototype object). */
function stringOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Code points in `s` (a pair of surrogates is one), as the Rust core counts characters. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The UTF-16 index after the first `n` code points of `s`. */
function afterCodePoints(s: string, n: number): number {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}

/** `3000000` → `3,000,000`. */
const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A cut JSON text without a partial escape (`\u00`) at its end. */
function wholeEscapes(text: string): string {
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) === 92) {
      const len = text[i + 1] === 'u' ? 6 : 2;
      if (i + len > text.length) return text.slice(0, i);
      i += len;
    } else {
      i++;
    }
  }
  return text;
}

/**
 * `value` for a message, as JSON (`JSON.stringify`; `String` for what JSON
 * cannot write): whole when that is at most {@link MESSAGE_QUOTE_CHARS}
 * characters, else the first ones, `…` and the length: `"aaaa…" (3,000,000
 * chars)` for a string, `{"data":"iVBO… (3,000,042 chars of JSON)` otherwise.
 * Every message that shows a value of the input shows it through this,
 * {@link quoteText} or {@link briefText}.
 */
export function quoteJson(value: unknown): string {
  if (typeof value === 'string') {
    const cut = value.slice(0, afterCodePoints(value, MESSAGE_QUOTE_CHARS));
    const json = JSON.stringify(cut);
    if (cut.length === value.length && codePoints(json) <= MESSAGE_QUOTE_CHARS) return json;
    return `${wholeEscapes(json.slice(0, afterCodePoints(json, MESSAGE_QUOTE_CHARS)))}…" (${thousands(codePoints(value))} chars)`;
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? stringOf(value);
  } catch {
    text = stringOf(value); // a BigInt, a cycle
  }
  if (text.length <= MESSAGE_QUOTE_CHARS) return text;
  const total = codePoints(text);
  if (total <= MESSAGE_QUOTE_CHARS) return text;
  return `${wholeEscapes(text.slice(0, afterCodePoints(text, MESSAGE_QUOTE_CHARS)))}… (${thousands(total)} chars of JSON)`;
}

/**
 * `String(value)` between two `mark`s for a message (none by default): whole
 * when it is at most {@link MESSAGE_QUOTE_CHARS} characters, else the first
 * ones, `…` and its length: `` `aaaa…` (3,000,000 chars) ``.
 */
export function quoteText(value: unknown, mark = ''): string {
  const text = typeof value === 'string' ? value : stringOf(value);
  if (text.length <= MESSAGE_QUOTE_CHARS) return `${mark}${text}${mark}`;
  const total = codePoints(text);
  if (total <= MESSAGE_QUOTE_CHARS) return `${mark}${text}${mark}`;
  return `${mark}${text.slice(0, afterCodePoints(text, MESSAGE_QUOTE_CHARS))}…${mark} (${thousands(total)} chars)`;
}

/**
 * Text that is not a value of its own but may hold one (a thrown error's
 * message, a JSON Pointer shown in a message): whole when it is at most
 * {@link MESSAGE_QUOTE_CHARS} characters, else its first and last halves of
 * that around how much was left out.
 */
export function briefText(text: string): string {
  if (text.length <= MESSAGE_QUOTE_CHARS) return text;
  const total = codePoints(text);
  if (total <= MESSAGE_QUOTE_CHARS) return text;
  const half = Math.floor(MESSAGE_QUOTE_CHARS / 2);
  const head = text.slice(0, afterCodePoints(text, half));
  const tail = text.slice(afterCodePoints(text, total - half));
  return `${head}… (${thousands(total - 2 * half)} chars left out) …${tail}`;
}

/**
 * Options are camelCase (wire fields stay snake_case): an option given in its
 * old snake_case spelling is refused with an error naming the new one, never
 * silently ignored.
 */
export function refuseSnakeCaseOptions(options: unknown, where: string, renamed: Readonly<Record<string, string>> = { dialog_id: 'dialogId' }): void {
  if (options === null || typeof options !== 'object') return;
  for (const [old, now] of Object.entries(renamed)) {
    if (Object.hasOwn(options, old)) {
      throw new ToolResultError('invalid_options', `${where} takes ${now} (options are camelCase), not ${old}`, [
        { path: `/${old}`, code: 'invalid_options', message: `use ${now}` },
      ]);
    }
  }
}

/** Edit distance of two short strings, to suggest the option a misspelt key meant. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/**
 * Refuses an options argument that is not a plain options object, and every
 * key in it that `where` does not take (`invalid_options`, one issue per key
 * at its JSON Pointer under `path`): a misspelt option (`encrypton`) would
 * otherwise be ignored, and the store would run without it. A snake_case
 * spelling of a known option, or a near miss, is named in the message.
 * `undefined` passes (the defaults apply).
 */
export function refuseUnknownOptions(options: unknown, known: readonly string[], where: string, path = ''): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    const got = options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options;
    const message = `${where} takes an options object (${known.join(', ')}), not ${got}`;
    throw new ToolResultError('invalid_options', message, [{ path, code: 'invalid_options', message }]);
  }
  const issues: Issue[] = [];
  const names: string[] = [];
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    names.push(quoteText(key, '`'));
    const camel = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const near =
      known.find((k) => k === camel) ??
      (key.length <= 40 ? known.find((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= Math.min(2, Math.floor(k.length / 3))) : undefined);
    const hint = near === undefined ? `it takes ${known.join(', ')}` : `did you mean ${near}?`;
    const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    issues.push({ path: at, code: 'invalid_options', message: `unknown option ${quoteText(key, '`')}: ${hint}` });
  }
  if (issues.length) throw new ToolResultError('invalid_options', `${where}: unknown option${names.length > 1 ? 's' : ''} ${names.join(', ')}`, issues);
}
