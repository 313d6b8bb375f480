// get_tool_result in pieces (docs/spec.md §12; docs/guide/storage.md "Lazy loading"): a
// stored result is read back by lines, by characters, by pattern or by JSON
// Pointer, every answer within a context budget and saying what it holds and
// how to ask for the next piece. One implementation behind the tool's
// handler, the MCP result resources and the HTTP endpoint.
import { sha256Hex } from './bound.js';
import { type ContextBudget, estimateTokens } from './budget.js';
import { ToolResultError, unwrapOutcome, quoteJson, quoteText } from './errors.js';
import type { ToolResult } from './generated/types.js';
import { schemaEngine } from './runtime.js';

/** What a model may ask of a stored result (every field but the id optional). */
export interface ToolResultRequest {
  tool_call_id: string;
  /** First line to return, 1-based. */
  offset?: number;
  /** Most lines to return. */
  limit?: number;
  /** First character to return (UTF-16 code units, 0-based): for outputs of few, long lines. */
  char_offset?: number;
  /** Most characters to return. */
  char_limit?: number;
  /** A regular expression (linear-time engine): lines that match, with context. */
  pattern?: string;
  /** Lines of context around each match (default 2, at most 10). */
  context?: number;
  /** Fold case when matching. */
  ignore_case?: boolean;
  /** A JSON Pointer into a JSON output (`/items/3/name`). */
  path?: string;
}

/** One piece of a stored result. `text` is an exact slice of the output text (grep pages: numbered lines). */
export interface ToolResultPage {
  tool_call_id: string;
  tool_name: string;
  status: string;
  /** What this page is: a line range, a character range, pattern matches, or one JSON member. */
  kind: 'lines' | 'chars' | 'matches' | 'member';
  text: string;
  /** Lines held, 1-based and inclusive, of `total` (line and match pages). */
  lines?: { from: number; to: number; total: number };
  /** Characters held, `[from, to)` in UTF-16 code units, of `total`. */
  chars?: { from: number; to: number; total: number };
  /** Matches shown and in all (pattern pages). */
  matches?: { shown: number; total: number };
  /** The JSON Pointer this page reads inside (member pages, and pages of a member). */
  path?: string;
  /** True when nothing of what was asked for lies after this page. */
  complete: boolean;
  /** The arguments of the call that reads the next piece. */
  next?: ToolResultRequest;
  /** One sentence for the model: what this holds and how to read on. */
  note: string;
  /** sha256 of the whole output text. */
  sha256: string;
}

/** An answer to a request it cannot serve (a pointer that does not resolve, a bad pattern, an offset past the end). */
export interface ToolResultRequestError {
  tool_call_id: string;
  error: string;
  /** Lines and characters of the output, so the next request can be right. */
  total_lines: number;
  total_chars: number;
}

/** What `get_tool_result` answers when the result is found. */
export type ToolResultAnswer = { found: true; result: ToolResult } | { found: true; page: ToolResultPage } | { found: true; invalid: ToolResultRequestError };

/** The default budget of one `get_tool_result` answer: 8,000 characters. */
export const DEFAULT_PAGE_BUDGET: ContextBudget = { maxChars: 8_000 };

const MAX_CONTEXT = 10;

/**
 * The text a result is paged through: a string output as itself; content
 * blocks' text (when there is no output); any other output as JSON indented
 * by two spaces, so it has lines to page by.
 */
export function pageableText(result: ToolResult): string {
  const out = result.output;
  if (typeof out === 'string') return out;
  if ((out === undefined || out === null) && result.content && result.content.length > 0) {
    return result.content
      .map((b) => {
        const t = (b as { text?: unknown }).text;
        return b.type === 'text' && typeof t === 'string' ? t : JSON.stringify(b);
      })
      .join('\n');
  }
  if (out === undefined || out === null) return result.error_message ?? '';
  return JSON.stringify(out, null, 2);
}

interface Measure {
  fits(answer: unknown): boolean;
  /** Characters the budget allows, before tokens are counted. */
  chars: number;
}

function measure(budget: ContextBudget): Measure {
  const chars = Math.min(
    budget.maxChars ?? Number.POSITIVE_INFINITY,
    budget.maxBytes ?? Number.POSITIVE_INFINITY,
    budget.maxTokens !== undefined ? budget.maxTokens * 4 : Number.POSITIVE_INFINITY,
  );
  for (const key of ['maxChars', 'maxBytes', 'maxTokens'] as const) {
    const v = budget[key];
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 500)) {
      throw new ToolResultError('invalid_options', `a page budget's ${key} must be a whole number >= 500`, [
        { path: `/budget/${key}`, code: 'invalid_options', message: `${key} must be a whole number >= 500, got ${quoteText(v)}` },
      ]);
    }
  }
  const count = budget.countTokens ?? estimateTokens;
  const enc = new TextEncoder();
  return {
    chars: Number.isFinite(chars) ? chars : 8_000,
    fits(answer) {
      const json = JSON.stringify(answer);
      if (budget.maxChars !== undefined && [...json].length > budget.maxChars) return false;
      if (budget.maxBytes !== undefined && enc.encode(json).length > budget.maxBytes) return false;
      if (budget.maxTokens !== undefined && count(json) > budget.maxTokens) return false;
      return true;
    },
  };
}

