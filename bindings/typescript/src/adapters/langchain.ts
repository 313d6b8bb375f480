// `toolresult/langchain`: a LangChain v1 agent middleware (`langchain` ≥ 1,
// `@langchain/core` ≥ 1, optional peers). Every tool call of a `createAgent`
// agent becomes a ToolResult (timed, checked against the tool's output
// schema, screened, stored, bounded); the agent gets a `ToolMessage` whose
// `content` is what the model should see, whose `artifact` is the whole
// ToolResult (LangChain keeps artifacts out of the model's input), and whose
// `status` is `error` for a failure. Nothing here imports LangChain at
// module load: `createMiddleware` and `ToolMessage` are taken from the
// options or loaded on first use (the Node entry, langchain-node.ts, knows
// how); LangChain's shapes are written out structurally.
import { ToolResultError } from '../errors.js';
import type { ToolResult } from '../generated/types.js';
import { type AiToolModelOutput, type ModelOutputOptions, toModelOutput } from './shared/model-output.js';
import {
  buildToolResult,
  checkRunOptions,
  type DialogIdOption,
  finishRun,
  isObject,
  modelParts,
  OutputChecks,
  optionsError,
  type RunOutcome,
  resolveDialogId,
  startRun,
  type ToolRunOptions,
} from './shared/run.js';

// ---------------------------------------------------------------------------
// LangChain's shapes, as far as this module reads or writes them.

/** A tool call of an AI message (`@langchain/core/messages` `ToolCall`). */
export interface LangChainToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
  type?: 'tool_call';
}

/** A `ToolMessage` (the fields read here). */
export interface LangChainToolMessageLike {
  content: unknown;
  tool_call_id: string;
  status?: 'success' | 'error';
  artifact?: unknown;
  name?: string;
}

/** The fields `new ToolMessage(fields)` is given. */
export interface LangChainToolMessageFields {
  content: string | Record<string, unknown>[];
  tool_call_id: string;
  name?: string;
  status: 'success' | 'error';
  artifact: ToolResult;
  metadata?: Record<string, unknown>;
}

/** The `ToolMessage` class of `@langchain/core/messages` (or `langchain`). */
export interface LangChainToolMessageClass {
  new (fields: LangChainToolMessageFields): unknown;
  isInstance?(message: unknown): boolean;
}

/** The agent's runtime as `wrapToolCall` is given it (`{ context, store, configurable, writer, interrupt, signal }`; the fields read here). */
export interface LangChainRuntime {
  /** The run's `configurable` (`agent.invoke(input, { configurable: { thread_id } })`). */
  configurable?: { thread_id?: unknown; [key: string]: unknown };
  /** The run's `context` (`agent.invoke(input, { context })`). */
  context?: unknown;
  signal?: AbortSignal;
  [key: string]: unknown;
}

/** A tool call request of `wrapToolCall` (the fields read here). */
export interface LangChainToolCallRequest {
  toolCall: LangChainToolCall;
  tool?: { name?: string; description?: string; outputSchema?: unknown } | unknown;
  state?: unknown;
  runtime?: { signal?: AbortSignal } | unknown;
}

/** The options of `createMiddleware`, as this module passes them. */
export interface LangChainMiddlewareConfig {
  name: string;
  wrapToolCall: (request: LangChainToolCallRequest, handler: (request: LangChainToolCallRequest) => unknown) => Promise<unknown>;
}

/** The options of {@link toolResultMiddleware}. */
export interface ToolResultMiddlewareOptions extends ToolRunOptions {
  /**
   * The dialog the results are kept under: a string, or a function of the
   * agent's runtime (`{ configurable, context, ... }`) returning one. Default:
   * the run's `configurable.thread_id`, when it has one (a store without
   * either fails the call).
   */
  dialogId?: DialogIdOption<LangChainRuntime>;
  /** The middleware's name (default `"toolresult"`). */
  name?: string;
  /** Output schemas by tool name (JSON Schema, a `compileSchema` result, or a Standard JSON Schema such as zod 4); a tool's own `outputSchema` is used when it has one. */
  outputSchemas?: Record<string, unknown>;
  /** LangChain's `createMiddleware` (from `langchain`). Default: loaded from `langchain` (Node). */
  createMiddleware?: (config: never) => unknown;
  /** LangChain's `ToolMessage` class (from `langchain` or `@langchain/core/messages`). Default: loaded from `langchain` (Node). */
  ToolMessage?: LangChainToolMessageClass;
}

