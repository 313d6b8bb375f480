// Turning JS input into the JSON text the wasm core reads, without letting a
// value change on the way: what JSON.stringify would drop or rewrite silently
// (NaN, undefined in arrays, functions, Dates, Maps, cycles, -0) is an issue.
import { ToolResultError, type ToolResultErrorCode } from './errors.js';
import type { Issue, ToolResult } from './generated/types.js';

export interface WireLimits {
  maxBytes: number;
  maxDepth: number;
}

export type Wire = { text: string; issues?: undefined } | { text?: undefined; issues: Issue[] };

function pointer(path: readonly (string | number)[]): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
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

// Strings with none of these are written as `"` + s + `"`; the rest (and long
// ones, where JSON.stringify's native scan wins) go through JSON.stringify,
// which also escapes lone surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const quote = (s: string): string => (s.length < 64 && !NEEDS_ESCAPE.test(s) ? '"' + s + '"' : JSON.stringify(s));
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Serializes plain JSON data (objects with the Object prototype or none,
 * arrays, strings, finite numbers, booleans, null) to JSON text. Each own
 * enumerable property is read exactly once, so getters run once. Object
 * properties whose value is `undefined` are left out, as JSON.stringify does;
 * every other non-JSON value is reported.
 *
 * This is on the hot path of every object given to the wasm side, so it keeps
 * no per-node bookkeeping: the containers and keys being walked sit in arrays
 * indexed by depth, the path is only built for an issue, and a cycle is found
 * only once the walk has gone past the depth limit (a cycle always does).
 */
export function toWireText(value: unknown, limits: WireLimits): Wire {
  const containers: object[] = [];
  const keys: (string | number)[] = [];
  // How many entries of `keys` lead to the value being read now.
  let at = 0;
  let size = 0;

  const fail = (code: Issue['code'], message: string, depth: number): never => {
    throw new WireError({ path: pointer(keys.slice(0, depth)), code, message });
  };

  const deepOrCyclic = (depth: number): never => {
    for (let j = 1; j <= depth; j++) {
      if (containers.lastIndexOf(containers[j], j - 1) !== -1) {
        fail('cyclic_value', 'the value contains itself (a cycle); JSON cannot hold it', j);
      }
    }
    return fail('too_deep', `arrays and objects nest deeper than the maxDepth limit of ${limits.maxDepth}`, depth);
  };

  const write = (v: unknown, depth: number): string => {
    switch (typeof v) {
      case 'string':
        size += v.length;
        if (size > limits.maxBytes) tooLarge();
        return quote(v);
      case 'number':
        if (!Number.isFinite(v)) fail('non_finite_number', `${v} has no JSON form`, depth);
        return v === 0 && 1 / v < 0 ? '-0' : '' + v;
      case 'boolean':
        return v ? 'true' : 'false';
      case 'object': {
        if (v === null) return 'null';
        containers[depth] = v;
        if (depth >= limits.maxDepth) {
          containers.length = depth + 1;
          deepOrCyclic(depth);
        }
        // String concatenation: V8 builds ropes, cheaper than arrays + join.
        let out: string;
        if (Array.isArray(v)) {
          out = '[';
          const n = v.length;
          for (let i = 0; i < n; i++) {
            keys[depth] = i;
            at = depth + 1;
            const item: unknown = v[i];
            if (item === undefined) {
              fail('unsupported_value', 'undefined in an array has no JSON form (JSON.stringify would write null)', depth + 1);
            }
            out += i === 0 ? write(item, depth + 1) : ',' + write(item, depth + 1);
          }
          return out + ']';
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) {
          fail('unsupported_value', `${describe(v)} is not plain JSON data${hint(v)}`, depth);
        }
        out = '{';
        let first = true;
        // for-in rather than Object.keys: no array per object. Only the
        // Object prototype or none can be above, so hasOwn filters anything
        // enumerable added to Object.prototype.
        for (const key in v) {
          if (!hasOwn.call(v, key)) continue;
          keys[depth] = key;
          at = depth + 1;
          const item = (v as Record<string, unknown>)[key];
          if (item !== undefined) {
            size += key.length;
            out += (first ? quote(key) : ',' + quote(key)) + ':' + write(item, depth + 1);
            first = false;
          }
        }
        return out + '}';
      }
      default:
        return fail('unsupported_value', `${describe(v)} has no JSON form${hint(v)}`, depth);
    }
  };

  const tooLarge = (): never =>
    fail('too_large', `input is over the maxBytes limit of ${limits.maxBytes} (raise it with the maxBytes option)`, 0);

  try {
    return { text: write(value, 0) };
  } catch (e) {
    if (e instanceof WireError) return { issues: [e.issue] };
    // A getter or Proxy trap threw while the value was read (or a revoked
    // Proxy was touched): the value cannot be read, so it is not JSON data.
    const message = e instanceof Error ? e.message : String(e);
    return { issues: [{ path: pointer(keys.slice(0, at)), code: 'unsupported_value', message: `reading the value threw: ${message}` }] };
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * UTF-8 cannot carry lone surrogates and TextEncoder would replace them with
 * U+FFFD silently. Writing them as `\uXXXX` escapes instead lets the core's
 * parser report `lone_surrogate` with the path of the string that holds one.
 */
export function escapeLoneSurrogates(text: string): string {
  const wellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (wellFormed ? wellFormed.call(text) : !LONE_SURROGATE.test(text)) return text;
  LONE_SURROGATE.lastIndex = 0;
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
const INPUT_LIMITS: WireLimits = { maxBytes: 64 * 1024 * 1024, maxDepth: 128 };

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
