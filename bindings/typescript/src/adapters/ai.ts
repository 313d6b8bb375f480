// `toolresult/ai`: the Vercel AI SDK (`ai` ≥ 6, an optional peer). Tools
// whose `execute` returns a ToolResult (validated, screened, stored) and whose
// `toModelOutput` gives the model its bounded share of it; UI message tool
// parts to and from ToolResults. Nothing here imports `ai` at runtime or for
// its types: the SDK's shapes are written out structurally below, and its
// `asSchema` is taken from `options.asSchema` or loaded on first need (the
// Node entry, ai-node.ts, knows how). The browser build compiles this file
// too, for the UI helpers.
import { createFailure, createSuccess, schemas, validateToolResult } from '../api.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../bound.js';
import { boundForModel, budgetFor, type ContextBudget, type ContextBudgets } from '../budget.js';
import { toVercelToolPart } from '../convert.js';
import { ToolResultError, quoteJson, quoteText, briefText } from '../errors.js';
import type { Issue, ScreenOptions, StoredMeta, ToolResult, ToolResultReference } from '../generated/types.js';
import { toReference } from '../reference.js';
import { ToolRegistry } from '../schema.js';
import { SPOTLIGHT_INSTRUCTIONS, type SpotlightMode, spotlight } from '../history/spotlight.js';
import { applyScreen, screen } from '../screen.js';
import { checkDialogId, type DialogIdOption, resolveDialogId } from './run.js';
import { type RunningToolSpan, startToolSpan, type ToolSpanOptions } from './span.js';

// ---------------------------------------------------------------------------
// The AI SDK's shapes, as much of them as this module reads or writes.

/** A JSON value (the SDK's `JSONValue`). */
export type AiJsonValue = null | string | number | boolean | AiJsonValue[] | { [key: string]: AiJsonValue };

/** A part of a `content` model output (text, and the file kinds ai 6 and 7 both take). */
export type AiToolContentPart =
  | { type: 'text'; text: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string };

/** What a tool's `toModelOutput` returns: the SDK's `ToolResultOutput`, the kinds this module writes. */
export type AiToolModelOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: AiJsonValue }
  | { type: 'error-text'; value: string }
  | { type: 'error-json'; value: AiJsonValue }
  | { type: 'execution-denied'; reason?: string }
  | { type: 'content'; value: AiToolContentPart[] };

/** The second argument of a tool's `execute` (the fields read here). */
export interface AiToolExecutionOptions {
  toolCallId: string;
  abortSignal?: AbortSignal;
  messages?: unknown;
  /** AI SDK 7: this tool's entry of the `toolsContext` given to `generateText` / `streamText`. */
  context?: unknown;
  /** AI SDK 6: the `experimental_context` given to `generateText` / `streamText`. */
  experimental_context?: unknown;
}

/** A tool of an AI SDK tool set (`tool()`, `dynamicTool()`), as far as this module reads it. */
export interface AiTool {
  type?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  // Methods, not function-typed properties: the SDK's own option and output
  // types must be assignable here.
  execute?(input: never, options: never): unknown;
  toModelOutput?(options: { toolCallId: string; input: never; output: never }): unknown;
}

/** A Standard Schema v1 (with the Standard JSON Schema converter) of a ToolResult. */
export interface ToolResultStandardSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'toolresult';
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: ToolResult; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey> }> };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
    readonly types?: { readonly input: unknown; readonly output: ToolResult };
  };
}

/** The input type of a tool's `execute`. */
export type AiToolInput<T extends AiTool> = NonNullable<T['execute']> extends (input: infer I, ...rest: never[]) => unknown ? I : unknown;

/** Each variant of a tool type (the SDK's `Tool` is a union) with the wrapped members. */
type WithResults<T, I> = T extends unknown
  ? Omit<T, 'execute' | 'outputSchema' | 'toModelOutput'> & {
      execute: (input: I, options: AiToolExecutionOptions) => PromiseLike<ToolResult> | AsyncIterable<ToolResult>;
      outputSchema: ToolResultStandardSchema;
      toModelOutput: (options: { toolCallId: string; input: I; output: unknown }) => Promise<AiToolModelOutput>;
    }
  : never;

/** A tool after `withToolResults`: `execute` returns ToolResults, `toModelOutput` gives the model its share; a tool without `execute` is unchanged. */
export type ToolWithResults<T extends AiTool> = [T] extends [{ execute?: undefined }] ? T : WithResults<T, AiToolInput<T>>;

/** Where results are kept (`ResultStore`, `FileResultStore`, `PostgresResultStore`, or any `put`). */
export interface AiResultStore {
  put(result: ToolResult, options: { dialog_id: string }): unknown;
  /** The stored result's metadata (its `dialog_id`): read by `toModelOutput` for a result made before this process, when `dialogId` is a function. */
  meta?(executionId: string): StoredMeta | undefined | Promise<StoredMeta | undefined>;
}

/** What the model may receive of one result: one `ContextBudget` for every tool, or `ContextBudgets` by tool name (`budgetFor`). */
export type ModelBudget = ContextBudget | ContextBudgets;

/** What `onResult` is told besides the result. */
export interface ResultInfo {
  toolName: string;
  toolCallId: string;
  /** A streamed partial result (a value an `execute` generator yielded before its last). */
  preliminary: boolean;
}

