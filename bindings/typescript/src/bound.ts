// Bounding outputs (docs/spec.md §10, §12; docs/bounding.md): sha256 provenance,
// truncation that keeps JSON valid, line caps for text streams, previews.
import { ToolResultError, unwrapOutcome, quoteText } from './errors.js';
import { LIMITS } from './generated/limits.js';
import { writeInput } from './input.js';
import { call, platform } from './runtime.js';
import { isWellFormed, setMember, toWireCopy } from './wire.js';

/** Default output limit: 10 MiB (docs/spec.md §10). */
export const DEFAULT_MAX_OUTPUT_BYTES: number = LIMITS.defaultMaxOutputBytes;
/** Default line cap for stdout / stderr (docs/bounding.md). */
export const DEFAULT_MAX_LINES: number = LIMITS.defaultMaxLines;
/** Default preview length in characters (docs/spec.md §12). */
export const DEFAULT_PREVIEW_CHARS: number = LIMITS.defaultPreviewChars;

/** What `truncateOutput` returns. */
export interface TruncatedOutput<T> {
  /** The output, cut to fit when it did not (still valid JSON for JSON input). */
  output: T;
  /** True when the output was cut. */
  output_truncated: boolean;
  /** Bytes of the full output: UTF-8 text, or compact JSON. */
  original_size: number;
  /** Bytes of `output` as returned. */
  size: number;
  /** sha256 (lowercase hex) of the full output's bytes. */
  sha256: string;
}

function unwrap<T>(json: string, what: string): T {
  return unwrapOutcome<T>(json, 'invalid_output', `invalid ${what}`);
}

function limit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ToolResultError('invalid_options', `${name} must be a whole number >= 0`, [
      { path: `/${name}`, code: 'invalid_options', message: `${name} must be a whole number >= 0, got ${quoteText(value)}` },
    ]);
  }
  return value;
}

function checkText(text: string, what: string): void {
  if (!isWellFormed(text)) {
    throw new ToolResultError('invalid_output', `${what} holds a lone UTF-16 surrogate`, [
      { path: '', code: 'lone_surrogate', message: 'a lone UTF-16 surrogate has no UTF-8 form' },
    ]);
  }
}

/**
 * sha256 as lowercase hex. Strings are hashed as UTF-8, exactly as Node's
 * `crypto.createHash('sha256').update(string)` does (lone surrogates become
 * U+FFFD there and here). The Node build hashes with `node:crypto`.
 */
export function sha256Hex(input: string | Uint8Array): string {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
    throw new ToolResultError('invalid_output', 'sha256Hex takes a string or a Uint8Array');
  }
  if (platform.sha256Hex) return platform.sha256Hex(input);
  return call((w) => w.sha256_input(writeInput(w, input)));
}

/** Where the core cuts a text (the text itself stays on this side). */
interface TextCut {
  keep_utf16: number;
  note: string;
  output_truncated: boolean;
  original_size: number;
  size: number;
  sha256: string | null;
}

/**
 * Bounds an output to `maxBytes` (default 10 MiB). A string is text: it keeps
 * its first 95 % of the limit, never splitting a character, plus a note of
 * what is missing. Any other value is JSON: its compact form is cut to 95 %
 * of the limit and stays valid JSON — long strings end with `…[+N bytes]`,
 * arrays end with a `"…[+N items]"` item, objects gain a `"…": "[+N keys]"`
 * entry. The result records whether it was cut, the original size and the
 * sha256 of the full output. Sizes are UTF-8 bytes of the output as
 * `JSON.stringify` writes it (docs/bounding.md).
 */
export function truncateOutput<T>(output: T, options: { maxBytes?: number } = {}): TruncatedOutput<T> {
  const maxBytes = limit('maxBytes', options.maxBytes, DEFAULT_MAX_OUTPUT_BYTES);
  const native = platform.sha256Hex;
  if (typeof output === 'string') {
    checkText(output, 'the output');
    if (native && platform.utf8Length) return truncateMeasuredText(output, maxBytes, platform.utf8Length(output), native) as TruncatedOutput<T>;
    const cut = unwrap<TextCut>(
      call((w) => w.truncate_text_input(writeInput(w, output), maxBytes, !native)),
      'text output',
    );
    return {
      output: (cut.output_truncated ? output.slice(0, cut.keep_utf16) + cut.note : output) as T,
      output_truncated: cut.output_truncated,
      original_size: cut.original_size,
      size: cut.size,
      sha256: cut.sha256 ?? (native as (input: string) => string)(output),
    };
  }
  // The bytes of JSON.stringify(output): sizes and sha256 are of that text.
  // The copy, made from the same reads, is what the cut applies to: the
  // core says where it cut, and the output text never has to be parsed back.
  const wire = toWireCopy(output, { maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: LIMITS.maxDepthCeiling, minusZeroAsZero: true });
  if (wire.issues) throw new ToolResultError('invalid_output', 'the output is not JSON data', wire.issues);
  const bytes = wire.bytes;
  // Sizes come from the text's own tokens (numbers as JavaScript wrote
  // them), so no re-measuring is needed here.
  const r = unwrap<Omit<TruncatedOutput<T>, 'output'> & { steps: CutStep[] }>(
    call((w) => w.truncate_json_steps(writeInput(w, bytes), maxBytes, !native)),
    'JSON output',
  );
  return {
    output: (r.steps.length === 0 ? wire.copy : applyCut(wire.copy, r.steps, 0)) as T,
    output_truncated: r.output_truncated,
    original_size: r.original_size,
    size: r.size,
    sha256: native ? native(bytes) : r.sha256,
  };
}

