// JSON Schema validation of tool inputs and outputs (docs/spec.md §7,
// MCP Tool). The engine is a wasm module of its own (crates/toolresult-schema-wasm):
// nothing here loads it until a schema is compiled, so code that checks no JSON Schema never pays for it.
import { ToolResultError, type ToolResultErrorCode, type Outcome, quoteJson } from './errors.js';
import type {
  Issue,
  RegistryStats,
  SchemaIssue,
  SchemaOptions,
  ScreenOptions,
  ToolDefinition,
  ToolResult,
  ValidationOptions,
  ValidationReport,
} from './generated/types.js';
import { RebuiltHandle, schemaEngine, type SchemaWasm } from './runtime.js';
import { writeEngineInput } from './input.js';
import { applyScreen, screen } from './screen.js';
import { escapeLoneSurrogates, INPUT_LIMITS, toWireBytes, toWireText } from './wire.js';
import { PlanVerdict, SchemaPlan } from './schema-plan.js';

type Handle = InstanceType<SchemaWasm['CompiledSchema']>;
type RegistryHandle = InstanceType<SchemaWasm['ToolRegistry']>;

// Schemas and values cross as JSON text, checked on the way like envelopes.

function wire(value: unknown, code: ToolResultErrorCode, what: string): string {
  const w = toWireText(value, INPUT_LIMITS);
  if (w.issues) throw new ToolResultError(code, `${what} is not JSON data`, w.issues);
  return w.text;
}

/** A value as UTF-8 JSON text for the engine's input buffer (valid until the next call). */
function wireBytes(value: unknown, code: ToolResultErrorCode, what: string): Uint8Array {
  const w = toWireBytes(value, INPUT_LIMITS);
  if (w.issues) throw new ToolResultError(code, `${what} is not JSON data`, w.issues);
  return w.bytes;
}

/** JSON text for the engine; lone surrogates escaped so the parser names them. */
function jsonText(text: string | Uint8Array): string | Uint8Array {
  if (typeof text === 'string') return escapeLoneSurrogates(text);
  if (text instanceof Uint8Array) return text;
  const message = `expected JSON text (a string or a Uint8Array), got ${text === null ? 'null' : typeof text}`;
  throw new ToolResultError('invalid_value', 'the value is not JSON text', [{ path: '', code: 'unsupported_value', message }]);
}

function optionsText(options: SchemaOptions | undefined): string {
  if (options === undefined) return '';
  if (options === null || typeof options !== 'object') {
    throw new ToolResultError('invalid_options', 'schema options must be an object');
  }
  return wire(options, 'invalid_options', 'schema options');
}

/** The error code for issues from compiling or registering. */
function errorCode(issues: Issue[]): ToolResultErrorCode {
  const codes = new Set(issues.map((i) => i.code));
  if (codes.has('invalid_options')) return 'invalid_options';
  if (codes.has('invalid_definition')) return 'invalid_definition';
  if (codes.has('unknown_tool')) return 'unknown_tool';
  if (codes.has('invalid_json') || codes.has('duplicate_key') || codes.has('unsafe_integer') || codes.has('too_deep')) {
    return 'invalid_value';
  }
  return 'invalid_schema';
}

/** The error code when checking a value failed: the tool is unknown, or the value is not JSON data. */
function valueErrorCode(issues: Issue[]): ToolResultErrorCode {
  return issues.some((i) => i.code === 'unknown_tool') ? 'unknown_tool' : 'invalid_value';
}

/** The value of a wasm outcome, or a ToolResultError whose code `codeFor` picks from the issues. */
function unwrap<T>(json: string, what: string, codeFor: (issues: Issue[]) => ToolResultErrorCode = errorCode): T {
  const out = JSON.parse(json) as Outcome<T>;
  if (!out.ok) throw new ToolResultError(codeFor(out.issues), what, out.issues);
  return out.value;
}

/**
 * The plan of a schema from the engine's JSON text (`''`: none), its checks
 * run in batches through `runChecks`, which returns the handle's entry point
 * (fetched first, so the input is written after the handle exists).
 */
