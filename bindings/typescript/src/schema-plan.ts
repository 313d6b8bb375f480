// Evaluates a schema's plan over a live JS value (docs/internals/schema-plan.md): the
// engine compiles the schema into plan nodes (crates/toolresult-schema/src/plan.rs)
// and this turns them into closures once, so a value handed over as a JS
// object is checked where it lives instead of being written out as JSON text
// for the wasm engine. No code is generated (no eval, no new Function), so it
// runs under a strict CSP. What needs the engine's own semantics on one
// string or number (pattern, format, a fractional multipleOf) is a *check*
// run in wasm: batched when its failure can only fail the whole value,
// immediate where the answer steers evaluation (anyOf, not, if, …).
//
// Verdicts only: a value the plan finds invalid, or cannot judge, goes
// through the engine, which gives the issues (the same as the text path's).
import { isWellFormed } from './wire.js';

/** The evaluator's answer: valid, invalid, or "ask the engine". */
export const PlanVerdict = { Valid: 0, Invalid: 1, Fallback: 2 } as const;
export type PlanVerdict = (typeof PlanVerdict)[keyof typeof PlanVerdict];

/** One plan node; the fields are the keywords the plan carries (plan.rs). */
interface PlanNode {
  b?: boolean;
  t?: number;
  enum?: unknown[];
  c?: [unknown];
  ref?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: number;
  patternJs?: string;
  format?: number;
  formatName?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  multipleOfCheck?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  prefix?: number[];
  items?: number;
  contains?: number;
  minContains?: number;
  maxContains?: number;
  required?: string[];
  properties?: [string, number][];
  patternProperties?: ([number, number] | [number, number, string])[];
  additionalProperties?: number;
  propertyNames?: number;
  minProperties?: number;
  maxProperties?: number;
  dependentRequired?: Record<string, string[]>;
  dependentSchemas?: [string, number][];
  allOf?: number[];
  anyOf?: number[];
  oneOf?: number[];
  not?: number;
  if?: number;
  then?: number;
  else?: number;
}

type Check = (v: unknown) => boolean;

/** Runs checks in the engine: `[check, value, …]` → 0 all passed, 1 one failed, 2 cannot tell. */
export type RunChecks = (batch: unknown[]) => number;

/** Thrown inside an evaluation when the engine cannot answer a check. */
class AskEngine {}
const ASK_ENGINE = new AskEngine();

// Type bits, as plan.rs writes them.
const NULL = 1;
const BOOLEAN = 2;
const OBJECT = 4;
const ARRAY = 8;
const NUMBER = 16;
const STRING = 32;
const INTEGER = 64;

const hasOwn = Object.prototype.hasOwnProperty;
// Whether an object has a member, as its JSON text would: own and enumerable
// (JSON.stringify and the wire writer leave non-enumerable properties out).
const isMember = Object.prototype.propertyIsEnumerable;
const objectProto = Object.prototype;

function typeBits(v: unknown): number {
  switch (typeof v) {
    case 'string':
      return STRING;
    case 'number':
      return Number.isInteger(v) ? NUMBER | INTEGER : NUMBER;
    case 'boolean':
      return BOOLEAN;
    default:
      return v === null ? NULL : Array.isArray(v) ? ARRAY : OBJECT;
  }
}

/** Code points of a well-formed string (the unit JSON Schema counts). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      n--;
      i++;
    }
  }
  return n;
}

/** JSON equality (the engine's: numbers by value, objects by members). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const arr = Array.isArray(a);
  if (arr !== Array.isArray(b)) return false;
  if (arr) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!equal(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    if (!hasOwn.call(x, k)) continue;
    if (!isMember.call(y, k) || !equal(x[k], y[k])) return false;
    n++;
  }
  for (const k in y) if (hasOwn.call(y, k)) n--;
  return n === 0;
}

function unique(items: unknown[]): boolean {
  let primitives = true;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    if (typeof v === 'object' && v !== null) {
      primitives = false;
      break;
    }
  }
  if (primitives) return new Set(items).size === items.length;
  for (let i = 1; i < items.length; i++) {
    for (let j = 0; j < i; j++) if (equal(items[i], items[j])) return false;
  }
  return true;
}

/**
 * Whether `value` is plain JSON data that the text path would take exactly as
 * it is: anything it would refuse, rewrite or leave out (non-finite or unsafe
 * numbers, -0, lone surrogates, undefined, non-plain objects, too deep or too
 * large) sends the value to the engine instead, which says so as before.
 */