/** The options of `withToolResults` (`tracer`, `traceArguments`, `traceResult`: an `execute_tool` span around each run). */
export interface WithToolResultsOptions extends ToolSpanOptions {
  /** What the model may receive of one result (`boundForModel`'s budget); a larger one is cut, or, with a store, referenced. Default: 10 MiB. */
  budget?: ModelBudget;
  /** Screen every final result (`true`, or the screen's options); a REJECT gives the model the reasons and never the content. */
  screen?: boolean | ScreenOptions;
  /** Keep every final result here, whole; a result over the budget reaches the model as a reference with a preview. */
  store?: AiResultStore;
  /**
   * The dialog the results belong to (required with `store`): a string, or a
   * function of the call's `execute` options (`{ toolCallId, messages,
   * abortSignal, context }`; AI SDK 6: `experimental_context`) returning one,
   * so tools wrapped once serve many conversations.
   */
  dialogId?: DialogIdOption<AiToolExecutionOptions>;
  /** Length of a reference's preview in characters (default 500). */
  previewChars?: number;
  /** Called with every ToolResult made, preliminary ones included. */
  onResult?: (result: ToolResult, info: ResultInfo) => void | PromiseLike<void>;
  /** The AI SDK's `asSchema` (from `ai`), which turns an `outputSchema` into JSON Schema. Default: loaded from `ai` (Node). */
  asSchema?: (schema: never) => { readonly jsonSchema: unknown };
  /**
   * Marks what the model receives as data (`spotlight`: `'delimit'`, `'datamark'` or
   * `'encode'`); put `SPOTLIGHT_INSTRUCTIONS[mode]` in the system prompt. A JSON output is
   * given as its text then. The marks' cost is taken from the budget.
   */
  spotlight?: SpotlightMode;
}

// ---------------------------------------------------------------------------
// Loading the peer: only `asSchema`, only when an outputSchema needs it.

type AsSchema = (schema: unknown) => { readonly jsonSchema: unknown };

/** @internal How this build loads `ai` (set by the Node entry; browsers pass `asSchema`). */
export const aiPeer: { load?: () => unknown } = {};

function loadAsSchema(): AsSchema {
  let mod: unknown;
  try {
    mod = aiPeer.load?.();
  } catch (e) {
    throw new ToolResultError(
      'missing_dependency',
      `toolresult/ai turns outputSchema into JSON Schema with the AI SDK's asSchema, and "ai" could not be loaded (${(e as Error)?.message ?? String(e)}): install ai (>= 6) or pass { asSchema } from "ai"`,
    );
  }
  const asSchema = (mod as { asSchema?: unknown } | undefined)?.asSchema;
  if (typeof asSchema !== 'function') {
    throw new ToolResultError('missing_dependency', 'toolresult/ai needs the AI SDK\'s asSchema to check outputSchema here: pass { asSchema } from "ai"');
  }
  return asSchema as AsSchema;
}

// ---------------------------------------------------------------------------
// Options.

const optionsError = (path: string, message: string) => new ToolResultError('invalid_options', message, [{ path, code: 'invalid_options', message }]);

function checkCount(value: unknown, path: string, min: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw optionsError(path, `${path.slice(1).replaceAll('/', '.')} must be a whole number >= ${min}, got ${typeof value === 'number' ? value : typeof value}`);
  }
}

function checkBudget(budget: ContextBudget, path: string): void {
  if (budget === null || typeof budget !== 'object')
    throw optionsError(path, `${path.slice(1).replaceAll('/', '.')} must be { maxChars?, maxTokens?, maxBytes?, keep?, countTokens? }`);
  for (const key of ['maxChars', 'maxTokens', 'maxBytes'] as const) checkCount(budget[key], `${path}/${key}`, 0);
  if (budget.keep !== undefined && budget.keep !== 'head' && budget.keep !== 'head-tail')
    throw optionsError(`${path}/keep`, "keep must be 'head' or 'head-tail'");
  if (budget.countTokens !== undefined && typeof budget.countTokens !== 'function') throw optionsError(`${path}/countTokens`, 'countTokens must be a function');
}

function checkBudgets(budget: ModelBudget): void {
  if (budget === null || typeof budget !== 'object') throw optionsError('/budget', 'budget must be a ContextBudget or ContextBudgets');
  if (!isBudgets(budget)) {
    checkBudget(budget, '/budget');
    return;
  }
  if (budget.default !== undefined) checkBudget(budget.default, '/budget/default');
  const rules = budget.tools ?? {};
  const entries = Array.isArray(rules) ? rules.map((r, i) => [String(i), r?.budget] as const) : Object.entries(rules);
  for (const [key, b] of entries)
    checkBudget(b as ContextBudget, `/budget/tools/${key.replaceAll('~', '~0').replaceAll('/', '~1')}${Array.isArray(rules) ? '/budget' : ''}`);
}

const isBudgets = (b: ModelBudget): b is ContextBudgets => 'default' in b || 'tools' in b;

function checkOptions(options: WithToolResultsOptions): void {
  if (options === null || typeof options !== 'object') throw optionsError('', 'withToolResults(tools, options): options must be an object');
  const { budget, store, dialogId, screen: screenOption, onResult, asSchema } = options;
  if (budget !== undefined) checkBudgets(budget);
  checkCount(options.previewChars, '/previewChars', 1);
  if (options.spotlight !== undefined && !Object.hasOwn(SPOTLIGHT_INSTRUCTIONS, options.spotlight)) {
    throw optionsError('/spotlight', `spotlight must be 'delimit', 'datamark' or 'encode', got ${quoteJson(options.spotlight)}`);
  }
  if (store !== undefined && (store === null || typeof store !== 'object' || typeof store.put !== 'function'))
    throw optionsError('/store', 'store must have a put(result, { dialog_id }) method');
  checkDialogId(dialogId, store !== undefined);
  if (screenOption !== undefined && typeof screenOption !== 'boolean' && (screenOption === null || typeof screenOption !== 'object')) {
    throw optionsError('/screen', 'screen must be true, false or the screen options');
  }
  if (onResult !== undefined && typeof onResult !== 'function') throw optionsError('/onResult', 'onResult must be a function');
  if (asSchema !== undefined && typeof asSchema !== 'function') throw optionsError('/asSchema', 'asSchema must be the AI SDK function asSchema');
  if (options.tracer !== undefined && (options.tracer === null || typeof options.tracer.startSpan !== 'function'))
    throw optionsError('/tracer', 'tracer must be an OpenTelemetry Tracer (startSpan)');
}

