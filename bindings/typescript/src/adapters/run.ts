// What the LangChain and OpenAI Agents adapters share: one tool call's
// ToolResult (built from the outcome, checked against an output schema,
// screened, stored, shown to `onResult`, its span ended), the checks of the
// common options, and the output schemas they take.
import { createFailure, createSuccess } from '../api.js';
import { ToolResultError } from '../errors.js';
import type { Issue, SchemaOptions, ScreenOptions, ToolResult } from '../generated/types.js';
import { SPOTLIGHT_INSTRUCTIONS, type SpotlightMode } from '../history/spotlight.js';
import { CompiledSchema, ToolRegistry } from '../schema.js';
import { applyScreen, screen } from '../screen.js';
import type { AiResultStore, ModelBudget } from './ai.js';
import { type RunningToolSpan, type ToolSpanOptions, startToolSpan } from './span.js';

/** The options every adapter of this kind takes. */
export interface ToolRunOptions extends ToolSpanOptions {
  /** What the model may receive of one result (`boundForModel`'s budget, one for all or by tool name); a larger one is cut, or, with a store, referenced. Default: 10 MiB. */
  budget?: ModelBudget;
  /** Screen every result (`true`, or the screen's options); a REJECT gives the model the reasons and never the content. */
  screen?: boolean | ScreenOptions;
  /** Keep every result here, whole (`ResultStore`, `FileResultStore`, `PostgresResultStore`, or any `put`). */
  store?: AiResultStore;
  /** The dialog the results belong to (required with `store`). */
  dialogId?: string;
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

/** Checks the common options (`where` names the function in messages). */
export function checkRunOptions(options: ToolRunOptions, where: string): void {
  if (options === null || typeof options !== 'object') throw optionsError('', `${where}: options must be an object`);
  const { store, dialogId } = options;
  if (options.previewChars !== undefined && (!Number.isSafeInteger(options.previewChars) || options.previewChars < 1))
    throw optionsError('/previewChars', 'previewChars must be a whole number >= 1');
  if (options.spotlight !== undefined && !Object.hasOwn(SPOTLIGHT_INSTRUCTIONS, options.spotlight))
    throw optionsError('/spotlight', `spotlight must be 'delimit', 'datamark' or 'encode', got ${JSON.stringify(options.spotlight)}`);
  if (store !== undefined) {
    if (store === null || typeof store !== 'object' || typeof store.put !== 'function')
      throw optionsError('/store', 'store must have a put(result, { dialog_id }) method');
    if (typeof dialogId !== 'string' || dialogId === '') throw optionsError('/dialogId', 'a store needs dialogId: the dialog the results are kept under');
  } else if (dialogId !== undefined && (typeof dialogId !== 'string' || dialogId === '')) {
    throw optionsError('/dialogId', 'dialogId must be a non-empty string');
  }
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
  toolCallId: string;
  /** The call's arguments (an object becomes `input.parameters`). */
  input: unknown;
}

/** What happened: an output (and optional content blocks / meta), or an error. */
export type RunOutcome =
  | { output: unknown; content?: ToolResult['content']; meta?: Record<string, unknown> }
  | { error: unknown; aborted?: boolean; code?: string; message?: string };

const errorMessage = (e: unknown) => (e instanceof Error ? e.message || e.name : typeof e === 'string' ? e : '');

/** A ToolResult of the outcome that never throws on what the tool handed back: what cannot be built becomes a failure saying why. */
export function buildToolResult(call: RunCall, started: number, outcome: RunOutcome): ToolResult {
  const times = { started_at: started, completed_at: Date.now() };
  const params = isObject(call.input) ? call.input : {};
  const inputMeta = call.input === undefined || isObject(call.input) ? undefined : { 'toolresult/input': call.input };
  const make = (withInput: boolean, withMeta: boolean): ToolResult => {
    const input = { tool_name: call.toolName, tool_call_id: call.toolCallId, parameters: withInput ? params : {} };
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
    return createFailure({ input, ...times, status: aborted ? 'cancelled' : 'failed', error_code: code, error_message: message });
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
  const lines = issues.slice(0, 10).map((i) => `${i.path.replace(/^\/output/, '') || '(root)'}: ${i.message}`);
  return createFailure({
    input: { tool_name: call.toolName, tool_call_id: call.toolCallId, parameters: {} },
    ...times,
    status: 'failed',
    error_code: 'INVALID_OUTPUT',
    error_message: `the tool returned a value that is not JSON data: ${lines.join('; ')}`,
  });
}

/** A tool call in progress: its start time and span. */
export interface RunningCall {
  call: RunCall;
  started: number;
  span: RunningToolSpan;
}

/** Starts a call: the time, and the span (when a tracer is given). */
export function startRun(call: RunCall, options: ToolRunOptions, extra: { description?: string; toolType?: string } = {}): RunningCall {
  const span = startToolSpan({ toolName: call.toolName, toolCallId: call.toolCallId, arguments: call.input, ...extra }, options);
  return { call, started: Date.now(), span };
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
  if (options.store) await options.store.put(result, { dialog_id: options.dialogId as string });
  await options.onResult?.(result, { toolName: run.call.toolName, toolCallId: run.call.toolCallId });
  return result;
}
