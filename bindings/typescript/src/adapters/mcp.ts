// `toolresult/mcp`: the MCP TypeScript SDK, both majors (`@modelcontextprotocol/sdk`
// ≥ 1.32, `@modelcontextprotocol/server` / `client` ≥ 2), as optional peers.
// Nothing here imports the SDK: the types below are the parts of its
// interfaces this file uses, written out structurally, so the entry loads
// (and its declarations check) without either major installed. Four doors:
//
// - `McpSchemaValidator`: the SDK's `jsonSchemaValidator` provider (Client:
//   tool output validation; Server: elicitation), on the JSON Schema engine.
// - `wrapMcpToolHandler(handler, options)`: a server tool handler that times
//   the call, builds the ToolResult, validates `structuredContent`, screens,
//   stores the full result and bounds what goes to the client.
// - `registerResultResources(server, store)`: serves the
//   `toolresult://dialogs/{dialog}/tool-results/{tool_call_id}` links the
//   wrapper adds when it cut an output, with the full stored result, or with
//   a query (`?offset=&limit=`, `?pattern=`, `?path=`, ...) one piece of it,
//   paged by the same code as get_tool_result (paging.ts).
// - `registerMcpTool(server, name, config, handler, options)`: `registerTool`
//   with the wrapper, and `_meta["anthropic/maxResultSizeChars"]` from the budget.
import { createFailure } from '../api.js';
import { sha256Hex } from '../bound.js';
import { boundForModel, type ContextBudget, type ModelBound } from '../budget.js';
import { fromMcpCallToolResult } from '../convert.js';
import { ToolResultError, briefText, quoteJson, quoteText } from '../errors.js';
import type { SchemaOptions, ScreenOptions, StoredMeta, ToolResult } from '../generated/types.js';
import { type CompiledSchema, compileSchema, ToolRegistry } from '../schema.js';
import { SPOTLIGHT_INSTRUCTIONS, type SpotlightMode, spotlight } from '../history/spotlight.js';
import { DEFAULT_PAGE_BUDGET, pageToolResult, type ToolResultPage, type ToolResultRequest } from '../paging.js';
import { applyScreen, screen } from '../screen.js';
import { outputSchemaJson } from './shared/run.js';
import { startToolSpan, type ToolSpanOptions } from './shared/span.js';

// ---------------------------------------------------------------------------
// The SDK's shapes (v1 and v2 agree on every one used here).

/** What a `jsonSchemaValidator`'s validator returns (the SDK's `JsonSchemaValidatorResult<T>`). */
export type McpValidatorResult<T> = { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };

/** A compiled validator (the SDK's `JsonSchemaValidator<T>`). */
export type McpValidatorFunction<T> = (input: unknown) => McpValidatorResult<T>;

/** A `CallToolResult`, as loose as the SDK lets handlers return it. */
export interface McpCallToolResultLike {
  content?: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A content block (`text`, `image`, `audio`, `resource_link`, `resource`). */
export interface McpContentBlock {
  type: string;
  [key: string]: unknown;
}

/**
 * The result store the wrapper writes to and the resources read from: a
 * `ResultStore`, `FileResultStore` or `IndexedDbResultStore` (or anything with
 * these methods, sync or async).
 */
export interface McpResultStore {
  put(result: ToolResult, options: { dialogId: string }): unknown;
  get(executionId: string): ToolResult | undefined | Promise<ToolResult | undefined>;
  getByToolCallId(toolCallId: string): ToolResult | undefined | Promise<ToolResult | undefined>;
  meta?(executionId: string): StoredMeta | undefined | Promise<StoredMeta | undefined>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function invalidOptions(path: string, message: string): ToolResultError {
  return new ToolResultError('invalid_options', message, [{ path, code: 'invalid_options', message }]);
}

/** Every issue as `pointer: message`, the root as `(root)`, joined by `; `. */
function describeIssues(issues: readonly { path: string; message: string }[]): string {
  return issues.map((i) => `${i.path === '' ? '(root)' : briefText(i.path)}: ${i.message}`).join('; ');
}

/** The issues of checking `value`, a value that is not JSON data being one more issue. */
function checkValue(compiled: CompiledSchema, value: unknown): { path: string; message: string }[] {
  try {
    return compiled.validate(value);
  } catch (e) {
    if (!(e instanceof ToolResultError) || e.code !== 'invalid_value') throw e;
    return e.issues.length > 0 ? e.issues : [{ path: '', message: e.message }];
  }
}

const ENGINE_NOT_LOADED =
  'McpSchemaValidator needs the JSON Schema engine: await loadSchemaEngine() from "toolresult/web" before the client lists tools or the server validates';

/** A schema error as the engine reports it, or the browser's "not loaded yet" said for this class. */
function engineError(e: unknown): unknown {
  return e instanceof ToolResultError && e.code === 'not_initialized' ? new ToolResultError('not_initialized', ENGINE_NOT_LOADED) : e;
}

// ---------------------------------------------------------------------------
// McpSchemaValidator

/** Options of {@link McpSchemaValidator}: the engine's schema options, plus the cache and what an invalid schema does. */
export interface McpSchemaValidatorOptions extends SchemaOptions {
  /** How many compiled schemas are kept, least recently used dropped first (default 256). */
  cacheSize?: number;
  /**
   * A schema that does not compile (invalid, unknown dialect, a remote
   * `$ref`): `throw` (default, as the SDK's Ajv provider; the v2 client
   * reports it per tool at `callTool`, the v1 client's `listTools` throws)
   * or `reject` (a validator that refuses every value, naming why).
   */
  onInvalidSchema?: 'throw' | 'reject';
}

/**
 * The MCP SDK's `jsonSchemaValidator` provider, on toolresult's JSON Schema
 * engine: `new Client(info, { jsonSchemaValidator: new McpSchemaValidator() })`
 * (tool output validation) or `new Server(info, { jsonSchemaValidator })`
 * (elicitation), in SDK v1 and v2.
 *
 * Each schema is compiled once and cached by content (its JSON text);
 * 2020-12 (the default), 2019-09 and draft-07 by `$schema`; a `$ref` to
 * anything outside the schema and `options.documents` is refused
 * (`unresolvable_ref`), nothing is ever fetched. A failed check's
 * `errorMessage` lists every issue as `pointer: message` (`(root)` for the
 * value itself), joined by `; `. A value that is not JSON data is an invalid
 * value, not a throw. In browsers, `getValidator` throws a `ToolResultError`
 * (`not_initialized`) until `loadSchemaEngine()` has resolved.
 */
export class McpSchemaValidator {
  readonly #options: SchemaOptions;
  readonly #cacheSize: number;
  readonly #onInvalid: 'throw' | 'reject';
  readonly #cache = new Map<string, CompiledSchema>();
  #compiles = 0;
  #hits = 0;

