// Context budgets (docs/bounding.md §7): what a model is given of a result
// fits a budget in characters, tokens or bytes, per tool, keeping the head
// and the tail of text, JSON valid and media whole. The cuts are the Rust
// core's (one implementation for Node and browsers); this file turns tokens
// into characters and picks the budget for a tool.
import { sha256Hex } from './bound.js';
import { ToolResultError, unwrapOutcome, quoteText } from './errors.js';
import type { ToolResult } from './generated/types.js';
import { agentModule } from './runtime.js';
import { toolResultJson } from './wire.js';

/**
 * How much of a result a model may be given. Any combination of limits; the
 * tightest wins. Tokens are counted by `countTokens` when given, else by
 * `estimateTokens`.
 */
export interface ContextBudget {
  /** Most characters (Unicode code points) of text shown to the model. */
  maxChars?: number;
  /** Most tokens, as `countTokens` (or `estimateTokens`) counts them. */
  maxTokens?: number;
  /** Most UTF-8 bytes. */
  maxBytes?: number;
  /** Which ends of a text are kept: `'head-tail'` (default) or `'head'`. */
  keep?: 'head' | 'head-tail';
  /** The model's tokenizer, e.g. `countTokens` from `gpt-tokenizer`. */
  countTokens?: (text: string) => number;
}

/** Characters, bytes and tokens of what a model is shown. */
export interface ShownSize {
  chars: number;
  bytes: number;
  tokens: number;
}

/** One cut: where (`/output…` or `/content/i…`), what, and how much it dropped. */
export interface ModelCut {
  path: string;
  kind: 'text' | 'items' | 'keys' | 'media';
  dropped_lines: number;
  dropped_chars: number;
  dropped_items: number;
}

/** What `boundForModel` gives: the result's output and content within the budget, and what was cut. */
export interface ModelBound {
  /** The output, cut to fit (absent when the result has none). */
  output?: unknown;
  /** The content blocks, cut to fit (absent when the result has none). */
  content?: { type: string; [k: string]: unknown }[];
  /** True when anything was cut. */
  truncated: boolean;
  /** Every cut; each left a marker naming `get_tool_result` and the id. */
  cuts: ModelCut[];
  /** What the model would be shown uncut: content blocks when there are some, else the output. */
  before: ShownSize;
  /** The same, after the cuts. */
  after: ShownSize;
  /** The id markers name: the result's tool_call_id (else its execution_id). */
  tool_call_id: string;
  /** sha256 of the full output (as `truncateOutput` reports it), when something was cut. */
  sha256?: string;
}

const WORDS = /[A-Za-z]+|[0-9]{1,3}|\s+|[^\sA-Za-z0-9]/gu;

/**
 * A tokenizer-free token estimate: ASCII letter runs, runs of up to three
 * digits, whitespace runs and every other character each count as a piece,
 * and a token is 0.8 pieces on average (BPE merges a leading space into the
 * next word). On the bench corpus of real tool outputs (bench/RESULTS.md)
 * it counts 1.15× the `o200k_base` tokens overall, per output p10 1.00,
 * median 1.16, p90 1.24: it mostly overcounts (a budget is met with room to
 * spare), and undercounts rare outputs (down to 0.25× on one). Pass a real
 * tokenizer as `countTokens` when it matters.
 */
export function estimateTokens(text: string): number {
  if (typeof text !== 'string') throw new ToolResultError('invalid_options', 'estimateTokens takes a string');
  let pieces = 0;
  WORDS.lastIndex = 0;
  while (WORDS.exec(text) !== null) pieces++;
  return Math.ceil(pieces * 0.8);
}

function limit(budget: ContextBudget, name: 'maxChars' | 'maxTokens' | 'maxBytes'): number | undefined {
  const v = budget[name];
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < 1) {
    throw new ToolResultError('invalid_options', `${name} must be a whole number >= 1`, [
      { path: `/${name}`, code: 'invalid_options', message: `${name} must be a whole number >= 1, got ${quoteText(v)}` },
    ]);
  }
  return v;
}

/** The text a model reads of bounded output or content (media as their placeholders; images count 0). */
export function shownText(output: unknown, content?: readonly { type: string; [k: string]: unknown }[] | null): string {
  if (content && content.length > 0) {
    return content
      .map((b) =>
        b.type === 'text' && typeof b.text === 'string' ? b.text : b.type === 'resource' ? String((b.resource as { text?: unknown })?.text ?? '') : '',
      )
      .join('\n');
  }
  if (output === undefined || output === null) return '';
  return typeof output === 'string' ? output : JSON.stringify(output);
}

interface CoreBound {
  output?: unknown;
  content?: { type: string; [k: string]: unknown }[];
  truncated: boolean;
  cuts: ModelCut[];
  before: { chars: number; bytes: number };
  after: { chars: number; bytes: number };
}

/**
 * What goes to the model of `result`: its output and content blocks within
 * `budget`, text keeping head and tail (or only the head), JSON still valid
 * JSON with arrays keeping their first and last items, media whole or
 * replaced by a placeholder naming kind, type and size. Every cut leaves one
 * marker saying what was dropped and that `get_tool_result("<id>")` returns
 * it; the full result stays in the store, its sha256 unchanged. A budget in
 * tokens is met by counting (`countTokens`, else `estimateTokens`) and
 * cutting again when over.
 */
