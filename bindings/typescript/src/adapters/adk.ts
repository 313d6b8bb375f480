// `toolresult/adk`: Google's Agent Development Kit (`@google/adk` ≥ 2.0, an
// optional peer; Node only). `toolResultPlugin(options)` is an ADK plugin (a
// subclass of ADK's own `BasePlugin`, named `toolresult`) for
// `new InMemoryRunner({ plugins: [...] })` / `new Runner({ plugins })`: its
// `afterToolCallback` makes every tool call a ToolResult (timed from its
// `beforeToolCallback`, checked against `registry`, screened, stored whole with
// its sha256) and gives the model its share; its `onToolErrorCallback` records
// a tool that threw and gives the model an error object.
//
// Extending `BasePlugin` needs ADK's class at run time: it is loaded from where
// the user installed ADK, on the first `toolResultPlugin()` (so loading this
// entry needs no ADK). This CommonJS face `require`s ADK's CommonJS build; the
// ES-module face scripts/build.mjs writes beside it (adk.mjs, the `import`
// condition) extends the class of ADK's ES-module build, the copy an `import`
// of ADK loads. The shapes ADK hands over are written out structurally below.
// The entry installs the wasm modules: this entry may be the first one loaded.
import '../index.js';
import { ToolResultError } from '../errors.js';
import type { ToolResult } from '../generated/types.js';
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
  optionsError,
  type RunningCall,
  type RunOutcome,
  resolveDialogId,
  sha256Meta,
  startRun,
  type ToolRunOptions,
} from './shared/run.js';

// ---------------------------------------------------------------------------
// ADK's shapes, as far as this module reads or writes them.

/** A tool (`BaseTool`), as far as this module reads it. */
export interface AdkTool {
  readonly name: string;
  readonly description?: string;
  /** A long-running tool's call may end with no response yet (ADK sends none then). */
  readonly isLongRunning?: boolean;
}

/** A tool call's context (`Context`), as far as this module reads it. */
export interface AdkToolContext {
  /** The model's id for the call (`functionCall.id`; ADK makes one when the model gives none). */
  readonly functionCallId?: string;
  readonly sessionId?: string;
  readonly userId?: string;
  readonly invocationId?: string;
  readonly abortSignal?: AbortSignal;
  /** What the call asked of the user (`EventActions`): a confirmation or a credential, by call id. */
  readonly actions?: { readonly requestedToolConfirmations?: Record<string, unknown>; readonly requestedAuthConfigs?: Record<string, unknown> };
}

/** One tool call, as ADK hands it to a plugin's tool callbacks; also what a `dialogId` function is given. */
export interface AdkToolCall {
  tool: AdkTool;
  toolArgs: Record<string, unknown>;
  toolContext: AdkToolContext;
}

/**
 * ADK's `BasePlugin` (2.0), as the plugin has it: a `name`, and one callback
 * per event, each doing nothing unless overridden. The plugin inherits ADK's
 * own, so callbacks a later ADK adds are there too.
 */
export interface AdkBasePlugin {
  readonly name: string;
  onUserMessageCallback(params: unknown): Promise<undefined>;
  beforeRunCallback(params: unknown): Promise<undefined>;
  onEventCallback(params: unknown): Promise<undefined>;
  afterRunCallback(params: unknown): Promise<undefined>;
  beforeAgentCallback(params: unknown): Promise<undefined>;
  afterAgentCallback(params: unknown): Promise<undefined>;
  beforeNodeCallback(params: unknown): Promise<undefined>;
  afterNodeCallback(params: unknown): Promise<undefined>;
  beforeModelCallback(params: unknown): Promise<undefined>;
  afterModelCallback(params: unknown): Promise<undefined>;
  onModelErrorCallback(params: unknown): Promise<undefined>;
  beforeToolSelection(params: unknown): Promise<undefined>;
  beforeContextCompaction(params: unknown): Promise<undefined>;
  afterContextCompaction(params: unknown): Promise<undefined>;
  beforeToolCallback(params: AdkToolCall): Promise<Record<string, unknown> | undefined>;
  afterToolCallback(params: AdkToolCall & { result: unknown }): Promise<Record<string, unknown> | undefined>;
  onToolErrorCallback(params: AdkToolCall & { error: Error }): Promise<Record<string, unknown> | undefined>;
}