function planFrom(json: string, runChecks: () => (inputLength: number) => number): SchemaPlan | null {
  if (!json) return null;
  return new SchemaPlan(
    json,
    (batch) => {
      const text = JSON.stringify(batch);
      return schemaEngine.call((w) => {
        const run = runChecks();
        return run(writeEngineInput(w, text));
      });
    },
    INPUT_LIMITS,
  );
}

/**
 * Loads the JSON Schema engine. Node loads it by itself on first use; in
 * browsers call `await loadSchemaEngine()` (from "toolresult/web") before
 * compiling a schema. Safe to call more than once.
 */
export type LoadSchemaEngine = (module_or_path?: unknown) => Promise<void>;

/**
 * A JSON Schema compiled once, for validating many values. It is also a
 * Standard Schema v1 and a Standard JSON Schema v1 (`'~standard'`), so the
 * frameworks that take those (the AI SDK's `tool({ inputSchema })`, the MCP
 * SDK v2's `registerTool`, OpenAI Agents' `tool({ parameters })`) take it as
 * it is. `T` only types what `'~standard'` reports; nothing checks it.
 */
export class CompiledSchema<T = unknown> {
  readonly #schema: string;
  readonly #options: string;
  /** Standard Schema v1 + Standard JSON Schema v1 (standardschema.dev); see {@link CompiledSchemaStandard}. */
  readonly '~standard': CompiledSchemaStandard<T>;
  // A trap replaces the engine instance; recompiled from the kept source then.
  readonly #handle = new RebuiltHandle(schemaEngine, (): Handle => {
    const handle = schemaEngine.call((w) => new w.CompiledSchema(this.#schema, this.#options));
    const error = schemaEngine.call(() => handle.error());
    if (error) {
      handle.free();
      const issues = JSON.parse(error) as Issue[];
      throw new ToolResultError(errorCode(issues), 'the schema does not compile', issues);
    }
    return handle;
  });

  /** @internal use `compileSchema` */
  constructor(schemaText: string, optionsTextValue: string) {
    this.#schema = schemaText;
    this.#options = optionsTextValue;
    this.#current();
    const toJsonSchema = (options: StandardJsonSchemaOptions) => standardJsonSchema(this.#schema, this.#options, options);
    this['~standard'] = {
      version: 1,
      vendor: 'toolresult',
      validate: (value: unknown) => this.#standardValidate(value),
      jsonSchema: { input: toJsonSchema, output: toJsonSchema },
    };
  }

  /** @internal The JSON text of the schema and of its options (the MCP adapter registers them in a ToolRegistry). */
  get source(): { schema: string; options: string } {
    return { schema: this.#schema, options: this.#options };
  }

  // Standard Schema's `validate`: synchronous, and never a throw for a value
  // that is not JSON data (that is an issue like any other).
  #standardValidate(value: unknown): StandardResult<T> {
    let issues: { path: string; message: string }[];
    try {
      issues = this.validate(value);
    } catch (e) {
      if (!(e instanceof ToolResultError) || e.code !== 'invalid_value') throw e;
      issues = e.issues.length > 0 ? e.issues : [{ path: '', message: e.message }];
    }
    if (issues.length === 0) return { value: value as T };
    return { issues: issues.map((i) => ({ message: i.message, path: standardPath(value, i.path) })) };
  }

  #current(): Handle {
    return this.#handle.get();
  }

  // The schema's plan (docs/internals/schema-plan.md), fetched on the first value;
  // null when the schema uses what a plan does not cover.
  #plan: SchemaPlan | null | undefined;