export function boundForModel(result: ToolResult, budget: ContextBudget = {}): ModelBound {
  if (!budget || typeof budget !== 'object') throw new ToolResultError('invalid_options', 'boundForModel takes a budget object');
  const maxChars = limit(budget, 'maxChars');
  const maxTokens = limit(budget, 'maxTokens');
  const maxBytes = limit(budget, 'maxBytes');
  const keep = budget.keep ?? 'head-tail';
  if (keep !== 'head' && keep !== 'head-tail') throw new ToolResultError('invalid_options', `keep must be 'head' or 'head-tail', got ${quoteText(keep)}`);
  const count = budget.countTokens ?? estimateTokens;
  if (typeof count !== 'function') throw new ToolResultError('invalid_options', 'countTokens must be a function');
  const json = toolResultJson(result);
  const id = result.input?.tool_call_id ?? result.metadata?.execution_id ?? '';
  const run = (chars: number | undefined): CoreBound =>
    unwrapOutcome<CoreBound>(
      agentModule.call((w) => w.bound_for_model(json, chars ?? 0, maxBytes ?? 0, keep === 'head', id)),
      'invalid_tool_result',
      'invalid ToolResult',
    );
  const tokensOf = (b: { output?: unknown; content?: CoreBound['content'] }) => count(shownText(b.output, b.content));
  let chars = maxChars;
  let bound = run(chars);
  let tokens = tokensOf(bound);
  if (maxTokens !== undefined) {
    // Characters per token differ by text: cut, count, and cut tighter by
    // the overshoot until the count fits (a few rounds at most).
    for (let round = 0; round < 8 && tokens > maxTokens; round++) {
      const shown = bound.after.chars;
      const next = Math.max(1, Math.floor((shown * maxTokens) / tokens) - 8 * (round + 1));
      chars = chars === undefined ? next : Math.min(chars, next);
      bound = run(chars);
      tokens = tokensOf(bound);
    }
  }
  const before = result.content && result.content.length > 0 ? shownText(undefined, result.content as CoreBound['content']) : shownText(result.output);
  const out: ModelBound = {
    truncated: bound.truncated,
    cuts: bound.cuts,
    before: { ...bound.before, tokens: count(before) },
    after: { chars: bound.after.chars, bytes: bound.after.bytes, tokens },
    tool_call_id: id,
  };
  if ('output' in bound) out.output = bound.output;
  if ('content' in bound) out.content = bound.content;
  if (bound.truncated && result.output !== undefined && result.output !== null) {
    out.sha256 = sha256Hex(typeof result.output === 'string' ? result.output : JSON.stringify(result.output));
  }
  return out;
}

/** A budget rule: a tool name, a glob (`mcp__*`, `read_?ile`) or a RegExp, and its budget. */
export interface BudgetRule {
  match: string | RegExp;
  budget: ContextBudget;
}

/** Budgets for every tool: a default, then rules by name, glob or RegExp (the first that matches wins). */
export interface ContextBudgets {
  default?: ContextBudget;
  tools?: Record<string, ContextBudget> | readonly BudgetRule[];
}

/** What a tool definition may carry: an MCP `Tool` with `_meta`, or a toolresult ToolDefinition. */
export interface ToolBudgetSource {
  name: string;
  _meta?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
}

/** The `_meta` key MCP servers use to announce a tool's result budget in characters (Claude Code honours it). */
export const MAX_RESULT_SIZE_CHARS_META = 'anthropic/maxResultSizeChars';

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/**
 * The budget for one tool: an exact rule by name, else the first glob or
 * RegExp rule that matches, else the default; a definition whose `_meta`
 * carries `anthropic/maxResultSizeChars` caps `maxChars` (the tightest wins).
 */
export function budgetFor(budgets: ContextBudgets, tool: string | ToolBudgetSource): ContextBudget {
  const name = typeof tool === 'string' ? tool : tool?.name;
  if (typeof name !== 'string') throw new ToolResultError('invalid_options', 'budgetFor needs a tool name or a definition with a name');
  const rules: BudgetRule[] = Array.isArray(budgets.tools)
    ? [...(budgets.tools as readonly BudgetRule[])]
    : Object.entries((budgets.tools ?? {}) as Record<string, ContextBudget>).map(([match, budget]) => ({ match, budget }));
  const exact = rules.find((r) => typeof r.match === 'string' && r.match === name);
  const matched =
    exact ??
    rules.find((r) =>
      r.match instanceof RegExp
        ? new RegExp(r.match.source, r.match.flags.replace(/[gy]/g, '')).test(name)
        : /[*?]/.test(r.match) && globToRegExp(r.match).test(name),
    );
  const budget: ContextBudget = { ...(budgets.default ?? {}), ...(matched?.budget ?? {}) };
  const meta = typeof tool === 'string' ? undefined : (tool._meta ?? tool.meta)?.[MAX_RESULT_SIZE_CHARS_META];
  if (typeof meta === 'number' && Number.isSafeInteger(meta) && meta > 0) {
    budget.maxChars = budget.maxChars === undefined ? meta : Math.min(budget.maxChars, meta);
  }
  return budget;
}
