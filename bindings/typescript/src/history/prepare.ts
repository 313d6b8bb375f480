// prepareHistory (README "prepareHistory for any framework's messages"):
// the tool results of a conversation, in the framework's own message shape,
// within a budget per result and a total for all of them. The oldest results
// are cleared to references with previews (stored whole), the latest turn's
// are cut only when they alone exceed the budget, nothing but tool results
// changes, and preparing the output again changes nothing.
//
// Without any budget option, toolresult's own messages get every full result
// stored and replaced by its reference (docs/spec.md §12; `load` brings
// references back), as before.
import { createFailure, createSuccess } from '../api.js';
import { boundForModel, budgetFor, type ContextBudget, type ContextBudgets, estimateTokens, shownText, type ToolBudgetSource } from '../budget.js';
import { ToolResultError, quoteText, refuseSnakeCaseOptions, refuseUnknownOptions } from '../errors.js';
import type { ToolResult, ToolResultReference } from '../generated/types.js';
import { toReference } from '../reference.js';
import type { ResultStore } from '../stores/memory.js';
import {
  type Block,
  detectHistoryFormat,
  HISTORY_FORMATS,
  type HistoryFormat,
  isReferenceValue,
  isToolResultValue,
  type MessageSites,
  type Payload,
  referenceInText,
  type Site,
  WALKERS,
} from './formats.js';
import {
  keyedMarks,
  type Marks,
  markText,
  processSpotlightKey,
  SPOTLIGHT_INSTRUCTIONS,
  type SpotlightMode,
  spotlightKeyBytes,
  unmarkText,
} from './spotlight.js';

/** Characters and tokens of what a model is shown of a tool result. */
export interface HistorySize {
  chars: number;
  tokens: number;
}

/** What prepareHistory did with one tool result. */
export interface HistoryResultReport {
  tool_call_id: string;
  tool_name?: string;
  /**
   * What the model is shown now: the whole result, a cut of it (markers name get_tool_result), or a reference
   * (with a preview, or a minimal one when the previews do not fit the total).
   */
  action: 'kept' | 'cut' | 'referenced';
  /** False when the result was left exactly as it was (already prepared, or within every budget). */
  changed: boolean;
  before: HistorySize;
  after: HistorySize;
}

/** What `prepareHistory` gives. */
export interface PreparedHistory<M> {
  /** The messages, in the shape they came in; only tool results differ. */
  messages: M[];
  format: HistoryFormat;
  /** One entry per tool result, in order. */
  report: HistoryResultReport[];
  /** All tool results together, before and after, and whether they are within the total. */
  total: { before: HistorySize; after: HistorySize; maxTokens?: number; maxChars?: number; within: boolean };
  /** With `spotlight`: the sentence for the system prompt. */
  instruction?: string;
  /** Results stored and replaced by references by this call. */
  referenced: string[];
  /** References replaced by their full results (`load`, toolresult's own shape without a budget). */
  loaded: string[];
  /** References whose result the store does not have (left as references). */
  missing: string[];
}

/** Options of `prepareHistory`. */
export interface PrepareHistoryOptions {
  /** The message shape; detected when absent (`detectHistoryFormat`). */
  format?: HistoryFormat;
  /** Where full results go when cut or cleared (get_tool_result reads them back). Needed to clear. */
  store?: ResultStore;
  /** The dialog references name. Needed to clear. (`dialog_id` is refused: the options are camelCase.) */
  dialogId?: string;
  /** The budget of every result. */
  budget?: ContextBudget;
  /** Budgets per tool (`budgetFor`); `budget` is their default. */
  budgets?: ContextBudgets;
  /** Tool definitions whose `_meta["anthropic/maxResultSizeChars"]` caps their results. */
  tools?: readonly ToolBudgetSource[];
  /** Most tokens of all tool results together. */
  maxToolTokens?: number;
  /** Most characters of all tool results together. */
  maxToolChars?: number;
  /** The last N results stay whole whenever they fit the total together (with the latest turn's). */
  keepLast?: number;
  /** Counts tokens (default: the budget's `countTokens`, else `estimateTokens`). */
  countTokens?: (text: string) => number;
  /** Characters of a reference's preview (default 500). */
  previewChars?: number;
  /** Marks every result's text as data (`spotlight`); its cost counts against the budgets. */
  spotlight?: SpotlightMode;
  /**
   * The secret the spotlight marks of each result derive from (HMAC-SHA256 of the tool_call_id), so a
   * tool cannot write them. Without it, a random key made once per process: preparing twice changes
   * nothing within the process; give a key to keep that across processes.
   */
  spotlightKey?: string | Uint8Array;
  /** toolresult's own shape without a budget: which references to load back (false, true, or tool_call_ids). */
  load?: boolean | readonly string[];
}

