// What a model receives of a ToolResult, in the AI SDK's `ToolResultOutput`
// shapes (`text`, `json`, `content`, `error-text`, `error-json`,
// `execution-denied`): the AI SDK adapter's `toModelOutput`, and the form the
// other adapters translate into their framework's own.
import { validateToolResult } from '../../api.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../../bound.js';
import { boundForModel, budgetFor, type ContextBudget, type ContextBudgets } from '../../budget.js';
import { toVercelToolPart } from '../../convert.js';
import { ToolResultError } from '../../errors.js';
import type { StoredMeta, ToolResult, ToolResultReference } from '../../generated/types.js';
import { type SpotlightMode, spotlight } from '../../history/spotlight.js';
import { toReference } from '../../reference.js';
import { DENIED_MESSAGE, looksLikeToolResult } from '../../ui-parts.js';

/** A JSON value (the SDK's `JSONValue`). */
export type AiJsonValue = null | string | number | boolean | AiJsonValue[] | { [key: string]: AiJsonValue };

/** A part of a `content` model output (text, and the file kinds ai 6 and 7 both take). */
export type AiToolContentPart =
  | { type: 'text'; text: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string };

/** What a tool's `toModelOutput` returns: the SDK's `ToolResultOutput`, the kinds this module writes. */
export type AiToolModelOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: AiJsonValue }
  | { type: 'error-text'; value: string }
  | { type: 'error-json'; value: AiJsonValue }
  | { type: 'execution-denied'; reason?: string }
  | { type: 'content'; value: AiToolContentPart[] };

/** Where results are kept (`ResultStore`, `FileResultStore`, `PostgresResultStore`, or any `put`). */
export interface AiResultStore {
  put(result: ToolResult, options: { dialogId: string }): unknown;
  /** The stored result's metadata (its `dialog_id`): read by `toModelOutput` for a result made before this process, when `dialogId` is a function. */
  meta?(executionId: string): StoredMeta | undefined | Promise<StoredMeta | undefined>;
}

/** What the model may receive of one result: one `ContextBudget` for every tool, or `ContextBudgets` by tool name (`budgetFor`). */
export type ModelBudget = ContextBudget | ContextBudgets;

/** Whether `b` gives budgets by tool (`ContextBudgets`) rather than one for all. */
export const isBudgets = (b: ModelBudget): b is ContextBudgets => 'default' in b || 'tools' in b;

/** A ToolResult, if `value` is one (checked in full). */
export function asToolResult(value: unknown): ToolResult | undefined {
  if (!looksLikeToolResult(value)) return undefined;
  const r = validateToolResult(value);
  return r.ok ? r.value : undefined;
}

/** The options of {@link toModelOutput}. */
export interface ModelOutputOptions {
  /** What the model may receive of one result; default 10 MiB. */
  budget?: ModelBudget;
  /** Where the whole result is kept: over the budget, the model gets its reference. */
  store?: AiResultStore;
  /** Length of a reference's preview in characters (default 500). */
  previewChars?: number;
  /** Marks what the model receives as data (`spotlight`). */
  spotlight?: SpotlightMode;
  /** The dialog the result was kept under (names it in the reference). */
  dialogId?: string;
}

/**
 * The one place a result is bounded for the model: `boundForModel` with the
 * tool's budget (`budgetFor` when the budget is by tool; 10 MiB when there
 * is none), the cut output and content put back into the result.
 */
function boundResult(result: ToolResult, budget: ModelBudget | undefined): { result: ToolResult; truncated: boolean } {
  const own: ContextBudget =
    budget === undefined ? { maxBytes: DEFAULT_MAX_OUTPUT_BYTES } : isBudgets(budget) ? budgetFor(budget, result.input.tool_name) : budget;
  const bound = boundForModel(result, own);
  if (!bound.truncated) return { result, truncated: false };
  const cut: ToolResult = { ...result, metadata: { ...result.metadata, output_truncated: true } };
  if ('output' in bound) cut.output = bound.output;
  if ('content' in bound) cut.content = bound.content;
  return { result: cut, truncated: true };
}

export function overBudget(result: ToolResult, budget: ModelBudget | undefined): boolean {
  return boundResult(result, budget).truncated;
}

/**
 * What the model receives for a ToolResult (the wrapped tools'
 * `toModelOutput`): a success's output within `budget` (`text` for a
 * string, `content` for content blocks, else `json`), or, when it is over
 * the budget and a store holds it, The reference with a preview
 * (`json`); a failure's `error-text` (a screen REJECT: only the reasons), or
 * `error-json` with the issues of an output that failed its schema; a denied
 * call `execution-denied`.
 */
