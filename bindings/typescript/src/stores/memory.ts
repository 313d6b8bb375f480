// The in-memory ResultStore (crates/toolresult/src/store.rs) with events:
// `stored`, `validation_failed`, `truncated`, `evicted`, EventTarget-style.
import { ToolResultError, type Outcome, refuseSnakeCaseOptions, refuseUnknownOptions } from '../errors.js';
import type { Eviction, HistoryQuery, Issue, PutReport, RetentionPolicy, StoreMetrics, StoredMeta, ToolResult } from '../generated/types.js';
import { customSummary } from '../summary.js';
import { ScreenGate, type ScreenEventDetail, type StoreScreenMetrics, type StoreScreenMode } from '../screen.js';
import type { ScreenOptions } from '../generated/types.js';
import { agentModule, type AgentWasm } from '../runtime.js';
import { jsonText } from '../wire.js';
import { listing, type Listing, type SkippedRecord } from './encryption.js';
import { auditFailed, auditOption, evictedRecord, storedRecord } from '../audit/hooks.js';
import type { AuditRecord, SyncAuditLog } from '../audit/log.js';

type Handle = InstanceType<AgentWasm['ResultStore']>;

/** Results `admit` passed and `put` has not stored yet. */
const admittedResults = new WeakSet<object>();

/** What each event's `detail` holds. */
export interface ResultStoreEventMap {
  stored: StoredMeta;
  validation_failed: { meta: StoredMeta; issues: NonNullable<ToolResult['validation_issues']> };
  truncated: StoredMeta;
  evicted: Eviction;
  /** The store screened a result (screen mode `reject`). */
  screened: ScreenEventDetail;
  /** The store refused a result: the screen rejected it, or it was not screened (mode `require`). */
  rejected: ScreenEventDetail;
}

/** Options every store takes for the safety screen (docs/screen.md §7). */
export interface StoreScreenOptions {
  /** `off` (default), `reject` (screen every put, refuse rejected results) or `require` (refuse unscreened or rejected results). */
  screen?: StoreScreenMode;
  /** Screen options for mode `reject`. */
  screenOptions?: ScreenOptions;
}

/** `metrics()` of a store: the counts, plus the screen's when it screens. */
export type ResultStoreMetrics = StoreMetrics & { screen?: StoreScreenMetrics };
export type ResultStoreEventType = keyof ResultStoreEventMap;

/** An event from a ResultStore; `detail` says what happened. */
export class ResultStoreEvent<K extends ResultStoreEventType = ResultStoreEventType> extends Event {
  readonly detail: ResultStoreEventMap[K];
  constructor(type: K, detail: ResultStoreEventMap[K]) {
    super(type);
    this.detail = detail;
  }
}

/**
 * Tool results in memory (docs/spec.md §11): `put` is idempotent by
 * execution_id and never overwrites a different result (`store_conflict`);
 * `get`, `getByToolCallId`, `history` (newest first), `listDialog` (metadata
 * only); retention by age, count and bytes, every eviction reported as an
 * `evicted` event and in `put`'s report. Lives in wasm memory: use the Node
 * file store (`toolresult/node`) for durability.
 */
export class ResultStore extends EventTarget {
  readonly #handle: Handle;
  readonly #generation: number;
  readonly #now: () => number;
  readonly #gate: ScreenGate;
  readonly #audit: SyncAuditLog | undefined;

  /**
   * `audit`: a log that appends synchronously (`MemoryAuditLog`,
   * `FileAuditLog`) gets a `stored` entry for every result stored and an
   * `evicted` one for every eviction (docs/guide/storage.md, "Audit trail").
   */
  constructor(options: { retention?: RetentionPolicy; now?: () => number; audit?: SyncAuditLog } & StoreScreenOptions = {}) {
    super();
    refuseUnknownOptions(options, ['retention', 'now', 'audit', 'screen', 'screenOptions'], 'new ResultStore');
    this.#now = options.now ?? Date.now;
    this.#audit = auditOption(options.audit, 'ResultStore', true);
    this.#gate = new ScreenGate(options.screen, options.screenOptions);
    const retention = options.retention === undefined ? '' : jsonText(options.retention, 'invalid_options', 'the retention policy');
    const handle = agentModule.call((w) => new w.ResultStore(retention));
    const error = agentModule.call(() => handle.error());
    if (error) {
      handle.free();
      throw new ToolResultError('invalid_options', 'invalid retention policy', JSON.parse(error) as Issue[]);
    }
    this.#handle = handle;
    this.#generation = agentModule.generation;
  }