const BUDGET_OPTIONS = ['budget', 'budgets', 'tools', 'maxToolTokens', 'maxToolChars', 'keepLast', 'spotlight'] as const;

/** A cut marker or media placeholder the core leaves (crates/toolresult/src/bound/model.rs). */
const MARKER =
  /…\[[^\]\n]{0,200}? cut(?:; get_tool_result\(\\?"[^"\n]*?\\?"\) returns it all)?\]…|\[[^\]\n]{0,120}? not shown(?:; get_tool_result\(\\?"[^"\n]*?\\?"\) returns it all)?\]/u;

interface Size3 extends HistorySize {
  bytes: number;
}

type Final =
  | { kind: 'same' }
  | { kind: 'payload'; payload: Payload; asText: boolean; cut: boolean }
  | { kind: 'reference'; ref: ToolResultReference; text?: string };

interface Entry {
  site: Site;
  messageIndex: number;
  turn: number;
  toolName: string;
  /** What the model is shown, spotlighting taken off. */
  inner: Payload;
  /** This result's spotlight marks (keyed by its tool_call_id). */
  marks?: Marks;
  /** Already spotlighted in the requested mode (or nothing to mark). */
  spotted: boolean;
  /** A reference already in place. */
  reference?: ToolResultReference;
  /** Already carries cut markers (prepared before). */
  bounded: boolean;
  budget: ContextBudget;
  before: Size3;
  final: Final;
  size: Size3;
  /** Cut by this call (its full result goes to the store). */
  cutNow: boolean;
}

function positiveInt(v: unknown, name: string, min = 1): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || (v as number) < min)
    throw new ToolResultError('invalid_options', `${name} must be a whole number >= ${min}, got ${quoteText(v)}`);
  return v as number;
}

const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};
const utf8 = (s: string): number => new TextEncoder().encode(s).length;

/** The size of what a model is shown, as the core measures it (media as their data), tokens of the text. */
function measure(p: Payload, count: (text: string) => number): Size3 {
  if (p.content && p.content.length > 0) {
    let chars = 0;
    let bytes = 0;
    for (const b of p.content) {
      const resource = b.resource as Block | undefined;
      const media = b.type === 'text' ? undefined : typeof b.data === 'string' ? b.data : typeof resource?.blob === 'string' ? resource.blob : undefined;
      if (media !== undefined) {
        // Base64 data, as the core counts it (crates/toolresult/src/bound/model.rs, Block::of).
        chars += media.length;
        bytes += media.length;
        continue;
      }
      const text = b.type === 'text' ? String(b.text ?? '') : b.type === 'resource' ? String(resource?.text ?? '') : JSON.stringify(b);
      chars += codePoints(text);
      bytes += utf8(text);
    }
    return { chars, bytes, tokens: count(shownText(undefined, p.content)) };
  }
  const text = shownText(p.output);
  return { chars: codePoints(text), bytes: utf8(text), tokens: count(text) };
}

const add = (a: Size3, b: Size3): Size3 => ({ chars: a.chars + b.chars, bytes: a.bytes + b.bytes, tokens: a.tokens + b.tokens });
const sub = (a: Size3, b: Size3): Size3 => ({ chars: a.chars - b.chars, bytes: a.bytes - b.bytes, tokens: a.tokens - b.tokens });
const ZERO: Size3 = { chars: 0, bytes: 0, tokens: 0 };
const pub = (s: Size3): HistorySize => ({ chars: s.chars, tokens: s.tokens });

function fits(s: Size3, b: ContextBudget): boolean {
  return (
    (b.maxChars === undefined || s.chars <= b.maxChars) &&
    (b.maxBytes === undefined || s.bytes <= b.maxBytes) &&
    (b.maxTokens === undefined || s.tokens <= b.maxTokens)
  );
}

const hasLimit = (b: ContextBudget): boolean => b.maxChars !== undefined || b.maxTokens !== undefined || b.maxBytes !== undefined;

/** The spotlighting taken off a payload's text: the inner payload, and whether every text piece carried this result's marks. */
function unmark(p: Payload, marks: Marks | undefined): { inner: Payload; spotted: boolean } {
  if (marks === undefined) return { inner: p, spotted: false };
  if (p.content && p.content.length > 0) {
    let all = true;
    const content = p.content.map((b) => {
      if (b.type !== 'text' || typeof b.text !== 'string') return b;
      const t = unmarkText(b.text, marks);
      if (t === undefined) all = false;
      return t === undefined ? b : { ...b, text: t };
    });
    return all ? { inner: { ...p, content }, spotted: true } : { inner: p, spotted: false };
  }
  if (typeof p.output === 'string') {
    const t = unmarkText(p.output, marks);
    return t === undefined ? { inner: p, spotted: false } : { inner: { ...p, output: t }, spotted: true };
  }
  if (p.output === undefined || p.output === null) return { inner: p, spotted: true };
  return { inner: p, spotted: false };
}

