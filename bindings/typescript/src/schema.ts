// JSON Schema validation of tool inputs and outputs (docs/spec.md §7,
// MCP Tool). The engine is a wasm module of its own (crates/toolresult-schema-wasm):
// nothing here loads it until a schema is compiled, so code that checks no JSON Schema never pays for it.
import { ToolResultError, type ToolResultErrorCode, type Outcome } from './errors.js';
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
 * Loads the JSON Schema engine. Node loads it by itself on first use; in
 * browsers call `await loadSchemaEngine()` (from "toolresult/web") before
 * compiling a schema. Safe to call more than once.
 */
export type LoadSchemaEngine = (module_or_path?: unknown) => Promise<void>;

/** A JSON Schema compiled once, for validating many values. */
export class CompiledSchema {
  readonly #schema: string;
  readonly #options: string;
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
  }

  #current(): Handle {
    return this.#handle.get();
  }

  /** Whether `value` satisfies the schema (stops at the first failure). */
  isValid(value: unknown): boolean {
    const verdict = this.#verdict(wireBytes(value, 'invalid_value', 'the value'));
    if (verdict === 2) this.validate(value); // throws with the value's issues
    return verdict === 0;
  }

  /** Every way `value` fails the schema (`[]` when it is valid), in document order. */
  validate(value: unknown): SchemaIssue[] {
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
export function compileSchema(schema: unknown, options?: SchemaOptions): CompiledSchema {
  return new CompiledSchema(wire(schema, 'invalid_schema', 'the schema'), optionsText(options));
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
    return this;
  }

  unregister(name: string): boolean {
    this.#definitions.delete(name);
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
    const text = output === undefined ? undefined : wireBytes(output, 'invalid_value', 'the output');
    const report = schemaEngine.call((w) => {
      const handle = this.#current();
      return handle.validate_output(String(name), text === undefined ? -1 : writeEngineInput(w, text));
    });
    return unwrap(report, 'cannot validate the output', valueErrorCode);
  }

  /** Checks call parameters against the tool's input schema (a failure is status `validation_error`). */
  validateInput(name: string, parameters: unknown): ValidationReport {
    const text = wireBytes(parameters, 'invalid_value', 'the parameters');
    const report = schemaEngine.call((w) => {
      const handle = this.#current();
      return handle.validate_input(String(name), writeEngineInput(w, text));
    });
    return unwrap(report, 'cannot validate the input', valueErrorCode);
  }

  /**
   * Seed 000's result flow. A `success` result whose output fails its tool's
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
