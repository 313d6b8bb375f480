// `toolresult/claude-agent-sdk`: the Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`
// ≥ 0.3.332, an optional peer; Node only: the SDK runs the `claude` binary).
// `toolResultHooks(options)` gives `PostToolUse` and `PostToolUseFailure`
// hooks for `query({ options: { hooks } })`: every tool call the CLI makes
// (MCP tools, in-process or not, and built-in tools) becomes a ToolResult,
// checked against `registry`, screened, stored whole, and the model gets it
// within `budget`, in the shape the CLI handed it over. Nothing here imports
// the SDK: a hook is a plain async function, its shapes written out below
// (they match the SDK's `HookCallbackMatcher`, `HookInput` and
// `HookJSONOutput`). docs/integrations/claude-agent-sdk.md says how it meets
// the CLI's own 50,000-character limit.
// The entry installs the wasm modules: this entry may be the first one loaded.
import '../index.js';
import { createSuccess } from '../api.js';
import { boundForModel, budgetFor, type ContextBudget, type ContextBudgets } from '../budget.js';
import { ToolResultError } from '../errors.js';
import type { ToolResult } from '../generated/types.js';
import type { ToolRegistry } from '../schema.js';
import {
  checkRunOptions,
  type DialogIdOption,
  finishRun,
  isObject,
  optionsError,
  type RunOutcome,
  resolveDialogId,
  startRun,
  type ToolRunOptions,
} from './shared/run.js';

// ---------------------------------------------------------------------------
// The SDK's shapes, as far as this module reads or writes them.

/**
 * What a hook is given (the fields of the SDK's `HookInput` read here; every
 * member of that union fits it). `tool_name` is `mcp__<server>__<tool>` for
 * an MCP tool, the tool's own name (`Bash`, `Read`, …) for a built-in one.
 */
export interface ClaudeHookInput {
  hook_event_name: string;
  session_id: string;
  transcript_path?: string;
  cwd?: string;
  tool_name?: string;
  tool_input?: unknown;
  /** `PostToolUse`: an MCP tool's content blocks, or the JSON text of its `structuredContent`; a built-in tool's own output object. */
  tool_response?: unknown;
  tool_use_id?: string;
  /** `PostToolUseFailure`: the tool's error message. */
  error?: unknown;
  is_interrupt?: boolean;
  duration_ms?: number;
  /** The MCP server of an `mcp__*` tool: its config key and where it came from (`sdk`, `user`, `project`, …). */
  mcp_server?: { name: string; source: string };
}

/** What a hook returns (the part of the SDK's `SyncHookJSONOutput` these hooks write). */
export interface ClaudeHookOutput {
  /** `false` ends the agent loop before the model reads the result (see {@link toolResultHooks}). */
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  hookSpecificOutput?:
    | { hookEventName: 'PostToolUse'; additionalContext?: string; updatedToolOutput?: unknown; updatedMCPToolOutput?: unknown }
    | { hookEventName: 'PostToolUseFailure'; additionalContext?: string };
}

/** A hook callback (the SDK's `HookCallback`). */
export type ClaudeHookCallback = (input: ClaudeHookInput, toolUseID: string | undefined, options: { signal: AbortSignal }) => Promise<ClaudeHookOutput>;

/** A hook matcher (the SDK's `HookCallbackMatcher`). */
export interface ClaudeHookMatcher {
  matcher?: string;
  hooks: ClaudeHookCallback[];
  timeout?: number;
}

/** What {@link toolResultHooks} returns: spread it into `query({ options: { hooks } })`. */
export interface ClaudeToolResultHooks {
  PostToolUse: ClaudeHookMatcher[];
  PostToolUseFailure: ClaudeHookMatcher[];
}

/**
 * The largest tool output, in characters of text, the `claude` CLI hands the
 * model as it is (unless the MCP tool's `_meta["anthropic/maxResultSizeChars"]`
 * says otherwise): a larger one it writes to a file and replaces by a 2 KB
 * preview and the file's path. The default budget.
 */
export const CLAUDE_MAX_RESULT_CHARS = 50_000;