/** A payload's text marked as data; JSON output becomes its JSON text (`asText`). */
function mark(p: Payload, marks: Marks): { payload: Payload; asText: boolean } {
  if (p.content && p.content.length > 0) {
    return {
      payload: {
        ...p,
        content: p.content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? { ...b, text: markText(b.text, marks) } : b)),
      },
      asText: false,
    };
  }
  if (p.output === undefined || p.output === null) return { payload: p, asText: false };
  const text = typeof p.output === 'string' ? p.output : JSON.stringify(p.output);
  return { payload: { ...p, output: markText(text, marks) }, asText: typeof p.output !== 'string' };
}

/** A call's arguments as an object (JSON text parsed); `{}` when there are none. */
function argumentsOf(args: unknown): Record<string, unknown> {
  let v = args;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return {};
    }
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The summary of a minimal reference. */
const MINIMAL_SUMMARY = 'cleared for room; get_tool_result returns it';

/**
 * The last stage of clearing (README "prepareHistory for any framework's
 * messages"): a reference without preview or summary, which says only which
 * result it stands for, its size and how to load it (docs/spec.md §12).
 */
function minimalReference(ref: ToolResultReference): ToolResultReference {
  return {
    tool_call_id: ref.tool_call_id,
    tool_name: ref.tool_name,
    status: ref.status,
    metadata: { size_bytes: ref.metadata.size_bytes, summary: MINIMAL_SUMMARY, truncated_preview: '' },
    result_ref: { storage_type: ref.result_ref.storage_type, dialog_id: ref.result_ref.dialog_id, tool_call_id: ref.result_ref.tool_call_id },
  };
}

/** A minimal reference as the one line formats with text results show (tens of tokens; its JSON costs several times that). */
function minimalText(ref: ToolResultReference): string {
  const status = ref.status === 'success' ? '' : ` (${ref.status})`;
  return `[${ref.tool_name} result${status} of ${ref.metadata.size_bytes} bytes cleared for room; get_tool_result(${JSON.stringify(ref.result_ref.tool_call_id)}) returns it]`;
}

