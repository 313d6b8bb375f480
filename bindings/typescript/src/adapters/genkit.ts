// `toolresult/genkit`: Genkit (`genkit` ≥ 1.42, an optional peer; Node only,
// as Genkit is). `toolResultMiddleware(options)` is a generate middleware
// for `generate({ use: [toolResultMiddleware(options)] })` whose `tool` hook
// makes every tool call a ToolResult (timed, checked against `registry`,
// screened, stored whole with its sha256, shown to `onResult`) and gives the
// model its share as the `ToolResponsePart`. Nothing here imports Genkit: the
// middleware is the plain object `generateMiddleware(...)()` returns, its
// shapes written out below (Genkit types `use` entries as `any`).
// The entry installs the wasm modules: this entry may be the first one loaded.
import '../index.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../bound.js';
import { boundForModel, budgetFor, type ContextBudget, type ContextBudgets } from '../budget.js';
import type { ToolResult } from '../generated/types.js';
import { spotlight } from '../history/spotlight.js';
import type { ToolRegistry } from '../schema.js';
import { type ModelOutputOptions, toModelOutput } from './shared/model-output.js';
import {
  buildToolResult,
  checkBudget,
  checkRegistry,
  checkRunOptions,
  type DialogIdOption,
  failureValue,
  finishRun,
  isObject,
  modelParts,
  type RunOutcome,
  resolveDialogId,
  sha256Meta,
  startRun,
  type ToolRunOptions,
} from './shared/run.js';

// ---------------------------------------------------------------------------
// Genkit's shapes, as far as this module reads or writes them.

/** A part of a message (`Part`): text, media, or another kind this module passes on. */
export interface GenkitPart {
  text?: string;
  media?: { url: string; contentType?: string };
  [key: string]: unknown;
}

/** A tool call the model made (`ToolRequestPart`). `ref` is the call's id, when the model gives one. */
export interface GenkitToolRequestPart {
  toolRequest: { name: string; ref?: string; input?: unknown };
  metadata?: Record<string, unknown>;
}

/** A tool's answer (`ToolResponsePart`): what the model reads in the `role: 'tool'` message. */
export interface GenkitToolResponsePart {
  toolResponse: { name: string; ref?: string; output?: unknown; content?: GenkitPart[] };
  metadata?: Record<string, unknown>;
}

/** The run options a tool hook is given (`ActionRunOptions`), passed on as they are. */
export interface GenkitToolRunOptions {
  [key: string]: unknown;
}

/** What the rest of the chain does with a call: the next middleware's hook, in the end the tool. */
export type GenkitToolNext = (req: GenkitToolRequestPart, ctx: GenkitToolRunOptions) => Promise<GenkitToolResponsePart | undefined>;

/** What a model is asked (`GenerateRequest`, the field read here: the tools' definitions). */
export interface GenkitModelRequest {
  tools?: { name: string; inputSchema?: unknown }[];
  [key: string]: unknown;
}

/** The hooks a generate middleware gives (`GenerateMiddlewareDef`; `model` only notes the tools' input schemas). */
export interface GenkitMiddlewareDef {
  model(req: GenkitModelRequest, ctx: unknown, next: (req: GenkitModelRequest, ctx: unknown) => Promise<unknown>): Promise<unknown>;
  tool(req: GenkitToolRequestPart, ctx: GenkitToolRunOptions, next: GenkitToolNext): Promise<GenkitToolResponsePart | undefined>;
}

/** What `generate({ use: [...] })` takes: a configured middleware (`MiddlewareRef` with its definition, as `generateMiddleware(...)()` returns). */
export interface GenkitMiddlewareRef {
  name: string;
  config?: undefined;
  __def: {
    name: string;
    description: string;
    instantiate(options: { ai?: { currentContext?(): unknown } }): GenkitMiddlewareDef;
    toJson(): { name: string; description: string };
  };
}

/** What a `dialogId` function is given: the call, and the `context` of the `generate()` call (`ai.currentContext()`). */
export interface GenkitDialogCall {
  toolName: string;
  /** The request's `ref`; `''` when the model gave none. */
  toolCallId: string;
  input: unknown;
  /** `generate({ context })`: auth, the conversation, what the app put there. */
  context?: Record<string, unknown>;
}

/** The options of {@link toolResultMiddleware}. */
export interface GenkitToolResultOptions extends Omit<ToolRunOptions, 'dialogId' | 'schemaOptions'> {
  /** The dialog the results are kept under (required with `store`): a string, or a function of the call (its `context` is `generate({ context })`'s). */
  dialogId?: DialogIdOption<GenkitDialogCall>;
  /** Results of the tools registered here (by the name the model calls) are checked against their output schemas (`output_validation_failed` with the issues). */
  registry?: ToolRegistry;
}

// ---------------------------------------------------------------------------
// Between Genkit parts and ToolResult content blocks.

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;