/** The options of {@link toolResultHooks}. */
export interface ClaudeToolResultHooksOptions
  extends Omit<ToolRunOptions, 'dialogId' | 'budget' | 'spotlight' | 'previewChars' | 'schemaOptions' | 'tracer' | 'traceArguments' | 'traceResult'> {
  /**
   * What the model may receive of one result: one `ContextBudget`, or
   * `ContextBudgets` by tool name (`mcp__demo__*` globs work). Default
   * `{ maxChars: 50_000 }` ({@link CLAUDE_MAX_RESULT_CHARS}).
   */
  budget?: ContextBudget | ContextBudgets;
  /** Output schemas by tool, keyed by the name the model calls (`mcp__<server>__<tool>`, `Bash`); an unregistered tool is not checked. */
  registry?: ToolRegistry;
  /** The dialog results are stored under: a string, or a function of the hook input. Default: the hook input's `session_id`. */
  dialogId?: DialogIdOption<ClaudeHookInput>;
  /** The hooks' `matcher` (a tool name or pattern, as the SDK reads it). Default: every tool. */
  matcher?: string;
}

// ---------------------------------------------------------------------------
// The hooks.

const PREFIX = 'claude-agent-sdk/';

type Shape = 'content' | 'text' | 'object';

/** How the CLI handed the output over, and so how the model must get it back. */
function shapeOf(response: unknown): Shape {
  if (Array.isArray(response) && response.every((b) => isObject(b) && typeof b.type === 'string')) return 'content';
  if (typeof response === 'string') return 'text';
  return 'object';
}

/** The call's outcome as a ToolResult sees it: content blocks, or the output (an MCP tool's `structuredContent` parsed back from its JSON text). */
function outcomeOf(input: ClaudeHookInput, shape: Shape, mcp: boolean): RunOutcome {
  const meta = input.mcp_server ? { [`${PREFIX}mcp_server`]: input.mcp_server } : undefined;
  const response = input.tool_response;
  if (shape === 'content') return { output: undefined, content: response as ToolResult['content'], ...(meta ? { meta } : {}) };
  let output = response;
  if (shape === 'text' && mcp) {
    try {
      const parsed: unknown = JSON.parse(response as string);
      if (isObject(parsed) || Array.isArray(parsed)) output = parsed;
    } catch {
      // Text, kept as text.
    }
  }
  return { output: output ?? undefined, ...(meta ? { meta } : {}) };
}

/** The CLI's notice for an MCP output over `MAX_MCP_OUTPUT_TOKENS`, which it writes to a file before any hook runs. */
const cutByCli = (response: unknown): boolean =>
  typeof response === 'string' && /^Error: result \([^)]*\) exceeds maximum allowed tokens\. Output has been saved to /.test(response);

const CLI_CUT_NOTE =
  'toolresult: the claude CLI cut this MCP output to a file before the hook saw it (over MAX_MCP_OUTPUT_TOKENS, default 25,000 tokens); raise MAX_MCP_OUTPUT_TOKENS in options.env to store whole outputs';

/** A failure as the model reads it: the message, and the schema's issues it does not already name. */
function failureText(r: ToolResult): string {
  const message = r.error_message || `the tool call ended with status ${r.status}`;
  const issues = (r.validation_issues ?? [])
    .slice(0, 50)
    .map((i) => `${i.path || '(root)'}: ${i.message}`)
    .filter((line) => !message.includes(line));
  return issues.length === 0 ? message : `${message}\n${issues.join('\n')}`;
}

/** The same shape with no content: the first string says `message`, every other one is empty, arrays are empty. */
function withheld(value: unknown, message: string): unknown {
  let said = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (said) return '';
      said = true;
      return message;
    }
    if (Array.isArray(v)) return [];
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

const isBudgets = (b: ContextBudget | ContextBudgets): b is ContextBudgets => 'default' in b || 'tools' in b;