const MINIMAL_TEXT =
  /^\[(.{1,200}?) result(?: \(([a-z_]{1,40})\))? of (\d{1,15}) bytes cleared for room; get_tool_result\(("(?:[^"\\\n]|\\.){0,2000}")\) returns it\]$/;

/** The minimal reference `minimalText` gave for this call, read back (exactly that text, naming this call). */
function minimalIn(text: unknown, id: string, dialogId: string | undefined): ToolResultReference | undefined {
  const m = typeof text === 'string' && text.length < 2600 ? MINIMAL_TEXT.exec(text) : null;
  if (!m) return undefined;
  let named: unknown;
  try {
    named = JSON.parse(m[4]);
  } catch {
    return undefined;
  }
  if (named !== id) return undefined;
  const ref = minimalReference({
    tool_call_id: id,
    tool_name: m[1],
    status: (m[2] ?? 'success') as ToolResultReference['status'],
    metadata: { size_bytes: Number(m[3]), summary: '', truncated_preview: '' },
    result_ref: { storage_type: 'tool_results', dialog_id: dialogId ?? '', tool_call_id: id },
  });
  return minimalText(ref) === text ? ref : undefined;
}

/** The same JSON value (objects compared by their keys, in any order). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b as object, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * A reference already in place. toolresult's own reference messages are the format's structure; a reference in a
 * result's output or text is what the tool wrote (tool output is untrusted: it could give itself a megabyte summary
 * or name another call's stored result) unless it could only have come from us: it names this very call, and the
 * store holds this call's result, whose reference (as clearing makes it with this dialog and preview length, or its
 * minimal form) it is exactly. Anything else is ordinary tool text, within the budgets like any other.
 */
function referenceIn(
  site: Site,
  inner: Payload,
  store: ResultStore | undefined,
  dialogId: string | undefined,
  previewChars: number | undefined,
): ToolResultReference | undefined {
  if (site.reference) return site.reference;
  const text = inner.content?.length === 1 && inner.content[0].type === 'text' ? inner.content[0].text : inner.output;
  const found = isReferenceValue(inner.output) ? inner.output : (referenceInText(text) ?? minimalIn(text, site.id, dialogId));
  if (!found || found.tool_call_id !== site.id || found.result_ref.tool_call_id !== site.id) return undefined;
  if (!store || typeof dialogId !== 'string' || dialogId === '' || found.result_ref.dialog_id !== dialogId) return undefined;
  const full = store.getByToolCallId(site.id);
  if (!full) return undefined;
  const ours = toReference(full, { dialogId, previewChars });
  return sameValue(found, ours) || sameValue(found, minimalReference(ours)) ? found : undefined;
}

/**
 * The tool results of a conversation within budgets, in the framework's own
 * message shape (`format`, else detected: toolresult's, AI SDK
 * `ModelMessage[]`, LangChain messages, OpenAI Responses input items, OpenAI
 * Chat messages, Anthropic messages). Each result is cut to its `budget`
 * (or `budgets` per tool) by `boundForModel`: head and tail kept, a marker
 * per cut naming get_tool_result. While all results together exceed
 * `maxToolTokens` / `maxToolChars`, the oldest are cleared to references
 * with previews (`toReference`), stored whole in `store` under `dialogId`;
 * when those do not fit, the oldest references become minimal ones (id,
 * tool, size, get_tool_result; tens of tokens). The last `keepLast` results
 * stay whole whenever they fit the total together with the latest turn's,
 * else they go (oldest first) after the others; the latest turn's results
 * are never cleared, and cut, sharing what is left, only when they alone
 * exceed the total. `total.within` says whether the measured total is
 * within. `spotlight` marks every result as data (its cost counts), with
 * marks keyed by `spotlightKey` and the tool_call_id. Nothing but tool
 * results changes; preparing the output again changes nothing. `report`
 * says, per result, kept / cut / referenced with sizes before and after.
 *
 * Without any budget option, toolresult's own messages (bare ToolResults or
 * `{ ..., content: ToolResult }`) get every full result stored and replaced
 * by its reference (docs/spec.md §12), unless `load` asks for it (false,
 * true, or tool_call_ids); references `load` asks for are replaced by the
 * stored result.
 */
/** Every option prepareHistory reads (any other key is refused: a misspelt budget must not pass silently). */
const PREPARE_HISTORY_OPTIONS = [
  'format',
  'store',
  'dialogId',
  'budget',
  'budgets',
  'tools',
  'maxToolTokens',
  'maxToolChars',
  'keepLast',
  'countTokens',
  'previewChars',
  'spotlight',
  'spotlightKey',
  'load',
] as const;

export function prepareHistory<M>(messages: readonly M[], options: PrepareHistoryOptions = {}): PreparedHistory<M> {
  if (!Array.isArray(messages)) throw new ToolResultError('invalid_input', 'prepareHistory takes an array of messages');
  if (!options || typeof options !== 'object') throw new ToolResultError('invalid_options', 'prepareHistory takes an options object');
  if (options.format !== undefined && !HISTORY_FORMATS.includes(options.format)) {
    throw new ToolResultError('invalid_options', `format must be one of ${HISTORY_FORMATS.join(', ')}, got ${quoteText(options.format)}`);
  }
  refuseSnakeCaseOptions(options, 'prepareHistory');
  refuseUnknownOptions(options, PREPARE_HISTORY_OPTIONS, 'prepareHistory');
  const format = options.format ?? detectHistoryFormat(messages);
  const budgeted = BUDGET_OPTIONS.some((k) => options[k] !== undefined);
  if (format === 'toolresult' && !budgeted) return referenceAll(messages, options);
  return withBudgets(messages, format, options);
}

// ------------------------------------------------------------ every result referenced (docs/spec.md §12)

function referenceAll<M>(messages: readonly M[], options: PrepareHistoryOptions): PreparedHistory<M> {
  const { dialogId: dialog_id, store } = options;
  if (typeof dialog_id !== 'string' || dialog_id === '' || !store) throw new ToolResultError('invalid_options', 'prepareHistory needs { dialogId, store }');
  const load = options.load ?? false;
  const count = options.countTokens ?? estimateTokens;
  const wanted = (id: string) => load === true || (Array.isArray(load) && load.includes(id));
  const out: PreparedHistory<M> = {
    messages: [],
    format: 'toolresult',
    report: [],
    total: { before: { chars: 0, tokens: 0 }, after: { chars: 0, tokens: 0 }, within: true },
    referenced: [],
    loaded: [],
    missing: [],
  };
  const sizeOf = (item: ToolResult | ToolResultReference): Size3 =>
    isToolResultValue(item)
      ? measure({ output: item.output, content: (item.content ?? undefined) as Block[] | undefined }, count)
      : measure({ output: JSON.stringify(item) }, count);
  const note = (
    id: string,
    name: string,
    action: HistoryResultReport['action'],
    from: ToolResult | ToolResultReference,
    to: ToolResult | ToolResultReference,
  ) => {
    const before = sizeOf(from);
    const after = from === to ? before : sizeOf(to);
    out.report.push({ tool_call_id: id, tool_name: name, action, changed: from !== to, before: pub(before), after: pub(after) });
  };
  const swap = (item: unknown): unknown => {
    if (isToolResultValue(item)) {
      const id = item.input.tool_call_id ?? item.metadata.execution_id;
      store.put(item, { dialogId: dialog_id });
      if (wanted(id)) {
        note(id, item.input.tool_name, 'kept', item, item);
        return item;
      }
      out.referenced.push(id);
      const ref = toReference(item, { dialogId: dialog_id, previewChars: options.previewChars });
      note(id, item.input.tool_name, 'referenced', item, ref);
      return ref;
    }
    if (isReferenceValue(item)) {
      const id = item.result_ref.tool_call_id;
      const full = wanted(id) ? store.getByToolCallId(id) : undefined;
      if (wanted(id) && !full) out.missing.push(id);
      if (!full) {
        note(id, item.tool_name, 'referenced', item, item);
        return item;
      }
      out.loaded.push(id);
      note(id, item.tool_name, 'kept', item, full);
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
  for (const r of out.report) {
    out.total.before = { chars: out.total.before.chars + r.before.chars, tokens: out.total.before.tokens + r.before.tokens };
    out.total.after = { chars: out.total.after.chars + r.after.chars, tokens: out.total.after.tokens + r.after.tokens };
  }
  return out;
}

// ------------------------------------------------------------ budgets

/** The options of a budgeted run, checked once, and what every step reads. */
interface BudgetRun {
  format: HistoryFormat;
  options: PrepareHistoryOptions;
  maxTokens: number | undefined;
  maxChars: number | undefined;
  keepLast: number;
  previewChars: number | undefined;
  mode: SpotlightMode | undefined;
  count: (text: string) => number;
  store: PrepareHistoryOptions['store'];
  dialog_id: string | undefined;
  limit: ContextBudget;
  /** The tool calls seen so far, by id (their names and arguments). */
  calls: Map<string, { name: string; args: unknown }>;
  marksOf(id: string): Marks | undefined;
  budgetOf(name: string): ContextBudget;
}

function budgetRun(format: HistoryFormat, options: PrepareHistoryOptions): BudgetRun {
  const maxTokens = positiveInt(options.maxToolTokens, 'maxToolTokens');
  const maxChars = positiveInt(options.maxToolChars, 'maxToolChars');
  const keepLast = positiveInt(options.keepLast, 'keepLast', 0) ?? 0;
  const mode = options.spotlight;
  if (mode !== undefined && mode !== 'delimit' && mode !== 'datamark' && mode !== 'encode') {
    throw new ToolResultError('invalid_options', `spotlight must be 'delimit', 'datamark' or 'encode', got ${quoteText(mode)}`);
  }
  if (options.countTokens !== undefined && typeof options.countTokens !== 'function')
    throw new ToolResultError('invalid_options', 'countTokens must be a function');
  const count = options.countTokens ?? options.budget?.countTokens ?? options.budgets?.default?.countTokens ?? estimateTokens;
  const key = options.spotlightKey === undefined ? undefined : spotlightKeyBytes(options.spotlightKey);
  const definitions = new Map((options.tools ?? []).map((t) => [t.name, t]));
  return {
    format,
    options,
    maxTokens,
    maxChars,
    keepLast,
    previewChars: options.previewChars,
    mode,
    count,
    store: options.store,
    dialog_id: options.dialogId,
    limit: { maxTokens, maxChars },
    calls: new Map(),
    /** A result's marks derive from the key and its tool_call_id (spotlight.ts): a tool cannot write them. */
    marksOf: (id) => (mode === undefined ? undefined : keyedMarks(mode, key ?? processSpotlightKey(), id)),
    budgetOf: (name) => {
      const tool = definitions.get(name) ?? name;
      if (!options.budgets && typeof tool === 'string') return { ...(options.budget ?? {}) };
      const budgets: ContextBudgets = { ...(options.budgets ?? {}), default: { ...(options.budget ?? {}), ...(options.budgets?.default ?? {}) } };
      return budgetFor(budgets, tool);
    },
  };
}

function withBudgets<M>(messages: readonly M[], format: HistoryFormat, options: PrepareHistoryOptions): PreparedHistory<M> {
  const run = budgetRun(format, options);
  const { read, entries, latest } = collectEntries(messages, run);
  // Each result within its own budget (references stay as they are).
  for (const e of entries) if (!e.reference) applyFit(e, fitEntry(run, e, e.budget));
  const cleared = clearOverTotal(run, entries, latest);
  shareLatestTurn(run, entries, latest);
  // Cut results go to the store whole (their markers name get_tool_result); the messages are rebuilt.
  const { store, dialog_id } = run;
  for (const e of entries)
    if (e.cutNow && !e.bounded && store && typeof dialog_id === 'string' && dialog_id !== '') keepWhole(run, fullOf(run, e) as ToolResult);
  return budgetedHistory(run, rebuildMessages(messages, read, entries), entries, cleared);
}

/** Every tool result, its turn, and what the model is shown of it now. */
function collectEntries<M>(messages: readonly M[], run: BudgetRun): { read: (MessageSites | undefined)[]; entries: Entry[]; latest: number } {
  const walker = WALKERS[run.format];
  const read: (MessageSites | undefined)[] = [];
  const entries: Entry[] = [];
  let turn = 0;
  let sinceResult = true;
  let assistants = 0;
  messages.forEach((m, i) => {
    if (walker.isAssistant(m)) {
      assistants++;
      if (sinceResult) turn++;
      sinceResult = false;
      for (const [id, name, args] of walker.calls(m)) run.calls.set(id, { name, args });
    }
    const sites = walker.read(m);
    read.push(sites);
    for (const site of sites?.sites ?? []) {
      sinceResult = true;
      const marks = run.marksOf(site.id);
      const { inner, spotted } = unmark(site.payload, marks);
      const reference = referenceIn(site, inner, run.store, run.dialog_id, run.previewChars);
      const toolName = site.toolName ?? reference?.tool_name ?? run.calls.get(site.id)?.name ?? 'unknown';
      const before = measure(site.payload, run.count);
      entries.push({
        site,
        messageIndex: i,
        turn,
        toolName,
        inner,
        marks,
        spotted,
        reference,
        bounded: reference === undefined && MARKER.test(shownText(inner.output, inner.content)),
        budget: reference ? {} : run.budgetOf(toolName),
        before,
        final: { kind: 'same' },
        size: before,
        cutNow: false,
      });
    }
  });
  // No model message at all (a bare list of results): each result is its own turn.
  if (assistants === 0) {
    entries.forEach((e, k) => {
      e.turn = k + 1;
    });
  }
  return { read, entries, latest: entries.reduce((t, e) => Math.max(t, e.turn), 0) };
}

/** The entry as a ToolResult the core can cut (its full result when the site has one). */
function coreResult(e: Entry, p: Payload): ToolResult {
  const base =
    e.site.full ??
    ({
      schema_version: '1.0.0',
      input: { tool_name: e.toolName, tool_call_id: e.site.id, parameters: {} },
      status: 'success',
      metadata: { execution_id: e.site.id },
    } as unknown as ToolResult);
  const r: ToolResult = { ...base, input: { ...base.input, tool_call_id: e.site.id } };
  delete r.output;
  delete r.content;
  if (p.output !== undefined) r.output = p.output;
  if (p.content) r.content = p.content;
  return r;
}

type Fitted = { final: Final; size: Size3; cut: boolean };

/** What the model gets of a payload: as it is when nothing changes, else marked when spotlighting. */
function finish(run: BudgetRun, e: Entry, p: Payload, cut: boolean): { final: Final; size: Size3 } {
  if (!cut && (run.mode === undefined || e.spotted)) return { final: { kind: 'same' }, size: e.before };
  const marked = e.marks === undefined ? { payload: p, asText: false } : mark(p, e.marks);
  return { final: { kind: 'payload', payload: marked.payload, asText: marked.asText, cut }, size: measure(marked.payload, run.count) };
}

/** The entry's payload within `limit`: cut by the core, tightened until the marked text fits too. */
function fitEntry(run: BudgetRun, e: Entry, limit: ContextBudget): Fitted {
  const { mode, count } = run;
  let b: ContextBudget = { ...limit, countTokens: limit.countTokens ?? count };
  let last = finish(run, e, e.inner, false);
  if (!hasLimit(limit)) return { ...last, cut: false };
  for (let round = 0; round < 6; round++) {
    const bound = boundForModel(coreResult(e, e.inner), b);
    const cut: Payload = {};
    if ('output' in bound) cut.output = bound.output;
    if (bound.content) cut.content = bound.content as Block[];
    last = finish(run, e, bound.truncated ? cut : e.inner, bound.truncated);
    if (fits(last.size, limit) || (mode === undefined && !bound.truncated)) return { ...last, cut: bound.truncated };
    if (mode === undefined) return { ...last, cut: bound.truncated };
    // The marks cost room: tighten each limit by the overshoot and cut again.
    const shown = measure(bound.truncated ? cut : e.inner, b.countTokens ?? count);
    const next: ContextBudget = { ...b };
    const tighten = (key: 'maxChars' | 'maxBytes' | 'maxTokens', have: number, used: number) => {
      const want = limit[key];
      if (want === undefined || used <= want) return;
      next[key] = Math.max(1, Math.min(b[key] ?? have, Math.floor((have * want) / used) - 8 * (round + 1)));
    };
    tighten('maxChars', shown.chars, last.size.chars);
    tighten('maxBytes', shown.bytes, last.size.bytes);
    tighten('maxTokens', shown.tokens, last.size.tokens);
    b = next;
  }
  return { ...last, cut: last.final.kind === 'payload' && last.final.cut };
}

function applyFit(e: Entry, r: Fitted): void {
  e.final = r.final;
  e.size = r.size;
  e.cutNow = r.cut;
}

const sumSizes = (list: readonly Entry[]): Size3 => list.reduce((s, e) => add(s, e.size), ZERO);

/** The whole result behind an entry: from the store, the site, or built from what the model was shown. */
function fullOf(run: BudgetRun, e: Entry): ToolResult | undefined {
  if (e.bounded) return run.store?.getByToolCallId(e.site.id);
  if (e.site.full && e.inner === e.site.payload) return e.site.full;
  return run.store?.getByToolCallId(e.site.id) ?? storedForm(run, e);
}

function storedForm(run: BudgetRun, e: Entry): ToolResult {
  const spec = {
    input: { tool_name: e.toolName, tool_call_id: e.site.id, parameters: argumentsOf(run.calls.get(e.site.id)?.args) },
    ...(e.inner.content ? { content: e.inner.content } : { output: e.inner.output }),
  };
  if (!e.site.isError) return createSuccess(spec);
  const text = shownText(e.inner.output, e.inner.content);
  const first = text.split('\n', 1)[0].slice(0, 200) || 'the tool reported an error';
  return createFailure({ ...spec, status: 'failed', error_code: 'TOOL_ERROR', error_message: first });
}

function keepWhole(run: BudgetRun, full: ToolResult): void {
  const { store, dialog_id } = run;
  if (!store || typeof dialog_id !== 'string') return;
  const id = full.input.tool_call_id ?? full.metadata.execution_id;
  if (!store.getByToolCallId(id)) store.put(full, { dialogId: dialog_id });
}

/**
 * Over the total: clears the oldest results to references with previews, then the oldest references to minimal
 * ones (not the latest turn's; the last `keepLast` only when they do not fit together with the latest turn's).
 * Returns the entries cleared.
 */
function clearOverTotal(run: BudgetRun, entries: Entry[], latest: number): Set<Entry> {
  const { maxTokens, maxChars, limit, format, previewChars, count } = run;
  const over = () => hasLimit(limit) && !fits(sumSizes(entries), limit);
  const cleared = new Set<Entry>();
  const needStore = (): string => {
    const { store, dialog_id } = run;
    if (!store || typeof dialog_id !== 'string' || dialog_id === '') {
      throw new ToolResultError('invalid_options', 'clearing old tool results to references needs { store, dialogId }');
    }
    return dialog_id;
  };
  /** Only when the reference is smaller where the total counts (a short result may be smaller than its reference). */
  const smaller = (size: Size3, than: Size3): boolean => {
    const worse = (maxTokens !== undefined && size.tokens > than.tokens) || (maxChars !== undefined && size.chars > than.chars);
    const better = (maxTokens !== undefined && size.tokens < than.tokens) || (maxChars !== undefined && size.chars < than.chars);
    return better && !worse;
  };
  const replace = (e: Entry, ref: ToolResultReference, text: string | undefined, full: ToolResult | undefined): boolean => {
    const size = measure({ output: text ?? JSON.stringify(ref) }, count);
    if (!smaller(size, e.size)) return false;
    if (full) keepWhole(run, full);
    e.final = { kind: 'reference', ref, text };
    e.size = size;
    e.cutNow = false;
    if (!e.reference) cleared.add(e);
    return true;
  };
  /** A reference with a preview in place of the result. */
  const clear = (e: Entry): boolean => {
    if (e.reference || e.final.kind === 'reference') return false;
    const dialog = needStore();
    const full = fullOf(run, e);
    if (!full) return false;
    const ref = toReference(full, { dialogId: dialog, previewChars });
    const json = JSON.stringify(ref);
    return replace(e, ref, e.marks !== undefined && format !== 'toolresult' ? markText(json, e.marks) : undefined, full);
  };
  /** A minimal reference in place of the result or its reference (toolresult's shape keeps reference objects). */
  const minimize = (e: Entry): boolean => {
    let base = e.final.kind === 'reference' ? e.final.ref : e.reference;
    let full: ToolResult | undefined;
    if (!base) {
      const dialog = needStore();
      full = fullOf(run, e);
      if (!full) return false;
      base = toReference(full, { dialogId: dialog, previewChars: 1 });
    }
    const ref = minimalReference(base);
    if (format === 'toolresult') return replace(e, ref, undefined, full);
    const line = minimalText(ref);
    return replace(e, ref, e.marks === undefined ? line : markText(line, e.marks), full);
  };
  const lastN = new Set(entries.slice(entries.length - Math.min(run.keepLast, entries.length)));
  const older = entries.filter((e) => e.turn < latest);
  const others = older.filter((e) => !lastN.has(e));
  const kept = older.filter((e) => lastN.has(e));
  const latestTurn = entries.filter((e) => e.turn === latest);
  for (const step of [clear, minimize]) {
    for (const e of others) {
      if (!over()) break;
      step(e);
    }
  }
  // The last `keepLast` go (oldest first) only when they do not fit the total together with the latest turn's.
  if (!fits(sumSizes([...kept, ...latestTurn]), limit)) {
    for (const step of [clear, minimize]) {
      for (const e of kept) {
        if (!over()) break;
        step(e);
      }
    }
  }
  return cleared;
}

/**
 * Still over, and the latest turn's results alone over the total: they share what is left, water-filled
 * (a result within its share stays whole).
 */
function shareLatestTurn(run: BudgetRun, entries: Entry[], latest: number): void {
  const { maxTokens, maxChars, limit } = run;
  const latestResults = entries.filter((e) => e.turn === latest && !e.reference);
  if (!hasLimit(limit) || fits(sumSizes(entries), limit) || fits(sumSizes(latestResults), limit)) return;
  const rest = sub(sumSizes(entries), sumSizes(latestResults));
  let roomT = maxTokens === undefined ? Number.POSITIVE_INFINITY : maxTokens - rest.tokens;
  let roomC = maxChars === undefined ? Number.POSITIVE_INFINITY : maxChars - rest.chars;
  let pending = latestResults;
  for (;;) {
    const n = pending.length;
    if (n === 0) break;
    const whole = pending.filter((e) => e.size.tokens <= roomT / n && e.size.chars <= roomC / n);
    if (whole.length === 0) break;
    for (const e of whole) {
      roomT -= e.size.tokens;
      roomC -= e.size.chars;
    }
    pending = pending.filter((e) => !whole.includes(e));
  }
  for (const e of pending) {
    const share: ContextBudget = { ...e.budget };
    const n = pending.length;
    if (Number.isFinite(roomT)) share.maxTokens = Math.max(1, Math.min(share.maxTokens ?? Number.POSITIVE_INFINITY, Math.floor(roomT / n)));
    if (Number.isFinite(roomC)) share.maxChars = Math.max(1, Math.min(share.maxChars ?? Number.POSITIVE_INFINITY, Math.floor(roomC / n)));
    applyFit(e, fitEntry(run, e, share));
  }
}

/** The messages again, each changed one rebuilt from its sites' final forms. */
function rebuildMessages<M>(messages: readonly M[], read: (MessageSites | undefined)[], entries: Entry[]): M[] {
  const out: M[] = [];
  let k = 0;
  messages.forEach((m, i) => {
    const sites = read[i];
    if (!sites) {
      out.push(m);
      return;
    }
    const mine = entries.slice(k, k + sites.sites.length);
    k += sites.sites.length;
    if (mine.every((e) => e.final.kind === 'same')) {
      out.push(m);
      return;
    }
    const parts = mine.map((e) => {
      const f = e.final;
      if (f.kind === 'reference') return e.site.withReference(f.ref, f.text);
      if (f.kind === 'payload') return e.site.withPayload(f.payload, f.asText);
      return undefined;
    });
    out.push(sites.rebuild(parts.map((p, j) => (p === undefined ? mine[j].site.part : p))) as M);
  });
  return out;
}

function budgetedHistory<M>(run: BudgetRun, messages: M[], entries: Entry[], cleared: Set<Entry>): PreparedHistory<M> {
  const { maxTokens, maxChars, limit, mode } = run;
  const report: HistoryResultReport[] = entries.map((e) => ({
    tool_call_id: e.site.id,
    tool_name: e.toolName,
    action: e.final.kind === 'reference' || (e.reference && e.final.kind === 'same') ? 'referenced' : e.cutNow || e.bounded ? 'cut' : 'kept',
    changed: e.final.kind !== 'same',
    before: pub(e.before),
    after: pub(e.size),
  }));
  const before = entries.reduce((s, e) => add(s, e.before), ZERO);
  const after = sumSizes(entries);
  const result: PreparedHistory<M> = {
    messages,
    format: run.format,
    report,
    total: { before: pub(before), after: pub(after), within: !hasLimit(limit) || fits(after, limit) },
    referenced: entries.filter((e) => cleared.has(e)).map((e) => e.site.id),
    loaded: [],
    missing: [],
  };
  if (maxTokens !== undefined) result.total.maxTokens = maxTokens;
  if (maxChars !== undefined) result.total.maxChars = maxChars;
  if (mode !== undefined) result.instruction = SPOTLIGHT_INSTRUCTIONS[mode];
  return result;
}