// ---------------------------------------------------------------------------
// ToolResults of AI SDK tool calls.

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> =>
  v !== null && (typeof v === 'object' || typeof v === 'function') && typeof (v as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';

/** Meta keys that carry the fields of an SDK part that a ToolResult has no field for (as the Vercel conversions do). */
const META = 'ai-sdk/';

interface Call {
  toolName: string;
  toolCallId: string;
  input: unknown;
}

/** The call as a ToolInput, and the meta that keeps an input that is not an object. */
function callSpec(call: Call): { input: { tool_name: string; tool_call_id: string; parameters: Record<string, unknown> }; meta?: Record<string, unknown> } {
  const input = { tool_name: call.toolName, tool_call_id: call.toolCallId, parameters: isObject(call.input) ? call.input : {} };
  return call.input === undefined || isObject(call.input) ? { input } : { input, meta: { [`${META}input`]: call.input } };
}

/** A ToolResult builder that never throws on what the tool handed back: a spec it cannot build becomes a failure saying why. */
function buildResult(call: Call, started: number, outcome: { output: unknown } | { error: unknown; aborted: boolean }): ToolResult {
  const times = { started_at: started, completed_at: Date.now() };
  const spec = callSpec(call);
  const attempt = (withInput: boolean): ToolResult => {
    const base = withInput ? spec : { input: { ...spec.input, parameters: {} } };
    if ('output' in outcome) return createSuccess({ ...base, ...times, ...(outcome.output === undefined ? {} : { output: outcome.output }) });
    const { error, aborted } = outcome;
    const code = error instanceof ToolResultError ? error.code.toUpperCase() : aborted ? 'ABORTED' : 'TOOL_ERROR';
    const message =
      (error instanceof Error ? error.message : typeof error === 'string' ? error : '') || (aborted ? 'the tool call was aborted' : 'the tool failed');
    return createFailure({ ...base, ...times, status: aborted ? 'cancelled' : 'failed', error_code: code, error_message: message });
  };
  try {
    return attempt(true);
  } catch (e) {
    if (!(e instanceof ToolResultError)) throw e;
    const issues = e.issues;
    // An input that is not JSON data (a transform that made a Date) is left out; the output's issues are the tool's failure.
    if (issues.some((i) => i.path.startsWith('/input'))) {
      try {
        return attempt(false);
      } catch (again) {
        if (!(again instanceof ToolResultError)) throw again;
        return invalidOutput(spec, times, again.issues);
      }
    }
    return invalidOutput(spec, times, issues);
  }
}

function invalidOutput(spec: ReturnType<typeof callSpec>, times: { started_at: number; completed_at: number }, issues: Issue[]): ToolResult {
  const lines = issues.slice(0, 10).map((i) => `${briefText(i.path.replace(/^\/output/, '')) || '(root)'}: ${i.message}`);
  return createFailure({
    input: { ...spec.input, parameters: {} },
    ...times,
    status: 'failed',
    error_code: 'INVALID_OUTPUT',
    error_message: `the tool returned a value that is not JSON data: ${lines.join('; ')}`,
  });
}

/** The ToolResult's own JSON Schema as a Standard Schema, so `validateUIMessages` checks the wrapped tools' outputs. */
export const toolResultStandardSchema: ToolResultStandardSchema = {
  '~standard': {
    version: 1,
    vendor: 'toolresult',
    validate: (value) => {
      const r = validateToolResult(value);
      if (r.ok) return { value: r.value };
      return { issues: r.issues.map((i) => ({ message: `${i.message} [${i.code}]`, path: pointerSegments(i.path) })) };
    },
    jsonSchema: {
      input: (options) => toolResultJsonSchema(options),
      output: (options) => toolResultJsonSchema(options),
    },
  },
};

function toolResultJsonSchema(options: { target: string }): Record<string, unknown> {
  // The schema is written for 2020-12; another dialect would need a translation the spec says to refuse.
  if (options?.target !== 'draft-2020-12') {
    throw new ToolResultError('invalid_options', `the ToolResult schema is JSON Schema draft-2020-12; target ${quoteText(options?.target)} is not offered`);
  }
  return schemas.toolResult as unknown as Record<string, unknown>;
}

/** A JSON Pointer as Standard Schema path segments (array indices as numbers). */
function pointerSegments(pointer: string): PropertyKey[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

interface Wrapping {
  options: WithToolResultsOptions;
  registry?: ToolRegistry;
  asSchema?: AsSchema;
  /** With a `dialogId` function: the dialog of each recent result, by execution id, for `toModelOutput`. */
  dialogs: Map<string, string>;
}

/** How many results' dialogs a wrapping remembers for `toModelOutput` (older ones are asked of the store). */
const REMEMBERED_DIALOGS = 1024;

/** The dialog a result was kept under, for its reference: the string, or (a function) as remembered or as the store says. */
async function dialogOf(wrapping: Wrapping, result: ToolResult): Promise<string | undefined> {
  const { dialogId, store } = wrapping.options;
  if (typeof dialogId !== 'function') return dialogId;
  const id = result.metadata.execution_id;
  const remembered = wrapping.dialogs.get(id);
  if (remembered !== undefined || typeof store?.meta !== 'function') return remembered;
  return (await store.meta(id))?.dialog_id ?? undefined;
}

function remember(wrapping: Wrapping, result: ToolResult, dialogId: string | undefined): void {
  if (dialogId === undefined || typeof wrapping.options.dialogId !== 'function') return;
  wrapping.dialogs.set(result.metadata.execution_id, dialogId);
  if (wrapping.dialogs.size > REMEMBERED_DIALOGS) wrapping.dialogs.delete(wrapping.dialogs.keys().next().value as string);
}

/** Compiles a tool's outputSchema once (the SDK's JSON Schema of it, in the schema engine). */
function outputCheck(wrapping: Wrapping, name: string, schema: unknown): () => Promise<ToolRegistry> {
  let ready: Promise<ToolRegistry> | undefined;
  return () => {
    ready ??= (async () => {
      const asSchema = wrapping.asSchema ?? loadAsSchema();
      wrapping.asSchema = asSchema;
      const jsonSchema = await asSchema(schema).jsonSchema;
      wrapping.registry ??= new ToolRegistry();
      wrapping.registry.register({ name, outputSchema: jsonSchema });
      return wrapping.registry;
    })();
    // A schema that fails to compile fails every call the same way, and is tried again next time.
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  };
}

/**
 * The AI SDK tool set with every executable tool wrapped: `execute` returns
 * a ToolResult for every outcome (a throw, an abort or an output that is not
 * JSON data is a failed result, never an exception), checked against the
 * tool's `outputSchema` (which the SDK itself never checks when it runs a
 * tool; a mismatch is `output_validation_failed` with the issues), screened
 * when `options.screen` is set, kept in `options.store` and shown to
 * `options.onResult`. `toModelOutput` gives the model the output within
 * `options.budget`, or, when it is over and a store holds it, a reference with
 * a preview; a failure gives it `error-text` (or `error-json` with the
 * issues), a screen REJECT only the reasons. `outputSchema` becomes the
 * ToolResult's schema, so `validateUIMessages({ tools })` checks what the
 * UI received. A generator `execute` yields a ToolResult per value
 * (preliminary, unscreened) and then the final, checked one.
 * Tools without `execute` and provider tools are returned unchanged.
 */
export function withToolResults<T extends Record<string, AiTool>>(tools: T, options: WithToolResultsOptions = {}): { [K in keyof T]: ToolWithResults<T[K]> } {
  if (!isObject(tools)) throw optionsError('', 'withToolResults(tools, options): tools must be an object of AI SDK tools');
  checkOptions(options);
  const wrapping: Wrapping = { options, asSchema: options.asSchema as AsSchema | undefined, dialogs: new Map() };
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (!isObject(tool)) throw optionsError(`/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`, `tool ${name} is not an AI SDK tool`);
    const wrappable = typeof tool.execute === 'function' && (tool.type === undefined || tool.type === 'function' || tool.type === 'dynamic');
    if (!wrappable) {
      out[name] = tool;
      continue;
    }
    // Fail now, not on the first call, when an outputSchema cannot be read.
    if (tool.outputSchema != null) wrapping.asSchema ??= loadAsSchema();
    out[name] = wrapTool(name, tool as AiTool & Record<string, unknown>, wrapping);
  }
  return out as { [K in keyof T]: ToolWithResults<T[K]> };
}

function wrapTool(name: string, tool: AiTool & Record<string, unknown>, wrapping: Wrapping): Record<string, unknown> {
  const { options } = wrapping;
  const execute = tool.execute as (input: unknown, options: AiToolExecutionOptions) => unknown;
  const ownModelOutput = tool.toModelOutput as ((o: { toolCallId: string; input: unknown; output: unknown }) => unknown) | undefined;
  const registry = tool.outputSchema == null ? undefined : outputCheck(wrapping, name, tool.outputSchema);

  const report = async (result: ToolResult, call: Call, preliminary: boolean) => {
    await options.onResult?.(result, { toolName: call.toolName, toolCallId: call.toolCallId, preliminary });
  };

  const finish = async (
    call: Call,
    started: number,
    outcome: { output: unknown } | { error: unknown; aborted: boolean },
    span: RunningToolSpan,
    dialogId: string | undefined,
  ): Promise<ToolResult> => {
    let result: ToolResult;
    try {
      result = buildResult(call, started, outcome);
      if (registry && result.status === 'success') result = (await registry()).checkResult(result);
      if (options.screen) {
        const screenOptions = options.screen === true ? {} : options.screen;
        result = applyScreen(result, screen(result, { ...screenOptions, tool_name: screenOptions.tool_name ?? call.toolName }));
      }
    } catch (e) {
      span.end(buildResult(call, started, { error: e, aborted: false }));
      throw e;
    }
    // The span ends when the result is made; storing it is not the tool's run.
    span.end(result);
    remember(wrapping, result, dialogId);
    if (options.store) await options.store.put(result, { dialog_id: dialogId as string });
    await report(result, call, false);
    return result;
  };

  async function* stream(
    call: Call,
    started: number,
    source: AsyncIterable<unknown>,
    signal: AbortSignal | undefined,
    span: RunningToolSpan,
    dialogId: string | undefined,
  ): AsyncGenerator<ToolResult> {
    let last: unknown;
    try {
      for await (const value of source) {
        last = value;
        const partial = buildResult(call, started, { output: value });
        await report(partial, call, true);
        yield partial;
      }
    } catch (error) {
      yield await finish(call, started, { error, aborted: signal?.aborted === true }, span, dialogId);
      return;
    }
    yield await finish(call, started, { output: last }, span, dialogId);
  }

  const wrapped = {
    ...tool,
    outputSchema: toolResultStandardSchema,
    execute(input: unknown, execOptions: AiToolExecutionOptions): PromiseLike<ToolResult> | AsyncIterable<ToolResult> {
      const started = Date.now();
      const call: Call = { toolName: name, toolCallId: String(execOptions?.toolCallId ?? ''), input };
      const signal = execOptions?.abortSignal;
      let dialogId: string | undefined;
      try {
        // Before the tool runs: a call whose result cannot be kept does not run.
        dialogId = resolveDialogId(options.dialogId, execOptions, options.store !== undefined);
      } catch (error) {
        return Promise.reject(error);
      }
      const span = startToolSpan(
        { toolName: name, toolCallId: call.toolCallId, arguments: input, description: typeof tool.description === 'string' ? tool.description : undefined },
        options,
      );
      let returned: unknown;
      try {
        returned = execute.call(tool, input, execOptions);
      } catch (error) {
        return finish(call, started, { error, aborted: signal?.aborted === true }, span, dialogId);
      }
      if (isAsyncIterable(returned)) return stream(call, started, returned, signal, span, dialogId);
      return Promise.resolve(returned).then(
        (output) => finish(call, started, { output }, span, dialogId),
        (error: unknown) => finish(call, started, { error, aborted: signal?.aborted === true }, span, dialogId),
      );
    },
    async toModelOutput(o: { toolCallId: string; input: unknown; output: unknown }): Promise<AiToolModelOutput> {
      const result = asToolResult(o.output);
      if (!result) {
        // An output that is no ToolResult (history from before the wrapper): what the SDK would send.
        if (ownModelOutput) return (await ownModelOutput.call(tool, o)) as AiToolModelOutput;
        return typeof o.output === 'string' ? { type: 'text', value: o.output } : { type: 'json', value: toJsonValue(o.output) };
      }
      if (ownModelOutput && result.status === 'success' && !overBudget(result, options.budget)) {
        return (await ownModelOutput.call(tool, { ...o, output: result.output })) as AiToolModelOutput;
      }
      return toModelOutput(result, { ...options, dialogId: await dialogOf(wrapping, result) });
    },
  };
  return wrapped;
}

function toJsonValue(value: unknown): AiJsonValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as AiJsonValue;
}

