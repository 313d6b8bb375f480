// `toolresult/mastra`: Mastra (`@mastra/core` ≥ 1.71, an optional peer). An
// output processor whose `processToolResult` makes every tool result a
// ToolResult (checked, screened, stored, bounded) and gives the model its
// share through `messageList.updateToolInvocation`; and a tool wrapper for
// what that hook never sees: a tool that throws, the tool's own time, and an
// AI SDK tool's output checked against its schema. Nothing here imports
// Mastra: a processor and a tool are plain objects, written out structurally.
import { createFailure } from '../api.js';
import { sha256Hex } from '../bound.js';
import type { ToolResult } from '../generated/types.js';
import type { ToolRegistry } from '../schema.js';
import { type AiToolModelOutput, toModelOutput } from './shared/model-output.js';
import {
  buildToolResult,
  checkRunOptions,
  type DialogIdOption,
  finishRun,
  isObject,
  modelParts,
  OutputChecks,
  optionsError,
  type RunningCall,
  type RunOutcome,
  resolveDialogId,
  startRun,
  type ToolRunOptions,
} from './shared/run.js';
import { startToolSpan } from './shared/span.js';

// ---------------------------------------------------------------------------
// Mastra's shapes, as far as this module reads or writes them.

/** The tool-invocation part `MessageList.updateToolInvocation` takes. */
export interface MastraToolInvocationPart {
  type: 'tool-invocation';
  toolInvocation: { state: 'result'; toolCallId: string; toolName: string; args: unknown; result: unknown };
}

/** A `MessageList`, as far as this module uses one. */
export interface MastraMessageListLike {
  // A method: Mastra's own parameter type must be assignable here.
  updateToolInvocation(part: MastraToolInvocationPart): boolean;
}

/** What `processToolResult` is given (`ProcessToolResultArgs`, the fields read here). */
export interface MastraToolResultArgs {
  toolName: string;
  toolCallId: string;
  args: unknown;
  result: unknown;
  providerExecuted?: boolean;
  messageList: MastraMessageListLike;
  messages?: readonly { threadId?: string; resourceId?: string }[];
  requestContext?: unknown;
}

/** An output processor with `processToolResult`, for an Agent's `outputProcessors`. */
export interface MastraToolResultProcessor {
  readonly id: string;
  readonly name: string;
  processToolResult(args: MastraToolResultArgs): Promise<void>;
}

/** A tool of an Agent's `tools` (`createTool()`, or an AI SDK `tool()`), as far as this module reads it. */
export interface MastraToolLike {
  description?: unknown;
  outputSchema?: unknown;
  // A method: the tool's own parameter types must be assignable here.
  execute?(input: never, context: never): unknown;
}

/** What a `dialogId` function is given: the call, and Mastra's run context where known. */
export interface MastraDialogCall {
  toolName: string;
  toolCallId: string;
  args: unknown;
  /** The run's `RequestContext` (`requestContext.get(...)`). */
  requestContext?: unknown;
  /** The memory thread and resource, when the agent runs with memory. */
  threadId?: string;
  resourceId?: string;
}

/** The options of {@link toolResultProcessor} and {@link wrapMastraTools} (give both the same). */
export interface MastraToolResultOptions extends Omit<ToolRunOptions, 'dialogId'> {
  /** The dialog the results are kept under (required with `store`): a string, or a function of the call. */
  dialogId?: DialogIdOption<MastraDialogCall>;
  /** Results of the tools registered here are checked against their output schemas (`output_validation_failed` with the issues). */
  registry?: ToolRegistry;
  /** The processor's id (default `"toolresult"`). */
  id?: string;
}

// ---------------------------------------------------------------------------
// Between the wrapper and the processor: a wrapped call, by the run and the call.

/** A call the wrapper saw succeed: its start, span and dialog, or its result when the wrapper already made and kept it. */
type Note = { run: RunningCall; result?: ToolResult };

const byContext = new WeakMap<object, Map<string, Note>>();
// Calls without a RequestContext (Mastra always gives one to tools); the oldest go first.
const loose = new Map<string, Note>();
const LOOSE_MAX = 256;

const noteKey = (toolName: string, toolCallId: string) => `${toolName}\u0000${toolCallId}`;

function leaveNote(context: unknown, key: string, note: Note): void {
  if (isObject(context)) {
    let notes = byContext.get(context);
    if (!notes) byContext.set(context, (notes = new Map()));
    notes.set(key, note);
    return;
  }
  loose.set(key, note);
  if (loose.size > LOOSE_MAX) loose.delete(loose.keys().next().value as string);
}

function takeNote(context: unknown, key: string): Note | undefined {
  const notes = isObject(context) ? byContext.get(context) : loose;
  const note = notes?.get(key);
  notes?.delete(key);
  return note;
}

// ---------------------------------------------------------------------------
// Options.