/** The plugin {@link toolResultPlugin} makes: an instance of ADK's `BasePlugin`, for a runner's `plugins`. */
export interface AdkToolResultPlugin extends AdkBasePlugin {
  beforeToolCallback(params: AdkToolCall): Promise<undefined>;
}

/** The options of {@link toolResultPlugin}. */
export interface AdkToolResultPluginOptions extends Omit<ToolRunOptions, 'dialogId' | 'schemaOptions'> {
  /** The dialog results are kept under: a string, or a function of the call (`toolContext.sessionId`, `userId`, …). Default: the ADK session's id. */
  dialogId?: DialogIdOption<AdkToolCall>;
  /** Results of the tools registered here (by the name the model calls) are checked against their output schemas (`output_validation_failed` with the issues). */
  registry?: ToolRegistry;
  /** The plugin's name (default `"toolresult"`); ADK takes one plugin per name. */
  name?: string;
}

// ---------------------------------------------------------------------------
// What the model receives.

/**
 * The response object ADK sends the model for a ToolResult (the
 * `functionResponse.response`): a success's output within `budget` as ADK
 * itself sends a tool's value (an object as it is, an array as `{ results }`,
 * anything else as `{ result }`), or, over it with `store` and `dialogId`, a
 * reference with a preview naming `get_tool_result` and the call's id; a
 * failure as `{ error, error_code, issues? }` (a screen REJECT: the reasons,
 * never the content).
 */
export function toAdkResponse(result: ToolResult, options: ModelOutputOptions = {}): Record<string, unknown> {
  const out = toModelOutput(result, options);
  switch (out.type) {
    case 'text':
      return { result: out.value };
    case 'json':
      return isObject(out.value) ? out.value : Array.isArray(out.value) ? { results: out.value } : { result: out.value };
    case 'content':
      return {
        result: modelParts(out.value)
          .map((p) => (p.kind === 'text' ? p.text : `[${p.mediaType}${p.filename ? ` ${p.filename}` : ''} omitted: an ADK tool response is JSON]`))
          .join('\n'),
      };
    default:
      return failureValue(out, result);
  }
}

// ---------------------------------------------------------------------------
// The plugin.

/** ADK's `BasePlugin` class, as far as it is extended here. */
type AdkBasePluginClass = abstract new (name: string) => AdkBasePlugin;

/** What a plugin instance does with its tool callbacks (kept off the instance, which is ADK's). */
interface Callbacks {
  before(call: AdkToolCall): void;
  after(call: AdkToolCall & { result: unknown }): Promise<Record<string, unknown> | undefined>;
  onError(call: AdkToolCall & { error: Error }): Promise<Record<string, unknown>>;
}

const callbacksOf = new WeakMap<object, Callbacks>();