/** Checks a budget now (each of `ContextBudgets`' too), its issues under `/budget`. */
function checkBudget(budget: unknown): void {
  if (!isObject(budget)) throw optionsError('/budget', 'budget must be a ContextBudget or ContextBudgets');
  const one = (b: unknown, path: string) => {
    if (!isObject(b)) throw optionsError(path, `${path.slice(1)} must be { maxChars?, maxTokens?, maxBytes?, keep?, countTokens? }`);
    try {
      boundForModel(createSuccess({ input: { tool_name: 'probe' }, output: 'x' }), b as ContextBudget);
    } catch (e) {
      if (e instanceof ToolResultError && e.code === 'invalid_options') throw optionsError(path, e.message);
      throw e;
    }
  };
  const b = budget as ContextBudget | ContextBudgets;
  if (!isBudgets(b)) {
    one(b, '/budget');
    return;
  }
  if (b.default !== undefined) one(b.default, '/budget/default');
  const rules = b.tools ?? {};
  if (Array.isArray(rules)) {
    for (const [i, r] of rules.entries()) one(isObject(r) ? r.budget : r, `/budget/tools/${i}/budget`);
  } else {
    for (const [name, r] of Object.entries(rules)) one(r, `/budget/tools/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  }
}

/**
 * `PostToolUse` and `PostToolUseFailure` hooks that make every tool call of
 * a `query()` loop a ToolResult: `query({ prompt, options: { hooks:
 * toolResultHooks({ store, budget, screen }) } })`.
 *
 * `PostToolUse`: the ToolResult is built from `tool_name` (its
 * `input.tool_name`, as the model called it: `mcp__<server>__<tool>`),
 * `tool_input`, `tool_response` (content blocks → `content`; an MCP tool's
 * `structuredContent`, which the CLI hands over as JSON text → `output`; a
 * built-in tool's object → `output`), `tool_use_id` (`input.tool_call_id`)
 * and `duration_ms`; the MCP server goes in `meta["claude-agent-sdk/mcp_server"]`.
 * It is checked against `registry` (when the tool is registered under that
 * name), screened (`screen`), stored whole under `dialogId` (default: the
 * session id) and shown to `onResult`. The model gets, in the shape the
 * tool's output came in (`updatedMCPToolOutput` for an MCP tool: content
 * blocks stay content blocks, JSON text stays JSON text; `updatedToolOutput`
 * for a built-in one, the tool's own object with its strings cut):
 * - the output unchanged when it fits `budget` (nothing is replaced);
 * - else the output cut to fit, each cut leaving a marker naming
 *   `get_tool_result` and the call's id (`tool_use_id`), by which the store
 *   returns the whole result;
 * - for a screen REJECT only the reasons (the categories found), for an
 *   output that fails its schema the issues.
 * A built-in tool's output can only be replaced by a value of its own shape
 * (the CLI ignores anything else), so a REJECT of one also ends the loop
 * (`continue: false`, the reasons as `stopReason`) before the model reads it.
 *
 * `PostToolUseFailure` (the tool threw or returned `isError`): the CLI
 * gives the model the tool's error message and lets no hook replace it; the
 * ToolResult is `failed` (`cancelled` when interrupted), `error_code`
 * `TOOL_ERROR` (`INTERRUPTED`), keeping that message. A screen REJECT of it ends the loop.
 *
 * A hook that cannot finish (a store that throws, a schema that does not
 * compile) gives the model an error text instead of the output, never the
 * unprocessed output, and says why in `systemMessage`.
 *
 * Give the query `env: { ...process.env, MAX_MCP_OUTPUT_TOKENS: '1000000' }`:
 * the CLI writes an MCP output over that many tokens (default 25,000) to a
 * file before any hook runs, and the hook then sees only the CLI's notice
 * (it says so in `systemMessage`).
 */
export function toolResultHooks(options: ClaudeToolResultHooksOptions = {}): ClaudeToolResultHooks {
  checkRunOptions(options as ToolRunOptions, 'toolResultHooks(options)', true);
  if (options.budget !== undefined) checkBudget(options.budget);
  const { registry } = options;
  if (registry !== undefined && (registry === null || typeof registry.has !== 'function' || typeof registry.checkResult !== 'function'))
    throw optionsError('/registry', 'registry must be a ToolRegistry');
  if (options.matcher !== undefined && typeof options.matcher !== 'string') throw optionsError('/matcher', 'matcher must be a string');
  const budgetOf = (name: string): ContextBudget => {
    const b = options.budget ?? { maxChars: CLAUDE_MAX_RESULT_CHARS };
    return isBudgets(b) ? budgetFor(b, name) : b;
  };
  const check = (r: ToolResult) => (registry?.has(r.input.tool_name) ? registry.checkResult(r) : r);

  /** One call's ToolResult: built, checked, screened, stored, shown to onResult. */
  const record = (input: ClaudeHookInput, toolName: string, outcome: RunOutcome): Promise<ToolResult> => {
    const dialogId = resolveDialogId(options.dialogId, input, options.store !== undefined, () => input.session_id || undefined);
    const call = { toolName, toolCallId: typeof input.tool_use_id === 'string' ? input.tool_use_id : '', input: input.tool_input };
    const duration = typeof input.duration_ms === 'number' && input.duration_ms >= 0 ? input.duration_ms : 0;
    const run = { ...startRun(call, {}, {}, dialogId), started: Date.now() - duration };
    return finishRun(run, outcome, { ...options, dialogId } as ToolRunOptions, check);
  };

  const answerPostToolUse = async (input: ClaudeHookInput & { tool_name: string }): Promise<ClaudeHookOutput> => {
    const toolName = input.tool_name;
    const mcp = toolName.startsWith('mcp__') || input.mcp_server !== undefined;
    const shape = shapeOf(input.tool_response);
    const field = mcp ? 'updatedMCPToolOutput' : 'updatedToolOutput';
    const replace = (value: unknown, more: Omit<ClaudeHookOutput, 'hookSpecificOutput'> = {}): ClaudeHookOutput => ({
      ...more,
      hookSpecificOutput: { hookEventName: 'PostToolUse', [field]: value },
    });
    /** A text in the tool's shape; a built-in tool's object cannot be trusted to take it, so the loop ends too. */
    const instead = (text: string): ClaudeHookOutput => {
      if (shape === 'content') return replace([{ type: 'text', text }]);
      if (shape === 'text' || mcp) return replace(text);
      return replace(withheld(input.tool_response, text), { continue: false, stopReason: text });
    };
    try {
      const result = await record(input, toolName, outcomeOf(input, shape, mcp));
      if (result.status !== 'success') {
        // A built-in tool's output that failed its schema is still its output: the issues go beside it.
        if (shape === 'object' && !mcp && result.status === 'output_validation_failed')
          return { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: failureText(result) } };
        return instead(failureText(result));
      }
      const bound = boundForModel(result, budgetOf(toolName));
      if (!bound.truncated) return {};
      if (shape === 'content') return replace(bound.content ?? []);
      if (shape === 'text') return replace(typeof bound.output === 'string' ? bound.output : JSON.stringify(bound.output));
      return replace(bound.output);
    } catch (e) {
      const why = e instanceof Error ? e.message || e.name : String(e);
      return { ...instead(`toolresult could not process the result of ${toolName}, so it is withheld: ${why}`), systemMessage: `toolresult: ${why}` };
    }
  };

  const postToolUse: ClaudeHookCallback = async (input) => {
    if (input?.hook_event_name !== 'PostToolUse' || typeof input.tool_name !== 'string') return {};
    const out = await answerPostToolUse(input as ClaudeHookInput & { tool_name: string });
    return cutByCli(input.tool_response) && out.systemMessage === undefined ? { ...out, systemMessage: CLI_CUT_NOTE } : out;
  };

  const postToolUseFailure: ClaudeHookCallback = async (input) => {
    if (input?.hook_event_name !== 'PostToolUseFailure' || typeof input.tool_name !== 'string') return {};
    const message = typeof input.error === 'string' && input.error !== '' ? input.error : 'the tool failed';
    try {
      const result = await record(input, input.tool_name, {
        error: message,
        message,
        code: input.is_interrupt === true ? 'INTERRUPTED' : 'TOOL_ERROR',
        aborted: input.is_interrupt === true,
      });
      if (result.status === 'security_violation') return { continue: false, stopReason: failureText(result) };
      return {};
    } catch (e) {
      const why = e instanceof Error ? e.message || e.name : String(e);
      return { systemMessage: `toolresult: ${why}` };
    }
  };

  const matcher = options.matcher === undefined ? {} : { matcher: options.matcher };
  return {
    PostToolUse: [{ ...matcher, hooks: [postToolUse] }],
    PostToolUseFailure: [{ ...matcher, hooks: [postToolUseFailure] }],
  };
}