  constructor(options: McpSchemaValidatorOptions = {}) {
    if (options === null || typeof options !== 'object' || Array.isArray(options)) throw invalidOptions('', 'McpSchemaValidator options must be an object');
    const { cacheSize = 256, onInvalidSchema = 'throw', ...schemaOptions } = options;
    if (!Number.isSafeInteger(cacheSize) || cacheSize < 1)
      throw invalidOptions('/cacheSize', `cacheSize must be a whole number >= 1, got ${quoteText(cacheSize)}`);
    if (onInvalidSchema !== 'throw' && onInvalidSchema !== 'reject') {
      throw invalidOptions('/onInvalidSchema', `onInvalidSchema must be "throw" or "reject", got ${quoteJson(onInvalidSchema)}`);
    }
    this.#options = schemaOptions;
    this.#cacheSize = cacheSize;
    this.#onInvalid = onInvalidSchema;
  }

  /** The SDK's `getValidator(schema)`: a function returning `{ valid, data, errorMessage }`. */
  getValidator<T = unknown>(schema: unknown): McpValidatorFunction<T> {
    let compiled: CompiledSchema;
    try {
      compiled = this.#compiled(schema);
    } catch (e) {
      const error = engineError(e);
      if (this.#onInvalid === 'throw' || !(error instanceof ToolResultError) || error.code === 'not_initialized') throw error;
      const errorMessage = `the output schema does not compile: ${describeIssues(error.issues.length > 0 ? error.issues : [{ path: '', message: error.message }])}`;
      return () => ({ valid: false, data: undefined, errorMessage });
    }
    return (input: unknown) => {
      const issues = checkValue(compiled, input);
      return issues.length === 0
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: describeIssues(issues) };
    };
  }