/** The plugin class over one ADK's `BasePlugin`. */
function pluginClass(Base: AdkBasePluginClass): new (name: string, callbacks: Callbacks) => AdkToolResultPlugin {
  class ToolResultPlugin extends Base {
    constructor(name: string, callbacks: Callbacks) {
      super(name);
      callbacksOf.set(this, callbacks);
    }
    override async beforeToolCallback(params: AdkToolCall): Promise<undefined> {
      callbacksOf.get(this)?.before(params);
      return undefined;
    }
    override async afterToolCallback(params: AdkToolCall & { result: unknown }): Promise<Record<string, unknown> | undefined> {
      return callbacksOf.get(this)?.after(params);
    }
    override async onToolErrorCallback(params: AdkToolCall & { error: Error }): Promise<Record<string, unknown> | undefined> {
      return callbacksOf.get(this)?.onError(params);
    }
  }
  return ToolResultPlugin as unknown as new (
    name: string,
    callbacks: Callbacks,
  ) => AdkToolResultPlugin;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Whether the call is waiting for the user (a confirmation or a credential): ADK runs it again, with the same id, once given. */
function waiting(ctx: AdkToolContext): boolean {
  const id = ctx.functionCallId;
  const actions = ctx.actions;
  if (typeof id !== 'string' || !isObject(actions)) return false;
  return [actions.requestedToolConfirmations, actions.requestedAuthConfigs].some((asked) => isObject(asked) && asked[id] !== undefined);
}

/** The callbacks of one plugin. */
function callbacks(options: AdkToolResultPluginOptions): Callbacks {
  const { registry } = options;
  // A call's start, span and dialog, from `beforeToolCallback` to its answer (ADK makes one Context per call).
  const runs = new WeakMap<object, RunningCall>();
  // The error objects `onError` answered with: `afterToolCallback` is then called with one of them.
  const answered = new WeakSet<object>();

  const start = ({ tool, toolArgs, toolContext }: AdkToolCall): RunningCall => {
    const ctx = isObject(toolContext) ? toolContext : {};
    const dialogId = resolveDialogId(options.dialogId, { tool, toolArgs, toolContext }, options.store !== undefined, () => str(ctx.sessionId));
    const call = { toolName: tool.name, toolCallId: str(ctx.functionCallId) ?? '', input: toolArgs };
    return startRun(call, { ...options, dialogId } as ToolRunOptions, { description: str(tool.description) }, dialogId);
  };
  /** The call's run: the one `before` started, else one started now (another callback answered before this plugin's ran). */
  const take = (call: AdkToolCall): RunningCall => {
    const key = isObject(call.toolContext) ? call.toolContext : undefined;
    const run = key ? runs.get(key) : undefined;
    if (key) runs.delete(key);
    return run ?? start(call);
  };
  const finish = async (run: RunningCall, outcome: RunOutcome, name: string): Promise<Record<string, unknown>> => {
    const check = (r: ToolResult) => (r.status === 'success' && registry?.has(name) ? registry.checkResult(r) : r);
    const result = await finishRun(run, outcome, { ...options, dialogId: run.dialogId } as ToolRunOptions, check);
    return toAdkResponse(result, { ...options, dialogId: run.dialogId });
  };

  return {
    before(call) {
      if (!isObject(call) || !isObject(call.tool) || typeof call.tool.name !== 'string') return;
      // Before the tool runs: a call whose result cannot be kept does not run.
      const run = start(call);
      if (isObject(call.toolContext)) runs.set(call.toolContext, run);
    },
    async after(call) {
      if (!isObject(call) || !isObject(call.tool) || typeof call.tool.name !== 'string') return undefined;
      const { result } = call;
      // This plugin's own error answer: the failure is stored already.
      if (isObject(result) && answered.has(result)) return result;
      const run = take(call);
      // Not the call's result yet: a long-running tool's pending call (ADK sends no response), or a
      // call that asked the user for a confirmation or a credential (ADK runs it again once given).
      if (((result === undefined || result === null) && call.tool.isLongRunning === true) || (isObject(call.toolContext) && waiting(call.toolContext))) {
        run.span.end(buildToolResult(run.call, run.started, { output: isObject(result) ? result : undefined }));
        return undefined;
      }
      // A tool that returned nothing: ADK sends `{}`.
      if (result === undefined || result === null) {
        await finishRun(run, { output: undefined }, { ...options, dialogId: run.dialogId } as ToolRunOptions);
        return undefined;
      }
      return finish(run, { output: result, meta: sha256Meta(result) }, call.tool.name);
    },
    async onError(call) {
      const run = take(call);
      const { error, tool } = call;
      const raw = error instanceof Error ? error.message : String(error);
      // FunctionTool rethrows the tool's error as "Error in tool '<name>': <the tool's message>".
      const prefix = `Error in tool '${tool.name}': `;
      const message = (raw.startsWith(prefix) ? raw.slice(prefix.length) : raw) || 'the tool failed';
      const aborted = isObject(call.toolContext) && (call.toolContext as AdkToolContext).abortSignal?.aborted === true;
      const answer = await finish(run, { error, message, aborted }, tool.name);
      answered.add(answer);
      return answer;
    },
  };
}

/**
 * @internal The plugin over the ADK `load()` returns (this CommonJS face:
 * `require('@google/adk')`; the ES-module face: ADK's ES-module build).
 */
export function withPeer(load: () => unknown): { toolResultPlugin: (options?: AdkToolResultPluginOptions) => AdkToolResultPlugin } {
  let Plugin: ReturnType<typeof pluginClass> | undefined;
  const plugin = (): ReturnType<typeof pluginClass> => {
    if (Plugin) return Plugin;
    let adk: unknown;
    try {
      adk = load();
    } catch (e) {
      throw new ToolResultError(
        'missing_dependency',
        `toolresult/adk extends ADK's BasePlugin, and "@google/adk" could not be loaded (${(e as Error)?.message ?? String(e)}): install @google/adk (>= 2.0)`,
      );
    }
    const Base = isObject(adk) || typeof adk === 'function' ? (adk as { BasePlugin?: unknown }).BasePlugin : undefined;
    if (typeof Base !== 'function')
      throw new ToolResultError('missing_dependency', 'toolresult/adk found no BasePlugin class in "@google/adk": install @google/adk (>= 2.0)');
    Plugin = pluginClass(Base as AdkBasePluginClass);
    return Plugin;
  };
  return {
    toolResultPlugin(options: AdkToolResultPluginOptions = {}): AdkToolResultPlugin {
      checkRunOptions(options as ToolRunOptions, 'toolResultPlugin(options)', true);
      checkBudget(options.budget);
      checkRegistry(options.registry);
      if (options.name !== undefined && (typeof options.name !== 'string' || options.name === ''))
        throw optionsError('/name', 'name must be a non-empty string');
      return new (plugin())(options.name ?? 'toolresult', callbacks(options));
    },
  };
}

const commonJs = withPeer(() => require('@google/adk'));

/**
 * An ADK plugin (a `BasePlugin` named `toolresult`) that makes every tool call
 * of a runner a ToolResult: `new InMemoryRunner({ agent, plugins:
 * [toolResultPlugin({ store, budget, screen })] })`.
 *
 * `beforeToolCallback` starts the call (its time, its span with `tracer`, its
 * dialog: a call whose result cannot be kept does not run).
 * `afterToolCallback` builds the ToolResult from the tool's name, the call's
 * id (`toolContext.functionCallId`, `input.tool_call_id`), its arguments and
 * the value the tool returned (with its sha256 in
 * `meta["toolresult/sha256"]`); checks it against `registry` when the tool is
 * registered there; screens it (`screen`); keeps it whole in `store` under
 * `dialogId` (default: the ADK session's id); shows it to `onResult`. The
 * model then gets the response {@link toAdkResponse} makes: the output within
 * `budget` as ADK would send it, or, over it with a store, a reference with a
 * preview naming `get_tool_result` and the call's id; a screen REJECT, only
 * the reasons (the categories found).
 *
 * `onToolErrorCallback` (the tool threw): the ToolResult is `failed`
 * (`cancelled` when the call was aborted), `error_code` `TOOL_ERROR`, keeping
 * the tool's own message (without FunctionTool's "Error in tool '…': "); the
 * model gets `{ error, error_code }`. ADK then calls `afterToolCallback` with
 * that object, which the plugin passes on as it is.
 *
 * Plugins run before the agent's own callbacks, and ADK stops at the first
 * callback that answers: with this plugin, an agent's `afterToolCallback`
 * (and a later plugin's) does not run for a call the plugin answered.
 *
 * ADK is loaded on the first call, from where it is installed: `require` of
 * `toolresult/adk` extends ADK's CommonJS build, `import` its ES-module build.
 * Load both packages the same way, or ADK is loaded twice.
 */
export function toolResultPlugin(options: AdkToolResultPluginOptions = {}): AdkToolResultPlugin {
  return commonJs.toolResultPlugin(options);
}