/** A ToolResult, if `value` is one (checked in full). */
function asToolResult(value: unknown): ToolResult | undefined {
  if (!looksLikeToolResult(value)) return undefined;
  const r = validateToolResult(value);
  return r.ok ? r.value : undefined;
}

function looksLikeToolResult(value: unknown): value is Record<string, unknown> {
  return isObject(value) && 'schema_version' in value && isObject(value.metadata) && isObject(value.input) && typeof value.status === 'string';
}

// ---------------------------------------------------------------------------
// What the model receives.

/**
 * The one place a result is bounded for the model: `boundForModel` with the
 * tool's budget (`budgetFor` when the budget is by tool; 10 MiB when there
 * is none), the cut output and content put back into the result.
 */
function boundResult(result: ToolResult, budget: ModelBudget | undefined): { result: ToolResult; truncated: boolean } {
  const own: ContextBudget =
    budget === undefined ? { maxBytes: DEFAULT_MAX_OUTPUT_BYTES } : isBudgets(budget) ? budgetFor(budget, result.input.tool_name) : budget;
  const bound = boundForModel(result, own);
  if (!bound.truncated) return { result, truncated: false };
  const cut: ToolResult = { ...result, metadata: { ...result.metadata, output_truncated: true } };
  if ('output' in bound) cut.output = bound.output;
  if ('content' in bound) cut.content = bound.content;
  return { result: cut, truncated: true };
}

