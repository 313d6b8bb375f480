// What the LangChain and OpenAI Agents adapters share: one tool call's
// ToolResult (built from the outcome, checked against an output schema,
// screened, stored, shown to `onResult`, its span ended), the checks of the
// common options, and the output schemas they take.
import { createFailure, createSuccess } from '../../api.js';
import { sha256Hex } from '../../bound.js';
import { ToolResultError, quoteJson, briefText } from '../../errors.js';
import type { Issue, SchemaOptions, ScreenOptions, ToolResult } from '../../generated/types.js';
import { SPOTLIGHT_INSTRUCTIONS, type SpotlightMode } from '../../history/spotlight.js';
import { CompiledSchema, ToolRegistry } from '../../schema.js';
import { applyScreen, screen } from '../../screen.js';
import type { AiResultStore, AiToolModelOutput, ModelBudget } from './model-output.js';
import { type RunningToolSpan, type ToolSpanOptions, startToolSpan } from './span.js';

/** The options every adapter of this kind takes. */
export interface ToolRunOptions extends ToolSpanOptions {
  /** What the model may receive of one result (`boundForModel`'s budget, one for all or by tool name); a larger one is cut, or, with a store, referenced. Default: 10 MiB. */
  budget?: ModelBudget;
  /** Screen every result (`true`, or the screen's options); a REJECT gives the model the reasons and never the content. */
  screen?: boolean | ScreenOptions;
  /** Keep every result here, whole (`ResultStore`, `FileResultStore`, `PostgresResultStore`, or any `put`). */
  store?: AiResultStore;
  /**
   * The dialog the results belong to (required with `store`, except where the
   * adapter has a default): a string, or a function of the framework's call
   * (each adapter says what it is given) returning one, for an agent built
   * once and run for many conversations.
   */
  dialogId?: DialogIdOption<never>;
  /** Length of a reference's preview in characters (default 500). */
  previewChars?: number;
  /** Marks what the model receives as data (`'delimit'`, `'datamark'`, `'encode'`); put `SPOTLIGHT_INSTRUCTIONS[mode]` in the system prompt. */
  spotlight?: SpotlightMode;
  /** Schema options for output schemas given as JSON Schema. */
  schemaOptions?: SchemaOptions;
  /** Called with every ToolResult made. */
  onResult?: (result: ToolResult, info: { toolName: string; toolCallId: string }) => void | PromiseLike<void>;
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export const optionsError = (path: string, message: string) => new ToolResultError('invalid_options', message, [{ path, code: 'invalid_options', message }]);

// ---------------------------------------------------------------------------
// dialogId: a string, or a function of the call (every adapter's, checked and resolved here).

/** A dialog id, or a function of the framework's call (the AI SDK's `execute` options, LangChain's runtime, the OpenAI Agents run context) giving one. */
export type DialogIdOption<C> = string | ((call: C) => string);

/**
 * Checks `dialogId` when the adapter is made: a non-empty string or a
 * function; with a store, required unless the adapter has a default
 * (`hasDefault`, resolved per call).
 */
export function checkDialogId(dialogId: unknown, hasStore: boolean, hasDefault = false): void {
  if (typeof dialogId === 'function') return;
  if (dialogId === undefined) {
    if (hasStore && !hasDefault)
      throw optionsError('/dialogId', 'a store needs dialogId: the dialog the results are kept under (a string, or a function of the call returning one)');
    return;
  }
  if (typeof dialogId !== 'string' || dialogId === '') throw optionsError('/dialogId', 'dialogId must be a non-empty string or a function returning one');
}

const described = (v: unknown): string =>
  v === '' ? 'an empty string' : v === null ? 'null' : typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function' ? 'a Promise' : typeof v;

/**
 * The dialog of one call: `dialogId` when it is a string, what it returns for
 * `call` when it is a function (a non-empty string, else a ToolResultError
 * `invalid_options` naming `/dialogId`), else `fallback()`. With a store and
 * no dialog at all, a ToolResultError naming `/dialogId` too.
 */
export function resolveDialogId<C>(
  dialogId: DialogIdOption<C> | undefined,
  call: C,
  hasStore: boolean,
  fallback?: () => string | undefined,
): string | undefined {
  let id: string | undefined;
  if (typeof dialogId === 'function') {
    const given: unknown = dialogId(call);
    if (typeof given !== 'string' || given === '')
      throw optionsError('/dialogId', `dialogId must return the dialog's id, a non-empty string; it returned ${described(given)}`);
    id = given;
  } else {
    id = dialogId ?? fallback?.();
  }
  if (id === undefined && hasStore) throw optionsError('/dialogId', 'a store needs dialogId: the dialog the results are kept under');
  return id;
}

/** Checks the common options (`where` names the function in messages; `dialogIdDefault`: the adapter finds a dialog per call without `dialogId`). */
export function checkRunOptions(options: ToolRunOptions, where: string, dialogIdDefault = false): void {
  if (options === null || typeof options !== 'object') throw optionsError('', `${where}: options must be an object`);
  const { store } = options;
  if (options.previewChars !== undefined && (!Number.isSafeInteger(options.previewChars) || options.previewChars < 1))
    throw optionsError('/previewChars', 'previewChars must be a whole number >= 1');
  if (options.spotlight !== undefined && !Object.hasOwn(SPOTLIGHT_INSTRUCTIONS, options.spotlight))
    throw optionsError('/spotlight', `spotlight must be 'delimit', 'datamark' or 'encode', got ${quoteJson(options.spotlight)}`);
  if (store !== undefined) {
    if (store === null || typeof store !== 'object' || typeof store.put !== 'function')
      throw optionsError('/store', 'store must have a put(result, { dialogId }) method');
  }
  checkDialogId(options.dialogId, store !== undefined, dialogIdDefault);
  if (options.screen !== undefined && typeof options.screen !== 'boolean' && !isObject(options.screen))
    throw optionsError('/screen', 'screen must be true, false or the screen options');
  if (options.onResult !== undefined && typeof options.onResult !== 'function') throw optionsError('/onResult', 'onResult must be a function');
  if (options.tracer !== undefined && (options.tracer === null || typeof options.tracer.startSpan !== 'function'))
    throw optionsError('/tracer', 'tracer must be an OpenTelemetry Tracer (startSpan)');
  if (options.budget !== undefined && !isObject(options.budget)) throw optionsError('/budget', 'budget must be a ContextBudget or ContextBudgets');
}

/** The JSON Schema of an output schema given as JSON Schema, a `compileSchema` result, or a Standard JSON Schema (zod 4, …). */
export function outputSchemaJson(schema: unknown, schemaOptions: SchemaOptions | undefined): { json: unknown; options: SchemaOptions | undefined } {
  if (schema instanceof CompiledSchema) {
    const { schema: text, options } = schema.source;
    return { json: JSON.parse(text), options: options === '' ? undefined : (JSON.parse(options) as SchemaOptions) };
  }
  const standard =
    isObject(schema) || typeof schema === 'function' ? (schema as { '~standard'?: { jsonSchema?: { output?: unknown } } })['~standard'] : undefined;
  const output = standard?.jsonSchema?.output;
  if (typeof output === 'function') return { json: output({ target: 'draft-2020-12' }), options: schemaOptions };
  return { json: schema, options: schemaOptions };
}

/** Output checks by tool name, each compiled on first use. */
export class OutputChecks {
  private readonly registries = new Map<string, ToolRegistry>();
  constructor(private readonly schemaOptions: SchemaOptions | undefined) {}