  #ensurePlan(): SchemaPlan | null {
    if (this.#plan === undefined) {
      this.#plan = planFrom(
        schemaEngine.call(() => this.#current().plan()),
        () => {
          const handle = this.#current();
          return (length) => handle.run_plan_checks_input(length);
        },
      );
    }
    return this.#plan;
  }

  #planned(value: unknown): PlanVerdict {
    const plan = this.#ensurePlan();
    return plan === null ? PlanVerdict.Fallback : plan.evaluate(value);
  }

  /** @internal The plan's JSON text, `''` when there is none (tests read which patterns run in JS). */
  get planJson(): string {
    return schemaEngine.call(() => this.#current().plan());
  }

  /** @internal Whether values are judged through a plan (tests and the bench report coverage). */
  get planCovered(): boolean {
    return this.#ensurePlan() !== null;
  }

  /**
   * Whether `value` satisfies the schema (stops at the first failure). The
   * value is checked where it lives, through the schema's plan
   * (docs/internals/schema-plan.md); what the plan cannot judge goes to the engine as
   * JSON text, with the same verdict.
   */
  isValid(value: unknown): boolean {
    const planned = this.#planned(value);
    if (planned !== PlanVerdict.Fallback) return planned === PlanVerdict.Valid;
    // The bytes stay valid until the next value is written: nothing writes one in between.
    const bytes = wireBytes(value, 'invalid_value', 'the value');
    const verdict = this.#verdict(bytes);
    if (verdict === 2) this.#issues(bytes, 'the value is not acceptable JSON'); // throws with the value's issues
    return verdict === 0;
  }

  /**
   * Every way `value` fails the schema (`[]` when it is valid), in document
   * order. A valid value is recognized through the plan; the issues of an
   * invalid one come from the engine, the same as for its JSON text.
   */
  validate(value: unknown): SchemaIssue[] {
    if (this.#planned(value) === PlanVerdict.Valid) return [];
    return this.#issues(wireBytes(value, 'invalid_value', 'the value'), 'the value is not acceptable JSON');
  }

  /**
   * Like `isValid`, for a value given as JSON text (a string or UTF-8 bytes),
   * as tool outputs often arrive: the text goes straight to the engine, with
   * no `JSON.parse` and no walk over a JS value. Text that is not acceptable
   * JSON (malformed, duplicate keys, integers beyond 2^53, lone surrogates,
   * too deep or large) throws a `ToolResultError` (`invalid_value`) with the
   * issues.
   */
  isValidJson(text: string | Uint8Array): boolean {
    const input = jsonText(text);
    const verdict = this.#verdict(input);
    if (verdict === 2) this.validateJson(input); // throws with the text's issues
    return verdict === 0;
  }

  /** Like `validate`, for a value given as JSON text (see `isValidJson`). */
  validateJson(text: string | Uint8Array): SchemaIssue[] {
    return this.#issues(jsonText(text), 'the text is not acceptable JSON');
  }

  // 0 valid, 1 invalid, 2 not acceptable JSON: the input goes through the
  // engine's input buffer, written after the handle exists.
  #verdict(input: string | Uint8Array): number {
    return schemaEngine.call((w) => {
      const handle = this.#current();
      return handle.is_valid_input(writeEngineInput(w, input));
    });
  }

  #issues(input: string | Uint8Array, what: string): SchemaIssue[] {
    const report = schemaEngine.call((w) => {
      const handle = this.#current();
      return handle.validate_input(writeEngineInput(w, input));
    });
    // The schema compiled, so whatever is wrong is the value.
    return unwrap<SchemaIssue[]>(report, what, () => 'invalid_value');
  }

  /** Releases the wasm memory now rather than when garbage-collected. */
  free(): void {
    this.#handle.free();
  }
}

/**
 * Compiles a JSON Schema (2020-12 by default; `$schema` picks 2019-09 or
 * draft-07). Throws a `ToolResultError` (`invalid_schema`) whose issues say
 * what is wrong and where: `invalid_schema`, `unknown_dialect`,
 * `unresolvable_ref` (a `$ref` to a document not in `options.documents`;
 * nothing is ever fetched).
 */
export function compileSchema<T = unknown>(schema: unknown, options?: SchemaOptions): CompiledSchema<T> {
  return new CompiledSchema<T>(wire(schema, 'invalid_schema', 'the schema'), optionsText(options));
}

/** What `ToolRegistry.register` accepts: a ToolDefinition (docs/spec.md §7) or an MCP `Tool`. */
export type ToolDefinitionInput = ToolDefinition | { name: string; inputSchema?: unknown; outputSchema?: unknown; [k: string]: unknown };

/** An MCP `CallToolResult` (the fields the output check reads). */
export interface McpCallToolResultLike {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  [k: string]: unknown;
}

/**
 * Tool definitions by name, their schemas compiled once and cached by content
 * hash: registering the same schema again costs nothing; a changed schema
 * replaces the old one.
 */