function overBudget(result: ToolResult, budget: ModelBudget | undefined): boolean {
  return boundResult(result, budget).truncated;
}

/** The options of {@link toModelOutput}: the wrapper's, with the dialog the result was kept under. */
export type ModelOutputOptions = Pick<WithToolResultsOptions, 'budget' | 'store' | 'previewChars' | 'spotlight'> & { dialogId?: string };

/**
 * What the model receives for a ToolResult (the wrapped tools'
 * `toModelOutput`): a success's output within `budget` (`text` for a
 * string, `content` for content blocks, else `json`), or, when it is over
 * the budget and a store holds it, seed 003's reference with a preview
 * (`json`); a failure's `error-text` (a screen REJECT: only the reasons), or
 * `error-json` with the issues of an output that failed its schema; a denied
 * call `execution-denied`.
 */
export function toModelOutput(result: ToolResult, options: ModelOutputOptions = {}): AiToolModelOutput {
  const r = asToolResult(result);
  if (!r) {
    const checked = validateToolResult(result);
    throw new ToolResultError('invalid_tool_result', 'toModelOutput takes a ToolResult', checked.ok ? [] : checked.issues);
  }
  if (r.status !== 'success') return failureOutput(r);
  const mode = options.spotlight;
  const bounded = boundResult(r, mode ? spotlightBudget(options.budget, mode, r.input.tool_name) : options.budget);
  if (bounded.truncated && options.store && typeof options.dialogId === 'string' && options.dialogId !== '') {
    const reference: ToolResultReference = toReference(r, { dialog_id: options.dialogId, previewChars: options.previewChars });
    return spotlightOutput({ type: 'json', value: reference as unknown as AiJsonValue }, mode);
  }
  return spotlightOutput(successOutput(bounded.result), mode);
}

