// Turning JS input into the JSON text the wasm core reads, without letting a
// value change on the way: what JSON.stringify would drop or rewrite silently
// (NaN, undefined in arrays, functions, Dates, Maps, cycles, -0) is an issue.
import { ToolResultError, type ToolResultErrorCode, briefText } from './errors.js';
import type { Issue, ToolResult } from './generated/types.js';
import { LIMITS } from './generated/limits.js';

export interface WireLimits {
  maxBytes: number;
  maxDepth: number;
  /** Write -0 as `0`, as JSON.stringify does (bounding hashes that form); by default `-0` is kept. */
  minusZeroAsZero?: boolean;
}

export type Wire = { text: string; issues?: undefined } | { text?: undefined; issues: Issue[] };

function pointer(path: readonly (string | number)[]): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return 'a BigInt';
  const proto = Object.getPrototypeOf(value);
  const name = proto && typeof proto.constructor === 'function' ? proto.constructor.name : '';
  return name ? `a ${name}` : 'an object with a custom prototype';
}

function hint(value: unknown): string {
  if (value instanceof Date) return '; convert it with toISOString()';
  if (typeof value === 'bigint') return '; send it as a string';
  if (value instanceof Map) return '; convert it with Object.fromEntries()';
  if (value instanceof Set) return '; convert it with Array.from()';
  return '';
}

class WireError {
  constructor(readonly issue: Issue) {}
}

const hasOwn = Object.prototype.hasOwnProperty;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What `toWireBytes` returns: UTF-8 JSON text, or why the value is not JSON data. */
export type WireBytes = { bytes: Uint8Array; issues?: undefined } | { bytes?: undefined; issues: Issue[] };

/**
 * Writes a value's JSON text as UTF-8 into one growing byte buffer: no JS
 * string per token and no rope to flatten (6× faster than building a string
 * on a 7 MB value; docs/bounding.md §3). One instance is reused between calls;
 * a getter that calls back into the package while a value is being written
 * gets a fresh one.
 */