/** Line starts (UTF-16 offsets) of `text`, split at `\n`. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

const escapedLength = (s: string) => JSON.stringify(s).length - 2;

/** An offset moved back off the second half of a surrogate pair. */
function safeOffset(text: string, i: number): number {
  if (i > 0 && i < text.length) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) return i - 1;
  }
  return i;
}

function wholeNumber(v: unknown, name: string, min: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be a whole number >= ${min}, got ${quoteJson(v)}`);
  return v;
}

function resolvePointer(value: unknown, pointer: string): { ok: true; value: unknown } | { ok: false; why: string } {
  if (pointer === '') return { ok: true, value };
  if (!pointer.startsWith('/')) return { ok: false, why: `"${pointer}" is not a JSON Pointer (it must start with "/", e.g. "/items/0")` };
  let at: unknown = value;
  let walked = '';
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(key) || Number(key) >= at.length)
        return { ok: false, why: `${walked || 'the output'} is an array of ${at.length} items; ${quoteJson(raw)} is not an index in it` };
      at = at[Number(key)];
    } else if (at !== null && typeof at === 'object') {
      if (!Object.hasOwn(at, key)) {
        const keys = Object.keys(at).slice(0, 20);
        return {
          ok: false,
          why: `${walked || 'the output'} has no member ${quoteJson(key)} (it has: ${keys.map((k) => quoteJson(k)).join(', ')}${Object.keys(at).length > 20 ? ', …' : ''})`,
        };
      }
      at = (at as Record<string, unknown>)[key];
    } else {
      return { ok: false, why: `${walked || 'the output'} is ${at === null ? 'null' : typeof at}, not an object or array` };
    }
    walked += `/${raw}`;
  }
  return { ok: true, value: at };
}

/**
 * One answer to `request` about `result`, within `budget` (default 8,000
 * characters of JSON answer): the whole result when it fits and no piece was
 * asked for; else the piece asked for (lines, characters, pattern matches,
 * a JSON member), as much of it as fits, with `next` for the rest. A request
 * it cannot serve gets `{ invalid: { error } }`, never a throw.
 */
export function pageToolResult(result: ToolResult, request: ToolResultRequest, budget: ContextBudget = DEFAULT_PAGE_BUDGET): ToolResultAnswer {
  const m = measure(budget);
  const id = request.tool_call_id;
  const whole = { found: true as const, result };
  const asksPiece = ['offset', 'limit', 'char_offset', 'char_limit', 'pattern', 'path'].some(
    (k) => (request as unknown as Record<string, unknown>)[k] !== undefined && (request as unknown as Record<string, unknown>)[k] !== null,
  );
  if (!asksPiece && m.fits(whole)) return whole;

  let text = pageableText(result);
  let path: string | undefined;
  const base = { tool_call_id: id, tool_name: result.input.tool_name, status: result.status };
  const fail = (error: string): ToolResultAnswer => {
    const starts = lineStarts(text);
    return { found: true, invalid: { tool_call_id: id, error, total_lines: starts.length, total_chars: text.length } };
  };
  let offset: number | undefined;
  let limit: number | undefined;
  let charOffset: number | undefined;
  let charLimit: number | undefined;
  let context: number;
  try {
    offset = wholeNumber(request.offset, 'offset', 1);
    limit = wholeNumber(request.limit, 'limit', 1);
    charOffset = wholeNumber(request.char_offset, 'char_offset', 0);
    charLimit = wholeNumber(request.char_limit, 'char_limit', 1);
    context = Math.min(wholeNumber(request.context, 'context', 0) ?? 2, MAX_CONTEXT);
  } catch (e) {
    return fail((e as Error).message);
  }
  if (request.path !== undefined && request.path !== null) {
    if (typeof request.path !== 'string') return fail('path must be a JSON Pointer string such as "/items/0"');
    const output = result.output;
    if (typeof output === 'string' || output === undefined || output === null)
      return fail('path reads inside a JSON output; this output is text: page it by offset and limit, or search it with pattern');
    const found = resolvePointer(output, request.path);
    if (!found.ok) return fail(`path ${quoteText(request.path)} does not resolve: ${found.why}`);
    path = request.path;
    const member = {
      found: true as const,
      page: {
        ...base,
        kind: 'member' as const,
        path,
        text: typeof found.value === 'string' ? found.value : JSON.stringify(found.value, null, 2),
        complete: true,
        note: `The member at ${path}, whole.`,
        sha256: '',
      },
    };
    text = member.page.text;
    if (offset === undefined && charOffset === undefined && request.pattern === undefined) {
      member.page.sha256 = sha256Hex(pageableText(result));
      if (m.fits(member)) return member;
    }
  }
  const sha256 = sha256Hex(pageableText(result));
  const starts = lineStarts(text);
  const totalLines = starts.length;
  const lineEnd = (n: number) => (n < totalLines ? starts[n] - 1 : text.length); // end of line n (1-based), before its \n
  const withPath = <T extends ToolResultRequest>(r: T): T => (path !== undefined ? { ...r, path } : r);

  if (request.pattern !== undefined && request.pattern !== null) {
    if (typeof request.pattern !== 'string' || request.pattern === '') return fail('pattern must be a non-empty regular expression');
    const from = offset ?? 1;
    if (from > totalLines) return fail(`offset ${from} is past the end: the output has ${totalLines} lines`);
    let found: { lines: number[]; total: number };
    try {
      found = unwrapOutcome<{ lines: number[]; total: number }>(
        schemaEngine.call((w) =>
          (w as unknown as { grep_lines: (t: string, p: string, f: number, m: number, i: boolean) => string }).grep_lines(
            text,
            request.pattern as string,
            from,
            1000,
            request.ignore_case === true,
          ),
        ),
        'invalid_options',
        'invalid pattern',
      );
    } catch (e) {
      if (e instanceof ToolResultError && e.code !== 'not_initialized' && e.code !== 'internal_trap') return fail(e.issues[0]?.message ?? e.message);
      throw e;
    }
    if (found.total === 0)
      return fail(`no line${from > 1 ? ` from line ${from} on` : ''} matches ${quoteJson(request.pattern)}; the output has ${totalLines} lines`);
    // Matches with their context, grep -n style (`12:` a match, `11-` context, `--` between groups).
    const page = {
      found: true as const,
      page: {
        ...base,
        kind: 'matches' as const,
        ...(path !== undefined ? { path } : {}),
        text: '',
        lines: { from: found.lines[0], to: found.lines[0], total: totalLines },
        matches: { shown: 0, total: found.total },
        complete: false,
        next: undefined as ToolResultRequest | undefined,
        note: '',
        sha256,
      },
    };
    const out: string[] = [];
    let lastShown = 0;
    let shown = 0;
    const matchSet = new Set(found.lines);
    for (const line of found.lines) {
      const group: string[] = [];
      const lo = Math.max(from, line - context, lastShown + 1);
      const hi = Math.min(totalLines, line + context);
      if (lastShown > 0 && lo > lastShown + 1) group.push('--');
      for (let n = lo; n <= hi; n++) group.push(`${n}${matchSet.has(n) ? ':' : '-'}${text.slice(starts[n - 1], lineEnd(n))}`);
      const candidate = [...out, ...group].join('\n');
      page.page.text = candidate;
      page.page.lines.to = hi;
      page.page.matches.shown = shown + 1;
      if (!m.fits({ ...page, page: { ...page.page, note: 'x'.repeat(200), next: withPath({ tool_call_id: id, pattern: request.pattern, offset: hi + 1 }) } })) {
        page.page.lines.to = lastShown || line;
        break;
      }
      out.push(...group);
      lastShown = hi;
      shown++;
    }
    if (shown === 0) {
      // One match line too long for the budget: read it by characters.
      const line = found.lines[0];
      return pageToolResult(result, withPath({ tool_call_id: id, char_offset: starts[line - 1] }), budget);
    }
    page.page.text = out.join('\n');
    page.page.matches.shown = found.lines.filter((n) => n <= lastShown).length;
    page.page.lines.to = lastShown;
    const rest = found.total - page.page.matches.shown;
    page.page.complete = rest === 0;
    if (!page.page.complete)
      page.page.next = withPath({
        tool_call_id: id,
        pattern: request.pattern,
        ...(request.ignore_case ? { ignore_case: true } : {}),
        ...(request.context !== undefined ? { context } : {}),
        offset: lastShown + 1,
      });
    page.page.note = `${page.page.matches.shown} of ${found.total} matching lines${from > 1 ? ` from line ${from}` : ''} (\`N:\` a match, \`N-\` context)${rest > 0 ? `; call get_tool_result with offset ${lastShown + 1} and the same pattern for the next ${rest}` : ''}.`;
    return page;
  }

  if (charOffset !== undefined) {
    if (charOffset > text.length || (charOffset === text.length && text.length > 0))
      return fail(`char_offset ${charOffset} is past the end: the output has ${text.length} characters`);
    const from = safeOffset(text, charOffset);
    const cap = charLimit !== undefined ? Math.min(text.length, from + charLimit) : text.length;
    return charPage(text, from, cap, base, path, sha256, starts, m, id);
  }

  const first = offset ?? 1;
  if (first > totalLines) return fail(`offset ${first} is past the end: the output has ${totalLines} lines`);
  const lastAsked = limit !== undefined ? Math.min(totalLines, first + limit - 1) : totalLines;
  const build = (to: number) => {
    const complete = to >= lastAsked;
    const endsOutput = to >= totalLines;
    const slice = text.slice(starts[first - 1], to >= totalLines ? text.length : starts[to]);
    const next = endsOutput
      ? undefined
      : withPath({ tool_call_id: id, offset: to + 1, ...(limit !== undefined && !complete ? { limit: lastAsked - to } : {}) });
    const note = `Lines ${first}–${to} of ${totalLines}${path ? ` of the member at ${path}` : ''}${endsOutput ? ' (the end)' : `; call get_tool_result with offset ${to + 1} for the next lines`}.`;
    return {
      found: true as const,
      page: {
        ...base,
        kind: 'lines' as const,
        ...(path !== undefined ? { path } : {}),
        text: slice,
        lines: { from: first, to, total: totalLines },
        chars: { from: starts[first - 1], to: starts[first - 1] + slice.length, total: text.length },
        complete: complete || endsOutput,
        ...(next ? { next } : {}),
        note,
        sha256,
      },
    };
  };
  // Grow the page a line at a time by escaped length, then check the whole answer.
  // The room is what the answer without any line leaves (measured: a fixed guess
  // left nothing of a budget near the 500 floor), less a little for the numbers.
  let room = m.chars - (JSON.stringify(build(first - 1)).length + 64);
  let last = first - 1;
  for (let n = first; n <= lastAsked; n++) {
    const cost = escapedLength(text.slice(starts[n - 1], lineEnd(n))) + 2;
    if (cost > room) break;
    room -= cost;
    last = n;
  }
  while (last >= first) {
    const page = build(last);
    if (m.fits(page)) return page;
    last -= Math.max(1, Math.ceil((last - first + 1) / 8));
  }
  // Not even line `first` fits: read it by characters.
  return charPage(text, starts[first - 1], text.length, base, path, sha256, starts, m, id);
}