/** What spotlighting adds: delimiters (~70 characters), nothing (datamark), a third more (base64). */
function spotlightBudget(budget: ModelBudget | undefined, mode: SpotlightMode, tool: string): ContextBudget {
  const own: ContextBudget = budget === undefined ? { maxBytes: DEFAULT_MAX_OUTPUT_BYTES } : isBudgets(budget) ? budgetFor(budget, tool) : budget;
  const less = (n: number | undefined) =>
    n === undefined ? undefined : mode === 'encode' ? Math.max(1, Math.floor(((n - 4) * 3) / 4)) : mode === 'delimit' ? Math.max(1, n - 80) : n;
  const out: ContextBudget = { ...own };
  if (own.maxChars !== undefined) out.maxChars = less(own.maxChars);
  if (own.maxBytes !== undefined) out.maxBytes = less(own.maxBytes);
  if (own.maxTokens !== undefined)
    out.maxTokens = mode === 'encode' ? Math.max(1, Math.floor(own.maxTokens / 2)) : mode === 'delimit' ? Math.max(1, own.maxTokens - 40) : own.maxTokens;
  return out;
}

/** The output's text marked as data; JSON becomes its text, content parts' text items are marked one by one. */
function spotlightOutput(out: AiToolModelOutput, mode: SpotlightMode | undefined): AiToolModelOutput {
  if (!mode) return out;
  const o = out as { type: string; value?: unknown };
  if (o.type === 'text' && typeof o.value === 'string') return { type: 'text', value: spotlight(o.value, { mode }).text };
  if (o.type === 'json') return { type: 'text', value: spotlight(JSON.stringify(o.value), { mode }).text };
  if (o.type === 'content' && Array.isArray(o.value)) {
    return {
      type: 'content',
      value: (o.value as { type: string; text?: unknown }[]).map((p) =>
        p.type === 'text' && typeof p.text === 'string' ? { ...p, text: spotlight(p.text, { mode }).text } : p,
      ),
    } as AiToolModelOutput;
  }
  return out;
}

function successOutput(r: ToolResult): AiToolModelOutput {
  if (Array.isArray(r.content) && r.content.length > 0) {
    // The package's Vercel conversion of content blocks (text, images, audio).
    const part = toVercelToolPart(r.input.tool_call_id ? r : { ...r, input: { ...r.input, tool_call_id: r.metadata.execution_id } });
    return part.output as AiToolModelOutput;
  }
  if (typeof r.output === 'string') return { type: 'text', value: r.output };
  if (r.output === undefined) return { type: 'text', value: '' };
  return { type: 'json', value: r.output as AiJsonValue };
}

function failureOutput(r: ToolResult): AiToolModelOutput {
  const message = r.error_message || `the tool call ended with status ${r.status}`;
  // A REJECT: the reasons only, never the content (even redacted).
  if (r.status === 'security_violation') return { type: 'error-text', value: message };
  if (r.status === 'permission_denied' && r.error_code === 'EXECUTION_DENIED') {
    return message === DENIED ? { type: 'execution-denied' } : { type: 'execution-denied', reason: message };
  }
  if (r.validation_issues && r.validation_issues.length > 0) {
    return {
      type: 'error-json',
      value: {
        error_code: r.error_code ?? null,
        error_message: message,
        issues: r.validation_issues.slice(0, 50).map((i) => ({ path: i.path, code: i.code, message: i.message })),
      },
    };
  }
  return { type: 'error-text', value: message };
}

// ---------------------------------------------------------------------------
// UI message tool parts.

/** The states of a UI message tool part (AI SDK 6 and 7). */
export type UIToolState =
  | 'input-streaming'
  | 'input-available'
  | 'approval-requested'
  | 'approval-responded'
  | 'output-available'
  | 'output-error'
  | 'output-denied';

/** Every state of an AI SDK 7 UIMessage tool part, in lifecycle order. */
export const UI_TOOL_STATES: readonly UIToolState[] = [
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
  'output-available',
  'output-error',
  'output-denied',
];

/** The `approval` of a UI tool part. */
export interface UIToolApproval {
  id: string;
  approved?: boolean;
  reason?: string;
  requestReason?: string;
  isAutomatic?: boolean;
  descriptor?: unknown;
  signature?: string;
  inputSchemaInput?: unknown;
}