  /** Schemas compiled, cache hits, and schemas held now. */
  stats(): { compiles: number; cacheHits: number; cached: number } {
    return { compiles: this.#compiles, cacheHits: this.#hits, cached: this.#cache.size };
  }

  #compiled(schema: unknown): CompiledSchema {
    let key: string | undefined;
    try {
      key = JSON.stringify(schema);
    } catch {
      key = undefined; // not JSON data: compileSchema says why
    }
    const cached = key === undefined ? undefined : this.#cache.get(key);
    if (cached && key !== undefined) {
      this.#hits++;
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return cached;
    }
    const compiled = compileSchema(schema, this.#options);
    this.#compiles++;
    if (key !== undefined) {
      this.#cache.set(key, compiled);
      if (this.#cache.size > this.#cacheSize) {
        const [oldest, dropped] = this.#cache.entries().next().value as [string, CompiledSchema];
        this.#cache.delete(oldest);
        // A validator still holding it recompiles on its next use.
        dropped.free();
      }
    }
    return compiled;
  }
}

// ---------------------------------------------------------------------------
// Result links

/** The URI template of the links to stored results (RFC 6570; both parts percent-encoded). */
export const RESULT_URI_TEMPLATE = 'toolresult://dialogs/{dialog}/tool-results/{tool_call_id}';

/** The link to a stored result: `toolresult://dialogs/<dialog>/tool-results/<tool_call_id>`. */
export function resultUri(dialogId: string, toolCallId: string): string {
  return `toolresult://dialogs/${encodeURIComponent(dialogId)}/tool-results/${encodeURIComponent(toolCallId)}`;
}

/** The query parameters a result link takes to read one piece of the result: `get_tool_result`'s arguments. */
export const RESULT_PAGE_PARAMS = ['offset', 'limit', 'char_offset', 'char_limit', 'pattern', 'context', 'ignore_case', 'path'] as const;

/**
 * The same links with the query that reads a piece (RFC 6570 form-style
 * query; every parameter optional, each value percent-encoded, `/` and `,`
 * included), listed by `resources/templates/list` so clients can find it.
 */
export const RESULT_PAGE_URI_TEMPLATE = `${RESULT_URI_TEMPLATE}{?${RESULT_PAGE_PARAMS.join(',')}}`;

/** A piece of a stored result as a link: `resultUri(...)` with `?offset=…&limit=…` (`get_tool_result`'s arguments). */
export function resultPageUri(dialogId: string, toolCallId: string, request: Omit<ToolResultRequest, 'tool_call_id'> = {}): string {
  const query = RESULT_PAGE_PARAMS.filter((k) => request[k] !== undefined && request[k] !== null).map((k) => `${k}=${encodeURIComponent(String(request[k]))}`);
  return query.length === 0 ? resultUri(dialogId, toolCallId) : `${resultUri(dialogId, toolCallId)}?${query.join('&')}`;
}

/** `_meta` keys the adapter writes (prefix `toolresult/`). */
export const META = {
  /** On a wrapped tool's result: `{ execution_id, status, stored, uri?, bounded? }`. */
  result: 'toolresult/result',
  /** On a resource read: the sha256 (lowercase hex) of the `text` served. */
  sha256: 'toolresult/sha256',
  /** On a resource read of a piece: what it holds, `next` (the link to the next piece) and the whole output's sha256. */
  page: 'toolresult/page',
  /** On a tool definition (`registerMcpTool`): the largest result, in characters, Claude Code should keep. */
  maxResultSizeChars: 'anthropic/maxResultSizeChars',
} as const;

// ---------------------------------------------------------------------------
// wrapMcpToolHandler

/** What goes to the client, at most: per text block (and for `structuredContent`). */
/**
 * What the client is given of each result: a context budget (`maxChars`,
 * `maxTokens`, `maxBytes`, `keep`, `countTokens`; README "Context budgets"),
 * applied by `boundForModel` to the content blocks and to
 * `structuredContent`.
 */
export type McpBudget = ContextBudget;

/** Options of {@link wrapMcpToolHandler}. */
export interface WrapMcpToolOptions extends ToolSpanOptions {
  /** The tool's name (the ToolResult's `input.tool_name`). */
  toolName: string;
  /** The tool's description (the span's `gen_ai.tool.description`; `registerMcpTool` passes the config's). */
  description?: string;
  /**
   * The output schema `structuredContent` must satisfy: a JSON Schema, a
   * `compileSchema` result, or any Standard JSON Schema (zod 4, ...; read
   * for `draft-2020-12`). A mismatch is an `isError` result naming every
   * issue, never a thrown error.
   */
  outputSchema?: unknown;
  /** Schema options for an `outputSchema` given as JSON Schema (`documents`, `formats`, ...). */
  schemaOptions?: SchemaOptions;
  /** Where the full result goes (`put(result, { dialogId: dialog_id })`); also what the result links point into. */
  store?: McpResultStore;
  /** The dialog the result is stored under (default `"mcp"`), or a function of the call's arguments and the SDK's `extra` / `ctx`. */
  dialogId?: string | ((args: Record<string, unknown>, extra: unknown) => string);
  /** The call's id (default none: the result's `execution_id`, a random UUID, names it in links). */
  toolCallId?: (args: Record<string, unknown>, extra: unknown) => string | undefined;
  /** What goes to the client, at most; without it nothing is cut. */
  budget?: McpBudget;
  /**
   * Marks every text block sent as data (`spotlight`: `'delimit'`, `'datamark'`, `'encode'`);
   * the client's system prompt takes `SPOTLIGHT_INSTRUCTIONS[mode]`. Its cost is taken from the budget.
   */
  spotlight?: SpotlightMode;
  /** Screen the result (docs/screen.md): a REJECT is an `isError` result with the reasons and none of the content. */
  screen?: boolean | ScreenOptions;
  /** Sees every full ToolResult (as stored). */
  onResult?: (result: ToolResult) => void;
}

interface CutBlock {
  /** Index of the block in `content`, or -1 for `structuredContent`. */
  index: number;
  original_size: number;
  size: number;
  sha256: string;
}

interface Bounded {
  result: McpCallToolResultLike;
  cut: CutBlock[];
}

/** The budget less what spotlighting adds: delimiters (~80 characters), nothing (datamark), a third (base64). */
function spotlightRoom(budget: McpBudget | undefined, mode: SpotlightMode | undefined): McpBudget | undefined {
  if (budget === undefined || !mode || mode === 'datamark' || !isObject(budget)) return budget;
  const b = budget as ContextBudget;
  const less = (n: number | undefined) => (typeof n !== 'number' ? n : mode === 'encode' ? Math.max(1, Math.floor(((n - 4) * 3) / 4)) : Math.max(1, n - 80));
  const out: ContextBudget = { ...b };
  if (typeof b.maxChars === 'number') out.maxChars = less(b.maxChars);
  if (typeof b.maxBytes === 'number') out.maxBytes = less(b.maxBytes);
  if (typeof b.maxTokens === 'number') out.maxTokens = mode === 'encode' ? Math.max(1, Math.floor(b.maxTokens / 2)) : Math.max(1, b.maxTokens - 40);
  return out;
}

const utf8 = new TextEncoder();
const textBytes = (t: string) => utf8.encode(t).length;

/**
 * Bounds what goes to the client with `boundForModel` (README "Context
 * budgets"): text blocks keep head and tail, media whole or a placeholder;
 * `structuredContent` is cut only when `keepStructured` accepts the cut
 * value (it must still satisfy the output schema the client checks it
 * against). Markers name no `get_tool_result` id: the link the wrapper adds
 * is how an MCP client gets the rest.
 */
function boundForClient(result: McpCallToolResultLike, budget: McpBudget | undefined, keepStructured: (cut: unknown) => boolean): Bounded {
  if (budget === undefined) return { result, cut: [] };
  if (!isObject(budget)) throw invalidOptions('/budget', 'budget must be an object: { maxChars?, maxTokens?, maxBytes?, keep?, countTokens? }');
  const content = (result.content ?? []) as { type: string; [k: string]: unknown }[];
  let b: ModelBound;
  try {
    b = boundForModel(
      { input: { tool_name: 'mcp', parameters: {} }, output: result.structuredContent ?? null, content, metadata: {} } as unknown as ToolResult,
      budget,
    );
  } catch (e) {
    if (e instanceof ToolResultError && e.code === 'invalid_options') {
      throw new ToolResultError(
        'invalid_options',
        e.message,
        e.issues.map((i) => ({ ...i, path: `/budget${i.path}` })),
      );
    }
    throw e;
  }
  const cut: CutBlock[] = [];
  const bounded: McpCallToolResultLike = { ...result };
  if (result.content !== undefined && b.content) {
    bounded.content = b.content;
    b.content.forEach((block, index) => {
      const full = content[index];
      if (block === full || JSON.stringify(block) === JSON.stringify(full)) return;
      const fullText = typeof full.text === 'string' ? full.text : JSON.stringify(full);
      const text = typeof block.text === 'string' ? block.text : JSON.stringify(block);
      cut.push({ index, original_size: textBytes(fullText), size: textBytes(text), sha256: sha256Hex(fullText) });
    });
  }
  if (result.structuredContent !== undefined && b.cuts.some((c) => c.path.startsWith('/output')) && keepStructured(b.output)) {
    bounded.structuredContent = b.output;
    const full = JSON.stringify(result.structuredContent);
    cut.push({ index: -1, original_size: textBytes(full), size: textBytes(JSON.stringify(b.output)), sha256: sha256Hex(full) });
  }
  return { result: bounded, cut };
}

/** The CallToolResult fields a ToolResult holds (the rest go to the client untouched, and are not stored). */
const CALL_TOOL_RESULT_FIELDS = ['content', 'structuredContent', 'isError', '_meta', 'resultType'];

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return typeof e === 'string' ? e : String(e);
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Wraps an MCP server tool handler (SDK v1 `(args, extra)` / `(extra)`, v2
 * `(args, ctx)` / `(ctx)`; the arguments pass through unchanged). Per call:
 *
 * 1. times the handler and builds the ToolResult (`fromMcpCallToolResult`; a
 *    thrown error becomes a `failed` result, `error_code` `TOOL_EXCEPTION`);
 * 2. with `outputSchema`, checks `structuredContent` of a result that is not
 *    `isError` (the result flow of docs/spec.md, `ToolRegistry.checkResult`): a mismatch is
 *    an `isError` result naming every issue with its JSON Pointer;
 * 3. with `screen`, screens it: a REJECT is an `isError` result with the
 *    reasons and none of the content;
 * 4. with `store`, stores the full result (`put(result, { dialogId: dialog_id })`);
 * 5. with `budget`, bounds what goes to the client, and when something was
 *    cut (and the result is stored) adds a `resource_link` block to
 *    `toolresult://dialogs/{dialog}/tool-results/{tool_call_id}`, which
 *    {@link registerResultResources} serves.
 *
 * Every `isError` result it returns has no `structuredContent` the output
 * schema would refuse (SDK v1 clients check it even on `isError` results and
 * throw). `_meta["toolresult/result"]` says what happened:
 * `{ execution_id, status, stored, uri?, bounded? }`, `bounded` listing each
 * cut block's `index` (-1: `structuredContent`), `original_size`, `size` and
 * the sha256 of its full text.
 */
export function wrapMcpToolHandler<A extends unknown[], R extends McpCallToolResultLike>(
  handler: (...args: A) => R | Promise<R>,
  options: WrapMcpToolOptions,
): (...args: A) => Promise<R> {
  if (typeof handler !== 'function') throw invalidOptions('', 'wrapMcpToolHandler takes the tool handler (a function) first');
  if (options === null || typeof options !== 'object') throw invalidOptions('', 'wrapMcpToolHandler options must be an object: { toolName, ... }');
  const { toolName } = options;
  if (typeof toolName !== 'string' || toolName === '') throw invalidOptions('/toolName', 'toolName must be a non-empty string');
  if (options.budget !== undefined) boundForClient({}, options.budget, () => false); // checks the budget now
  if (options.spotlight !== undefined && !Object.hasOwn(SPOTLIGHT_INSTRUCTIONS, options.spotlight)) {
    throw invalidOptions('/spotlight', `spotlight must be 'delimit', 'datamark' or 'encode', got ${quoteJson(options.spotlight)}`);
  }
  if (options.tracer !== undefined && (options.tracer === null || typeof options.tracer.startSpan !== 'function'))
    throw invalidOptions('/tracer', 'tracer must be an OpenTelemetry Tracer (startSpan)');
  // Compiled on first use: in browsers the engine may load after the tool is registered.
  let registry: ToolRegistry | undefined;
  const checker = (): ToolRegistry | undefined => {
    if (options.outputSchema === undefined) return undefined;
    if (!registry) {
      const { json, options: schemaOptions } = outputSchemaJson(options.outputSchema, options.schemaOptions);
      const r = new ToolRegistry(schemaOptions);
      r.register({ name: toolName, outputSchema: json });
      registry = r;
    }
    return registry;
  };
  const conforms = (value: unknown) => {
    const r = checker();
    if (!r) return true;
    try {
      return r.validateOutput(toolName, value).ok;
    } catch {
      return false;
    }
  };

  return async (...callArgs: A): Promise<R> => {
    const [first, second] = callArgs;
    const args = callArgs.length >= 2 && isObject(first) ? first : {};
    const extra = callArgs.length >= 2 ? second : first;
    const dialogId = typeof options.dialogId === 'function' ? options.dialogId(args, extra) : (options.dialogId ?? 'mcp');
    const toolCallId = options.toolCallId?.(args, extra);
    const input = { tool_name: toolName, parameters: args, ...(toolCallId === undefined ? {} : { tool_call_id: toolCallId }) };

    const span = startToolSpan({ toolName, ...(toolCallId === undefined ? {} : { toolCallId }), arguments: args, description: options.description }, options);
    const started = Date.now();
    let raw: unknown;
    let thrown: { error: unknown } | undefined;
    try {
      raw = await handler(...callArgs);
    } catch (error) {
      thrown = { error };
    }
    const completed = Date.now();
    const times = { started_at: iso(started), completed_at: iso(completed) };

    // 1. The ToolResult.
    let full: ToolResult;
    let toClient: McpCallToolResultLike | undefined;
    const failure = (error_code: string, error_message: string): ToolResult => {
      try {
        return createFailure({ input, status: 'failed', error_code, error_message, ...times });
      } catch {
        return createFailure({ input: { tool_name: toolName, parameters: {} }, status: 'failed', error_code, error_message, ...times });
      }
    };
    if (thrown) {
      full = failure('TOOL_EXCEPTION', errorText(thrown.error));
    } else if (!isObject(raw)) {
      full = failure('INVALID_CALL_TOOL_RESULT', `the handler returned ${raw === null ? 'null' : typeof raw}, not a CallToolResult`);
    } else {
      const known = Object.fromEntries(Object.entries(raw).filter(([k, v]) => CALL_TOOL_RESULT_FIELDS.includes(k) && v !== undefined));
      try {
        full = fromMcpCallToolResult(known, {
          tool_name: toolName,
          arguments: args,
          ...(toolCallId === undefined ? {} : { tool_call_id: toolCallId }),
          ...times,
        });
        toClient = raw as McpCallToolResultLike;
      } catch (e) {
        const why = e instanceof ToolResultError ? `${e.message}` : errorText(e);
        full = failure('INVALID_CALL_TOOL_RESULT', `the handler returned a CallToolResult that is not valid: ${why}`);
      }
    }

    // 2, 3. The output schema, then the screen.
    try {
      const r = toClient && !toClient.isError ? checker() : undefined;
      const screenOptions = options.screen === undefined || options.screen === false ? undefined : options.screen === true ? {} : options.screen;
      if (r) {
        full = r.checkResult(full, screenOptions === undefined ? undefined : { screen: screenOptions });
      } else if (screenOptions !== undefined) {
        full = applyScreen(full, screen(full, { ...screenOptions, tool_name: screenOptions.tool_name ?? toolName }));
      }
    } catch (e) {
      span.end(failure('TOOLRESULT_ERROR', errorText(e)));
      throw e;
    }
    // The span ends when the result is made; storing and bounding it are not the tool's run.
    span.end(full);
    options.onResult?.(full);

    // 4. The store.
    let stored = false;
    let storeError: string | undefined;
    if (options.store) {
      try {
        await options.store.put(full, { dialogId: dialogId });
        stored = true;
      } catch (e) {
        storeError = errorText(e);
      }
    }
    const linkId = full.input.tool_call_id ?? full.metadata.execution_id;
    const about: Record<string, unknown> = { execution_id: full.metadata.execution_id, status: full.status, stored };
    if (storeError !== undefined) about.store_error = storeError;

    // Failures: the error text only (a REJECT's reasons, the schema's issues, the exception).
    if (!toClient || full.status === 'security_violation' || full.status === 'output_validation_failed') {
      const text =
        full.status === 'security_violation'
          ? (full.error_message ?? 'rejected by the safety screen')
          : `Tool ${toolName}: ${full.error_message ?? full.status}`;
      return { content: [{ type: 'text', text }], isError: true, _meta: { [META.result]: about } } as unknown as R;
    }

    // 5. What goes to the client, bounded, with a link when something was cut.
    let sent = toClient;
    if (sent.isError && sent.structuredContent !== undefined && !conforms(sent.structuredContent)) {
      const { structuredContent: _dropped, ...rest } = sent;
      sent = rest;
    }
    const bounded = boundForClient(sent, spotlightRoom(options.budget, options.spotlight), (cut) => options.outputSchema === undefined || conforms(cut));
    const out: McpCallToolResultLike = { ...bounded.result };
    if (options.spotlight && Array.isArray(out.content)) {
      const mode = options.spotlight;
      out.content = out.content.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? { ...b, text: spotlight(b.text, { mode }).text } : b));
    }
    if (bounded.cut.length > 0) {
      about.bounded = bounded.cut;
      if (stored) {
        const uri = resultUri(dialogId, linkId);
        about.uri = uri;
        const link: McpContentBlock = {
          type: 'resource_link',
          uri,
          name: `${toolName} result ${linkId}`,
          title: `Full result of ${toolName}`,
          description: 'The whole result; the content above was cut to fit the budget. Read it with resources/read.',
          mimeType: 'application/json',
        };
        out.content = [...(out.content ?? []), link];
      }
    }
    out._meta = { ...(isObject(toClient._meta) ? toClient._meta : {}), [META.result]: about };
    return out as R;
  };
}

// ---------------------------------------------------------------------------
// registerResultResources

/** An `McpServer` (v1 or v2): the one method used. */
export interface McpResourceServer {
  registerResource(...args: never[]): unknown;
}

/** Options of {@link registerResultResources}. */
export interface RegisterResultResourcesOptions {
  /**
   * The SDK's `ResourceTemplate` class (v1: `@modelcontextprotocol/sdk/server/mcp.js`; v2: `@modelcontextprotocol/server`),
   * used when given. Default: a template object of this adapter's own, with what both majors read of one.
   */
  ResourceTemplate?: new (
    uriTemplate: string,
    callbacks: { list: undefined },
  ) => unknown;
  /** The resource template's name (default `toolresult-results`; the template with the query is `<name>-pages`). */
  name?: string;
  /** Whether this request may read this result (default: every stored result that the screen did not reject). */
  canRead?: (result: ToolResult, request: { dialogId: string; toolCallId: string; extra: unknown }) => boolean | Promise<boolean>;
  /**
   * What one read of a piece (a link with a query) may hold, as for
   * `get_tool_result` (default 8,000 characters; each limit at least 500).
   * A link without a query still reads the whole result.
   */
  pageBudget?: ContextBudget;
}

/**
 * A JSON-RPC error the SDKs pass on as is: -32602 with `data.uri` (v2 reads
 * it as its ResourceNotFoundError when `uri` is all the data holds).
 */
class ResourceError extends Error {
  readonly code = -32602;
  readonly data: { uri: string; [key: string]: unknown };
  constructor(uri: string, message: string, more: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ResourceError';
    this.data = { uri, ...more };
  }
}

/** A result link, with or without its query: the dialog and the call's id, percent-encoded. */
const RESULT_LINK = /^toolresult:\/\/dialogs\/([^/?#]+)\/tool-results\/([^/?#]+)(?:\?[^#]*)?(?:#.*)?$/;

/**
 * A resource template for `registerResource`, as both SDK majors read one
 * (neither checks the class): `uriTemplate` (`toString()`, `match(uri)`,
 * `variableNames`), `listCallback` (none: the links are not listed) and
 * `completeCallback(variable)` (none). It matches every result link, query
 * or not; the variables stay percent-encoded, as the SDKs' own give them.
 */
function linkTemplate(template: string): unknown {
  const variableNames = ['dialog', 'tool_call_id', ...(template === RESULT_URI_TEMPLATE ? [] : RESULT_PAGE_PARAMS)];
  return {
    uriTemplate: {
      toString: () => template,
      match(uri: string): Record<string, string> | null {
        const m = RESULT_LINK.exec(String(uri));
        return m ? { dialog: m[1] as string, tool_call_id: m[2] as string } : null;
      },
      variableNames,
    },
    listCallback: undefined,
    completeCallback: (_variable: string) => undefined,
  };
}

function variable(variables: Record<string, string | string[]>, name: string): string | undefined {
  const v = variables?.[name];
  let s = Array.isArray(v) ? v[0] : v;
  if (typeof s !== 'string') return undefined;
  // The template's last variable takes what follows it too; the links encode
  // `?`, so a raw one starts the query (read from the URL itself).
  const q = s.indexOf('?');
  if (q >= 0) s = s.slice(0, q);
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

type PageQuery = { ok: true; request: Omit<ToolResultRequest, 'tool_call_id'> | undefined } | { ok: false; error: string };

/**
 * The piece a link's query asks for, as `get_tool_result` arguments, or
 * `undefined` for no query. Percent-decoded as RFC 3986 says (`+` is a plus,
 * not a space); numbers as numbers, so `pageToolResult` names a bad one.
 */
function pageQuery(uri: URL): PageQuery {
  const search = uri.search.startsWith('?') ? uri.search.slice(1) : uri.search;
  if (search === '') return { ok: true, request: undefined };
  const request: Record<string, unknown> = {};
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
      value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1));
    } catch {
      return { ok: false, error: `the query has malformed percent-encoding: ${quoteJson(pair)}` };
    }
    if (!(RESULT_PAGE_PARAMS as readonly string[]).includes(key)) {
      return { ok: false, error: `unknown query parameter ${quoteJson(key)}; a result link takes ${RESULT_PAGE_PARAMS.join(', ')}` };
    }
    if (Object.hasOwn(request, key)) return { ok: false, error: `the query gives ${quoteJson(key)} twice` };
    if (key === 'ignore_case') {
      if (!['true', 'false', '1', '0'].includes(value)) return { ok: false, error: `ignore_case must be true or false, got ${quoteJson(value)}` };
      request[key] = value === 'true' || value === '1';
    } else if (key === 'pattern' || key === 'path') {
      request[key] = value;
    } else {
      request[key] = /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
    }
  }
  return { ok: true, request: Object.keys(request).length === 0 ? undefined : (request as Omit<ToolResultRequest, 'tool_call_id'>) };
}