// ---------------------------------------------------------------------------
// Loading the peer.

/** @internal How this build loads `langchain` (set by the Node entry; browsers pass `createMiddleware` and `ToolMessage`). */
export const langchainPeer: { load?: () => unknown } = {};

function loadPeer(): { createMiddleware?: unknown; ToolMessage?: unknown } {
  try {
    return (langchainPeer.load?.() ?? {}) as { createMiddleware?: unknown; ToolMessage?: unknown };
  } catch (e) {
    throw new ToolResultError(
      'missing_dependency',
      `toolresult/langchain needs LangChain's createMiddleware and ToolMessage, and "langchain" could not be loaded (${(e as Error)?.message ?? String(e)}): install langchain (>= 1) or pass { createMiddleware, ToolMessage } from "langchain"`,
    );
  }
}

// ---------------------------------------------------------------------------
// The middleware.

/** The run's `configurable.thread_id`, when it is a non-empty string. */
function threadId(runtime: LangChainRuntime): string | undefined {
  const id = isObject(runtime.configurable) ? runtime.configurable.thread_id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Errors LangGraph throws to interrupt or redirect the graph: they are not the tool's failure and go on up. */
function isGraphSignal(e: unknown): boolean {
  if (!isObject(e) && !(e instanceof Error)) return false;
  const err = e as { is_bubble_up?: unknown; name?: unknown; lc_error_code?: unknown };
  return err.is_bubble_up === true || err.name === 'GraphInterrupt' || err.name === 'NodeInterrupt' || err.name === 'ParentCommand';
}

const isToolMessage = (value: unknown, ToolMessage: LangChainToolMessageClass): value is LangChainToolMessageLike =>
  typeof ToolMessage.isInstance === 'function'
    ? ToolMessage.isInstance(value)
    : isObject(value) && (value as { type?: unknown }).type === 'tool' && typeof (value as { tool_call_id?: unknown }).tool_call_id === 'string';

/** The text of a message's content (a string, or its text blocks). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((b) => (typeof b === 'string' ? b : isObject(b) && typeof b.text === 'string' ? b.text : ''))
      .filter((t) => t !== '')
      .join('\n');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** LangChain's tools `JSON.stringify` an object they return: read it back as the tool's output. */
function outputOf(content: unknown): unknown {
  if (typeof content === 'string') {
    const t = content.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        return JSON.parse(content);
      } catch {
        return content;
      }
    }
    return content;
  }
  return content;
}

/** The outcome of a ToolMessage the tool (or ToolNode) returned. */
function messageOutcome(message: LangChainToolMessageLike): RunOutcome {
  if (message.status === 'error') return { error: undefined, code: 'TOOL_ERROR', message: contentText(message.content) || 'the tool failed' };
  const meta: Record<string, unknown> = {};
  if (message.artifact !== undefined) meta['langchain/artifact'] = message.artifact;
  return { output: outputOf(message.content), meta };
}

/** What the model receives (`toModelOutput` of the AI SDK adapter) as a ToolMessage's content and status. */
export function toToolMessageContent(
  result: ToolResult,
  options: ModelOutputOptions = {},
): { content: string | Record<string, unknown>[]; status: 'success' | 'error' } {
  const out: AiToolModelOutput = toModelOutput(result, options);
  switch (out.type) {
    case 'text':
      return { content: out.value, status: 'success' };
    case 'json':
      return { content: JSON.stringify(out.value), status: 'success' };
    case 'error-text':
      return { content: out.value, status: 'error' };
    case 'error-json':
      return { content: JSON.stringify(out.value), status: 'error' };
    case 'execution-denied':
      return { content: out.reason ?? 'the tool call was denied', status: 'error' };
    case 'content':
      // LangChain's standard content blocks: text, and image / audio / video / file by media
      // type, with base64 `data` or a `url`, and `mimeType`.
      return {
        content: modelParts(out.value).map((p) => {
          if (p.kind === 'text') return { type: 'text', text: p.text };
          const kind = /^(image|audio|video)\//.exec(p.mediaType)?.[1] ?? 'file';
          const source = p.data !== undefined ? { data: p.data } : { url: p.url };
          return { type: kind, ...source, mimeType: p.mediaType, ...(p.filename ? { metadata: { filename: p.filename } } : {}) };
        }),
        status: 'success',
      };
  }
}