class ByteWriter {
  buf = new Uint8Array(1 << 12);
  pos = 0;
  busy = false;
  limits: WireLimits = { maxBytes: 0, maxDepth: 0 };
  // The containers and keys being walked, indexed by depth; the path is only
  // built for an issue, and a cycle is only looked for once the walk has gone
  // past the depth limit (a cycle always does).
  containers: object[] = [];
  keys: (string | number)[] = [];
  // How many entries of `keys` lead to the value being read now.
  at = 0;
  // Also build a copy of the value as JSON.parse would give it back (see `toWireCopy`).
  copying = false;

  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let capacity = this.buf.length * 2;
    while (capacity < this.pos + n) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
  }

  fail(code: Issue['code'], message: string, depth: number): never {
    throw new WireError({ path: pointer(this.keys.slice(0, depth)), code, message });
  }

  ascii(s: string): void {
    const n = s.length;
    this.reserve(n);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) b[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** A string token: ASCII without escapes byte by byte, the rest through JSON.stringify + encodeInto. */
  string(s: string): void {
    const n = s.length;
    // UTF-8 takes at least a byte per UTF-16 unit: refuse before copying.
    if (this.pos + n + 2 > this.limits.maxBytes) this.tooLarge();
    this.reserve(n + 2);
    const b = this.buf;
    const start = this.pos;
    let p = start;
    b[p++] = 34;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80 && c >= 0x20 && c !== 34 && c !== 92) {
        b[p++] = c;
        continue;
      }
      // JSON.stringify escapes as serde_json does and writes lone surrogates
      // as \uXXXX, which the core's parser reports with their path.
      const quoted = JSON.stringify(s);
      this.pos = start;
      this.reserve(3 * quoted.length);
      this.pos = start + encoder.encodeInto(quoted, this.buf.subarray(start)).written;
      this.checkSize();
      return;
    }
    b[p++] = 34;
    this.pos = p;
  }

  tooLarge(): never {
    return this.fail('too_large', `input is over the maxBytes limit of ${this.limits.maxBytes} (raise it with the maxBytes option)`, 0);
  }

  checkSize(): void {
    if (this.pos > this.limits.maxBytes) this.tooLarge();
  }

  deepOrCyclic(depth: number): never {
    const containers = this.containers;
    for (let j = 1; j <= depth; j++) {
      if (containers.lastIndexOf(containers[j], j - 1) !== -1) {
        this.fail('cyclic_value', 'the value contains itself (a cycle); JSON cannot hold it', j);
      }
    }
    return this.fail('too_deep', `arrays and objects nest deeper than the maxDepth limit of ${this.limits.maxDepth}`, depth);
  }

  /** Writes `v`; returns its copy when copying (else `undefined` for arrays and objects). */
  value(v: unknown, depth: number): unknown {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return v;
      case 'number':
        if (!Number.isFinite(v)) this.fail('non_finite_number', `${v} has no JSON form`, depth);
        if (v === 0 && 1 / v < 0) {
          if (this.limits.minusZeroAsZero) {
            this.ascii('0');
            return 0;
          }
          this.ascii('-0');
          return v;
        }
        this.ascii(`${v}`);
        return v;
      case 'boolean':
        this.ascii(v ? 'true' : 'false');
        return v;
      case 'object': {
        if (v === null) {
          this.ascii('null');
          return v;
        }
        this.containers[depth] = v;
        if (depth >= this.limits.maxDepth) {
          this.containers.length = depth + 1;
          this.deepOrCyclic(depth);
        }
        const keys = this.keys;
        if (Array.isArray(v)) {
          this.reserve(1);
          this.buf[this.pos++] = 91; // [
          const n = v.length;
          const copy = this.copying ? new Array<unknown>(n) : undefined;
          for (let i = 0; i < n; i++) {
            keys[depth] = i;
            this.at = depth + 1;
            const item: unknown = v[i];
            if (item === undefined) {
              this.fail('unsupported_value', 'undefined in an array has no JSON form (JSON.stringify would write null)', depth + 1);
            }
            if (i > 0) {
              this.reserve(1);
              this.buf[this.pos++] = 44; // ,
            }
            const copied = this.value(item, depth + 1);
            if (copy) copy[i] = copied;
          }
          this.reserve(1);
          this.buf[this.pos++] = 93; // ]
          return copy;
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) {
          this.fail('unsupported_value', `${describe(v)} is not plain JSON data${hint(v)}`, depth);
        }
        this.reserve(1);
        this.buf[this.pos++] = 123; // {
        let first = true;
        const copy: Record<string, unknown> | undefined = this.copying ? {} : undefined;
        // for-in rather than Object.keys: no array per object. Only the
        // Object prototype or none can be above, so hasOwn filters anything
        // enumerable added to Object.prototype.
        for (const key in v) {
          if (!hasOwn.call(v, key)) continue;
          keys[depth] = key;
          this.at = depth + 1;
          const item = (v as Record<string, unknown>)[key];
          if (item === undefined) continue;
          if (!first) {
            this.reserve(1);
            this.buf[this.pos++] = 44; // ,
          }
          first = false;
          this.string(key);
          this.reserve(1);
          this.buf[this.pos++] = 58; // :
          const copied = this.value(item, depth + 1);
          if (copy) setMember(copy, key, copied);
        }
        this.reserve(1);
        this.buf[this.pos++] = 125; // }
        return copy;
      }
      default:
        return this.fail('unsupported_value', `${describe(v)} has no JSON form${hint(v)}`, depth);
    }
  }

  write(value: unknown, limits: WireLimits): WireBytes & { copy?: unknown } {
    this.busy = true;
    this.limits = limits;
    this.pos = 0;
    this.at = 0;
    try {
      const copy = this.value(value, 0);
      this.checkSize();
      return { bytes: this.buf.subarray(0, this.pos), copy };
    } catch (e) {
      if (e instanceof WireError) return { issues: [e.issue] };
      // A getter or Proxy trap threw while the value was read (or a revoked
      // Proxy was touched): the value cannot be read, so it is not JSON data.
      const message = e instanceof Error ? e.message : String(e);
      return { issues: [{ path: pointer(this.keys.slice(0, this.at)), code: 'unsupported_value', message: `reading the value threw: ${briefText(message)}` }] };
    } finally {
      this.containers.length = 0;
      this.keys.length = 0;
      this.busy = false;
      this.copying = false;
    }
  }
}