/** A UI message tool part (`tool-<name>` or `dynamic-tool`), as `UIMessage.parts` holds it. */
export interface UIToolPart {
  type: string;
  toolCallId: string;
  state: UIToolState;
  toolName?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  preliminary?: boolean;
  approval?: UIToolApproval;
  title?: string;
  toolMetadata?: Record<string, unknown>;
  providerExecuted?: boolean;
  callProviderMetadata?: Record<string, unknown>;
  resultProviderMetadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The options of `toUIToolPart`. */
export interface ToUIToolPartOptions {
  /** The state to write. Default: from the result (see `toUIToolPart`). */
  state?: UIToolState;
  /** `result` (default): an available output is the ToolResult, as wrapped tools stream it; `output`: the tool's own output. */
  output?: 'result' | 'output';
  /** A `dynamic-tool` part (default: as the result was read, else a `tool-<name>` part). */
  dynamic?: boolean;
  /** Mark an available output as a streamed partial one. */
  preliminary?: boolean;
  /** The approval (required for `approval-responded` unless the result carries one). */
  approval?: UIToolApproval;
}

/** Part fields a ToolResult has no field for; kept in `meta` under `ai-sdk/<field>`. */
const PART_CARRIED = ['title', 'toolMetadata', 'providerExecuted', 'callProviderMetadata', 'resultProviderMetadata'] as const;
/** The meta keys `toUIToolPart` turns into part fields. */
const CARRIED_KEYS = new Set([...PART_CARRIED, 'dynamic', 'approval', 'preliminary', 'input'].map((f) => `ai-sdk/${f}`));
/** Which states a carried field may appear in (the SDK's UI message schema). */
const RESULT_METADATA_STATES: readonly UIToolState[] = ['output-available', 'output-error'];

const DENIED = 'the tool call was denied (execution-denied)';
const AWAITING = 'the tool call awaits approval';

const partError = (path: string, message: string, code: Issue['code'] = 'invalid_type') =>
  new ToolResultError('invalid_input', `not a UI message tool part: ${message}`, [{ path, code, message }]);

function approvalFields(a: Record<string, unknown>, keep: readonly string[]): UIToolApproval {
  const out: Record<string, unknown> = {};
  for (const k of keep) if (a[k] !== undefined) out[k] = a[k];
  return out as unknown as UIToolApproval;
}
const REQUEST_FIELDS = ['id', 'descriptor', 'requestReason', 'isAutomatic', 'signature', 'inputSchemaInput'] as const;
const RESPONSE_FIELDS = [...REQUEST_FIELDS, 'approved', 'reason'] as const;

/**
 * A ToolResult as a UI message tool part that the SDK's `validateUIMessages`
 * accepts (ai 6 and 7). The state, unless `options.state` names one: a
 * success is `output-available`; `requires_confirmation` is
 * `approval-requested`; a denied call (`permission_denied`,
 * `EXECUTION_DENIED`) is `output-denied`; any other failure is `output-error`
 * with its message as `errorText`. An available output is the ToolResult
 * itself (what a `withToolResults` tool streams), or with `output: 'output'`
 * the tool's own output. The call (`toolCallId`, `input`) comes from the
 * result's `input`; the part's other fields from what `fromUIToolPart` kept
 * in `meta`. The `input-*` and `approval-*` states are written from the
 * result's call.
 */
export function toUIToolPart(result: ToolResult, options: ToUIToolPartOptions = {}): UIToolPart {
  if (options === null || typeof options !== 'object') throw optionsError('', 'toUIToolPart(result, options): options must be an object');
  const checked = validateToolResult(result);
  if (!checked.ok) throw new ToolResultError('invalid_tool_result', 'toUIToolPart takes a ToolResult', checked.issues);
  const r = checked.value;
  const meta = r.meta ?? {};
  const state = options.state ?? defaultState(r);
  if (!UI_TOOL_STATES.includes(state)) throw optionsError('/state', `state must be one of ${UI_TOOL_STATES.join(', ')}, got ${quoteText(state)}`);
  if (options.output !== undefined && options.output !== 'result' && options.output !== 'output')
    throw optionsError('/output', "output must be 'result' or 'output'");
  const name = r.input.tool_name;
  const dynamic = options.dynamic ?? meta[`${META}dynamic`] === true;
  const part: UIToolPart = dynamic
    ? { type: 'dynamic-tool', toolName: name, toolCallId: callId(r), state }
    : { type: `tool-${name}`, toolCallId: callId(r), state };
  for (const field of PART_CARRIED) {
    const value = meta[`${META}${field}`];
    if (value === undefined) continue;
    if (field === 'resultProviderMetadata' && !RESULT_METADATA_STATES.includes(state)) continue;
    (part as Record<string, unknown>)[field] = value;
  }
  const input = `${META}input` in meta ? meta[`${META}input`] : r.input.parameters;
  const kept = isObject(meta[`${META}approval`]) ? (meta[`${META}approval`] as Record<string, unknown>) : undefined;
  const given = options.approval as Record<string, unknown> | undefined;
  if (given !== undefined && (!isObject(given) || typeof given.id !== 'string'))
    throw optionsError('/approval', 'approval must be { id, approved?, reason?, … }');
  const approval = given ?? kept;
  const id = callId(r);
  switch (state) {
    case 'input-streaming':
      if (input !== undefined) part.input = input;
      break;
    case 'input-available':
      part.input = input;
      break;
    case 'approval-requested': {
      part.input = input;
      const a = approvalFields(approval ?? { id: `approval-${id}` }, REQUEST_FIELDS);
      if (a.requestReason === undefined && r.status === 'requires_confirmation' && r.error_message && r.error_message !== AWAITING)
        a.requestReason = r.error_message;
      part.approval = a;
      break;
    }
    case 'approval-responded': {
      part.input = input;
      const approved = typeof approval?.approved === 'boolean' ? approval.approved : undefined;
      if (approved === undefined) throw optionsError('/approval/approved', 'state approval-responded needs approval { id, approved }');
      part.approval = approvalFields(approval ?? {}, RESPONSE_FIELDS);
      break;
    }
    case 'output-available': {
      part.input = input;
      part.output = options.output === 'output' ? (r.output ?? null) : withoutCarried(r);
      if (options.preliminary ?? meta[`${META}preliminary`] === true) part.preliminary = true;
      if (approval?.approved === true) part.approval = approvalFields(approval, RESPONSE_FIELDS);
      break;
    }
    case 'output-error':
      if (input !== undefined) part.input = input;
      part.errorText = r.error_message || `the tool call ended with status ${r.status}`;
      if (approval?.approved === true) part.approval = approvalFields(approval, RESPONSE_FIELDS);
      break;
    case 'output-denied': {
      part.input = input;
      const a = approvalFields(approval ?? { id: `approval-${id}` }, RESPONSE_FIELDS);
      a.approved = false;
      if (a.reason === undefined && r.error_message && r.error_message !== DENIED && r.status !== 'success') a.reason = r.error_message;
      part.approval = a;
      break;
    }
  }
  return part;
}

function callId(r: ToolResult): string {
  return r.input.tool_call_id || r.metadata.execution_id;
}

function defaultState(r: ToolResult): UIToolState {
  if (r.status === 'success') return 'output-available';
  if (r.status === 'requires_confirmation') return 'approval-requested';
  if (r.status === 'permission_denied' && r.error_code === 'EXECUTION_DENIED') return 'output-denied';
  return 'output-error';
}

/** The result without the meta keys that became part fields (so a part read back gives the same part). */
function withoutCarried(r: ToolResult): ToolResult {
  if (!r.meta) return r;
  const meta = Object.fromEntries(Object.entries(r.meta).filter(([k]) => !CARRIED_KEYS.has(k)));
  const { meta: _, ...rest } = r;
  return Object.keys(meta).length > 0 ? { ...rest, meta } : rest;
}

/**
 * A UI message tool part (`tool-<name>` or `dynamic-tool`, any state) as a
 * ToolResult, or `undefined` while the call has no result yet
 * (`input-streaming`, `input-available`, `approval-responded`).
 * `output-available`: the ToolResult it holds (what a `withToolResults` tool
 * streams), else a success with the part's output; `output-error`: a
 * `failed` result (`TOOL_ERROR`) with `errorText` as its message;
 * `output-denied`: `permission_denied` (`EXECUTION_DENIED`, the approval's
 * reason); `approval-requested`: `requires_confirmation`
 * (`APPROVAL_REQUESTED`). The part's fields a ToolResult has no place for
 * (title, provider metadata, approval, `preliminary`, a dynamic tool) are
 * kept in `meta` under `ai-sdk/…`, so `toUIToolPart` gives the part back.
 * A malformed part is a `ToolResultError` (`invalid_input`) naming the field.
 */
export function fromUIToolPart(part: unknown): ToolResult | undefined {
  if (!isObject(part)) throw partError('', 'a tool part is an object', 'invalid_type');
  const type = part.type;
  if (typeof type !== 'string' || !(type === 'dynamic-tool' || (type.startsWith('tool-') && type.length > 5))) {
    throw partError('/type', 'type must be "tool-<name>" or "dynamic-tool"', 'invalid_enum');
  }
  const toolName = type === 'dynamic-tool' ? part.toolName : type.slice(5);
  if (typeof toolName !== 'string' || toolName === '') throw partError('/toolName', 'a dynamic-tool part names its tool in toolName');
  if (typeof part.toolCallId !== 'string' || part.toolCallId === '') throw partError('/toolCallId', 'toolCallId must be a non-empty string');
  const state = part.state as UIToolState;
  if (!UI_TOOL_STATES.includes(state)) throw partError('/state', `state must be one of ${UI_TOOL_STATES.join(', ')}`, 'invalid_enum');
  if (state === 'input-streaming' || state === 'input-available' || state === 'approval-responded') return undefined;

  const meta: Record<string, unknown> = {};
  for (const field of PART_CARRIED) if (part[field] !== undefined) meta[`${META}${field}`] = part[field];
  if (type === 'dynamic-tool') meta[`${META}dynamic`] = true;
  const approval = part.approval;
  if (approval !== undefined) {
    if (!isObject(approval) || typeof approval.id !== 'string') throw partError('/approval/id', 'approval must be an object with a string id');
    meta[`${META}approval`] = approval;
  } else if (state === 'approval-requested' || state === 'output-denied') {
    throw partError('/approval', `a part in state ${state} has an approval`, 'missing_field');
  }
  if (part.preliminary === true) {
    if (state !== 'output-available') throw partError('/preliminary', 'only an available output is preliminary');
    meta[`${META}preliminary`] = true;
  }
  const call = callSpec({ toolName, toolCallId: part.toolCallId, input: part.input });
  Object.assign(meta, call.meta);
  const withMeta = Object.keys(meta).length > 0 ? { meta } : {};
  const wrap = <R>(f: () => R): R => {
    try {
      return f();
    } catch (e) {
      if (e instanceof ToolResultError) throw new ToolResultError('invalid_input', `cannot read this tool part: ${e.message.split('\n')[0]}`, rebase(e.issues));
      throw e;
    }
  };
  switch (state) {
    case 'output-available': {
      if (looksLikeToolResult(part.output)) {
        const checked = validateToolResult(part.output);
        if (!checked.ok)
          throw new ToolResultError('invalid_input', 'the output looks like a ToolResult and is not a valid one', prefix(checked.issues, '/output'));
        const r = checked.value;
        return Object.keys(meta).length > 0 ? { ...r, meta: { ...(r.meta ?? {}), ...meta } } : r;
      }
      return wrap(() => createSuccess({ input: call.input, ...(part.output === undefined ? {} : { output: part.output }), ...withMeta }));
    }
    case 'output-error': {
      if (typeof part.errorText !== 'string') throw partError('/errorText', 'an output-error part has errorText (a string)', 'missing_field');
      const message = part.errorText || 'the tool failed';
      return wrap(() => createFailure({ input: call.input, status: 'failed', error_code: 'TOOL_ERROR', error_message: message, ...withMeta }));
    }
    case 'output-denied': {
      const reason = (approval as Record<string, unknown>).reason;
      const message = typeof reason === 'string' && reason !== '' ? reason : DENIED;
      return wrap(() => createFailure({ input: call.input, status: 'permission_denied', error_code: 'EXECUTION_DENIED', error_message: message, ...withMeta }));
    }
    default: {
      // approval-requested
      const requestReason = (approval as Record<string, unknown>).requestReason;
      const message = typeof requestReason === 'string' && requestReason !== '' ? requestReason : AWAITING;
      return wrap(() =>
        createFailure({ input: call.input, status: 'requires_confirmation', error_code: 'APPROVAL_REQUESTED', error_message: message, ...withMeta }),
      );
    }
  }
}

const prefix = (issues: Issue[], at: string): Issue[] => issues.map((i) => ({ ...i, path: `${at}${i.path}` }));

/** Issues of a built spec, as paths into the part (`/output/…`, `/input/…`). */
function rebase(issues: Issue[]): Issue[] {
  return issues.map((i) => ({ ...i, path: i.path.replace(/^\/input\/parameters/, '/input').replace(/^\/meta\/ai-sdk~1(\w+)/, '/$1') }));
}
