// The package API. Every call crosses into wasm as JSON text and comes back as
// JSON text (see crates/toolresult-wasm); values handed back are fresh, plain
// JSON data parsed by the JS engine.
import { ToolResultError, type Outcome, quoteText } from './errors.js';
import type {
  AgentResult,
  Issue,
  IssueCode,
  IssueLevel,
  StatusInfo,
  ToolInput,
  ToolMetadata,
  ToolResult,
  ToolResultMetadata,
  ToolSideEffect,
  ToolStatus,
  AgentStatus,
  ValidationOptions,
  SourceLocation,
} from './generated/types.js';
import { readIssues, writeInput } from './input.js';
import { bindings, call, onInstall, type Wasm } from './runtime.js';
import { escapeLoneSurrogates, INPUT_LIMITS, toWireBytes, toWireText, tooLargeIssue, type WireLimits } from './wire.js';

type ValidatorHandle = InstanceType<Wasm['Validator']>;

/** What validation returns: the value, or every issue found. */
/** What `validateAgentResult` / `validateToolResult` return (the package's `Outcome`). */
export type ValidationResult<T> = Outcome<T>;

/** Accepted input: JSON text (the fast path), UTF-8 JSON bytes, or a JS value. */
export type ResultInput = string | Uint8Array | unknown;

type Kind = 0 | 1;
const AGENT: Kind = 0;
const TOOL: Kind = 1;

interface Compiled {
  validator: ValidatorHandle;
  limits: WireLimits;
}

// Compiled validators by kind + options; default options are the common case.
const validators = new Map<string, Compiled>();
const MAX_CACHED_VALIDATORS = 64;
// The default-options validators, by kind: the hot path skips the map.
const defaultValidators: (Compiled | undefined)[] = [];
let defaults: Required<ValidationOptions> | undefined;
onInstall(() => {
  validators.clear();
  defaultValidators.length = 0;
  defaults = undefined;
});

/** The default validation options: the documented limits. */
export function defaultOptions(): Required<ValidationOptions> {
  defaults ??= JSON.parse(call((w) => w.default_options())) as Required<ValidationOptions>;
  return { ...defaults, extraAgentTypes: [...defaults.extraAgentTypes] };
}

function compiled(kind: Kind, options: ValidationOptions | undefined): Compiled {
  if (options === undefined) {
    return (defaultValidators[kind] ??= compiledFor(kind, undefined));
  }
  return compiledFor(kind, options);
}

function compiledFor(kind: Kind, options: ValidationOptions | undefined): Compiled {
  const optionsJson = options === undefined ? '' : optionsText(options);
  const key = `${kind}:${optionsJson}`;
  let entry = validators.get(key);
  if (entry) return entry;
  const w = bindings();
  let limits: WireLimits = INPUT_LIMITS;
  // Without options there is nothing to check and the limits are the defaults:
  // two wasm calls fewer in the first validation of a process.
  if (options !== undefined) {
    const problems = call(() => w.check_options(kind, optionsJson));
    if (problems) {
      throw new ToolResultError('invalid_options', 'invalid validation options', JSON.parse(problems) as Issue[]);
    }
    const merged = { ...defaultOptions(), ...options };
    limits = { maxBytes: merged.maxBytes, maxDepth: merged.maxDepth };
  }
  entry = { validator: call(() => new w.Validator(kind, optionsJson)), limits };
  if (validators.size >= MAX_CACHED_VALIDATORS) {
    const oldest = validators.keys().next().value as string;
    validators.get(oldest)?.validator.free();
    validators.delete(oldest);
  }
  validators.set(key, entry);
  return entry;
}

