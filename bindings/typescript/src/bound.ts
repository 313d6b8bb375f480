// Bounding outputs (seed 000 §5.2, seed 002, seed 003): sha256 provenance,
// truncation that keeps JSON valid, line caps for text streams, previews.
import { ToolResultError, unwrapOutcome } from './errors.js';
import { writeInput } from './input.js';
import { call } from './runtime.js';
import { toWireText } from './wire.js';

/** Default output limit: 10 MiB (seed 000 §5.2). */
export const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
/** Default line cap for stdout / stderr (seed 002). */
export const DEFAULT_MAX_LINES = 200;
/** Default preview length in characters (seed 003). */
export const DEFAULT_PREVIEW_CHARS = 500;

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
      { path: `/${name}`, code: 'invalid_options', message: `${name} must be a whole number >= 0, got ${String(value)}` },
    ]);
  }
  return value;
}

function checkText(text: string, what: string): void {
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (wellFormed ? !wellFormed.call(text) : /[\uD800-\uDFFF]/.test(text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))) {
    throw new ToolResultError('invalid_output', `${what} holds a lone UTF-16 surrogate`, [
      { path: '', code: 'lone_surrogate', message: 'a lone UTF-16 surrogate has no UTF-8 form' },
    ]);
  }
}

/**
 * sha256 as lowercase hex. Strings are hashed as UTF-8, exactly as Node's
 * `crypto.createHash('sha256').update(string)` does (lone surrogates become
 * U+FFFD there and here).
 */
export function sha256Hex(input: string | Uint8Array): string {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
    throw new ToolResultError('invalid_output', 'sha256Hex takes a string or a Uint8Array');
  }
  return call((w) => w.sha256_input(writeInput(w, input)));
}

/**
 * Bounds an output to `maxBytes` (default 10 MiB). A string is text: it keeps
 * its first 95 % of the limit, never splitting a character, plus a note of
 * what is missing. Any other value is JSON: its compact form is cut to 95 %
 * of the limit and stays valid JSON — long strings end with `…[+N bytes]`,
 * arrays end with a `"…[+N items]"` item, objects gain a `"…": "[+N keys]"`
 * entry. The result records whether it was cut, the original size and the
 * sha256 of the full output.
 */
export function truncateOutput<T>(output: T, options: { maxBytes?: number } = {}): TruncatedOutput<T> {
  const maxBytes = limit('maxBytes', options.maxBytes, DEFAULT_MAX_OUTPUT_BYTES);
  if (typeof output === 'string') {
    checkText(output, 'the output');
    return unwrap(call((w) => w.truncate_text_input(writeInput(w, output), maxBytes)), 'text output');
  }
  const wire = toWireText(output, { maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: 128 });
  if (wire.issues) throw new ToolResultError('invalid_output', 'the output is not JSON data', wire.issues);
  const text = wire.text;
  // The core measures numbers as Rust writes them; JavaScript may write a few
  // more bytes (0.000001 vs 1e-6). Measure as JS does, and cut tighter if needed.
  let budget = maxBytes;
  for (;;) {
    const r = unwrap<TruncatedOutput<T>>(call((w) => w.truncate_json_input(writeInput(w, text), budget)), 'JSON output');
    r.size = encoder.encode(JSON.stringify(r.output)).length;
    r.output_truncated = r.output_truncated || r.size > maxBytes;
    if (r.size <= Math.max(maxBytes, 64) || budget <= 64) return r;
    budget = Math.max(64, budget - (r.size - maxBytes) - 8);
  }
}

const encoder = new TextEncoder();

/**
 * The first `maxLines` lines (default 200) of a text stream such as stdout,
 * with a note naming how many lines were dropped.
 */
export function capLines(text: string, options: { maxLines?: number } = {}): { text: string; dropped_lines: number } {
  const maxLines = limit('maxLines', options.maxLines, DEFAULT_MAX_LINES);
  checkText(text, 'the text');
  return JSON.parse(call((w) => w.cap_lines(text, maxLines)));
}

/**
 * The complete lines of `text` that fit in `maxChars` characters (Unicode code
 * points; default 500), never a line cut in the middle. A single first line
 * longer than that is cut at a character and marked `… (line truncated)`.
 */
export function preview(text: string, options: { maxChars?: number } = {}): { text: string; truncated: boolean } {
  const maxChars = limit('maxChars', options.maxChars, DEFAULT_PREVIEW_CHARS);
  checkText(text, 'the text');
  return JSON.parse(call((w) => w.preview(text, maxChars)));
}