export function toModelOutput(result: ToolResult, options: ModelOutputOptions = {}): AiToolModelOutput {
  const r = asToolResult(result);
  if (!r) {
    const checked = validateToolResult(result);
    throw new ToolResultError('invalid_tool_result', 'toModelOutput takes a ToolResult', checked.ok ? [] : checked.issues);
  }
  if (r.status !== 'success') return failureOutput(r);
  const mode = options.spotlight;
  const bounded = boundResult(r, mode ? spotlightBudget(options.budget, mode, r.input.tool_name) : options.budget);
  if (bounded.truncated && options.store && typeof options.dialogId === 'string' && options.dialogId !== '') {
    const reference: ToolResultReference = toReference(r, { dialogId: options.dialogId, previewChars: options.previewChars });
    return spotlightOutput({ type: 'json', value: reference as unknown as AiJsonValue }, mode);
  }
  return spotlightOutput(successOutput(bounded.result), mode);
}

/** What spotlighting adds: delimiters (~70 characters), nothing (datamark), a third more (base64). */
function spotlightBudget(budget: ModelBudget | undefined, mode: SpotlightMode, tool: string): ContextBudget {
  const own: ContextBudget = budget === undefined ? { maxBytes: DEFAULT_MAX_OUTPUT_BYTES } : isBudgets(budget) ? budgetFor(budget, tool) : budget;
  const less = (n: number | undefined) =>
    n === undefined ? undefined : mode === 'encode' ? Math.max(1, Math.floor(((n - 4) * 3) / 4)) : mode === 'delimit' ? Math.max(1, n - 80) : n;
  const out: ContextBudget = { ...own };
  if (own.maxChars !== undefined) out.maxChars = less(own.maxChars);
  if (own.maxBytes !== undefined) out.maxBytes = less(own.maxBytes);
  if (own.maxTokens !== undefined)
    out.maxTokens = mode === 'encode' ? Math.max(1, Math.floor(own.maxTokens / 2)) : mode === 'delimit' ? Math.max(1, own.maxTokens - 40) : own.maxTokens;
  return out;
}

/** The output's text marked as data; JSON becomes its text, content parts' text items are marked one by one. */
function spotlightOutput(out: AiToolModelOutput, mode: SpotlightMode | undefined): AiToolModelOutput {
  if (!mode) return out;
  const o = out as { type: string; value?: unknown };
  if (o.type === 'text' && typeof o.value === 'string') return { type: 'text', value: spotlight(o.value, { mode }).text };
  if (o.type === 'json') return { type: 'text', value: spotlight(JSON.stringify(o.value), { mode }).text };
  if (o.type === 'content' && Array.isArray(o.value)) {
    return {
      type: 'content',
      value: (o.value as { type: string; text?: unknown }[]).map((p) =>
        p.type === 'text' && typeof p.text === 'string' ? { ...p, text: spotlight(p.text, { mode }).text } : p,
      ),
    } as AiToolModelOutput;
  }
  return out;
}

function successOutput(r: ToolResult): AiToolModelOutput {
  if (Array.isArray(r.content) && r.content.length > 0) {
    // The package's Vercel conversion of content blocks (text, images, audio).
    const part = toVercelToolPart(r.input.tool_call_id ? r : { ...r, input: { ...r.input, tool_call_id: r.metadata.execution_id } });
    return part.output as AiToolModelOutput;
  }
  if (typeof r.output === 'string') return { type: 'text', value: r.output };
  if (r.output === undefined) return { type: 'text', value: '' };
  return { type: 'json', value: r.output as AiJsonValue };
}

function failureOutput(r: ToolResult): AiToolModelOutput {
  const message = r.error_message || `the tool call ended with status ${r.status}`;
  // A REJECT: the reasons only, never the content (even redacted).
  if (r.status === 'security_violation') return { type: 'error-text', value: message };
  if (r.status === 'permission_denied' && r.error_code === 'EXECUTION_DENIED') {
    return message === DENIED_MESSAGE ? { type: 'execution-denied' } : { type: 'execution-denied', reason: message };
  }
  if (r.validation_issues && r.validation_issues.length > 0) {
    return {
      type: 'error-json',
      value: {
        error_code: r.error_code ?? null,
        error_message: message,
        issues: r.validation_issues.slice(0, 50).map((i) => ({ path: i.path, code: i.code, message: i.message })),
      },
    };
  }
  return { type: 'error-text', value: message };
}