class PlainCheck {
  size = 0;
  constructor(
    readonly maxBytes: number,
    readonly maxDepth: number,
  ) {}

  value(v: unknown, depth: number): boolean {
    switch (typeof v) {
      case 'string':
        // An upper bound of its UTF-8 JSON form (\u00XX is 6 bytes per unit).
        this.size += 6 * v.length + 3;
        return isWellFormed(v);
      case 'number':
        this.size += 26;
        return Number.isFinite(v) && !(v === 0 && 1 / v < 0) && !(Number.isInteger(v) && !Number.isSafeInteger(v));
      case 'boolean':
        this.size += 6;
        return true;
      case 'object': {
        this.size += 2;
        if (v === null) return true;
        if (depth >= this.maxDepth) return false;
        if (Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) {
            const item: unknown = v[i];
            if (item === undefined || !this.value(item, depth + 1)) return false;
          }
          return true;
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== objectProto && proto !== null) return false;
        for (const k in v) {
          if (!hasOwn.call(v, k)) continue;
          const item = (v as Record<string, unknown>)[k];
          this.size += 6 * k.length + 3;
          if (item === undefined || !isWellFormed(k) || !this.value(item, depth + 1)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  }
}

// The plainest forms of common formats, accepted here without asking the
// engine. Each accepts a subset of what the engine's format accepts (a
// property test in tests/node/schema-plan.test.mjs holds them to that);
// anything else goes to the engine's check.
// A DNS label: at most 63 characters, hyphens only inside and never doubled.
const label = '(?=[A-Za-z0-9-]{1,63}(?![A-Za-z0-9-]))[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*';
const date = '[1-9]\\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])';
const time = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';
const octet = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const uriText = "[A-Za-z0-9\\-._~!$&'()*+,;=:@]";
const plainFormats: Record<string, RegExp> = {
  date: new RegExp(`^${date}$`),
  time: new RegExp(`^${time}$`),
  'date-time': new RegExp(`^${date}T${time}$`),
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  ipv4: new RegExp(`^${octet}(?:\\.${octet}){3}$`),
  hostname: new RegExp(`^(?=.{1,253}$)${label}(?:\\.${label})*$`),
  email: new RegExp(`^(?=[^@]{1,64}@.{1,253}$)[A-Za-z0-9_+-]+(?:\\.[A-Za-z0-9_+-]+)*@(?:${label}\\.)+[A-Za-z][A-Za-z0-9]{0,62}$`),
  uri: new RegExp(
    `^[A-Za-z][A-Za-z0-9+.-]*://${label}(?:\\.${label})*(?::[1-9]\\d{0,3})?(?:/${uriText}*)*(?:\\?(?:${uriText}|[/?])*)?(?:#(?:${uriText}|[/?])*)?$`,
  ),
};

/** The plain-form test of a format, for the property test. @internal */
export function plainFormat(name: string): RegExp | undefined {
  return hasOwn.call(plainFormats, name) ? plainFormats[name] : undefined;
}

/**
 * A pattern the engine judged safe to run as a JS RegExp (anchored, no
 * ambiguous repetition: linear time; plan/js_pattern.rs), as a test;
 * `undefined` when it was not, or the RegExp does not build here.
 */
function jsPattern(source: string | undefined): ((s: string) => boolean) | undefined {
  if (source === undefined) return undefined;
  try {
    const re = new RegExp(source, 'u');
    return (s) => re.test(s);
  } catch {
    return undefined;
  }
}

const always: Check = () => true;
const never: Check = () => false;

function all(checks: Check[]): Check {
  if (checks.length === 0) return always;
  if (checks.length === 1) return checks[0];
  if (checks.length === 2) {
    const [a, b] = checks;
    return (v) => a(v) && b(v);
  }
  return (v) => {
    for (let i = 0; i < checks.length; i++) if (!checks[i](v)) return false;
    return true;
  };
}

/** A compiled plan: `evaluate` a value many times. */
export class SchemaPlan {
  private readonly nodes: PlanNode[];
  private readonly runChecks: RunChecks;
  private readonly limits: { maxBytes: number; maxDepth: number };
  // Compiled closures by node × "in a definite context" (see nodeCheck).
  private readonly fns: (Check | undefined)[] = [];
  private readonly root: Check;
  // Checks deferred by the evaluation under way: [check, value, …].
  private pending: unknown[] = [];

  constructor(planJson: string, runChecks: RunChecks, limits: { maxBytes: number; maxDepth: number }) {
    this.nodes = (JSON.parse(planJson) as { nodes: PlanNode[] }).nodes;
    this.runChecks = runChecks;
    this.limits = limits;
    this.root = this.nodeCheck(0, true);
  }

  /** Valid, invalid, or Fallback (the engine must judge this value). */
  evaluate(value: unknown): PlanVerdict {
    const plain = new PlainCheck(this.limits.maxBytes, this.limits.maxDepth);
    try {
      if (!plain.value(value, 0) || plain.size > this.limits.maxBytes) return PlanVerdict.Fallback;
    } catch {
      return PlanVerdict.Fallback; // a getter or Proxy trap threw: the engine reports it
    }
    // A getter may re-enter with another value: each evaluation has its own list.
    const outer = this.pending;
    const pending: unknown[] = [];
    this.pending = pending;
    try {
      if (!this.root(value)) return PlanVerdict.Invalid;
      if (pending.length === 0) return PlanVerdict.Valid;
      const verdict = this.runChecks(pending);
      return verdict === 0 ? PlanVerdict.Valid : verdict === 1 ? PlanVerdict.Invalid : PlanVerdict.Fallback;
    } catch {
      return PlanVerdict.Fallback;
    } finally {
      this.pending = outer;
    }
  }

  private engineCheck(id: number, definite: boolean): Check {
    if (definite) {
      // Its failure fails the whole value: run it with the others, in one call.
      return (v) => {
        this.pending.push(id, v);
        return true;
      };
    }
    return (v) => {
      const verdict = this.runChecks([id, v]);
      if (verdict === 2) throw ASK_ENGINE;
      return verdict === 0;
    };
  }

  /**
   * The closure of node `i`. `definite`: a failure here fails the whole
   * value (no anyOf / oneOf / not / if / contains above it), so its checks
   * may be deferred and batched.
   */
  private nodeCheck(i: number, definite: boolean): Check {
    const key = 2 * i + (definite ? 1 : 0);
    const known = this.fns[key];
    if (known) return known;
    // A reference loop reaches this node again while it is compiled.
    let compiled: Check | undefined;
    this.fns[key] = (v) => (compiled as Check)(v);
    compiled = this.compileNode(this.nodes[i], definite);
    this.fns[key] = compiled;
    return compiled;
  }

  private compileNode(n: PlanNode, d: boolean): Check {
    if (n.b !== undefined) return n.b ? always : never;
    const checks: Check[] = [];
    if (n.t !== undefined) {
      const bits = n.t;
      checks.push((v) => (typeBits(v) & bits) !== 0);
    }
    if (n.enum !== undefined) checks.push(this.enumCheck(n.enum));
    if (n.c !== undefined) {
      const c = n.c[0];
      checks.push((v) => equal(c, v));
    }
    const string = this.stringCheck(n, d);
    if (string) checks.push(string);
    const number = this.numberCheck(n, d);
    if (number) checks.push(number);
    const object = this.objectCheck(n, d);
    if (object) checks.push(object);
    const array = this.arrayCheck(n, d);
    if (array) checks.push(array);
    if (n.ref !== undefined) checks.push(this.nodeCheck(n.ref, d));
    if (n.allOf) checks.push(all(n.allOf.map((s) => this.nodeCheck(s, d))));
    if (n.anyOf) {
      const subs = n.anyOf.map((s) => this.nodeCheck(s, false));
      checks.push((v) => {
        for (let i = 0; i < subs.length; i++) if (subs[i](v)) return true;
        return false;
      });
    }
    if (n.oneOf) {
      const subs = n.oneOf.map((s) => this.nodeCheck(s, false));
      checks.push((v) => {
        let valid = 0;
        for (let i = 0; i < subs.length; i++) if (subs[i](v) && ++valid > 1) return false;
        return valid === 1;
      });
    }
    if (n.not !== undefined) {
      const sub = this.nodeCheck(n.not, false);
      checks.push((v) => !sub(v));
    }
    if (n.if !== undefined) {
      const cond = this.nodeCheck(n.if, false);
      const then = n.then === undefined ? always : this.nodeCheck(n.then, d);
      const otherwise = n.else === undefined ? always : this.nodeCheck(n.else, d);
      checks.push((v) => (cond(v) ? then(v) : otherwise(v)));
    }
    return all(checks);
  }

  private enumCheck(values: unknown[]): Check {
    if (values.every((e) => typeof e !== 'object' || e === null)) {
      const set = new Set(values);
      return (v) => (typeof v !== 'object' || v === null) && set.has(v);
    }
    return (v) => {
      for (let i = 0; i < values.length; i++) if (equal(values[i], v)) return true;
      return false;
    };
  }

  private stringCheck(n: PlanNode, d: boolean): Check | undefined {
    const { minLength: min, maxLength: max } = n;
    const pattern = n.pattern === undefined ? undefined : (jsPattern(n.patternJs) ?? this.engineCheck(n.pattern, d));
    const engineFormat = n.format === undefined ? undefined : this.engineCheck(n.format, d);
    const plain = n.formatName === undefined ? undefined : plainFormat(n.formatName);
    const format = engineFormat && plain ? (v: string) => plain.test(v) || engineFormat(v) : engineFormat;
    if (min === undefined && max === undefined && !pattern && !format) return undefined;
    return (v) => {
      if (typeof v !== 'string') return true;
      // A string has at most as many code points as UTF-16 units, and at least half.
      if (max !== undefined && v.length > max && codePoints(v) > max) return false;
      if (min !== undefined && (v.length < min || (v.length < 2 * min && codePoints(v) < min))) return false;
      if (pattern && !pattern(v)) return false;
      return !format || format(v);
    };
  }

  private numberCheck(n: PlanNode, d: boolean): Check | undefined {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = n;
    const check = n.multipleOfCheck === undefined ? undefined : this.engineCheck(n.multipleOfCheck, d);
    if (
      minimum === undefined &&
      maximum === undefined &&
      exclusiveMinimum === undefined &&
      exclusiveMaximum === undefined &&
      multipleOf === undefined &&
      !check
    ) {
      return undefined;
    }
    return (v) => {
      if (typeof v !== 'number') return true;
      if (minimum !== undefined && v < minimum) return false;
      if (maximum !== undefined && v > maximum) return false;
      if (exclusiveMinimum !== undefined && v <= exclusiveMinimum) return false;
      if (exclusiveMaximum !== undefined && v >= exclusiveMaximum) return false;
      // An integer divisor: only an integer can be a multiple of it.
      if (multipleOf !== undefined && !(Number.isInteger(v) && v % multipleOf === 0)) return false;
      return !check || check(v);
    };
  }

  private objectCheck(n: PlanNode, d: boolean): Check | undefined {
    const checks: Check[] = [];
    const { required, minProperties, maxProperties } = n;
    if (required && required.length > 0) {
      checks.push((o) => {
        for (let i = 0; i < required.length; i++) if (!isMember.call(o, required[i])) return false;
        return true;
      });
    }
    if (minProperties !== undefined || maxProperties !== undefined) {
      const min = minProperties ?? 0;
      const max = maxProperties ?? Number.POSITIVE_INFINITY;
      checks.push((o) => {
        let count = 0;
        for (const k in o as object) if (hasOwn.call(o, k)) count++;
        return count >= min && count <= max;
      });
    }
    const props = n.properties ?? [];
    const names = props.map(([name]) => name);
    const subs = props.map(([, s]) => this.nodeCheck(s, d));
    const patterns = (n.patternProperties ?? []).map(
      ([check, s, source]) => [jsPattern(source) ?? this.engineCheck(check, false), this.nodeCheck(s, d)] as const,
    );
    const additional = n.additionalProperties === undefined ? undefined : this.nodeCheck(n.additionalProperties, d);
    if (additional === undefined && patterns.length === 0) {
      if (props.length > 0) {
        checks.push((o) => {
          const obj = o as Record<string, unknown>;
          for (let i = 0; i < names.length; i++) {
            const k = names[i];
            if (isMember.call(obj, k) && !subs[i](obj[k])) return false;
          }
          return true;
        });
      }
    } else {
      const byName = new Map<string, Check>();
      for (let i = 0; i < names.length; i++) byName.set(names[i], subs[i]);
      const rest = additional ?? always;
      const closed = additional === never;
      checks.push((o) => {
        const obj = o as Record<string, unknown>;
        for (const k in obj) {
          if (!hasOwn.call(obj, k)) continue;
          const sub = byName.get(k);
          let matched = sub !== undefined;
          if (sub !== undefined && !sub(obj[k])) return false;
          for (let i = 0; i < patterns.length; i++) {
            if (patterns[i][0](k)) {
              matched = true;
              if (!patterns[i][1](obj[k])) return false;
            }
          }
          if (!matched && (closed || !rest(obj[k]))) return false;
        }
        return true;
      });
    }
    if (n.propertyNames !== undefined) {
      const sub = this.nodeCheck(n.propertyNames, d);
      checks.push((o) => {
        for (const k in o as object) if (hasOwn.call(o, k) && !sub(k)) return false;
        return true;
      });
    }
    if (n.dependentRequired) {
      const deps = Object.entries(n.dependentRequired);
      if (deps.length > 0) {
        checks.push((o) => {
          for (const [k, needs] of deps) {
            if (!isMember.call(o, k)) continue;
            for (let i = 0; i < needs.length; i++) if (!isMember.call(o, needs[i])) return false;
          }
          return true;
        });
      }
    }
    if (n.dependentSchemas && n.dependentSchemas.length > 0) {
      const deps = n.dependentSchemas.map(([k, s]) => [k, this.nodeCheck(s, d)] as const);
      checks.push((o) => {
        for (const [k, sub] of deps) if (isMember.call(o, k) && !sub(o)) return false;
        return true;
      });
    }
    if (checks.length === 0) return undefined;
    const inner = all(checks);
    return (v) => typeof v !== 'object' || v === null || Array.isArray(v) || inner(v);
  }

  private arrayCheck(n: PlanNode, d: boolean): Check | undefined {
    const checks: Check[] = [];
    const { minItems, maxItems } = n;
    if (minItems !== undefined || maxItems !== undefined) {
      const min = minItems ?? 0;
      const max = maxItems ?? Number.POSITIVE_INFINITY;
      checks.push((a) => (a as unknown[]).length >= min && (a as unknown[]).length <= max);
    }
    const prefix = (n.prefix ?? []).map((s) => this.nodeCheck(s, d));
    const items = n.items === undefined ? undefined : this.nodeCheck(n.items, d);
    if (prefix.length > 0 || items) {
      const from = prefix.length;
      checks.push((a) => {
        const arr = a as unknown[];
        const head = Math.min(from, arr.length);
        for (let i = 0; i < head; i++) if (!prefix[i](arr[i])) return false;
        if (items) for (let i = from; i < arr.length; i++) if (!items(arr[i])) return false;
        return true;
      });
    }
    if (n.uniqueItems) checks.push((a) => unique(a as unknown[]));
    if (n.contains !== undefined) {
      const sub = this.nodeCheck(n.contains, false);
      const min = n.minContains ?? 1;
      const max = n.maxContains ?? Number.POSITIVE_INFINITY;
      checks.push((a) => {
        const arr = a as unknown[];
        let count = 0;
        for (let i = 0; i < arr.length; i++) {
          if (sub(arr[i]) && ++count > max) return false;
          if (count >= min && max === Number.POSITIVE_INFINITY) return true;
        }
        return count >= min;
      });
    }
    if (checks.length === 0) return undefined;
    const inner = all(checks);
    return (v) => !Array.isArray(v) || inner(v);
  }
}