  #h(): Handle {
    if (this.#generation !== agentModule.generation) {
      throw new ToolResultError('store_lost', 'this in-memory store was lost when the wasm module restarted after a trap; use the file store for durability');
    }
    return this.#handle;
  }

  /** Subscribes to an event; returns the function that unsubscribes. */
  on<K extends ResultStoreEventType>(type: K, listener: (event: ResultStoreEvent<K>) => void): () => void {
    const l = listener as unknown as EventListener;
    this.addEventListener(type, l);
    return () => this.removeEventListener(type, l);
  }

  /**
   * Validates and stores a ToolResult (value or JSON text). `summary` defaults
   * to `summarize(result)` (registered summarizers first).
   */
  put(result: ToolResult | string, options: { dialogId?: string; summary?: string } = {}): PutReport {
    refuseSnakeCaseOptions(options, 'put');
    refuseUnknownOptions(options, ['dialogId', 'summary'], 'put');
    // A result `admit` just passed (the file store admits before writing) is not screened twice.
    if (this.#gate.mode !== 'off' && !(typeof result === 'object' && admittedResults.delete(result))) this.admit(result);
    const json = jsonText(result, 'invalid_tool_result', 'the result');
    // "" lets the store compute the built-in summary from the result it parses anyway.
    const summary = options.summary ?? customSummary(result) ?? '';
    // Built before storing: ids the log cannot hold refuse the put, rather than leave a result stored without its entry.
    if (this.#audit) this.#checkRecord(result, options.dialogId);
    const out = JSON.parse(agentModule.call(() => this.#h().put(json, options.dialogId ?? '', summary, this.#now()))) as Outcome<PutReport>;
    if (!out.ok) {
      const conflict = out.issues.some((i) => i.code === 'store_conflict');
      throw new ToolResultError(conflict ? 'store_conflict' : 'invalid_tool_result', conflict ? 'not stored' : 'invalid ToolResult', out.issues);
    }
    const report = out.value;
    if (report.stored) {
      const meta = report.meta;
      this.dispatchEvent(new ResultStoreEvent('stored', meta));
      if (meta.status === 'output_validation_failed' || meta.status === 'validation_error') {
        const stored = this.get(meta.execution_id);
        this.dispatchEvent(new ResultStoreEvent('validation_failed', { meta, issues: stored?.validation_issues ?? [] }));
      }
      if (meta.output_truncated) this.dispatchEvent(new ResultStoreEvent('truncated', meta));
    }
    for (const e of report.evicted) this.dispatchEvent(new ResultStoreEvent('evicted', e));
    if (this.#audit) {
      const records = report.evicted.map(evictedRecord);
      if (report.stored) records.unshift(storedRecord(report.meta));
      this.#append(records, report.stored ? 'the result is stored' : 'retention evicted results');
    }
    return report;
  }

  /** Checks the `stored` record of a result about to be put (its ids come from the result itself). */
  #checkRecord(result: ToolResult | string, dialogId: string | undefined): void {
    let value: ToolResult;
    try {
      value = typeof result === 'string' ? (JSON.parse(result) as ToolResult) : result;
    } catch {
      return; // Not JSON: the put refuses it.
    }
    const executionId = value?.metadata?.execution_id;
    if (typeof executionId !== 'string') return;
    const callId = value.input?.tool_call_id;
    storedRecord({ execution_id: executionId, tool_call_id: typeof callId === 'string' ? callId : executionId, dialog_id: dialogId });
  }

  #append(records: AuditRecord[], done: string): void {
    try {
      for (const r of records) this.#audit!.appendSync(r);
    } catch (e) {
      throw auditFailed(done, e);
    }
  }

  /**
   * Applies this store's screen policy to a result without storing it:
   * throws `unsafe_output` or `unscreened_result` when `put` would refuse it
   * (and emits `screened` / `rejected`). `put` calls it first.
   */
  admit(result: ToolResult | string): void {
    if (this.#gate.mode === 'off') return;
    const value = typeof result === 'string' ? (JSON.parse(result) as ToolResult) : result;
    if (value === null || typeof value !== 'object' || !value.metadata || !value.input) {
      throw new ToolResultError('invalid_tool_result', 'invalid ToolResult');
    }
    this.#gate.admit(value, (type, detail) => this.dispatchEvent(new ResultStoreEvent(type, detail)));
    if (typeof result === 'object') admittedResults.add(result);
  }

  get(executionId: string): ToolResult | undefined {
    const json = agentModule.call(() => this.#h().get(String(executionId)));
    return json ? (JSON.parse(json) as ToolResult) : undefined;
  }

  getByToolCallId(toolCallId: string): ToolResult | undefined {
    const json = agentModule.call(() => this.#h().get_by_tool_call_id(String(toolCallId)));
    return json ? (JSON.parse(json) as ToolResult) : undefined;
  }

  /** Metadata of a stored result (no output). */
  meta(executionId: string): StoredMeta | undefined {
    const json = agentModule.call(() => this.#h().meta(String(executionId)));
    return json ? (JSON.parse(json) as StoredMeta) : undefined;
  }

  /** A tool's results, newest first (docs/spec.md §11): `limit` (100), `status`, `since`, `until`. */
  history(toolName: string, query: HistoryQuery = {}): ToolResult[] {
    const q = jsonText(query, 'invalid_options', 'the history query');
    const out = JSON.parse(agentModule.call(() => this.#h().history(String(toolName), q))) as Outcome<ToolResult[]>;
    if (!out.ok) throw new ToolResultError('invalid_options', 'invalid history query', out.issues);
    return out.value;
  }

  /** Metadata of a dialog's results, in the order they were stored. */
  listDialog(dialogId: string): StoredMeta[] {
    return JSON.parse(agentModule.call(() => this.#h().list_dialog(String(dialogId)))) as StoredMeta[];
  }

  /** Applies the retention policy now (age limits need a clock); returns and announces the evictions. */
  prune(): Eviction[] {
    const evicted = JSON.parse(agentModule.call(() => this.#h().prune(this.#now()))) as Eviction[];
    for (const e of evicted) this.dispatchEvent(new ResultStoreEvent('evicted', e));
    if (this.#audit && evicted.length) this.#append(evicted.map(evictedRecord), 'retention evicted results');
    return evicted;
  }

  /**
   * The store's counters (docs/spec.md §7) and the output-size histogram; with a screen,
   * `screen` counts screened and rejected results, by category.
   */
  metrics(): ResultStoreMetrics {
    const m = JSON.parse(agentModule.call(() => this.#h().metrics())) as ResultStoreMetrics;
    if (this.#gate.mode !== 'off') m.screen = structuredClone(this.#gate.counts);
    return m;
  }

  get size(): number {
    return agentModule.call(() => this.#h().len());
  }
}

type UnreadableRecord = SkippedRecord & { tool_call_id?: string; tool_name?: string; dialog_id?: string; error: ToolResultError };

/**
 * The reads of a durable store: each comes from its in-memory index (a
 * `ResultStore`), so they behave exactly as the in-memory store's. The file
 * store (`toolresult/node`) and the IndexedDB store (`toolresult/web`)
 * extend it with writes of their own.
 */
export class IndexBackedStore {
  /** The in-memory index (a ResultStore), e.g. for prepareHistory and get_tool_result. */
  readonly index: ResultStore;

  /** Records kept on disk that opening could not read (encryption: their key not given, or failing authentication), by execution id. */
  readonly #unreadable = new Map<string, UnreadableRecord>();

  protected constructor(index: ResultStore) {
    this.index = index;
  }

  /** Remembers a record opening could not read: reads of it throw `error`, lists report it as skipped. */
  protected markUnreadable(record: SkippedRecord & { tool_call_id?: string; tool_name?: string; dialog_id?: string }, error: ToolResultError): void {
    this.#unreadable.set(record.execution_id, { ...record, error });
  }

  /** Forgets an unreadable record (it was removed, or is readable now). */
  protected forgetUnreadable(executionId: string): void {
    this.#unreadable.delete(executionId);
  }

  /** The unreadable record of this execution id or tool_call_id, if any. */
  protected unreadableRecord(executionId?: string, toolCallId?: string): (SkippedRecord & { tool_call_id?: string; dialog_id?: string }) | undefined {
    if (executionId !== undefined) return this.#unreadable.get(String(executionId));
    for (const u of this.#unreadable.values()) if (u.tool_call_id === toolCallId) return u;
    return undefined;
  }

  #skipped(which: (u: UnreadableRecord) => boolean): SkippedRecord[] {
    const out: SkippedRecord[] = [];
    for (const u of this.#unreadable.values()) {
      if (!which(u)) continue;
      out.push({
        execution_id: u.execution_id,
        ...(u.tool_call_id === undefined ? {} : { tool_call_id: u.tool_call_id }),
        ...(u.key_id === undefined ? {} : { key_id: u.key_id }),
        code: u.code,
      });
    }
    return out;
  }

  /** A stored result; throws `key_unavailable` or `decryption_failed` for a record the store could not read. */
  get(executionId: string): ToolResult | undefined {
    const u = this.#unreadable.get(String(executionId));
    if (u) throw u.error;
    return this.index.get(executionId);
  }

  getByToolCallId(toolCallId: string): ToolResult | undefined {
    for (const u of this.#unreadable.values()) if (u.tool_call_id === toolCallId) throw u.error;
    return this.index.getByToolCallId(toolCallId);
  }

  /** Metadata of a stored result (no output). */
  meta(executionId: string): StoredMeta | undefined {
    const u = this.#unreadable.get(String(executionId));
    if (u) throw u.error;
    return this.index.meta(executionId);
  }

  /**
   * A tool's results, newest first: `limit` (100), `status`, `since`, `until`.
   * `skipped` lists the tool's records the store could not read.
   */
  history(toolName: string, query?: HistoryQuery): Listing<ToolResult> {
    return listing(
      this.index.history(toolName, query),
      this.#skipped((u) => u.tool_name === undefined || u.tool_name === toolName),
    );
  }

  /** Metadata of a dialog's results, in the order they were stored; `skipped` lists its records the store could not read. */
  listDialog(dialogId: string): Listing<StoredMeta> {
    return listing(
      this.index.listDialog(dialogId),
      this.#skipped((u) => u.dialog_id === dialogId),
    );
  }

  on<K extends ResultStoreEventType>(type: K, listener: (event: ResultStoreEvent<K>) => void): () => void {
    return this.index.on(type, listener);
  }

  metrics(): ResultStoreMetrics {
    return this.index.metrics();
  }

  get size(): number {
    return this.index.size;
  }
}
