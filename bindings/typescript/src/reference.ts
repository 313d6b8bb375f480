// Lazy references (docs/spec.md §12): summaries, references in place of full
// results, and the get_tool_result tool.
import { ToolResultError, unwrapOutcome, quoteText, refuseSnakeCaseOptions, refuseUnknownOptions } from './errors.js';
import type { ToolDefinition, ToolResult, ToolResultReference } from './generated/types.js';
import { agentModule } from './runtime.js';
import type { ContextBudget } from './budget.js';
import { DEFAULT_PAGE_BUDGET, pageToolResult, type ToolResultAnswer, type ToolResultRequest } from './paging.js';
import { screenRecordOf } from './screen.js';
import { customSummary } from './summary.js';
import { toolResultJson } from './wire.js';

function unwrap<T>(json: string): T {
  return unwrapOutcome<T>(json, 'invalid_tool_result', 'invalid ToolResult');
}

/**
 * One line saying what ran and what came back, with the tool's own argument
 * names: "Read file: src/main.py (342 lines)", "grep 'TODO' in src: 12
 * matches in 4 files", "bash `make test`: exit 0, 120 lines"; a generic line
 * for other tools. Registered summarizers are asked first.
 */
export function summarize(result: ToolResult | string): string {
  const custom = customSummary(result);
  if (custom !== undefined) return custom;
  const json = toolResultJson(result);
  return unwrap<string>(agentModule.call((w) => w.summarize(json)));
}

/**
 * The reference message for a result stored under `dialogId`:
 * `{ tool_call_id, tool_name, status, metadata: { size_bytes, summary,
 * truncated_preview }, result_ref: { storage_type, dialog_id, tool_call_id } }`.
 * The preview is `previewResult(result, { maxChars: previewChars })`.
 */
export function toReference(result: ToolResult, options: { dialogId: string; previewChars?: number }): ToolResultReference {
  refuseSnakeCaseOptions(options, 'toReference');
  refuseUnknownOptions(options, ['dialogId', 'previewChars'], 'toReference');
  if (!options || typeof options.dialogId !== 'string' || options.dialogId === '') {
    throw new ToolResultError('invalid_options', 'toReference needs { dialogId }');
  }
  const chars = options.previewChars ?? 500;
  if (!Number.isInteger(chars) || chars < 1) throw new ToolResultError('invalid_options', `previewChars must be a positive integer, got ${quoteText(chars)}`);
  // "" lets the wasm side compute the built-in summary from the result it parses anyway.
  const summary = customSummary(result) ?? '';
  const json = toolResultJson(result);
  return unwrap<ToolResultReference>(agentModule.call((w) => w.to_reference(json, options.dialogId, summary, chars)));
}

/**
 * What a result says, as the text a person or model reads first: content
 * blocks' text (images as `[image: mime, size]`), else the output — a string
 * as itself, an object's main text (`content`, `text`, `stdout` + `stderr`,
 * `output`, `body`, …) as real lines and then its other fields one per line.
 * Whole lines within `maxChars` (default 500); a cut ends with a note naming
 * `get_tool_result`. The rule behind `toReference`, `prepareHistory` and the
 * stores' listings (docs/guide/storage.md "Previews").
 */
export function previewResult(result: ToolResult | string, options: { maxChars?: number } = {}): string {
  const chars = options.maxChars ?? 500;
  if (!Number.isInteger(chars) || chars < 1) throw new ToolResultError('invalid_options', `maxChars must be a positive integer, got ${quoteText(chars)}`);
  const json = toolResultJson(result);
  return unwrap<string>(agentModule.call((w) => w.preview_result(json, chars)));
}

// prepareHistory (references for whole results, and budgets for any framework's
// messages) lives in history/prepare.ts.

