// The browser's durable store: tool results in IndexedDB, indexed in memory by
// a ResultStore (as the Node file store does), so reads are synchronous and
// behave exactly as the in-memory store's; writes return once IndexedDB has
// committed them. Opening reloads every record in the order it was stored and
// applies the retention policy (age counts from each result's started_at).
// A record that no longer validates is moved to the `quarantine` object store
// with the reason, never dropped silently and never a crash.
import { validateToolResult } from '../api.js';
import { ToolResultError, briefText, refuseSnakeCaseOptions } from '../errors.js';
import type { Eviction, PutReport, RetentionPolicy, ToolResult } from '../generated/types.js';
import { IndexBackedStore, ResultStore, type StoreScreenOptions } from './memory.js';

const VERSION = 1;
const RESULTS = 'results';
const QUARANTINE = 'quarantine';

/** One stored result, as IndexedDB holds it. */
interface StoredRecord {
  /** Auto-incremented: the order results were stored in. */
  seq?: number;
  execution_id: string;
  dialog_id?: string;
  /** A summary given to `put` (else the store computes it again on load). */
  summary?: string;
  /** When it was stored (ms since the epoch). */
  stored_at: number;
  /** The result as compact JSON text. */
  json: string;
}

/** What opening the store found. */
export interface IndexedDbOpenReport {
  /** Results loaded. */
  loaded: number;
  /** Records moved to the `quarantine` object store, with why. */
  quarantined: { seq: number; reason: string }[];
}

/** Options of `openIndexedDbStore`. */
export type IndexedDbStoreOptions = { retention?: RetentionPolicy; now?: () => number; indexedDB?: IDBFactory } & StoreScreenOptions;

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });
}

function storageError(what: string, e: unknown): ToolResultError {
  return new ToolResultError('storage_error', `IndexedDB ${what} failed: ${briefText(e instanceof Error ? e.message : String(e))}`);
}

/**
 * Tool results in IndexedDB (browsers): the `ResultStore` contract — `put`
 * idempotent by execution_id and never overwriting (`store_conflict`), `get`,
 * `getByToolCallId`, `history`, `listDialog`, retention with `evicted`
 * events, `metrics` — with results that survive a reload. `put` and `prune` are
 * asynchronous (they wait for IndexedDB to commit); reads are
 * synchronous, from the in-memory index. Open it with `openIndexedDbStore`.
 */
export class IndexedDbResultStore extends IndexBackedStore {
  readonly name: string;
  readonly openReport: IndexedDbOpenReport;
  readonly #db: IDBDatabase;
  readonly #now: () => number;
  #pending: Promise<void>[] = [];
  #closed = false;