/**
 * Where the core cut a JSON value (crates/toolresult-wasm, `truncate_json_steps`):
 * `['a', keep, item]` an array, `['o', keep, key, value]` an object (`null`s
 * when nothing was left out), `['s', keepUtf16, marker]` a string, `['r',
 * marker]` replaced whole. Each step after the first applies to the last
 * member the one before kept.
 */
type CutStep = ['a', number, string | null] | ['o', number, string | null, string | null] | ['s', number, string] | ['r', string];

/** The value `v` (our own copy) cut as `steps[i..]` say. */
function applyCut(v: unknown, steps: CutStep[], i: number): unknown {
  const step = steps[i];
  const deeper = i + 1 < steps.length;
  switch (step[0]) {
    case 'r':
      return step[1];
    case 's':
      return (v as string).slice(0, step[1]) + step[2];
    case 'a': {
      const out = (v as unknown[]).slice(0, step[1]);
      if (deeper) out[step[1] - 1] = applyCut(out[step[1] - 1], steps, i + 1);
      if (step[2] !== null) out.push(step[2]);
      return out;
    }
    default: {
      const source = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      let kept = 0;
      let last = '';
      for (const key in source) {
        if (!hasOwn.call(source, key)) continue;
        if (kept === step[1]) break;
        setMember(out, key, source[key]);
        last = key;
        kept++;
      }
      if (deeper) setMember(out, last, applyCut(out[last], steps, i + 1));
      if (step[2] !== null) setMember(out, step[2], step[3]);
      return out;
    }
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

const encoder = new TextEncoder();
let scratch = new Uint8Array(0);

/**
 * Text truncation where the host measures UTF-8 natively (Node): the core
 * gives the budget and the note, and the text is never copied into wasm. The
 * kept prefix is what `encodeInto` fits in the budget: whole characters only,
 * the same cut as the core's own (docs/bounding.md).
 */
function truncateMeasuredText(text: string, maxBytes: number, total: number, hash: (input: string) => string): TruncatedOutput<string> {
  let keep = total;
  let keepUtf16 = text.length;
  if (total > maxBytes) {
    const budget = call((w) => w.text_keep_budget(maxBytes));
    if (scratch.length < budget) scratch = new Uint8Array(budget);
    const measured = encoder.encodeInto(text, scratch.subarray(0, budget));
    keep = measured.written;
    keepUtf16 = measured.read;
  }
  const cut = unwrap<Omit<TextCut, 'keep_utf16' | 'sha256'>>(
    call((w) => w.text_cut(keep, total, maxBytes)),
    'text output',
  );
  return {
    output: cut.output_truncated ? text.slice(0, keepUtf16) + cut.note : text,
    output_truncated: cut.output_truncated,
    original_size: cut.original_size,
    size: cut.size,
    sha256: hash(text),
  };
}

/**
 * `maxLines` lines (default 200) of a text stream such as stdout, with a
 * note naming how many lines were dropped: by default the first 40 % and the
 * last 60 % of them with the note between (`keep: 'head-tail'`: a run's
 * failure is at its end), or the first ones (`keep: 'head'`).
 */
export function capLines(text: string, options: { maxLines?: number; keep?: 'head' | 'head-tail' } = {}): { text: string; dropped_lines: number } {
  const maxLines = limit('maxLines', options.maxLines, DEFAULT_MAX_LINES);
  const keep = options.keep ?? 'head-tail';
  if (keep !== 'head' && keep !== 'head-tail') {
    throw new ToolResultError('invalid_options', `keep must be 'head' or 'head-tail', got ${quoteText(keep)}`, [
      { path: '/keep', code: 'invalid_options', message: `keep must be 'head' or 'head-tail', got ${quoteText(keep)}` },
    ]);
  }
  checkText(text, 'the text');
  return JSON.parse(call((w) => w.cap_lines(text, maxLines, keep === 'head')));
}

/**
 * The complete lines of `text` that fit in `maxChars` characters (Unicode code
 * points; default 500), never a line cut in the middle. A single first line
 * longer than that is cut at a character and marked `… (line truncated)`.
 */
export function previewText(text: string, options: { maxChars?: number } = {}): { text: string; truncated: boolean } {
  const maxChars = limit('maxChars', options.maxChars, DEFAULT_PREVIEW_CHARS);
  checkText(text, 'the text');
  return JSON.parse(call((w) => w.preview_text(text, maxChars)));
}