/** The `get_tool_result` tool (docs/spec.md §12), ready to offer a model. */
export const getToolResultTool: ToolDefinition = {
  name: 'get_tool_result',
  description:
    'Retrieve the result of a tool call made EARLIER in this conversation, by its tool_call_id. ' +
    'Earlier results appear in the history only as a summary and a short preview; call this when you need the rest ' +
    '(for example the whole file that an earlier read_file returned). Do NOT call it for a tool you have just executed: ' +
    'that result is already in front of you. A large result comes back in pages: the answer says which lines it holds, ' +
    'how many there are, and gives the arguments of the call for the next page in `next`. Read a range with offset and ' +
    'limit (lines, 1-based), search with pattern (a regular expression; matching lines with their numbers and context), ' +
    'or read one member of a JSON result with path (a JSON Pointer such as /items/3).',
  input_schema: {
    type: 'object',
    properties: {
      tool_call_id: { type: 'string', minLength: 1, description: 'The tool_call_id shown in the earlier reference (result_ref.tool_call_id).' },
      offset: { type: 'integer', minimum: 1, description: 'First line to return (1-based). With pattern: the line to search from.' },
      limit: { type: 'integer', minimum: 1, description: 'Most lines to return.' },
      char_offset: {
        type: 'integer',
        minimum: 0,
        description: 'First character to return, for outputs with very long lines (the answer says when to use it).',
      },
      char_limit: { type: 'integer', minimum: 1, description: 'Most characters to return.' },
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: 1024,
        description: 'A regular expression: only lines that match, with their line numbers and a little context.',
      },
      context: { type: 'integer', minimum: 0, maximum: 10, description: 'Lines of context around each match (default 2).' },
      ignore_case: { type: 'boolean', description: 'Match pattern without regard to case.' },
      path: { type: 'string', description: 'A JSON Pointer into a JSON result, e.g. /items/3/name.' },
    },
    required: ['tool_call_id'],
    additionalProperties: false,
  },
};

/**
 * What the get_tool_result handler returns to the model: an answer, `found:
 * false`, or `withheld` for a result the safety screen rejected (its content
 * never reaches the model this way either; docs/guide/safety.md).
 */
export type GetToolResultOutput = ToolResultAnswer | { found: false; message: string } | { found: true; withheld: string };

/** The stores `createGetToolResultHandler` reads: the in-memory, file and IndexedDB stores answer at once, PostgreSQL with a promise. */
export interface ToolResultSource {
  getByToolCallId(id: string): ToolResult | undefined | Promise<ToolResult | undefined>;
}

/**
 * The get_tool_result handler over a store: `(args) => answer`, a promise
 * exactly when the store's `getByToolCallId` returns one (PostgreSQL). Every
 * answer fits `budget` (default 8,000 characters of JSON): the whole result
 * when it fits, else the piece asked for with `next` for the rest
 * (`pageToolResult`). Bad arguments get an answer that says what would
 * work, never a throw.
 */
export function createGetToolResultHandler(
  store: ToolResultSource,
  options: { budget?: ContextBudget } = {},
): (args: unknown) => GetToolResultOutput | Promise<GetToolResultOutput> {
  const budget = options.budget ?? DEFAULT_PAGE_BUDGET;
  pageToolResult(probeResult, { tool_call_id: 'probe' }, budget); // checks the budget once, here
  return (args) => {
    const request = (args ?? {}) as ToolResultRequest;
    const id = request.tool_call_id;
    if (typeof id !== 'string' || id === '') {
      return { found: false, message: 'get_tool_result needs { "tool_call_id": "<id from an earlier result reference>" }.' };
    }
    const answer = (result: ToolResult | undefined): GetToolResultOutput =>
      result && isRejected(result)
        ? { found: true, withheld: `The result of tool_call_id "${id}" is withheld: ${result.error_message ?? 'the safety screen rejected it.'}` }
        : result
          ? pageToolResult(result, request, budget)
          : {
              found: false,
              message:
                `No stored result for tool_call_id "${id}". get_tool_result only returns results of tool calls made earlier in this ` +
                'conversation (their references carry result_ref.tool_call_id); a tool you have just called returned its result directly.',
            };
    const got = store.getByToolCallId(id);
    return got instanceof Promise ? got.then(answer) : answer(got);
  };
}

/** A result the safety screen rejected (status `security_violation`, or a `reject` verdict in `meta.screen`). */
const isRejected = (result: ToolResult): boolean => result.status === 'security_violation' || screenRecordOf(result)?.verdict === 'reject';

const probeResult: ToolResult = {
  input: { tool_name: 'probe', parameters: {} },
  status: 'success',
  output: 'x',
  metadata: {
    execution_id: '00000000-0000-4000-8000-000000000000',
    started_at: '2026-01-01T00:00:00.000Z',
    completed_at: '2026-01-01T00:00:00.000Z',
    duration_ms: 0,
  },
  schema_version: '1.0.0',
} as ToolResult;