let shared = new ByteWriter();
// Past this, the buffer of one large value is not kept for the next call.
const KEEP_BYTES = 16 * 1024 * 1024;

/**
 * Serializes plain JSON data (objects with the Object prototype or none,
 * arrays, strings, finite numbers, booleans, null) to UTF-8 JSON text. Each
 * own enumerable property is read exactly once, so getters run once. Object
 * properties whose value is `undefined` are left out, as JSON.stringify does;
 * every other non-JSON value is reported. The bytes are those of
 * `JSON.stringify(value)`; they are valid until the next call.
 */
export function toWireBytes(value: unknown, limits: WireLimits): WireBytes {
  const writer = shared.busy ? new ByteWriter() : shared;
  const out = writer.write(value, limits);
  if (writer === shared && writer.buf.length > KEEP_BYTES) {
    // The caller still reads `out.bytes`: hand it the big buffer, keep none.
    shared = new ByteWriter();
  }
  return out.issues ? out : { bytes: out.bytes };
}

/**
 * [`toWireBytes`] and, from the same single read of every property, a copy
 * of the value as `JSON.parse` would give back its bytes (plain objects and
 * arrays, -0 as 0 when the limits say so): for a caller that returns the
 * value changed without parsing text back (truncation).
 */
export function toWireCopy(value: unknown, limits: WireLimits): { bytes: Uint8Array; copy: unknown; issues?: undefined } | { issues: Issue[] } {
  const writer = shared.busy ? new ByteWriter() : shared;
  writer.copying = true;
  const out = writer.write(value, limits);
  if (writer === shared && writer.buf.length > KEEP_BYTES) shared = new ByteWriter();
  return out.issues ? { issues: out.issues } : { bytes: out.bytes, copy: out.copy };
}

/** A member set as JSON.parse sets it: `__proto__` too is an own data property. */
export function setMember(o: Record<string, unknown>, key: string, v: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
  else o[key] = v;
}

/** [`toWireBytes`] as a string: for the few callers that pass text on. */
export function toWireText(value: unknown, limits: WireLimits): Wire {
  const w = toWireBytes(value, limits);
  return w.issues ? { issues: w.issues } : { text: decoder.decode(w.bytes) };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

/** Whether a string has no lone surrogate (`String.prototype.isWellFormed` where the runtime has it). */
export const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (text) => (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (text) => !HAS_LONE_SURROGATE.test(text);

/**
 * UTF-8 cannot carry lone surrogates and TextEncoder would replace them with
 * U+FFFD silently. Writing them as `\uXXXX` escapes instead lets the core's
 * parser report `lone_surrogate` with the path of the string that holds one.
 */
export function escapeLoneSurrogates(text: string): string {
  if (isWellFormed(text)) return text;
  return text.replace(LONE_SURROGATE, (s) => `\\u${s.charCodeAt(0).toString(16)}`);
}

export function tooLargeIssue(maxBytes: number, size: number): Issue {
  return {
    path: '',
    code: 'too_large',
    message: `input is at least ${size} bytes, over the maxBytes limit of ${maxBytes} (raise it with the maxBytes option)`,
  };
}

/** The limits for inputs the wasm side checks again (results, options): the validators' defaults. */
export const INPUT_LIMITS: WireLimits = { maxBytes: LIMITS.defaultMaxBytes, maxDepth: LIMITS.defaultMaxDepth };

/**
 * A value given as a JS value or as JSON text, as the JSON text the wasm side
 * parses (and checks); a value that is not JSON data throws `code`.
 */
export function jsonText(value: unknown, code: ToolResultErrorCode, what: string): string {
  if (typeof value === 'string') return value;
  const w = toWireText(value, INPUT_LIMITS);
  if (w.issues) throw new ToolResultError(code, `${what} is not JSON data`, w.issues);
  return w.text;
}

/** A ToolResult given as a value or as JSON text, as the JSON text the wasm side parses (and checks). */
export function toolResultJson(result: ToolResult | string): string {
  return jsonText(result, 'invalid_tool_result', 'the result');
}
