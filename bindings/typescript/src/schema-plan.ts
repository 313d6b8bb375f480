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
/**
 * A check that also walks what it checks: every part of the value it
 * reaches is confirmed to be plain JSON data (or NOT_PLAIN is thrown) and
 * its size counted, so a value is read once, not once to vet it and once to
 * judge it. `depth` is the value's own (0 at the root).
 */
type Walk = (v: unknown, depth: number) => boolean;

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
  if (primitives) {
    // A few items are compared directly: cheaper than building a Set.
    if (items.length <= 16) {
      for (let i = 1; i < items.length; i++) for (let j = 0; j < i; j++) if (items[i] === items[j]) return false;
      return true;
    }
    return new Set(items).size === items.length;
  }
  for (let i = 1; i < items.length; i++) {
    for (let j = 0; j < i; j++) if (equal(items[i], items[j])) return false;
  }
  return true;
}

/** A number the text path takes exactly as it is: finite, not -0, an integer only when safe. */
function plainNumber(v: number): boolean {
  return Number.isSafeInteger(v) ? v !== 0 || 1 / v > 0 : Number.isFinite(v) && !Number.isInteger(v);
}

/** Thrown inside an evaluation at a part of the value that is not plain JSON data. */
class NotPlain {}
const NOT_PLAIN = new NotPlain();

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
/** A test of one string (a RegExp is one). */
interface Tester {
  test(s: string): boolean;
}