/** A multipart tool's `content` as content blocks: text as text, a base64 data URL as an image or audio block, another URL as a resource link. */
function contentBlocks(parts: readonly GenkitPart[]): NonNullable<ToolResult['content']> {
  return parts.map((p) => {
    if (typeof p?.text === 'string') return { type: 'text', text: p.text };
    const media = isObject(p?.media) ? p.media : undefined;
    if (media && typeof media.url === 'string') {
      const data = DATA_URL.exec(media.url);
      const mimeType = data?.[1] ?? (typeof media.contentType === 'string' ? media.contentType : undefined);
      if (data && /^(image|audio)\//.test(data[1])) return { type: data[1].split('/')[0], data: data[2], mimeType: data[1] };
      return { type: 'resource_link', uri: media.url, name: media.url.slice(0, 200), ...(mimeType ? { mimeType } : {}) };
    }
    return { type: 'text', text: JSON.stringify(p) ?? '' };
  });
}

/** Model output parts (as `toModelOutput` writes them) as Genkit parts. */
function genkitParts(parts: readonly unknown[]): GenkitPart[] {
  return modelParts(parts).map((p): GenkitPart => {
    if (p.kind === 'text') return { text: p.text };
    const url = p.data !== undefined ? `data:${p.mediaType};base64,${p.data}` : (p.url ?? '');
    return { media: { url, contentType: p.mediaType } };
  });
}

/**
 * The `ToolResponsePart` the model gets for a ToolResult: a success's output
 * within `budget` (a multipart result's content as parts, its output beside
 * them), or, over it with `store` and `dialogId`, a reference with a preview
 * naming `get_tool_result` and the call's id; a failure as `output: { error,
 * error_code, issues? }`. `name` and `ref` are the request's.
 */
export function toGenkitToolResponse(result: ToolResult, call: { name: string; ref?: string }, options: ModelOutputOptions = {}): GenkitToolResponsePart {
  const out = toModelOutput(result, options);
  const head = { name: call.name, ...(call.ref === undefined ? {} : { ref: call.ref }) };
  switch (out.type) {
    case 'text':
    case 'json':
      return { toolResponse: { ...head, output: out.value } };
    case 'content': {
      const response: GenkitToolResponsePart['toolResponse'] = { ...head, content: genkitParts(out.value) };
      if (result.output !== undefined && result.output !== null) {
        // The output beside the parts, within the same budget.
        const b = options.budget;
        const budget: ContextBudget =
          b === undefined
            ? { maxBytes: DEFAULT_MAX_OUTPUT_BYTES }
            : 'default' in b || 'tools' in b
              ? budgetFor(b as ContextBudgets, result.input.tool_name)
              : (b as ContextBudget);
        const output = boundForModel({ ...result, content: null }, budget).output;
        response.output = options.spotlight ? spotlight(JSON.stringify(output), { mode: options.spotlight }).text : output;
      }
      return { toolResponse: response };
    }
    default:
      return { toolResponse: { ...head, output: failureValue(out, result) } };
  }
}

// ---------------------------------------------------------------------------
// What the tool hook catches.

/** Genkit's interrupts (`interrupt()`, `defineInterrupt`) are how a tool pauses the loop: passed on, not results. */
const isInterrupt = (e: unknown): boolean => isObject(e) && (e as { name?: unknown }).name === 'ToolInterruptError';

/** Genkit's `ValidationError` (a `GenkitError`), as far as it is read here. */
interface GenkitValidationError {
  message: string;
  status: 'INVALID_ARGUMENT';
  detail: { errors: unknown[]; schema?: unknown };
}

/** Genkit's `ValidationError`: a tool's input or output that failed its schema. */
const isValidationError = (e: unknown): e is GenkitValidationError => {
  const { status, detail } = (e ?? {}) as { status?: unknown; detail?: unknown };
  return e instanceof Error && status === 'INVALID_ARGUMENT' && isObject(detail) && Array.isArray(detail.errors);
};

/**
 * The outcome of a ValidationError. Its message lists the issues, then quotes
 * the data ("Provided data: …", the whole output) and the schema, which would
 * reach the model unscreened: only the issues are kept. Genkit checks the
 * input before the tool runs and the output after, with the same error: the
 * schema it quotes is the input's (`inputSchema`, as the model was shown it)
 * or else the output's.
 */
function validationOutcome(e: GenkitValidationError, inputSchema: string | undefined): RunOutcome {
  const message = e.message.split(/\n+Provided data:/)[0].trim();
  let quoted: string | undefined;
  try {
    quoted = JSON.stringify(e.detail.schema);
  } catch {
    // Not JSON: not the input schema the model was shown.
  }
  return quoted !== undefined && quoted === inputSchema
    ? { error: e, code: 'INVALID_INPUT', message, status: 'validation_error' }
    : { error: e, code: 'OUTPUT_VALIDATION_FAILED', message, status: 'output_validation_failed' };
}

let instances = 0;

// ---------------------------------------------------------------------------
// The middleware.

/**
 * A generate middleware, already configured: `ai.generate({ use:
 * [toolResultMiddleware(options)] })` (also a prompt's or chat's `use`). Its
 * `tool` hook runs each call through the rest of the chain (`next()`, in the
 * end the tool) and makes the outcome a ToolResult: the request's `name`,
 * `ref` (`input.tool_call_id`) and `input`; the output (a multipart tool's
 * `content` as content blocks) with its sha256 in `meta["toolresult/sha256"]`;
 * checked against `options.registry` when the tool is registered there;
 * screened (`options.screen`); kept whole in `options.store` under
 * `options.dialogId`; shown to `options.onResult`; traced (`options.tracer`).
 * The model gets, as the `ToolResponsePart` (see {@link toGenkitToolResponse}),
 * the output within `options.budget`, or, over it with a store, a reference
 * with a preview naming `get_tool_result` and the call's id; a screen REJECT
 * only the reasons (the categories found).
 *
 * A tool that throws, or whose input or output fails its schema (Genkit's
 * ValidationError), does not reject `generate()`: it is a `failed`
 * (`validation_error`, `output_validation_failed`) ToolResult keeping the
 * error's message (a ValidationError's without the data it quotes), and the
 * model reads `output: { error, error_code }`. Genkit's interrupts are
 * passed on as they are (they pause the loop; nothing is recorded).
 *
 * A request without `ref` (some models give none): the ToolResult has no
 * `tool_call_id`, and its `metadata.execution_id` (a UUID) stands for it —
 * the store's key, the id the reference and `get_tool_result` use; the
 * response keeps the request's (absent) `ref`.
 */
export function toolResultMiddleware(options: GenkitToolResultOptions = {}): GenkitMiddlewareRef {
  checkRunOptions(options as ToolRunOptions, 'toolResultMiddleware(options)');
  checkBudget(options.budget);
  checkRegistry(options.registry);
  const { registry } = options;
  const name = `toolresult-${++instances}`;
  const description = 'toolresult: every tool call a ToolResult (checked, screened, stored); the model gets its share within the budget';

  const instantiate = ({ ai }: { ai?: { currentContext?(): unknown } } = {}): GenkitMiddlewareDef => {
    // One generate() call: the tools' input schemas, as the model is shown them, by name.
    const inputSchemas = new Map<string, string>();
    return {
      async model(req, ctx, next) {
        for (const d of Array.isArray(req?.tools) ? req.tools : []) {
          if (isObject(d) && typeof d.name === 'string' && d.inputSchema !== undefined) inputSchemas.set(d.name, JSON.stringify(d.inputSchema));
        }
        return next(req, ctx);
      },
      async tool(req, ctx, next) {
        const request = isObject(req) && isObject(req.toolRequest) ? req.toolRequest : undefined;
        if (!request || typeof request.name !== 'string') return next(req, ctx);
        const ref = typeof request.ref === 'string' ? request.ref : undefined;
        const call = { toolName: request.name, toolCallId: ref ?? '', input: request.input };
        const context = ai?.currentContext?.();
        // Before the tool runs: a call whose result cannot be kept does not run.
        const dialogId = resolveDialogId(
          options.dialogId,
          { ...call, ...(isObject(context) ? { context } : {}) } as GenkitDialogCall,
          options.store !== undefined,
        );
        const runOptions = { ...options, dialogId } as ToolRunOptions;
        const run = startRun(call, runOptions, {}, dialogId);
        let response: GenkitToolResponsePart | undefined;
        let outcome: RunOutcome;
        try {
          response = await next(req, ctx);
          if (response === undefined) {
            // Another middleware answered nothing (Genkit asks the model again): nothing to record.
            run.span.end(buildToolResult(call, run.started, { error: undefined, code: 'NO_RESPONSE', message: 'no tool response' }));
            return undefined;
          }
          const tr = isObject(response.toolResponse) ? response.toolResponse : { name: request.name };
          const content = Array.isArray(tr.content) && tr.content.length > 0 ? contentBlocks(tr.content) : undefined;
          outcome = { output: tr.output, ...(content ? { content } : {}), meta: sha256Meta(tr.output) };
        } catch (error) {
          if (isInterrupt(error)) {
            run.span.end(buildToolResult(call, run.started, { error, code: 'INTERRUPTED', message: 'the tool interrupted the generation', aborted: true }));
            throw error;
          }
          outcome = isValidationError(error) ? validationOutcome(error, inputSchemas.get(request.name)) : { error };
        }
        const check = (r: ToolResult) => (r.status === 'success' && registry?.has(request.name) ? registry.checkResult(r) : r);
        const result = await finishRun(run, outcome, runOptions, check);
        const part = toGenkitToolResponse(result, { name: request.name, ref }, { ...options, dialogId });
        return result.status === 'success' && isObject(response?.metadata) ? { ...part, metadata: response.metadata } : part;
      },
    };
  };

  return {
    name,
    config: undefined,
    __def: { name, description, instantiate, toJson: () => ({ name, description }) },
  };
}