function optionsText(options: ValidationOptions): string {
  if (options === null || typeof options !== 'object') {
    throw new ToolResultError('invalid_options', 'options must be an object', [
      { path: '', code: 'invalid_options', message: `expected an options object, got ${options === null ? 'null' : typeof options}` },
    ]);
  }
  const wire = toWireText(options, { maxBytes: 1 << 20, maxDepth: 4 });
  if (wire.issues) throw new ToolResultError('invalid_options', 'invalid validation options', wire.issues);
  return wire.text;
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * A valid result whose `value` is parsed by the JS engine on first read (a
 * prototype getter: no closure per call on the hot path). After the first
 * read `value` is an own data property; `toJSON` gives `{ ok, value }`.
 */
class Valid<T> {
  readonly ok = true as const;
  #source: string | Uint8Array | undefined;

  constructor(source: string | Uint8Array) {
    this.#source = source;
  }

  get value(): T {
    const source = this.#source as string | Uint8Array;
    const value = JSON.parse(typeof source === 'string' ? source : decoder.decode(source)) as T;
    this.#source = undefined;
    Object.defineProperty(this, 'value', { value, enumerable: true, writable: true, configurable: true });
    return value;
  }

  toJSON(): { ok: true; value: T } {
    return { ok: true, value: this.value };
  }
}

function validate<T>(kind: Kind, input: ResultInput, options?: ValidationOptions): ValidationResult<T> {
  const { validator, limits } = compiled(kind, options);
  let text: string | Uint8Array;
  if (typeof input === 'string') {
    // UTF-8 needs at least one byte per UTF-16 unit: refuse before copying.
    if (input.length > limits.maxBytes) return { ok: false, issues: [tooLargeIssue(limits.maxBytes, input.length)] };
    text = escapeLoneSurrogates(input);
  } else if (input instanceof Uint8Array) {
    if (input.length > limits.maxBytes) return { ok: false, issues: [tooLargeIssue(limits.maxBytes, input.length)] };
    text = input;
  } else {
    const wire = toWireBytes(input, limits);
    if (wire.issues) return { ok: false, issues: wire.issues };
    text = wire.bytes;
  }
  const source = text;
  const scratch = source !== input && typeof source !== 'string';
  return call((w) => {
    const found = validator.check_input(writeInput(w, source));
    if (found !== 0) return { ok: false, issues: readIssues(w, found) as Issue[] };
    // The writer's bytes are reused by the next call: keep a copy.
    return new Valid<T>(scratch ? (source as Uint8Array).slice() : source);
  });
}

/**
 * Validates an AgentResult v1 (docs/spec.md §1). Every issue is reported. On success
 * `value` is a fresh plain copy, parsed by the JS engine when first read.
 */
export function validateAgentResult(input: ResultInput, options?: ValidationOptions): ValidationResult<AgentResult> {
  return validate<AgentResult>(AGENT, input, options);
}

/** Validates a ToolResult v1 (docs/spec.md §2). Every issue is reported. */
export function validateToolResult(input: ResultInput, options?: ValidationOptions): ValidationResult<ToolResult> {
  return validate<ToolResult>(TOOL, input, options);
}

/** Returns the AgentResult or throws a `ToolResultError` (`invalid_agent_result`). */
export function parseAgentResult(input: ResultInput, options?: ValidationOptions): AgentResult {
  const r = validateAgentResult(input, options);
  if (!r.ok) throw new ToolResultError('invalid_agent_result', 'invalid AgentResult', r.issues);
  return r.value;
}

/** Returns the ToolResult or throws a `ToolResultError` (`invalid_tool_result`). */
export function parseToolResult(input: ResultInput, options?: ValidationOptions): ToolResult {
  const r = validateToolResult(input, options);
  if (!r.ok) throw new ToolResultError('invalid_tool_result', 'invalid ToolResult', r.issues);
  return r.value;
}

/** A time as RFC 3339 text, a `Date`, or milliseconds since the epoch. */
export type TimeInput = string | Date | number;

type MetadataSpec = Partial<
  Pick<
    ToolResultMetadata,
    | 'execution_id'
    | 'output_truncated'
    | 'sandbox_id'
    | 'resource_metrics'
    | 'execution_metrics'
    | 'agent_id'
    | 'user_id'
    | 'batch_id'
    | 'batch_index'
    | 'correlation_id'
    | 'duration_ms'
  >
>;

/** What `createSuccess` needs; everything but `input` is optional. */
export interface SuccessSpec extends MetadataSpec {
  input: Omit<ToolInput, 'parameters'> & Partial<Pick<ToolInput, 'parameters'>>;
  output?: unknown;
  side_effects?: ToolSideEffect[];
  /** Content blocks shown to the model (MCP `ContentBlock`s). */
  content?: ToolResult['content'];
  /** Protocol metadata (MCP `_meta`). */
  meta?: ToolResult['meta'];
  /** Typed per-tool data (schema_version 1.1.0, stamped when given). */
  tool_metadata?: ToolMetadata;
  /** Defaults to `completed_at - duration_ms`, or `completed_at`. */
  started_at?: TimeInput;
  /** Defaults to now. */
  completed_at?: TimeInput;
}

/** What `createFailure` needs: a failure status, an error code and message. */
export interface FailureSpec extends SuccessSpec {
  status: Exclude<ToolStatus, 'success'>;
  error_code: string;
  error_message: string;
}

function isoTime(t: TimeInput | undefined): string | undefined {
  if (t === undefined || typeof t === 'string') return t;
  const d = t instanceof Date ? t : new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString();
}

function build(failure: boolean, spec: SuccessSpec | FailureSpec): ToolResult {
  if (spec === null || typeof spec !== 'object') {
    throw new ToolResultError('invalid_spec', 'createSuccess/createFailure take a spec object', [
      { path: '', code: 'invalid_type', message: `expected a spec object, got ${spec === null ? 'null' : typeof spec}` },
    ]);
  }
  const withTimes = { ...spec, started_at: isoTime(spec.started_at), completed_at: isoTime(spec.completed_at) };
  const wire = toWireText(withTimes, { maxBytes: defaultOptions().maxBytes, maxDepth: defaultOptions().maxDepth });
  if (wire.issues) throw new ToolResultError('invalid_spec', 'invalid build spec', wire.issues);
  const out = JSON.parse(call((w) => w.create_tool_result(failure, wire.text, Date.now()))) as Outcome<ToolResult>;
  if (!out.ok) throw new ToolResultError('invalid_spec', 'invalid build spec', out.issues);
  return out.value;
}

/**
 * Builds a `success` ToolResult (docs/spec.md §8): stamps a UUID v4
 * execution_id, started_at / completed_at / duration_ms and output_size (bytes
 * of the compact JSON output). The result always validates.
 */
export function createSuccess(spec: SuccessSpec): ToolResult {
  return build(false, spec);
}

/** Builds a failed ToolResult (docs/spec.md §8). The result always validates. */
export function createFailure(spec: FailureSpec): ToolResult {
  return build(true, spec);
}

/**
 * What a status means: its numeric code and category (docs/spec.md §3), and whether it is
 * a success, terminal, and worth retrying. Tool statuses are looked up first;
 * `kind: 'agent'` picks the agent set (pending, queued, running, ...).
 */
export function statusInfo(status: ToolStatus | AgentStatus, kind?: 'tool' | 'agent'): StatusInfo {
  const name = String(status);
  const found = call((w) => (kind === 'agent' ? w.status_info(name, AGENT) : w.status_info(name, TOOL) || (kind ? '' : w.status_info(name, AGENT))));
  if (!found) {
    throw new ToolResultError('unknown_status', `unknown ${kind ?? 'tool or agent'} status ${quoteText(name, '`')}`);
  }
  return JSON.parse(found) as StatusInfo;
}

/** Every issue code with its level (input, shape, meaning) and description. */
export function issueCodes(): { code: IssueCode; level: IssueLevel; description: string }[] {
  return JSON.parse(call((w) => w.issue_codes()));
}

/**
 * Where the value at a JSON Pointer (an issue's `path`) sits in JSON text, for
 * highlighting: UTF-16 `offset`/`end` (string indices), 1-based `line` and
 * `column`. Works on text that does not parse, as far as it goes: when the
 * pointer is not found whole (a missing field, a syntax error on the way),
 * `found` is false and the location is the deepest value reached, named by
 * `pointer`. An ill-formed pointer throws `invalid_options`.
 */
export function locate(text: string, pointer: string): SourceLocation {
  if (typeof text !== 'string' || typeof pointer !== 'string') {
    throw new ToolResultError('invalid_options', 'locate(text, pointer) takes two strings');
  }
  const out = JSON.parse(call((w) => w.locate(text, pointer))) as Outcome<SourceLocation>;
  if (!out.ok) throw new ToolResultError('invalid_options', 'invalid JSON Pointer', out.issues);
  return out.value;
}