  private constructor(name: string, db: IDBDatabase, index: ResultStore, now: () => number, report: IndexedDbOpenReport) {
    super(index);
    this.name = name;
    this.#now = now;
    this.#db = db;
    this.openReport = report;
    // Retention removes records too, so IndexedDB and the index agree.
    index.on('evicted', (e) => this.#pending.push(this.#remove(e.detail.execution_id)));
  }

  /**
   * Opens (creating if needed) the database `name` and reloads every result.
   * Needs the core module only (`await init()` in browsers).
   * `indexedDB` defaults to the global one.
   */
  static async open(name: string, options: IndexedDbStoreOptions = {}): Promise<IndexedDbResultStore> {
    if (typeof name !== 'string' || name === '') throw new ToolResultError('invalid_options', 'openIndexedDbStore(name): name is a non-empty string');
    const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (!factory) throw new ToolResultError('missing_dependency', 'IndexedDB is not available here (pass options.indexedDB, e.g. from fake-indexeddb)');
    const now = options.now ?? Date.now;
    const index = new ResultStore({ retention: options.retention, now, screen: options.screen, screenOptions: options.screenOptions });
    const open = factory.open(name, VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      const results = db.createObjectStore(RESULTS, { keyPath: 'seq', autoIncrement: true });
      results.createIndex('execution_id', 'execution_id', { unique: true });
      db.createObjectStore(QUARANTINE, { autoIncrement: true });
    };
    let db: IDBDatabase;
    try {
      db = await request(open);
    } catch (e) {
      throw storageError(`open of "${name}"`, e);
    }
    const report: IndexedDbOpenReport = { loaded: 0, quarantined: [] };
    const store = new IndexedDbResultStore(name, db, index, now, report);
    await store.#load(report);
    return store;
  }

  async #load(report: IndexedDbOpenReport): Promise<void> {
    const records = await request(this.#db.transaction(RESULTS).objectStore(RESULTS).getAll() as IDBRequest<StoredRecord[]>);
    const bad: { record: StoredRecord; reason: string }[] = [];
    for (const record of records) {
      const verdict = validateToolResult(typeof record.json === 'string' ? record.json : '');
      if (!verdict.ok) {
        const first = verdict.issues[0];
        bad.push({ record, reason: `not a valid ToolResult: ${first.path || '(root)'}: ${first.message} [${first.code}]` });
        continue;
      }
      if (verdict.value.metadata.execution_id !== record.execution_id) {
        bad.push({ record, reason: `foreign record: it holds execution_id ${verdict.value.metadata.execution_id}, not ${record.execution_id}` });
        continue;
      }
      try {
        // The screen already admitted it when it was first stored.
        this.index.put(verdict.value, { dialogId: record.dialog_id, summary: record.summary });
        report.loaded++;
      } catch (e) {
        bad.push({ record, reason: `conflicts with a result already loaded: ${(e as Error).message.split('\n')[0]}` });
      }
    }
    if (bad.length) {
      const tx = this.#db.transaction([RESULTS, QUARANTINE], 'readwrite');
      for (const { record, reason } of bad) {
        tx.objectStore(QUARANTINE).add({ record, reason, moved_at: Date.now() });
        tx.objectStore(RESULTS).delete(record.seq as number);
        report.quarantined.push({ seq: record.seq as number, reason });
      }
      await committed(tx);
    }
    await this.#flush();
  }

  async #remove(executionId: string): Promise<void> {
    const tx = this.#db.transaction(RESULTS, 'readwrite');
    const results = tx.objectStore(RESULTS);
    const key = await request(results.index('execution_id').getKey(executionId));
    if (key !== undefined) results.delete(key);
    await committed(tx);
  }

  async #flush(): Promise<void> {
    const pending = this.#pending;
    this.#pending = [];
    try {
      await Promise.all(pending);
    } catch (e) {
      throw storageError('delete of an evicted result', e);
    }
  }

  #open(): void {
    if (this.#closed) throw new ToolResultError('store_closed', `the IndexedDB store "${this.name}" was closed`);
  }

  /**
   * Validates and durably stores a result. The same result again is a no-op
   * (`stored: false`); a different one under a stored execution_id or
   * tool_call_id is `store_conflict`. Resolves once IndexedDB has committed.
   */
  async put(result: ToolResult | string, options: { dialogId?: string; summary?: string } = {}): Promise<PutReport> {
    refuseSnakeCaseOptions(options, 'put');
    this.#open();
    const verdict = validateToolResult(result);
    if (!verdict.ok) throw new ToolResultError('invalid_tool_result', 'invalid ToolResult', verdict.issues);
    const value = verdict.value;
    // The screen decides before anything is written.
    this.index.admit(value);
    const callId = value.input.tool_call_id ?? value.metadata.execution_id;
    if (this.index.meta(value.metadata.execution_id) || this.index.getByToolCallId(callId)) {
      // Already stored, or a conflict: the index decides, nothing is written.
      return this.index.put(value, options);
    }
    const record: StoredRecord = { execution_id: value.metadata.execution_id, stored_at: this.#now(), json: JSON.stringify(value) };
    if (options.dialogId !== undefined) record.dialog_id = options.dialogId;
    if (options.summary !== undefined) record.summary = options.summary;
    try {
      const tx = this.#db.transaction(RESULTS, 'readwrite');
      tx.objectStore(RESULTS).add(record);
      await committed(tx);
    } catch (e) {
      throw storageError('write', e);
    }
    let report: PutReport;
    try {
      report = this.index.put(value, options);
    } catch (e) {
      // Validated above, so this is not expected; keep IndexedDB and the index in agreement.
      this.#pending.push(this.#remove(record.execution_id));
      await this.#flush();
      throw e;
    }
    await this.#flush();
    return report;
  }

  /** Applies the retention policy now; evicted results' records are deleted before it resolves. */
  async prune(): Promise<Eviction[]> {
    this.#open();
    const evicted = this.index.prune();
    await this.#flush();
    return evicted;
  }

  /** Closes the database connection; later writes throw `store_closed`. */
  close(): void {
    this.#closed = true;
    this.#db.close();
  }
}