  /** The result checked against `schema` (a mismatch is `output_validation_failed` with the issues). */
  check(result: ToolResult, name: string, schema: unknown): ToolResult {
    if (schema === undefined || schema === null || result.status !== 'success') return result;
    let registry = this.registries.get(name);
    if (!registry) {
      const { json, options } = outputSchemaJson(schema, this.schemaOptions);
      registry = new ToolRegistry(options);
      registry.register({ name, outputSchema: json });
      this.registries.set(name, registry);
    }
    return registry.checkResult(result);
  }
}

/** A part of what the model receives, whichever AI SDK part form the conversion wrote. */
export type ModelPart = { kind: 'text'; text: string } | { kind: 'media'; mediaType: string; data?: string; url?: string; filename?: string };

/**
 * The parts of a `content` model output (AI SDK 7 `file` parts tagged `data`,
 * `url` or `text`, and 6's `image-data`, `file-data`, `image-url`,
 * `file-url`) as text or media; a part with no portable form (a provider's
 * file reference, a custom part) is named in a text part, not dropped.
 */
export function modelParts(parts: readonly unknown[]): ModelPart[] {
  return parts.map((p): ModelPart => {
    const part = isObject(p) ? p : {};
    const mediaType = typeof part.mediaType === 'string' ? part.mediaType : 'application/octet-stream';
    const named = typeof part.filename === 'string' ? { filename: part.filename } : {};
    const data = isObject(part.data) ? part.data : undefined;
    if (part.type === 'text' && typeof part.text === 'string') return { kind: 'text', text: part.text };
    if (part.type === 'file' && data?.type === 'text' && typeof data.text === 'string') return { kind: 'text', text: data.text };
    if (part.type === 'file' && data?.type === 'data' && typeof data.data === 'string') return { kind: 'media', mediaType, data: data.data, ...named };
    if (part.type === 'file' && data?.type === 'url' && typeof data.url === 'string') return { kind: 'media', mediaType, url: data.url, ...named };
    if ((part.type === 'image-data' || part.type === 'file-data' || part.type === 'media') && typeof part.data === 'string')
      return { kind: 'media', mediaType, data: part.data, ...named };
    if ((part.type === 'image-url' || part.type === 'file-url') && typeof part.url === 'string') return { kind: 'media', mediaType, url: part.url, ...named };
    return { kind: 'text', text: `[${String(part.type)} part omitted (${mediaType}): this target cannot hold it]` };
  });
}

/** One tool call. */
export interface RunCall {
  toolName: string;
  /** The call's id; `''` when the framework gave none (the result then has no `tool_call_id`). */
  toolCallId: string;
  /** The call's arguments (an object becomes `input.parameters`). */
  input: unknown;
}

/** What happened: an output (and optional content blocks / meta), or an error (`status`: a schema's failure instead of `failed`). */
export type RunOutcome =
  | { output: unknown; content?: ToolResult['content']; meta?: Record<string, unknown> }
  | { error: unknown; aborted?: boolean; code?: string; message?: string; status?: 'validation_error' | 'output_validation_failed' };

const errorMessage = (e: unknown) => (e instanceof Error ? e.message || e.name : typeof e === 'string' ? e : '');

/** A ToolResult of the outcome that never throws on what the tool handed back: what cannot be built becomes a failure saying why. */
export function buildToolResult(call: RunCall, started: number, outcome: RunOutcome): ToolResult {
  const times = { started_at: started, completed_at: Date.now() };
  const params = isObject(call.input) ? call.input : {};
  const inputMeta = call.input === undefined || isObject(call.input) ? undefined : { 'toolresult/input': call.input };
  // No call id: none is written, and the result's execution_id stands for it (store key, reference, cut markers).
  const callId = call.toolCallId === '' ? {} : { tool_call_id: call.toolCallId };
  const make = (withInput: boolean, withMeta: boolean): ToolResult => {
    const input = { tool_name: call.toolName, ...callId, parameters: withInput ? params : {} };
    if ('output' in outcome) {
      const meta = { ...(withMeta ? (outcome.meta ?? {}) : {}), ...(withMeta && inputMeta ? inputMeta : {}) };
      return createSuccess({
        input,
        ...times,
        ...(outcome.output === undefined ? {} : { output: outcome.output }),
        ...(outcome.content ? { content: outcome.content } : {}),
        ...(Object.keys(meta).length > 0 ? { meta } : {}),
      });
    }
    const aborted = outcome.aborted === true;
    const code = outcome.code ?? (outcome.error instanceof ToolResultError ? outcome.error.code.toUpperCase() : aborted ? 'ABORTED' : 'TOOL_ERROR');
    const message = outcome.message || errorMessage(outcome.error) || (aborted ? 'the tool call was aborted' : 'the tool failed');
    return createFailure({ input, ...times, status: aborted ? 'cancelled' : (outcome.status ?? 'failed'), error_code: code, error_message: message });
  };
  // What is not JSON data is left out step by step: the meta (a tool's own artifact), then the
  // input (a transform that made a Date); an output that still fails is the tool's failure.
  let issues: Issue[] = [];
  for (const [withInput, withMeta] of [
    [true, true],
    [true, false],
    [false, false],
  ] as const) {
    try {
      return make(withInput, withMeta);
    } catch (e) {
      if (!(e instanceof ToolResultError)) throw e;
      issues = e.issues;
    }
  }
  const lines = issues.slice(0, 10).map((i) => `${briefText(i.path.replace(/^\/output/, '')) || '(root)'}: ${i.message}`);
  return createFailure({
    input: { tool_name: call.toolName, ...callId, parameters: {} },
    ...times,
    status: 'failed',
    error_code: 'INVALID_OUTPUT',
    error_message: `the tool returned a value that is not JSON data: ${lines.join('; ')}`,
  });
}

/** A tool call in progress: its start time, span and dialog. */
export interface RunningCall {
  call: RunCall;
  started: number;
  span: RunningToolSpan;
  /** The dialog its result is kept under (resolved before the tool runs). */
  dialogId: string | undefined;
}

/** Starts a call: the time, and the span (when a tracer is given); `dialogId` is the call's, resolved (`resolveDialogId`). */
export function startRun(call: RunCall, options: ToolRunOptions, extra: { description?: string; toolType?: string } = {}, dialogId?: string): RunningCall {
  const span = startToolSpan({ toolName: call.toolName, toolCallId: call.toolCallId, arguments: call.input, ...extra }, options);
  return { call, started: Date.now(), span, dialogId };
}

/**
 * Ends a call: the ToolResult built, checked against `outputSchema`, screened;
 * the span ended; then stored and shown to `onResult`.
 */
export async function finishRun(run: RunningCall, outcome: RunOutcome, options: ToolRunOptions, check?: (r: ToolResult) => ToolResult): Promise<ToolResult> {
  let result: ToolResult;
  try {
    result = buildToolResult(run.call, run.started, outcome);
    if (check) result = check(result);
    if (options.screen) {
      const screenOptions = options.screen === true ? {} : options.screen;
      result = applyScreen(result, screen(result, { ...screenOptions, tool_name: screenOptions.tool_name ?? run.call.toolName }));
    }
  } catch (e) {
    run.span.end(buildToolResult(run.call, run.started, { error: e, code: 'TOOLRESULT_ERROR' }));
    throw e;
  }
  run.span.end(result);
  if (options.store) await options.store.put(result, { dialogId: run.dialogId as string });
  await options.onResult?.(result, { toolName: run.call.toolName, toolCallId: run.call.toolCallId });
  return result;
}

// ---------------------------------------------------------------------------
// Checks and meta more than one adapter needs.

/** Checks `registry` when the adapter is made: a `ToolRegistry` (or anything with its `has` and `checkResult`). */
export function checkRegistry(registry: unknown): void {
  if (registry !== undefined && (!isObject(registry) || typeof registry.has !== 'function' || typeof registry.checkResult !== 'function'))
    throw optionsError('/registry', 'registry must be a ToolRegistry');
}

/** Checks `budget` when the adapter is made: a ContextBudget, or ContextBudgets (each budget of it), issues under `/budget`. */
export function checkBudget(budget: unknown): void {
  if (budget === undefined) return;
  const one = (b: unknown, path: string) => {
    const name = path.slice(1).replaceAll('/', '.');
    if (!isObject(b)) throw optionsError(path, `${name} must be { maxChars?, maxTokens?, maxBytes?, keep?, countTokens? }`);
    for (const key of ['maxChars', 'maxTokens', 'maxBytes']) {
      const n = b[key];
      if (n !== undefined && (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0))
        throw optionsError(`${path}/${key}`, `${name}.${key} must be a whole number >= 0`);
    }
    if (b.keep !== undefined && b.keep !== 'head' && b.keep !== 'head-tail') throw optionsError(`${path}/keep`, "keep must be 'head' or 'head-tail'");
    if (b.countTokens !== undefined && typeof b.countTokens !== 'function') throw optionsError(`${path}/countTokens`, 'countTokens must be a function');
  };
  if (!isObject(budget)) throw optionsError('/budget', 'budget must be a ContextBudget or ContextBudgets');
  if (!('default' in budget || 'tools' in budget)) {
    one(budget, '/budget');
    return;
  }
  if (budget.default !== undefined) one(budget.default, '/budget/default');
  const rules = budget.tools ?? {};
  if (Array.isArray(rules)) for (const [i, r] of rules.entries()) one(isObject(r) ? r.budget : r, `/budget/tools/${i}/budget`);
  else if (isObject(rules)) for (const [k, b] of Object.entries(rules)) one(b, `/budget/tools/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  else throw optionsError('/budget/tools', 'budget.tools must be an object by tool name or a list of rules');
}

/** `meta["toolresult/sha256"]`: the sha256 of the whole output as it is stored (a string's UTF-8, else its JSON text). */
export function sha256Meta(output: unknown): Record<string, unknown> | undefined {
  if (output === undefined) return undefined;
  try {
    return { 'toolresult/sha256': sha256Hex(typeof output === 'string' ? output : JSON.stringify(output)) };
  } catch {
    return undefined;
  }
}

/** A failure as a JSON object the model reads: `{ error, error_code, issues? }` (a screen REJECT: the reasons, never the content). */
export function failureValue(out: AiToolModelOutput, r: ToolResult): Record<string, unknown> {
  if (out.type === 'error-json' && isObject(out.value)) {
    const { error_message, ...rest } = out.value;
    return { error: error_message, ...rest };
  }
  const message = out.type === 'execution-denied' ? (out.reason ?? 'the tool call was denied') : (out as { value?: unknown }).value;
  return { error: message, error_code: r.error_code ?? null };
}