export class ToolRegistry {
  readonly #options: string;
  // Kept as JSON text so a trapped engine instance can be rebuilt.
  readonly #definitions = new Map<string, string>();
  // A trap replaces the engine instance; rebuilt from the kept definitions then.
  readonly #handle = new RebuiltHandle(schemaEngine, (): RegistryHandle => {
    const handle = schemaEngine.call((w) => new w.ToolRegistry(this.#options));
    const error = schemaEngine.call(() => handle.error());
    if (error) {
      handle.free();
      throw new ToolResultError('invalid_options', 'invalid schema options', JSON.parse(error) as Issue[]);
    }
    for (const text of this.#definitions.values()) schemaEngine.call(() => handle.register(text));
    return handle;
  });

  constructor(options?: SchemaOptions) {
    this.#options = optionsText(options);
    this.#current();
  }

  #current(): RegistryHandle {
    return this.#handle.get();
  }

  // The plans of the tools' schemas (docs/internals/schema-plan.md), by "o:"/"i:" + name,
  // fetched on first use; null when a schema has none. Dropped when the tool
  // is registered again or unregistered.
  readonly #plans = new Map<string, SchemaPlan | null>();

  /** Valid when the tool's schema has a plan that finds `value` valid; else the engine must say. */
  #planned(name: string, output: boolean, value: unknown): boolean {
    if (!this.#definitions.has(name)) return false;
    const key = `${output ? 'o' : 'i'}:${name}`;
    let plan = this.#plans.get(key);
    if (plan === undefined) {
      plan = planFrom(
        schemaEngine.call(() => this.#current().plan(name, output)),
        () => {
          const handle = this.#current();
          return (length) => handle.run_plan_checks_input(name, output, length);
        },
      );
      this.#plans.set(key, plan);
    }
    return plan !== null && plan.evaluate(value) === PlanVerdict.Valid;
  }

  #forgetPlans(name: string): void {
    this.#plans.delete(`o:${name}`);
    this.#plans.delete(`i:${name}`);
  }

