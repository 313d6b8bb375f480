// Lazy references (docs/spec.md §12): summaries, references in place of full results,
// swapping them in a message list, and the get_tool_result tool.
import { ToolResultError, unwrapOutcome } from './errors.js';
import type { ToolDefinition, ToolResult, ToolResultReference } from './generated/types.js';
import { call } from './runtime.js';
import type { ResultStore } from './store.js';
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
  return unwrap<string>(call((w) => w.summarize_result(json)));
}

/**
 * Seed 003's reference message for a result stored under `dialog_id`:
 * `{ tool_call_id, tool_name, status, metadata: { size_bytes, summary,
 * truncated_preview }, result_ref: { storage_type, dialog_id, tool_call_id } }`.
 * The preview is `previewResult(result, { maxChars: previewChars })`.
 */
export function toReference(result: ToolResult, options: { dialog_id: string; previewChars?: number }): ToolResultReference {
  if (!options || typeof options.dialog_id !== 'string' || options.dialog_id === '') {
    throw new ToolResultError('invalid_options', 'toReference needs { dialog_id }');
  }
  const chars = options.previewChars ?? 500;
  if (!Number.isInteger(chars) || chars < 1) throw new ToolResultError('invalid_options', `previewChars must be a positive integer, got ${chars}`);
  // "" lets the wasm side compute the built-in summary from the result it parses anyway.
  const summary = customSummary(result) ?? '';
  const json = toolResultJson(result);
  return unwrap<ToolResultReference>(call((w) => w.reference_for(json, options.dialog_id, summary, chars)));
}

/**
 * What a result says, as the text a person or model reads first: content
 * blocks' text (images as `[image: mime, size]`), else the output — a string
 * as itself, an object's main text (`content`, `text`, `stdout` + `stderr`,
 * `output`, `body`, …) as real lines and then its other fields one per line.
 * Whole lines within `maxChars` (default 500); a cut ends with a note naming
 * `get_tool_result`. The rule behind `toReference`, `prepareHistory` and the
 * stores' listings (README "Previews").
 */
export function previewResult(result: ToolResult | string, options: { maxChars?: number } = {}): string {
  const chars = options.maxChars ?? 500;
  if (!Number.isInteger(chars) || chars < 1) throw new ToolResultError('invalid_options', `maxChars must be a positive integer, got ${chars}`);
  const json = toolResultJson(result);
  return unwrap<string>(call((w) => w.preview_result(json, chars)));
}

function isToolResult(x: unknown): x is ToolResult {
  const r = x as ToolResult;
  return !!r && typeof r === 'object' && typeof r.input?.tool_name === 'string' && typeof r.metadata?.execution_id === 'string' && 'schema_version' in r;
}

function isReference(x: unknown): x is ToolResultReference {
  const r = x as ToolResultReference;
  return !!r && typeof r === 'object' && typeof r.result_ref?.tool_call_id === 'string' && r.result_ref.storage_type === 'tool_results';
}

/** What `prepareHistory` did. */
export interface PreparedHistory<M> {
  messages: M[];
  /** Full results stored and replaced by references. */
  referenced: string[];
  /** References replaced by their full results. */
  loaded: string[];
  /** References whose result the store does not have (left as references). */
  missing: string[];
}

/**
 * Seed 003's message preparation. Every full ToolResult in `messages` (bare,
 * or as the `content` of a message such as `{ role: 'tool', content }`) is
 * stored and replaced by its reference, unless `load` asks for it; references
 * that `load` asks for are replaced by the stored result. `load`: false (the
 * default: nothing loaded), true (everything), or a list of tool_call_ids.
 * Other messages pass through unchanged; the input array is not modified.
 */
export function prepareHistory<M>(
  messages: readonly M[],
  options: { dialog_id: string; store: ResultStore; load?: boolean | readonly string[]; previewChars?: number },
): PreparedHistory<M> {
  const { dialog_id, store } = options;
  const load = options.load ?? false;
  const wanted = (id: string) => load === true || (Array.isArray(load) && load.includes(id));
  const out: PreparedHistory<M> = { messages: [], referenced: [], loaded: [], missing: [] };
  const swap = (item: unknown): unknown => {
    if (isToolResult(item)) {
      const id = item.input.tool_call_id ?? item.metadata.execution_id;
      store.put(item, { dialog_id });
      if (wanted(id)) return item;
      out.referenced.push(id);
      return toReference(item, { dialog_id, previewChars: options.previewChars });
    }
    if (isReference(item)) {
      const id = item.result_ref.tool_call_id;
      if (!wanted(id)) return item;
      const full = store.getByToolCallId(id);
      if (!full) {
        out.missing.push(id);
        return item;
      }
      out.loaded.push(id);
      return full;
    }
    return undefined;
  };
  for (const message of messages) {
    const direct = swap(message);
    if (direct !== undefined) {
      out.messages.push(direct as M);
      continue;
    }
    const content = (message as { content?: unknown } | null)?.content;
    const inner = message && typeof message === 'object' ? swap(content) : undefined;
    out.messages.push(inner !== undefined && inner !== content ? ({ ...(message as object), content: inner } as M) : message);
  }
  return out;
}

/** The `get_tool_result` tool (docs/spec.md §12), ready to offer a model. */
export const getToolResultTool: ToolDefinition = {
  name: 'get_tool_result',
  description:
    'Retrieve the full result of a tool call made EARLIER in this conversation, by its tool_call_id. ' +
    'Earlier results appear in the history only as a summary and a short preview; call this when you need the rest ' +
    '(for example the whole file that an earlier read_file returned). Do NOT call it for a tool you have just executed: ' +
    'that result is already in front of you.',
  input_schema: {
    type: 'object',
    properties: {
      tool_call_id: { type: 'string', minLength: 1, description: 'The tool_call_id shown in the earlier reference (result_ref.tool_call_id).' },
    },
    required: ['tool_call_id'],
    additionalProperties: false,
  },
};

/** What the get_tool_result handler returns to the model. */
export type GetToolResultOutput = { found: true; result: ToolResult } | { found: false; message: string };

/** The get_tool_result handler over a store: `(args) => output`. */
export function createGetToolResultHandler(store: ResultStore): (args: unknown) => GetToolResultOutput {
  return (args) => {
    const id = (args as { tool_call_id?: unknown } | null)?.tool_call_id;
    if (typeof id !== 'string' || id === '') {
      return { found: false, message: 'get_tool_result needs { "tool_call_id": "<id from an earlier result reference>" }.' };
    }
    const result = store.getByToolCallId(id);
    if (result) return { found: true, result };
    return {
      found: false,
      message:
        `No stored result for tool_call_id "${id}". get_tool_result only returns results of tool calls made earlier in this ` +
        'conversation (their references carry result_ref.tool_call_id); a tool you have just called returned its result directly.',
    };
  };
}
