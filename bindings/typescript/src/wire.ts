// Turning JS input into the JSON text the wasm core reads, without letting a
// value change on the way: what JSON.stringify would drop or rewrite silently
// (NaN, undefined in arrays, functions, Dates, Maps, cycles, -0) is an issue.
import type { Issue } from './generated/types.js';

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

/**
 * Serializes plain JSON data (objects with the Object prototype or none,
 * arrays, strings, finite numbers, booleans, null) to JSON text. Each own
 * enumerable property is read exactly once, so getters run once. Object
 * properties whose value is `undefined` are left out, as JSON.stringify does;
 * every other non-JSON value is reported.
 */
export function toWireText(value: unknown, limits: WireLimits): Wire {
  const ancestors = new Set<object>();
  const path: (string | number)[] = [];
  let size = 0;

  const fail = (code: Issue['code'], message: string): never => {
    throw new WireError({ path: pointer(path), code, message });
  };

  const write = (v: unknown, depth: number): string => {
    switch (typeof v) {
      case 'string':
        size += v.length;
        if (size > limits.maxBytes) tooLarge();
        return JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'number':
        if (!Number.isFinite(v)) fail('non_finite_number', `${v} has no JSON form`);
        return Object.is(v, -0) ? '-0' : String(v);
      case 'object': {
        if (v === null) return 'null';
        const isArray = Array.isArray(v);
        if (!isArray) {
          const proto = Object.getPrototypeOf(v);
          if (proto !== Object.prototype && proto !== null) {
            fail('unsupported_value', `${describe(v)} is not plain JSON data${hint(v)}`);
          }
        }
        if (depth >= limits.maxDepth) {
          fail('too_deep', `arrays and objects nest deeper than the maxDepth limit of ${limits.maxDepth}`);
        }
        if (ancestors.has(v)) fail('cyclic_value', 'the value contains itself (a cycle); JSON cannot hold it');
        ancestors.add(v);
        // String concatenation: V8 builds ropes, cheaper than arrays + join.
        let out: string;
        if (isArray) {
          const arr = v as unknown[];
          out = '[';
          for (let i = 0; i < arr.length; i++) {
            path.push(i);
            const item = arr[i];
            if (item === undefined) fail('unsupported_value', 'undefined in an array has no JSON form (JSON.stringify would write null)');
            out += i === 0 ? write(item, depth + 1) : ',' + write(item, depth + 1);
            path.pop();
          }
          out += ']';
        } else {
          out = '{';
          let first = true;
          for (const key of Object.keys(v)) {
            path.push(key);
            const item = (v as Record<string, unknown>)[key];
            if (item !== undefined) {
              size += key.length;
              out += (first ? '' : ',') + JSON.stringify(key) + ':' + write(item, depth + 1);
              first = false;
            }
            path.pop();
          }
          out += '}';
        }
        ancestors.delete(v);
        return out;
      }
      default:
        return fail('unsupported_value', `${describe(v)} has no JSON form${hint(v)}`);
    }
  };

  const tooLarge = (): never => {
    path.length = 0;
    return fail('too_large', `input is over the maxBytes limit of ${limits.maxBytes} (raise it with the maxBytes option)`);
  };

  try {
    return { text: write(value, 0) };
  } catch (e) {
    if (e instanceof WireError) return { issues: [e.issue] };
    // A getter or Proxy trap threw while the value was read (or a revoked
    // Proxy was touched): the value cannot be read, so it is not JSON data.
    const message = e instanceof Error ? e.message : String(e);
    return { issues: [{ path: pointer(path), code: 'unsupported_value', message: `reading the value threw: ${message}` }] };
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