/**
 * A LangChain v1 agent middleware (`createAgent({ middleware: [toolResultMiddleware(options)] })`)
 * whose `wrapToolCall` makes every tool call a ToolResult: timed, with the
 * call's id and arguments; a thrown tool error (or an error ToolMessage) is a
 * failed result, never a crash of the agent loop (LangGraph interrupts go on
 * up); checked against the tool's output schema (`options.outputSchemas[name]`,
 * or the tool's `outputSchema`); screened (`options.screen`: a REJECT gives
 * the model the reasons, never the content); kept in `options.store`; shown
 * to `options.onResult`; traced (`options.tracer`). The agent gets a
 * `ToolMessage` whose `content` is the output within `options.budget` (or,
 * over it with a store, a reference with a preview), whose `artifact` is the
 * whole ToolResult, and whose `status` is `error` for a failure. A tool's own
 * artifact is kept in the result's `meta["langchain/artifact"]` when it is
 * JSON data. A `Command` a tool returns passes through untouched.
 */
export function toolResultMiddleware(options: ToolResultMiddlewareOptions = {}): unknown {
  checkRunOptions(options, 'toolResultMiddleware(options)', true);
  if (options.outputSchemas !== undefined && !isObject(options.outputSchemas))
    throw optionsError('/outputSchemas', 'outputSchemas must be an object of output schemas by tool name');
  let createMiddleware = options.createMiddleware as ((config: LangChainMiddlewareConfig) => unknown) | undefined;
  let ToolMessage = options.ToolMessage;
  if (!createMiddleware || !ToolMessage) {
    const peer = loadPeer();
    createMiddleware ??= peer.createMiddleware as typeof createMiddleware;
    ToolMessage ??= peer.ToolMessage as LangChainToolMessageClass | undefined;
  }
  if (typeof createMiddleware !== 'function' || typeof ToolMessage !== 'function') {
    throw new ToolResultError(
      'missing_dependency',
      'toolresult/langchain needs LangChain\'s createMiddleware and ToolMessage: pass { createMiddleware, ToolMessage } from "langchain"',
    );
  }
  const Message = ToolMessage;
  const checks = new OutputChecks(options.schemaOptions);

  const wrapToolCall = async (request: LangChainToolCallRequest, handler: (request: LangChainToolCallRequest) => unknown): Promise<unknown> => {
    const toolCall = request?.toolCall ?? ({ name: 'unknown', args: {} } as LangChainToolCall);
    const tool = isObject(request?.tool) ? (request.tool as { name?: unknown; description?: unknown; outputSchema?: unknown }) : undefined;
    const toolName = String(toolCall.name ?? tool?.name ?? 'unknown');
    const toolCallId = typeof toolCall.id === 'string' ? toolCall.id : '';
    const runtime: LangChainRuntime = isObject(request?.runtime) ? (request.runtime as LangChainRuntime) : {};
    // Before the tool runs: a call whose result cannot be kept does not run.
    const dialogId = resolveDialogId(options.dialogId, runtime, options.store !== undefined, () => threadId(runtime));
    const run = startRun(
      { toolName, toolCallId, input: toolCall.args },
      options,
      { description: typeof tool?.description === 'string' ? tool.description : undefined },
      dialogId,
    );
    const signal = runtime.signal ?? undefined;
    let outcome: RunOutcome;
    try {
      const returned = await handler(request);
      if (!isToolMessage(returned, Message)) {
        // A Command (state update, goto): not a tool output this middleware can hold.
        run.span.end(buildToolResult(run.call, run.started, { output: undefined }));
        return returned;
      }
      outcome = messageOutcome(returned);
    } catch (error) {
      if (isGraphSignal(error)) throw error;
      outcome = { error, aborted: signal?.aborted === true };
    }
    const schema = options.outputSchemas?.[toolName] ?? tool?.outputSchema;
    const result = await finishRun(run, outcome, options, (r) => checks.check(r, toolName, schema));
    const shown = toToolMessageContent(result, { ...options, dialogId });
    return new Message({ content: shown.content, tool_call_id: toolCallId, name: toolName, status: shown.status, artifact: result });
  };

  return createMiddleware({ name: options.name ?? 'toolresult', wrapToolCall });
}