function checkOptions(options: MastraToolResultOptions, where: string): void {
  checkRunOptions(options as ToolRunOptions, where);
  const registry = options.registry as unknown;
  if (registry !== undefined && (!isObject(registry) || typeof registry.has !== 'function' || typeof registry.checkResult !== 'function'))
    throw optionsError('/registry', 'registry must be a ToolRegistry');
  if (options.id !== undefined && (typeof options.id !== 'string' || options.id === '')) throw optionsError('/id', 'id must be a non-empty string');
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

// ---------------------------------------------------------------------------
// What Mastra hands over instead of an output: its ValidationError.

interface MastraValidationError {
  error: true;
  message: string;
  validationErrors: unknown;
}

/** Mastra's `isValidationError`: what a tool (or Mastra for it) returns when the input or output fails its schema. */
const isValidationError = (v: unknown): v is MastraValidationError =>
  isObject(v) && v.error === true && 'validationErrors' in v && typeof v.message === 'string';

/**
 * The outcome of a ValidationError: Mastra's message names each issue and
 * then quotes the output ("Returned output: …", up to 200 characters), which
 * would reach the model unscreened; the quote is left out.
 */
function validationOutcome(v: MastraValidationError): RunOutcome & { status: 'output_validation_failed' | 'validation_error' } {
  const output = v.message.startsWith('Tool output validation failed');
  const message = output ? v.message.replace(/\n+Returned output:[\s\S]*$/, '') : v.message;
  return output
    ? { error: v, code: 'OUTPUT_VALIDATION_FAILED', message, status: 'output_validation_failed' }
    : { error: v, code: 'INVALID_INPUT', message, status: 'validation_error' };
}

/** The failure as the given status (`buildToolResult` makes every failure `failed`). */
function withStatus(r: ToolResult, status: 'output_validation_failed' | 'validation_error'): ToolResult {
  return createFailure({
    input: r.input,
    started_at: r.metadata.started_at,
    completed_at: r.metadata.completed_at,
    status,
    error_code: r.error_code ?? 'TOOL_ERROR',
    error_message: r.error_message ?? 'the tool failed',
  });
}

/** The sha256 of the whole output as the store keeps it (a string's UTF-8, else its JSON text). */
function outputMeta(output: unknown): Record<string, unknown> | undefined {
  if (output === undefined) return undefined;
  try {
    return { 'toolresult/sha256': sha256Hex(typeof output === 'string' ? output : JSON.stringify(output)) };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// What the model receives.

/**
 * A model output as the value Mastra passes on: text as a string, JSON as
 * itself. An object with a top-level `value` key goes as its JSON text:
 * Mastra would give the model only that key's value.
 */
export function toMastraResult(out: AiToolModelOutput): unknown {
  switch (out.type) {
    case 'text':
    case 'error-text':
      return out.value;
    case 'json':
      return isObject(out.value) && 'value' in out.value ? JSON.stringify(out.value) : out.value;
    case 'error-json':
      return JSON.stringify(out.value);
    case 'execution-denied':
      return out.reason ?? 'the tool call was denied';
    case 'content':
      return modelParts(out.value)
        .map((p) => (p.kind === 'text' ? p.text : `[${p.mediaType}${p.filename ? ` ${p.filename}` : ''} omitted: a Mastra tool result is text or JSON]`))
        .join('\n');
  }
}

// ---------------------------------------------------------------------------
// The processor.

/**
 * An output processor (`new Agent({ outputProcessors: [toolResultProcessor(options)] })`)
 * whose `processToolResult` makes each tool result a ToolResult: Mastra's
 * ValidationError (an input or output that failed the tool's schema) a
 * `validation_error` / `output_validation_failed` result whose message names
 * the issues and none of the output; checked against `options.registry` when
 * the tool is registered there; screened (`options.screen`); kept whole in
 * `options.store` under `options.dialogId`, with the output's sha256 in
 * `meta["toolresult/sha256"]`; shown to `options.onResult`. The model then
 * gets, through `messageList.updateToolInvocation`, the output within
 * `options.budget`, or, over it with a store, a reference with a preview
 * naming `get_tool_result` and the call's id; a failure, its message; a screen
 * REJECT, the reasons only. What the caller reads in `toolResults` is that
 * same share. Mastra never calls the hook for a tool that throws, nor gives it
 * the tool's time: wrap the tools with {@link wrapMastraTools} (same options).
 * Provider-executed tools are left as they are.
 */
export function toolResultProcessor(options: MastraToolResultOptions = {}): MastraToolResultProcessor {
  checkOptions(options, 'toolResultProcessor(options)');
  const registry = options.registry;
  const id = options.id ?? 'toolresult';
  return {
    id,
    name: id,
    async processToolResult(a: MastraToolResultArgs): Promise<void> {
      if (!isObject(a) || a.providerExecuted) return;
      const { toolName, toolCallId, args, result: raw, messageList } = a;
      const note = takeNote(a.requestContext, noteKey(toolName, toolCallId));
      let result = note?.result;
      let dialogId = note?.run.dialogId;
      if (!result) {
        const thread = a.messages?.find((m) => isObject(m) && typeof m.threadId === 'string');
        dialogId ??= resolveDialogId(
          options.dialogId,
          { toolName, toolCallId, args, requestContext: a.requestContext, threadId: thread?.threadId, resourceId: thread?.resourceId },
          options.store !== undefined,
        );
        const call = { toolName, toolCallId, input: args };
        const run: RunningCall = note?.run ?? { call, started: Date.now(), span: startToolSpan({ toolName, toolCallId, arguments: args }, options), dialogId };
        const invalid = isValidationError(raw) ? validationOutcome(raw) : undefined;
        const outcome: RunOutcome = invalid ?? { output: raw, meta: outputMeta(raw) };
        result = await finishRun(run, outcome, { ...options, dialogId } as ToolRunOptions, (r) => {
          if (invalid) return withStatus(r, invalid.status);
          return registry?.has(toolName) ? registry.checkResult(r) : r;
        });
      }
      const share = toMastraResult(toModelOutput(result, { ...options, dialogId }));
      messageList.updateToolInvocation({ type: 'tool-invocation', toolInvocation: { state: 'result', toolCallId, toolName, args, result: share } });
    },
  };
}

// ---------------------------------------------------------------------------
// The tool wrapper.

/** The mark of an AI SDK `Schema` (`jsonSchema()`, `zodSchema()`). */
const AI_SCHEMA = Symbol.for('vercel.ai.schema');

/** The output schema to check: an AI SDK `Schema` as its JSON Schema (when it is at hand); anything else as it is. */
function schemaOf(schema: unknown): unknown {
  if (!isObject(schema) || !(AI_SCHEMA in schema)) return schema;
  const json = schema.jsonSchema;
  return isObject(json) ? json : undefined;
}

/** A Mastra `createTool()` tool: Mastra checks its output before the tool returns. */
const MASTRA_TOOL = Symbol.for('mastra.core.tool.Tool');

/**
 * The Agent's tools with each `execute` wrapped, for what
 * {@link toolResultProcessor} never sees; give both the same options.
 *
 * - A tool that throws: the failure is a `failed` ToolResult with the tool's
 *   own message (`cancelled` when the run was aborted), screened, stored,
 *   shown to `onResult`; then the error is thrown again, so Mastra gives the
 *   model its `error-text` as it would. (Returned as a value instead, the
 *   processor would store a second result for the same call: a
 *   `store_conflict`.)
 * - The tool's time: the processor's result starts when the tool started
 *   (and the span, with `tracer`, covers the tool).
 * - An output Mastra does not check before the tool returns (an AI SDK
 *   `tool()` with an `outputSchema`; Mastra 1.71 left a `jsonSchema()` one
 *   unchecked): checked here with the package's JSON Schema engine; a
 *   mismatch is stored as `output_validation_failed` with the output and each
 *   issue's JSON Pointer. (A `createTool()` tool's output is checked by
 *   Mastra first; the processor records its ValidationError.)
 *
 * The wrapped tool is a copy (same prototype and fields); tools without
 * `execute` are returned as they are.
 */
export function wrapMastraTools<T extends Record<string, MastraToolLike>>(tools: T, options: MastraToolResultOptions = {}): T {
  if (!isObject(tools)) throw optionsError('', 'wrapMastraTools(tools, options): tools must be an object of Mastra tools');
  checkOptions(options, 'wrapMastraTools(tools, options)');
  const checks = new OutputChecks(options.schemaOptions);
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (!isObject(tool) || typeof tool.execute !== 'function') {
      out[name] = tool;
      continue;
    }
    const execute = tool.execute as (input: unknown, context: unknown) => unknown;
    const schema = MASTRA_TOOL in tool ? undefined : schemaOf(tool.outputSchema);
    const copy = Object.assign(Object.create(Object.getPrototypeOf(tool)) as object, tool);
    (copy as MastraToolLike).execute = async (input: unknown, context: unknown): Promise<unknown> => {
      const ctx = isObject(context) ? context : {};
      const agent = isObject(ctx.agent) ? ctx.agent : {};
      const toolCallId = str(agent.toolCallId) ?? str(ctx.toolCallId) ?? '';
      const dialogId = resolveDialogId(
        options.dialogId,
        { toolName: name, toolCallId, args: input, requestContext: ctx.requestContext, threadId: str(agent.threadId), resourceId: str(agent.resourceId) },
        options.store !== undefined,
      );
      const runOptions = { ...options, dialogId } as ToolRunOptions;
      const run = startRun({ toolName: name, toolCallId, input }, runOptions, { description: str(tool.description) }, dialogId);
      let output: unknown;
      try {
        output = await execute.call(tool, input, context);
      } catch (error) {
        const signal = ctx.abortSignal as AbortSignal | undefined;
        await finishRun(run, { error, aborted: signal?.aborted === true }, runOptions);
        throw error;
      }
      const note: Note = { run };
      if (schema != null && !isValidationError(output)) {
        const check = (r: ToolResult) => checks.check(r, name, schema);
        if (check(buildToolResult(run.call, run.started, { output })).status !== 'success')
          note.result = await finishRun(run, { output, meta: outputMeta(output) }, runOptions, check);
      }
      if (toolCallId !== '') leaveNote(ctx.requestContext, noteKey(name, toolCallId), note);
      return output;
    };
    out[name] = copy;
  }
  return out as T;
}