const plainFormats: Record<string, Tester> = {
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
export function plainFormat(name: string): Tester | undefined {
  return hasOwn.call(plainFormats, name) ? plainFormats[name] : undefined;
}

/**
 * A pattern the engine judged safe to run as a JS RegExp (anchored, no
 * ambiguous repetition: linear time; plan/js_pattern.rs), as a test;
 * `undefined` when it was not, or the RegExp does not build here.
 */
function jsPattern(source: string | undefined): Tester | undefined {
  if (source === undefined) return undefined;
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/** A tester as a function (`undefined` stays `undefined`). */
function testOf(t: Tester | undefined): ((s: string) => boolean) | undefined {
  return t === undefined ? undefined : (s) => t.test(s);
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
  private readonly walks: (Walk | undefined)[] = [];
  private readonly root: Walk;
  // Checks deferred by the evaluation under way: [check, value, …].
  private pending: unknown[] = [];
  // An upper bound of the UTF-8 JSON size of what the evaluation under way has walked.
  private size = 0;

  constructor(planJson: string, runChecks: RunChecks, limits: { maxBytes: number; maxDepth: number }) {
    this.nodes = (JSON.parse(planJson) as { nodes: PlanNode[] }).nodes;
    this.runChecks = runChecks;
    this.limits = limits;
    this.root = this.nodeWalk(0, true);
  }

  /**
   * Valid, invalid, or Fallback (the engine must judge this value): anything
   * the text path would refuse, rewrite or leave out (non-finite or unsafe
   * numbers, -0, lone surrogates, undefined, non-plain objects, too deep or
   * too large) sends the value to the engine, which says so as before.
   */
  evaluate(value: unknown): PlanVerdict {
    // A getter may re-enter with another value: each evaluation has its own state.
    const outerPending = this.pending;
    const outerSize = this.size;
    const pending: unknown[] = [];
    this.pending = pending;
    this.size = 0;
    try {
      let valid: boolean;
      try {
        valid = this.root(value, 0);
      } catch {
        return PlanVerdict.Fallback; // not plain data, a check the engine must answer, or a getter threw
      }
      if (!valid) {
        // The walk stopped at the first failure: the rest must be plain data
        // too, or the engine says what is wrong with it.
        this.size = 0;
        try {
          return this.plain(value, 0) && this.size <= this.limits.maxBytes ? PlanVerdict.Invalid : PlanVerdict.Fallback;
        } catch {
          return PlanVerdict.Fallback;
        }
      }
      if (this.size > this.limits.maxBytes) return PlanVerdict.Fallback;
      if (pending.length === 0) return PlanVerdict.Valid;
      const verdict = this.runChecks(pending);
      return verdict === 0 ? PlanVerdict.Valid : verdict === 1 ? PlanVerdict.Invalid : PlanVerdict.Fallback;
    } catch {
      return PlanVerdict.Fallback;
    } finally {
      this.pending = outerPending;
      this.size = outerSize;
    }
  }

  /** Whether `v` is plain JSON data (see `evaluate`); counts its size. */
  private plain(v: unknown, depth: number): boolean {
    switch (typeof v) {
      case 'string':
        // An upper bound of its UTF-8 JSON form (\u00XX is 6 bytes per unit).
        this.size += 6 * v.length + 3;
        return isWellFormed(v);
      case 'number':
        this.size += 26;
        return plainNumber(v);
      case 'boolean':
        this.size += 6;
        return true;
      case 'object': {
        this.size += 2;
        if (v === null) return true;
        if (depth >= this.limits.maxDepth) return false;
        if (Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) {
            const item: unknown = v[i];
            if (item === undefined || !this.plain(item, depth + 1)) return false;
          }
          return true;
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== objectProto && proto !== null) return false;
        for (const k in v) {
          if (!hasOwn.call(v, k)) continue;
          const item = (v as Record<string, unknown>)[k];
          this.size += 6 * k.length + 3;
          if (item === undefined || !isWellFormed(k) || !this.plain(item, depth + 1)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  }

  /** The walk that vets `v` as plain data and then runs `check` on it. */
  private vetThen(check: Check): Walk {
    return (v, depth) => {
      if (!this.plain(v, depth)) throw NOT_PLAIN;
      return check(v);
    };
  }

  /** The walk of node `i` (see `Walk`; `definite` as for nodeCheck). */
  private nodeWalk(i: number, definite: boolean): Walk {
    const key = 2 * i + (definite ? 1 : 0);
    const known = this.walks[key];
    if (known) return known;
    // A reference loop reaches this node again while it is compiled.
    let compiled: Walk | undefined;
    this.walks[key] = (v, depth) => (compiled as Walk)(v, depth);
    compiled = this.compileWalk(this.nodes[i], i, definite);
    this.walks[key] = compiled;
    return compiled;
  }

  /**
   * A node's walk. Nodes of plain structure (types, string and number
   * limits, properties, items) check as they walk; a node that applies
   * several subschemas to one value (allOf, anyOf, not, if, $ref with
   * siblings, enum, …) vets the value first and then checks it.
   */
  private compileWalk(n: PlanNode, i: number, d: boolean): Walk {
    if (n.b === false) return () => false;
    const keys = Object.keys(n);
    if (keys.length === 1 && n.ref !== undefined) return this.nodeWalk(n.ref, d);
    // An enum of strings, numbers, booleans or null (a `kind` field): the
    // scalar is vetted and looked up in place.
    if (n.enum !== undefined && keys.every((k) => k === 'enum' || k === 't') && n.enum.every((e) => typeof e !== 'object' || e === null)) {
      const allowed = new Set(n.enum);
      const bits = n.t ?? NULL | BOOLEAN | OBJECT | ARRAY | NUMBER | STRING | INTEGER;
      return (v) => {
        switch (typeof v) {
          case 'string':
            if (!isWellFormed(v)) throw NOT_PLAIN;
            this.size += 6 * v.length + 3;
            return allowed.has(v) && (bits & STRING) !== 0;
          case 'number':
            if (!plainNumber(v)) throw NOT_PLAIN;
            this.size += 26;
            return allowed.has(v) && ((bits & NUMBER) !== 0 || ((bits & INTEGER) !== 0 && Number.isInteger(v)));
          case 'boolean':
            this.size += 6;
            return allowed.has(v) && (bits & BOOLEAN) !== 0;
          case 'object':
            // An object or array is in no such enum (evaluate vets it).
            this.size += 2;
            return v === null && allowed.has(v) && (bits & NULL) !== 0;
          default:
            throw NOT_PLAIN;
        }
      };
    }
    const structural =
      n.ref === undefined &&
      n.enum === undefined &&
      n.c === undefined &&
      n.allOf === undefined &&
      n.anyOf === undefined &&
      n.oneOf === undefined &&
      n.not === undefined &&
      n.if === undefined &&
      n.contains === undefined &&
      n.propertyNames === undefined &&
      n.dependentSchemas === undefined;
    if (!structural) return this.vetThen(this.nodeCheck(i, d));
    const bits = n.t ?? NULL | BOOLEAN | OBJECT | ARRAY | NUMBER | STRING | INTEGER;
    const anyNumber = (bits & NUMBER) !== 0;
    const integer = (bits & INTEGER) !== 0;
    const string = this.stringTest(n, d);
    const number = this.numberTest(n, d);
    const object = (bits & OBJECT) === 0 ? undefined : this.objectWalk(n, d);
    const array = (bits & ARRAY) === 0 ? undefined : this.arrayWalk(n, d);
    const maxDepth = this.limits.maxDepth;
    // One type, the common case: its test first, everything else fails
    // (evaluate then vets the whole value).
    if (bits === STRING) {
      // A format or a pattern alone (the common string field): its RegExp
      // is tested here, one call fewer per string.
      const only = this.onlyRegExp(n, d);
      if (only !== undefined) {
        const { re, otherwise } = only;
        return (v) => {
          if (typeof v !== 'string') return false;
          if (!isWellFormed(v)) throw NOT_PLAIN;
          this.size += 6 * v.length + 3;
          return re.test(v) || otherwise?.(v) === true;
        };
      }
      return (v) => {
        if (typeof v !== 'string') return false;
        if (!isWellFormed(v)) throw NOT_PLAIN;
        this.size += 6 * v.length + 3;
        return string === undefined || string(v);
      };
    }
    if (bits === OBJECT && object !== undefined) {
      return (v, depth) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
        if (depth >= maxDepth) throw NOT_PLAIN;
        const proto = Object.getPrototypeOf(v);
        if (proto !== objectProto && proto !== null) throw NOT_PLAIN;
        this.size += 2;
        return object(v as Record<string, unknown>, depth);
      };
    }
    if (bits === ARRAY && array !== undefined) {
      return (v, depth) => {
        if (!Array.isArray(v)) return false;
        if (depth >= maxDepth) throw NOT_PLAIN;
        this.size += 2;
        return array(v, depth);
      };
    }
    if ((bits & ~(NUMBER | INTEGER)) === 0) {
      return (v) => {
        if (typeof v !== 'number') return false;
        if (!plainNumber(v)) throw NOT_PLAIN;
        this.size += 26;
        return (anyNumber || Number.isInteger(v)) && (number === undefined || number(v));
      };
    }
    return (v, depth) => {
      switch (typeof v) {
        case 'string':
          if (!isWellFormed(v)) throw NOT_PLAIN;
          this.size += 6 * v.length + 3;
          return (bits & STRING) !== 0 && (string === undefined || string(v));
        case 'number':
          if (!plainNumber(v)) throw NOT_PLAIN;
          this.size += 26;
          return (anyNumber || (integer && Number.isInteger(v))) && (number === undefined || number(v));
        case 'boolean':
          this.size += 6;
          return (bits & BOOLEAN) !== 0;
        case 'object':
          this.size += 2;
          if (v === null) return (bits & NULL) !== 0;
          if (depth >= maxDepth) throw NOT_PLAIN;
          if (Array.isArray(v)) return array?.(v, depth) === true;
          {
            const proto = Object.getPrototypeOf(v);
            if (proto !== objectProto && proto !== null) throw NOT_PLAIN;
          }
          return object?.(v as Record<string, unknown>, depth) === true;
        default:
          throw NOT_PLAIN;
      }
    };
  }

  /** The object keywords of a structural node, walking every member. */
  private objectWalk(n: PlanNode, d: boolean): (o: Record<string, unknown>, depth: number) => boolean {
    const props = n.properties ?? [];
    const required = n.required ?? [];
    // One slot per property and per required name: its walk (and a check
    // for when a pattern walked the value first), and whether it is required.
    const slots = new Map<string, number>();
    const names: string[] = [];
    const walks: (Walk | undefined)[] = [];
    const checks: (Check | undefined)[] = [];
    const needed: boolean[] = [];
    for (const [name, sub] of props) {
      slots.set(name, walks.length);
      names.push(name);
      walks.push(this.nodeWalk(sub, d));
      checks.push(this.nodeCheck(sub, d));
      needed.push(false);
    }
    for (const name of required) {
      let slot = slots.get(name);
      if (slot === undefined) {
        slot = walks.length;
        slots.set(name, slot);
        names.push(name);
        walks.push(undefined);
        checks.push(undefined);
        needed.push(false);
      }
      needed[slot] = true;
    }
    let requiredCount = 0;
    for (const x of needed) if (x) requiredCount++;
    const patterns = (n.patternProperties ?? []).map(([check, sub, source]) => ({
      test: testOf(jsPattern(source)) ?? this.engineCheck(check, false),
      walk: this.nodeWalk(sub, d),
      check: this.nodeCheck(sub, d),
    }));
    const additional = n.additionalProperties === undefined ? undefined : this.nodeWalk(n.additionalProperties, d);
    const closed = n.additionalProperties !== undefined && this.nodes[n.additionalProperties].b === false;
    const min = n.minProperties ?? 0;
    const max = n.maxProperties ?? Number.POSITIVE_INFINITY;
    const dependent = n.dependentRequired ? Object.entries(n.dependentRequired) : [];
    return (o, depth) => {
      let count = 0;
      let present = 0;
      // Members mostly come in the order the schema lists them: the next
      // name is tried before the map.
      let next = 0;
      for (const k in o) {
        if (!hasOwn.call(o, k)) continue;
        const v = o[k];
        if (v === undefined) throw NOT_PLAIN;
        this.size += 6 * k.length + 3;
        count++;
        let walked = false;
        const slot = names[next] === k ? next : slots.get(k);
        // A name of the schema is well-formed; any other key is vetted.
        if (slot !== undefined) next = slot + 1;
        else if (!isWellFormed(k)) throw NOT_PLAIN;
        if (slot !== undefined) {
          if (needed[slot]) present++;
          const walk = walks[slot];
          if (walk !== undefined) {
            if (!walk(v, depth + 1)) return false;
            walked = true;
          }
        }
        for (let p = 0; p < patterns.length; p++) {
          const pattern = patterns[p];
          if (!pattern.test(k)) continue;
          if (walked ? !pattern.check(v) : !pattern.walk(v, depth + 1)) return false;
          walked = true;
        }
        if (walked) continue;
        if (closed) return false;
        if (additional !== undefined) {
          if (!additional(v, depth + 1)) return false;
        } else if (!this.plain(v, depth + 1)) throw NOT_PLAIN;
      }
      if (present !== requiredCount || count < min || count > max) return false;
      for (const [k, needs] of dependent) {
        if (!isMember.call(o, k)) continue;
        for (let i = 0; i < needs.length; i++) if (!isMember.call(o, needs[i])) return false;
      }
      return true;
    };
  }

  /** The array keywords of a structural node, walking every item. */
  private arrayWalk(n: PlanNode, d: boolean): (a: unknown[], depth: number) => boolean {
    const min = n.minItems ?? 0;
    const max = n.maxItems ?? Number.POSITIVE_INFINITY;
    const prefix = (n.prefix ?? []).map((s) => this.nodeWalk(s, d));
    const items = n.items === undefined ? undefined : this.nodeWalk(n.items, d);
    const uniqueItems = n.uniqueItems === true;
    return (a, depth) => {
      if (a.length < min || a.length > max) return false;
      const head = Math.min(prefix.length, a.length);
      for (let i = 0; i < a.length; i++) {
        const v = a[i];
        if (v === undefined) throw NOT_PLAIN;
        if (i < head) {
          if (!prefix[i](v, depth + 1)) return false;
        } else if (items !== undefined) {
          if (!items(v, depth + 1)) return false;
        } else if (!this.plain(v, depth + 1)) throw NOT_PLAIN;
      }
      return !uniqueItems || unique(a);
    };
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

  /**
   * When a node's one string keyword is a format with a plain form, or a
   * pattern run as a JS RegExp: that RegExp, and for a format the engine's
   * check of what its plain form does not accept.
   */
  private onlyRegExp(n: PlanNode, d: boolean): { re: Tester; otherwise?: Check } | undefined {
    if (n.minLength !== undefined || n.maxLength !== undefined) return undefined;
    if (n.pattern !== undefined) {
      const re = n.format === undefined ? jsPattern(n.patternJs) : undefined;
      return re === undefined ? undefined : { re };
    }
    const plain = n.formatName === undefined ? undefined : plainFormat(n.formatName);
    if (n.format === undefined || plain === undefined) return undefined;
    return { re: plain, otherwise: this.engineCheck(n.format, d) };
  }

  private stringCheck(n: PlanNode, d: boolean): Check | undefined {
    const test = this.stringTest(n, d);
    return test === undefined ? undefined : (v) => typeof v !== 'string' || test(v);
  }

  /**
   * The string keywords of a node as one test of a string (`undefined`:
   * none), made as direct as the keywords present allow: a pattern or a
   * format alone is its RegExp's test.
   */
  private stringTest(n: PlanNode, d: boolean): ((v: string) => boolean) | undefined {
    const { minLength: min, maxLength: max } = n;
    const re = n.pattern === undefined ? undefined : jsPattern(n.patternJs);
    const pattern = n.pattern === undefined ? undefined : (testOf(re) ?? this.engineCheck(n.pattern, d));
    const engineFormat = n.format === undefined ? undefined : this.engineCheck(n.format, d);
    const plain = n.formatName === undefined ? undefined : plainFormat(n.formatName);
    const format = engineFormat && plain ? (v: string) => plain.test(v) || engineFormat(v) : engineFormat;
    const lengths = min !== undefined || max !== undefined;
    if (!lengths && !pattern && !format) return undefined;
    if (!lengths && !format && re !== undefined) return (v) => re.test(v);
    if (!lengths && !pattern && format) return format;
    return (v) => {
      // A string has at most as many code points as UTF-16 units, and at least half.
      if (max !== undefined && v.length > max && codePoints(v) > max) return false;
      if (min !== undefined && (v.length < min || (v.length < 2 * min && codePoints(v) < min))) return false;
      if (pattern && !pattern(v)) return false;
      return !format || format(v);
    };
  }

  private numberCheck(n: PlanNode, d: boolean): Check | undefined {
    const test = this.numberTest(n, d);
    return test === undefined ? undefined : (v) => typeof v !== 'number' || test(v);
  }

  /** The number keywords of a node as one test of a number (`undefined`: none). */
  private numberTest(n: PlanNode, d: boolean): ((v: number) => boolean) | undefined {
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
      ([check, s, source]) => [testOf(jsPattern(source)) ?? this.engineCheck(check, false), this.nodeCheck(s, d)] as const,
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