function charPage(
  text: string,
  from: number,
  cap: number,
  base: { tool_call_id: string; tool_name: string; status: string },
  path: string | undefined,
  sha256: string,
  starts: number[],
  m: Measure,
  id: string,
): ToolResultAnswer {
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const build = (to: number) => {
    const slice = text.slice(from, to);
    const endsOutput = to >= text.length;
    const endsAtLine = !endsOutput && text[to - 1] === '\n';
    const next = endsOutput
      ? undefined
      : endsAtLine
        ? { tool_call_id: id, offset: lineOf(to), ...(path !== undefined ? { path } : {}) }
        : { tool_call_id: id, char_offset: to, ...(path !== undefined ? { path } : {}) };
    const note = `Characters ${from}–${to} of ${text.length} (lines ${lineOf(from)}–${lineOf(Math.max(from, to - 1))} of ${starts.length})${endsOutput ? ' (the end)' : `; call get_tool_result with ${endsAtLine ? `offset ${lineOf(to)}` : `char_offset ${to}`} for what follows`}.`;
    return {
      found: true as const,
      page: {
        ...base,
        kind: 'chars' as const,
        ...(path !== undefined ? { path } : {}),
        text: slice,
        chars: { from, to, total: text.length },
        complete: to >= cap,
        ...(next ? { next } : {}),
        note,
        sha256,
      },
    };
  };
  // Escaped characters cost more in the answer: the longest slice whose
  // escaped length fits the room (every character costs at least one).
  const room = m.chars - (JSON.stringify(build(from)).length + 64);
  let lo = from;
  let hi = Math.min(cap, from + Math.max(0, room));
  while (lo < hi) {
    let mid = (lo + hi + 1) >> 1;
    // Never between the halves of a surrogate pair: step past it, or back.
    if (safeOffset(text, mid) !== mid) mid = mid + 1 <= hi ? mid + 1 : mid - 1;
    if (mid <= lo) break;
    if (escapedLength(text.slice(from, mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  let to = lo;
  // Prefer to end at a line break when one is in the second half of the page.
  const nl = text.lastIndexOf('\n', to - 1);
  if (to < cap && nl >= from + (to - from) / 2) to = nl + 1;
  while (to > from) {
    const page = build(to);
    if (m.fits(page)) return page;
    to = safeOffset(text, to - Math.max(1, Math.ceil((to - from) / 8)));
  }
  return {
    found: true,
    invalid: { tool_call_id: id, error: 'the budget is too small for any of this output; raise it', total_lines: starts.length, total_chars: text.length },
  };
}