/** A page's note for a resource reader: the next piece named by its link, not by a get_tool_result call. */
function resourceNote(page: ToolResultPage, next: string | undefined): string {
  const cut = page.note.indexOf('; call get_tool_result');
  const head = cut >= 0 ? page.note.slice(0, cut) : page.note.replace(/\.$/, '');
  return next === undefined ? `${head}.` : `${head}; read ${next} for what follows.`;
}

/**
 * Serves `resources/read` for the links {@link wrapMcpToolHandler} adds
 * (`toolresult://dialogs/{dialog}/tool-results/{tool_call_id}`), on an
 * `McpServer` of SDK v1 or v2 (`registerResource` with a template object of
 * this adapter's own, or with the SDK's `ResourceTemplate` class when
 * `options` gives it; this package never imports the SDK):
 *
 * - a link as it is: the full stored ToolResult as `application/json` text,
 *   `_meta["toolresult/sha256"]` the sha256 of that text;
 * - a link with a query (`?offset=&limit=`, `?char_offset=&char_limit=`,
 *   `?pattern=&context=&ignore_case=`, `?path=`; {@link resultPageUri}):
 *   one piece, read by the same code as `get_tool_result`
 *   (`pageToolResult`) within `pageBudget`. The `text` is that exact slice
 *   of the output (`text/plain`; pattern pages are `N:` / `N-` numbered
 *   lines), `_meta["toolresult/sha256"]` its sha256, and
 *   `_meta["toolresult/page"]` says what it holds (`kind`, `lines`,
 *   `chars`, `matches`, `path`, `complete`, `note`), gives `next`, the link
 *   to the next piece, and `sha256`, the whole output text's, so a client
 *   can check the pieces it joined.
 *
 * Unknown links, links into another dialog and results the screen rejected
 * answer JSON-RPC error -32602 (`data.uri` set); so does a piece that
 * cannot be served (an offset past the end, a pointer that does not
 * resolve, a bad pattern), saying why, its `data` also giving
 * `total_lines` and `total_chars`. The links are not listed
 * (`resources/list`), as MCP allows for links returned by tools; the two
 * templates are (`resources/templates/list`): the link, and the link with
 * its query ({@link RESULT_PAGE_URI_TEMPLATE}). Returns the first
 * registration.
 */
