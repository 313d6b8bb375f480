// `toolresult/ai`: the Vercel AI SDK (`ai` ≥ 6, an optional peer). Tools
// whose `execute` returns a ToolResult (validated, screened, stored) and whose
// `toModelOutput` gives the model its bounded share of it; UI message tool
// parts to and from ToolResults. Nothing here imports `ai` at runtime or for
// its types: the SDK's shapes are written out structurally below, and its
// `asSchema` is taken from `options.asSchema` or loaded on first need (the
// Node entry, ai-node.ts, knows how). The browser build compiles this file
// too, for the UI helpers.
import { createFailure, createSuccess, validateToolResult } from '../api.js';
import { schemas } from '../schemas.js';
import type { ContextBudget } from '../budget.js';
import { ToolResultError, quoteJson, quoteText, briefText } from '../errors.js';
import type { Issue, ScreenOptions, ToolResult } from '../generated/types.js';
import { ToolRegistry } from '../schema.js';
import { SPOTLIGHT_INSTRUCTIONS, type SpotlightMode } from '../history/spotlight.js';
import { applyScreen, screen } from '../screen.js';
import { checkDialogId, type DialogIdOption, resolveDialogId } from './shared/run.js';
import { type RunningToolSpan, startToolSpan, type ToolSpanOptions } from './shared/span.js';

import {
  type AiJsonValue,
  type AiResultStore,
  type AiToolModelOutput,
  asToolResult,
  isBudgets,
  type ModelBudget,
  overBudget,
  toModelOutput,
} from './shared/model-output.js';
import { type Call, callSpec } from '../ui-parts.js';

export {
  type AiJsonValue,
  type AiResultStore,
  type AiToolContentPart,
  type AiToolModelOutput,
  type ModelBudget,
  type ModelOutputOptions,
  toModelOutput,
} from './shared/model-output.js';
export {
  fromUIToolPart,
  type ToUIToolPartOptions,
  toUIToolPart,
  UI_TOOL_STATES,
  type UIToolApproval,
  type UIToolPart,
  type UIToolState,
} from '../ui-parts.js';

// ---------------------------------------------------------------------------
// The AI SDK's shapes, as much of them as this module reads or writes.

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

function checkOptions(options: WithToolResultsOptions): void {
  if (options === null || typeof options !== 'object') throw optionsError('', 'withToolResults(tools, options): options must be an object');
  const { budget, store, dialogId, screen: screenOption, onResult, asSchema } = options;
  if (budget !== undefined) checkBudgets(budget);
  checkCount(options.previewChars, '/previewChars', 1);
  if (options.spotlight !== undefined && !Object.hasOwn(SPOTLIGHT_INSTRUCTIONS, options.spotlight)) {
    throw optionsError('/spotlight', `spotlight must be 'delimit', 'datamark' or 'encode', got ${quoteJson(options.spotlight)}`);
  }
  if (store !== undefined && (store === null || typeof store !== 'object' || typeof store.put !== 'function'))
    throw optionsError('/store', 'store must have a put(result, { dialogId }) method');
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
    if (options.store) await options.store.put(result, { dialogId: dialogId as string });
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