  /**
   * Registers a tool (or replaces the one of the same name). Throws
   * `invalid_definition` or `invalid_schema`, with paths into the definition.
   */
  register(definition: ToolDefinitionInput): this {
    if (definition === null || typeof definition !== 'object' || Array.isArray(definition)) {
      throw new ToolResultError('invalid_definition', 'a tool definition is an object with a name');
    }
    const text = wire(definition, 'invalid_definition', 'the tool definition');
    unwrap<null>(
      schemaEngine.call(() => this.#current().register(text)),
      'the tool definition is not usable',
    );
    this.#definitions.set(String(definition.name), text);
    this.#forgetPlans(String(definition.name));
    return this;
  }

  unregister(name: string): boolean {
    this.#definitions.delete(name);
    this.#forgetPlans(name);
    return schemaEngine.call(() => this.#current().unregister(name));
  }

  has(name: string): boolean {
    return this.#definitions.has(name);
  }

  /** The definition as registered (snake_case field names). */
  get(name: string): ToolDefinition | undefined {
    const json = schemaEngine.call(() => this.#current().definition(name));
    return json ? (JSON.parse(json) as ToolDefinition) : undefined;
  }

  names(): string[] {
    return JSON.parse(schemaEngine.call(() => this.#current().names())) as string[];
  }

  /** Tools, distinct compiled schemas, compiles and cache hits. */
  stats(): RegistryStats {
    return JSON.parse(schemaEngine.call(() => this.#current().stats())) as RegistryStats;
  }

  /**
   * Checks an output against the tool's output schema. `undefined` means no
   * output, which is an issue (`missing_output`) when the tool has an output
   * schema. Throws `unknown_tool` for an unregistered name.
   */
  validateOutput(name: string, output: unknown): ValidationReport {
    // A valid output is recognized through the schema's plan; the issues of
    // an invalid one come from the engine (docs/internals/schema-plan.md).
    if (output !== undefined && this.#planned(String(name), true, output)) return { ok: true, issues: [] };
    const text = output === undefined ? undefined : wireBytes(output, 'invalid_value', 'the output');
    const report = schemaEngine.call((w) => {
      const handle = this.#current();
      return handle.validate_output(String(name), text === undefined ? -1 : writeEngineInput(w, text));
    });
    return unwrap(report, 'cannot validate the output', valueErrorCode);
  }

  /** Checks call parameters against the tool's input schema (a failure is status `validation_error`). */
  validateInput(name: string, parameters: unknown): ValidationReport {
    if (this.#planned(String(name), false, parameters)) return { ok: true, issues: [] };
    const text = wireBytes(parameters, 'invalid_value', 'the parameters');
    const report = schemaEngine.call((w) => {
      const handle = this.#current();
      return handle.validate_input(String(name), writeEngineInput(w, text));
    });
    return unwrap(report, 'cannot validate the input', valueErrorCode);
  }

  /**
   * The result flow (docs/spec.md). A `success` result whose output fails its tool's
   * output schema comes back as `output_validation_failed`, error_code
   * `OUTPUT_VALIDATION_FAILED`, an error message and the issues in
   * `validation_issues` (the output is kept). Other results, and results of
   * tools without an output schema, come back unchanged. Throws
   * `invalid_tool_result` for an invalid envelope and `unknown_tool`.
   *
   * With `screen: true` (or screen options) the result is also screened
   * (docs/screen.md): a rejected result comes back as `security_violation`,
   * error_code `UNSAFE_OUTPUT`, secrets redacted, and the findings in
   * `meta.screen`; an accepted one gains `meta.screen` too.
   */
  checkResult(result: ToolResult | string, options?: ValidationOptions & { screen?: boolean | ScreenOptions }): ToolResult {
    const text = typeof result === 'string' ? result : wire(result, 'invalid_tool_result', 'the result');
    const { screen: screenOption, ...validation } = options ?? {};
    const opts = options === undefined ? '' : wire(validation, 'invalid_options', 'validation options');
    const out = JSON.parse(schemaEngine.call(() => this.#current().check_result(text, opts))) as Outcome<ToolResult>;
    if (!out.ok) {
      const code = out.issues.some((i) => i.code === 'unknown_tool') ? 'unknown_tool' : 'invalid_tool_result';
      throw new ToolResultError(code, code === 'unknown_tool' ? 'unknown tool' : 'invalid ToolResult', out.issues);
    }
    if (screenOption === undefined || screenOption === false) return out.value;
    const screenOptions: ScreenOptions = screenOption === true ? {} : screenOption;
    const report = screen(out.value, { ...screenOptions, tool_name: screenOptions.tool_name ?? out.value.input.tool_name });
    return applyScreen(out.value, report);
  }

  /**
   * MCP's rule for a `CallToolResult`: an `isError` result is not checked; a
   * tool with an output schema must return `structuredContent` that conforms.
   */
  validateMcpResult(name: string, result: McpCallToolResultLike): ValidationReport {
    if (result === null || typeof result !== 'object') {
      throw new ToolResultError('invalid_value', 'a CallToolResult is an object');
    }
    if (result.isError === true) return { ok: true, issues: [] };
    return this.validateOutput(name, result.structuredContent);
  }

  /** Releases the wasm memory now rather than when garbage-collected. */
  free(): void {
    this.#handle.free();
  }
}

// ---------------------------------------------------------------------------
// Standard Schema v1 and Standard JSON Schema v1 (standardschema.dev), on
// `CompiledSchema['~standard']`. The interfaces are written out here, as the
// spec suggests, so the package needs no `@standard-schema/spec`.

/** A Standard Schema issue: what is wrong, and where (object keys and array indices). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey>;
}

/** What Standard Schema's `validate` returns: the value, or the issues. */
export type StandardResult<T> = { readonly value: T; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };

/** A Standard JSON Schema target (the spec names `draft-2020-12`, `draft-07` and `openapi-3.0`). */
export type StandardJsonSchemaTarget = 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & Record<never, never>);

/** What Standard JSON Schema's `input` / `output` take. */
export interface StandardJsonSchemaOptions {
  readonly target: StandardJsonSchemaTarget;
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/**
 * `compiled['~standard']`: Standard Schema v1 (`version`, `vendor`, a
 * synchronous `validate`) and Standard JSON Schema v1 (`jsonSchema.input` /
 * `jsonSchema.output`, both the same: a JSON Schema describes the value both
 * ways).
 *
 * `validate(value)` returns `{ value }` or `{ issues: [{ message, path }] }`,
 * `path` the issue's JSON Pointer as keys (unescaped) and array indices
 * (numbers). A value that is not JSON data (NaN, a function, a cycle, ...) is
 * an issue, not a throw.
 *
 * `jsonSchema.input({ target })` returns the schema itself (a fresh copy) for
 * the target of its own dialect. For another of `draft-2020-12`,
 * `draft-2019-09` and `draft-07` it returns the schema (with `$schema`, if
 * declared, naming the target) only when every keyword in it means the same
 * there — what most tool schemas are (`type`, `properties`, `required`,
 * `enum`, `items` as one schema, ...); the AI SDK asks for `draft-07`, MCP
 * SDK v2 and OpenAI Agents for `draft-2020-12`. Otherwise, and for
 * `openapi-3.0` and unknown targets, it throws a `ToolResultError`
 * (`unsupported_value` with a JSON Pointer per keyword that has no equal
 * meaning, or `invalid_options` for the target), as the spec says a
 * converter should. A schema compiled with `documents` throws too: the
 * documents it refers to are not part of it.
 */
export interface CompiledSchemaStandard<T = unknown> {
  readonly version: 1;
  readonly vendor: 'toolresult';
  readonly validate: (value: unknown, options?: { readonly libraryOptions?: Record<string, unknown> | undefined }) => StandardResult<T>;
  readonly jsonSchema: {
    readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  };
  /** Types only (never set at runtime), for Standard Schema's `InferInput` / `InferOutput`. */
  readonly types?: { readonly input: T; readonly output: T } | undefined;
}

type DialectName = '2020-12' | '2019-09' | 'draft-07';

const TARGET_DIALECT: Record<string, DialectName> = { 'draft-2020-12': '2020-12', 'draft-2019-09': '2019-09', 'draft-07': 'draft-07' };

const META_SCHEMA: Record<DialectName, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

/** The dialect a `$schema` URI names (http or https, with or without an empty fragment), as the engine reads it. */
function dialectOfUri(uri: string): DialectName | undefined {
  const rest = uri.replace(/#$/, '').replace(/^https?:\/\//, '');
  if (rest === 'json-schema.org/draft/2020-12/schema') return '2020-12';
  if (rest === 'json-schema.org/draft/2019-09/schema') return '2019-09';
  if (rest === 'json-schema.org/draft-07/schema') return 'draft-07';
  return undefined;
}

// Keywords whose meaning exists only in some dialects: anywhere else they are
// ignored (or mean something else), so a schema using them has no equal form there.
const KEYWORD_DIALECTS: Record<string, readonly DialectName[]> = {
  prefixItems: ['2020-12'],
  $dynamicRef: ['2020-12'],
  $dynamicAnchor: ['2020-12'],
  $recursiveRef: ['2019-09'],
  $recursiveAnchor: ['2019-09'],
  additionalItems: ['2019-09', 'draft-07'],
  dependencies: ['draft-07'],
  dependentRequired: ['2020-12', '2019-09'],
  dependentSchemas: ['2020-12', '2019-09'],
  unevaluatedItems: ['2020-12', '2019-09'],
  unevaluatedProperties: ['2020-12', '2019-09'],
  minContains: ['2020-12', '2019-09'],
  maxContains: ['2020-12', '2019-09'],
  $anchor: ['2020-12', '2019-09'],
};

// Beside `$ref`, draft-07 ignores every keyword; 2019-09 and 2020-12 apply
// them. These change nothing either way.
const BESIDE_REF = new Set([
  '$ref',
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$defs',
  'definitions',
]);

// Where subschemas are: as values of a map, as one value, as an array.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_ONE = new Set([
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Every keyword of `schema` (written in `source`) whose meaning differs in
 * `target` — known in one dialect and not the other — with its JSON Pointer.
 */
function unportable(schema: unknown, source: DialectName, target: DialectName, pointer: string, out: Issue[]): Issue[] {
  if (!isObject(schema)) return out;
  const keys = Object.keys(schema);
  const say = (key: string, why: string) =>
    out.push({
      path: `${pointer}/${escapePointer(key)}`,
      code: 'unsupported_value',
      message: `\`${key}\` ${why}, so this ${source} schema has no ${target} form with the same meaning`,
    });
  const draft07Differs = (source === 'draft-07') !== (target === 'draft-07');
  for (const key of keys) {
    const value = schema[key];
    const only = KEYWORD_DIALECTS[key];
    if (only && only.includes(source) !== only.includes(target)) say(key, `is a keyword of ${only.join(' and ')} only`);
    if (key === 'items' && Array.isArray(value) && target === '2020-12')
      say(key, 'as an array is the tuple form of draft-07 and 2019-09 (prefixItems in 2020-12)');
    if (key === '$id' && typeof value === 'string' && value.startsWith('#') && draft07Differs)
      say(key, 'as a plain-name fragment is an anchor in draft-07 only');
    if (key === '$ref' && draft07Differs && keys.some((k) => !BESIDE_REF.has(k)))
      say(key, 'has keywords beside it, which draft-07 ignores and later dialects apply');
    const at = `${pointer}/${escapePointer(key)}`;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      for (const [k, sub] of Object.entries(value)) unportable(sub, source, target, `${at}/${escapePointer(k)}`, out);
    } else if (SCHEMA_ONE.has(key) || (key === 'items' && !Array.isArray(value))) {
      unportable(value, source, target, at, out);
    } else if ((SCHEMA_LISTS.has(key) || key === 'items') && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) unportable(sub, source, target, `${at}/${i}`, out);
    } else if (key === 'dependencies' && isObject(value)) {
      for (const [k, sub] of Object.entries(value)) if (!Array.isArray(sub)) unportable(sub, source, target, `${at}/${escapePointer(k)}`, out);
    }
  }
  return out;
}

const SUPPORTED_TARGETS = 'draft-2020-12, draft-2019-09 and draft-07';

/** Standard JSON Schema's converter (see {@link CompiledSchemaStandard}). */
function standardJsonSchema(schemaText: string, optionsTextValue: string, options: StandardJsonSchemaOptions): Record<string, unknown> {
  const target = options !== null && typeof options === 'object' ? options.target : undefined;
  const wanted = typeof target === 'string' && Object.hasOwn(TARGET_DIALECT, target) ? TARGET_DIALECT[target] : undefined;
  if (wanted === undefined) {
    const message = `no JSON Schema for target ${quoteJson(target)}: this schema answers ${SUPPORTED_TARGETS}`;
    throw new ToolResultError('invalid_options', message, [{ path: '/target', code: 'invalid_options', message }]);
  }
  const schema = JSON.parse(schemaText) as unknown;
  const options_ = optionsTextValue === '' ? {} : (JSON.parse(optionsTextValue) as SchemaOptions);
  if (options_.documents && Object.keys(options_.documents).length > 0) {
    const message = 'this schema was compiled with `documents`, which a JSON Schema consumer would not have: bundle them into `$defs` and compile that';
    throw new ToolResultError('unsupported_value', `no self-contained JSON Schema for target ${target}`, [{ path: '', code: 'unsupported_value', message }]);
  }
  // A boolean schema as an object: `true` accepts everything, `false` nothing.
  if (typeof schema === 'boolean') return schema ? {} : { not: {} };
  const root = schema as Record<string, unknown>;
  const declared = root.$schema;
  const source = typeof declared === 'string' ? dialectOfUri(declared) : (options_.defaultDialect ?? '2020-12');
  if (source === undefined) {
    const message = `\`$schema\` names a custom meta-schema; only schemas of ${SUPPORTED_TARGETS} can be given as JSON Schema`;
    throw new ToolResultError('unsupported_value', `no JSON Schema for target ${target}`, [{ path: '/$schema', code: 'unsupported_value', message }]);
  }
  if (source === wanted) return root;
  const issues = unportable(root, source, wanted, '', []);
  if (issues.length > 0) throw new ToolResultError('unsupported_value', `no ${target} JSON Schema with the same meaning`, issues);
  if (typeof declared === 'string') root.$schema = META_SCHEMA[wanted];
  return root;
}

/** An issue's JSON Pointer as Standard Schema path segments: keys unescaped, array indices as numbers. */
function standardPath(value: unknown, pointer: string): PropertyKey[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return [pointer];
  const path: PropertyKey[] = [];
  let at: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(key)) {
      path.push(Number(key));
      at = at[Number(key)];
    } else {
      path.push(key);
      at = isObject(at) && Object.hasOwn(at, key) ? at[key] : undefined;
    }
  }
  return path;
}