export function registerResultResources(server: McpResourceServer, store: McpResultStore, options: RegisterResultResourcesOptions = {}): unknown {
  if (!server || typeof (server as { registerResource?: unknown }).registerResource !== 'function') {
    throw invalidOptions('', 'registerResultResources takes an McpServer (v1 or v2): it has no registerResource method');
  }
  if (!store || typeof store.get !== 'function' || typeof store.getByToolCallId !== 'function') {
    throw invalidOptions('', 'registerResultResources takes a result store (get, getByToolCallId)');
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw invalidOptions('', 'registerResultResources(server, store, options): options must be an object');
  if (options.ResourceTemplate !== undefined && typeof options.ResourceTemplate !== 'function') {
    throw invalidOptions(
      '/ResourceTemplate',
      "ResourceTemplate must be the SDK's ResourceTemplate class (v1: '@modelcontextprotocol/sdk/server/mcp.js', v2: '@modelcontextprotocol/server'), or left out",
    );
  }
  const Template = options.ResourceTemplate;
  const template = (uriTemplate: string) => (Template ? new Template(uriTemplate, { list: undefined }) : linkTemplate(uriTemplate));
  const pageBudget = options.pageBudget ?? DEFAULT_PAGE_BUDGET;
  try {
    // Checks the budget once, here (pageToolResult measures it first).
    pageToolResult(
      { input: { tool_name: 'probe', parameters: {} }, status: 'success', output: 'x', metadata: {} } as unknown as ToolResult,
      { tool_call_id: 'p' },
      pageBudget,
    );
  } catch (e) {
    if (e instanceof ToolResultError && e.code === 'invalid_options') {
      throw new ToolResultError(
        'invalid_options',
        e.message,
        e.issues.map((i) => ({ ...i, path: i.path.replace(/^\/budget/, '/pageBudget') })),
      );
    }
    throw e;
  }
  const read = async (uri: URL, variables: Record<string, string | string[]>, extra: unknown) => {
    const href = uri.href;
    const dialogId = variable(variables, 'dialog');
    const toolCallId = variable(variables, 'tool_call_id');
    const missing = () => new ResourceError(href, `Resource ${href} not found`);
    if (dialogId === undefined || toolCallId === undefined) throw missing();
    const result = (await store.getByToolCallId(toolCallId)) ?? (await store.get(toolCallId));
    if (!result) throw missing();
    if (store.meta) {
      const meta = await store.meta(result.metadata.execution_id);
      if ((meta?.dialog_id ?? '') !== dialogId) throw missing();
    }
    if (result.status === 'security_violation') throw new ResourceError(href, `Resource ${href} is withheld: the safety screen rejected this result`);
    if (options.canRead && !(await options.canRead(result, { dialogId, toolCallId, extra }))) throw missing();
    const about = { execution_id: result.metadata.execution_id, status: result.status };
    const query = pageQuery(uri);
    if (!query.ok) throw new ResourceError(href, `Resource ${href}: ${query.error}`, { reason: 'invalid_query' });
    const answer = query.request === undefined ? undefined : pageToolResult(result, { ...query.request, tool_call_id: toolCallId }, pageBudget);
    if (answer && 'invalid' in answer) {
      const { error, total_lines, total_chars } = answer.invalid;
      throw new ResourceError(href, `Resource ${href}: ${error}`, { total_lines, total_chars });
    }
    if (answer && 'page' in answer) {
      const { page } = answer;
      const { tool_call_id: _id, ...nextArgs } = page.next ?? { tool_call_id: '' };
      const next = page.next ? resultPageUri(dialogId, toolCallId, nextArgs) : undefined;
      const held = {
        kind: page.kind,
        ...(page.lines ? { lines: page.lines } : {}),
        ...(page.chars ? { chars: page.chars } : {}),
        ...(page.matches ? { matches: page.matches } : {}),
        ...(page.path !== undefined ? { path: page.path } : {}),
        complete: page.complete,
        ...(next ? { next } : {}),
        note: resourceNote(page, next),
        sha256: page.sha256,
      };
      return {
        contents: [
          { uri: href, mimeType: 'text/plain', text: page.text, _meta: { [META.sha256]: sha256Hex(page.text), [META.result]: about, [META.page]: held } },
        ],
      };
    }
    // No query (or one asking for nothing but the whole result, which fits): the whole result.
    const text = JSON.stringify(result);
    return {
      contents: [{ uri: href, mimeType: 'application/json', text, _meta: { [META.sha256]: sha256Hex(text), [META.result]: about } }],
    };
  };
  const metadata = {
    title: 'Tool results',
    description: 'Full results of tool calls, stored by toolresult; tools link to them when their output was cut.',
    mimeType: 'application/json',
  };
  const name = options.name ?? 'toolresult-results';
  const register = server.registerResource as (...a: unknown[]) => unknown;
  const registered = register.call(server, name, template(RESULT_URI_TEMPLATE), metadata, read);
  // Listed so clients find the query. The SDKs try templates in the order
  // registered and the first one matches every link, query or not; this one
  // is there to be listed (its match would need every parameter, in order).
  register.call(
    server,
    `${name}-pages`,
    template(RESULT_PAGE_URI_TEMPLATE),
    {
      title: 'Pieces of tool results',
      description:
        'One piece of a stored tool result, within a budget: lines (offset, limit), characters (char_offset, char_limit), lines matching a pattern (pattern, context, ignore_case) or a JSON member (path). _meta["toolresult/page"] says what it holds and links the next piece.',
      mimeType: 'text/plain',
    },
    read,
  );
  return registered;
}

// ---------------------------------------------------------------------------
// registerMcpTool

/**
 * The `_meta["anthropic/maxResultSizeChars"]` a budget honestly promises, in
 * characters (Unicode code points, as in every budget and as `budgetFor`
 * reads the figure back): the tightest of `maxChars` and `maxBytes` (a UTF-8
 * byte limit bounds the characters too: no character takes less than one
 * byte). A `maxTokens` limit alone promises no character count (one token
 * may be any number of characters, by `countTokens` and by the estimate
 * alike: a run of letters is one piece of it), so nothing is written for
 * it: `undefined`.
 */
export function maxResultSizeChars(budget: McpBudget | undefined): number | undefined {
  if (!isObject(budget)) return undefined;
  const limits = [budget.maxChars, budget.maxBytes].filter((n): n is number => typeof n === 'number');
  return limits.length === 0 ? undefined : Math.min(...limits);
}

/** An `McpServer` (v1 or v2): the one method used. */
export interface McpToolServer {
  registerTool(...args: never[]): unknown;
}

/**
 * `server.registerTool(name, config, wrapMcpToolHandler(handler, { toolName:
 * name, ...options }))`, for SDK v1 and v2. With a budget in characters or
 * bytes it sets `_meta["anthropic/maxResultSizeChars"]` on the tool
 * definition ({@link maxResultSizeChars}); a budget in tokens alone sets
 * nothing.
 * Without `options.outputSchema`, a Standard JSON Schema `config.outputSchema`
 * (a `compileSchema` result, zod 4, ...) is used for it.
 */
export function registerMcpTool<A extends unknown[], R extends McpCallToolResultLike>(
  server: McpToolServer,
  name: string,
  config: Record<string, unknown>,
  handler: (...args: A) => R | Promise<R>,
  options: Omit<WrapMcpToolOptions, 'toolName'> = {},
): unknown {
  if (!server || typeof (server as { registerTool?: unknown }).registerTool !== 'function') {
    throw invalidOptions('', 'registerMcpTool takes an McpServer (v1 or v2): it has no registerTool method');
  }
  if (!isObject(config)) throw invalidOptions('/config', 'the tool config must be an object');
  const declared = config.outputSchema;
  const standard = isObject(declared) && isObject((declared as Record<string, unknown>)['~standard']) ? declared : undefined;
  const description = options.description ?? (typeof config.description === 'string' ? config.description : undefined);
  const wrapped = wrapMcpToolHandler(handler, { ...options, toolName: name, outputSchema: options.outputSchema ?? standard, description });
  const chars = maxResultSizeChars(options.budget);
  const meta = chars === undefined ? config._meta : { ...(isObject(config._meta) ? config._meta : {}), [META.maxResultSizeChars]: chars };
  const withMeta = meta === undefined ? config : { ...config, _meta: meta };
  return (server.registerTool as (...a: unknown[]) => unknown)(name, withMeta, wrapped);
}
