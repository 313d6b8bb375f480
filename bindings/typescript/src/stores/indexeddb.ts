// The browser's durable store: tool results in IndexedDB, indexed in memory by
// a ResultStore (as the Node file store does), so reads are synchronous and
// behave exactly as the in-memory store's; writes return once IndexedDB has
// committed them. Opening reloads every record in the order it was stored and
// applies the retention policy (age counts from each result's started_at).
// A record that no longer validates is moved to the `quarantine` object store
// with the reason, never dropped silently and never a crash.
import { validateToolResult } from '../api.js';
import { ToolResultError, briefText, refuseSnakeCaseOptions, refuseUnknownOptions } from '../errors.js';
import type { Eviction, PutReport, RetentionPolicy, ToolResult } from '../generated/types.js';
import { IndexBackedStore, ResultStore, type StoreScreenOptions } from './memory.js';
import {
  type EncryptionOptions,
  Keyring,
  type SkippedRecord,
  clearFieldChanged,
  clearFieldMismatch,
  encryptionRequired,
  fromSealedBytes,
  resultContext,
  sealedBytes,
  skippedCode,
  rewrapIncomplete,
  rewrapNeedsEncryption,
  unreadableConflict,
} from './encryption.js';
import { auditFailed, auditOption, evictedRecord, quarantinedRecord, storedRecord } from '../audit/hooks.js';
import type { AuditLog, AuditRecord } from '../audit/log.js';

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
  /** The result as compact JSON text (absent when encrypted). */
  json?: string;
  /** Encrypted records: the key's id, and `nonce ‖ ciphertext` of the summary (JSON) and the result's JSON, on two lines. */
  key_id?: string;
  sealed?: Uint8Array;
  /** Encrypted records: what `history` and `listDialog` name when the record cannot be read. */
  tool_call_id?: string;
  tool_name?: string;
}

/** What opening the store found. */
export interface IndexedDbOpenReport {
  /** Results loaded. */
  loaded: number;
  /** Records moved to the `quarantine` object store, with why. */
  quarantined: { seq: number; reason: string }[];
  /**
   * With `encryption`: records left as they are because they could not be
   * read (their key not given, or failing authentication); reading one
   * throws that code, `history` and `listDialog` list them as `skipped`.
   */
  skipped?: SkippedRecord[];
}

/** Options of `openIndexedDbStore`. */
export type IndexedDbStoreOptions = {
  retention?: RetentionPolicy;
  now?: () => number;
  indexedDB?: IDBFactory;
  /** Encrypt results at rest (AES-256-GCM, docs/guide/storage.md, "Encryption at rest"). */
  encryption?: EncryptionOptions;
  /** An audit log: a `stored` entry per result stored, an `evicted` one per eviction (docs/guide/storage.md, "Audit trail"). */
  audit?: AuditLog;
} & StoreScreenOptions;

/** The associated data of a record: the ids it is stored and listed under (a record given another dialog fails to decrypt). */
const recordContext = (record: StoredRecord) =>
  resultContext({ execution_id: record.execution_id, tool_call_id: record.tool_call_id as string, dialog_id: record.dialog_id });

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
  #keyring: Keyring | undefined;
  readonly #audit: AuditLog | undefined;
  /** Evictions and quarantines not yet appended to the audit log. */
  #toAudit: AuditRecord[] = [];

  private constructor(name: string, db: IDBDatabase, index: ResultStore, now: () => number, report: IndexedDbOpenReport, audit?: AuditLog) {
    super(index);
    this.name = name;
    this.#now = now;
    this.#db = db;
    this.openReport = report;
    this.#audit = audit;
    // Retention removes records too, so IndexedDB and the index agree.
    index.on('evicted', (e) => {
      this.#pending.push(this.#remove(e.detail.execution_id));
      if (this.#audit) this.#toAudit.push(evictedRecord(e.detail));
    });
  }

  /** Appends `stored` (when given) and the evictions since the last call; `audit_failed` if the log refuses. */
  async #appendAudit(stored: AuditRecord | undefined, done: string): Promise<void> {
    if (!this.#audit) return;
    const records = stored ? [stored, ...this.#toAudit] : this.#toAudit;
    this.#toAudit = [];
    try {
      for (const r of records) await this.#audit.append(r);
    } catch (e) {
      throw auditFailed(done, e);
    }
  }

  /**
   * Opens (creating if needed) the database `name` and reloads every result.
   * Needs the core module only (`await init()` in browsers).
   * `indexedDB` defaults to the global one.
   */
  static async open(name: string, options: IndexedDbStoreOptions = {}): Promise<IndexedDbResultStore> {
    if (typeof name !== 'string' || name === '') throw new ToolResultError('invalid_options', 'openIndexedDbStore(name): name is a non-empty string');
    refuseUnknownOptions(options, ['retention', 'now', 'indexedDB', 'encryption', 'audit', 'screen', 'screenOptions'], 'openIndexedDbStore');
    const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (!factory) throw new ToolResultError('missing_dependency', 'IndexedDB is not available here (pass options.indexedDB, e.g. from fake-indexeddb)');
    const now = options.now ?? Date.now;
    const audit = auditOption(options.audit, 'openIndexedDbStore', false);
    const keyring = Keyring.from(options.encryption);
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
    const report: IndexedDbOpenReport = { loaded: 0, quarantined: [], ...(keyring ? { skipped: [] } : {}) };
    const store = new IndexedDbResultStore(name, db, index, now, report, audit);
    store.#keyring = keyring;
    try {
      await store.#load(report);
    } catch (e) {
      db.close();
      throw e;
    }
    await store.#appendAudit(undefined, 'the store opened (records quarantined, results evicted by retention)');
    return store;
  }

  async #load(report: IndexedDbOpenReport): Promise<void> {
    const records = await request(this.#db.transaction(RESULTS).objectStore(RESULTS).getAll() as IDBRequest<StoredRecord[]>);
    const bad: { record: StoredRecord; reason: string }[] = [];
    for (const record of records) {
      let { json, summary } = record;
      if (record.key_id !== undefined) {
        const opened = await this.#decrypt(record, report);
        if (!opened) continue;
        ({ json, summary } = opened);
      }
      const verdict = validateToolResult(typeof json === 'string' ? json : '');
      if (!verdict.ok) {
        const first = verdict.issues[0];
        bad.push({ record, reason: `not a valid ToolResult: ${first.path || '(root)'}: ${first.message} [${first.code}]` });
        continue;
      }
      if (record.key_id !== undefined) {
        // Its ids are bound to the ciphertext; its clear tool name is not, and `history` finds it by that.
        const field = clearFieldMismatch(verdict.value, record);
        if (field) {
          this.#unreadable(record, report, clearFieldChanged(`the result of execution ${record.execution_id}`, record.key_id, field));
          continue;
        }
      }
      if (verdict.value.metadata.execution_id !== record.execution_id) {
        bad.push({ record, reason: `foreign record: it holds execution_id ${verdict.value.metadata.execution_id}, not ${record.execution_id}` });
        continue;
      }
      try {
        // The screen already admitted it when it was first stored.
        this.index.put(verdict.value, { dialogId: record.dialog_id, summary });
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
        if (this.#audit)
          this.#toAudit.push(quarantinedRecord({ execution_id: record.execution_id, tool_call_id: record.tool_call_id, dialog_id: record.dialog_id }));
      }
      await committed(tx);
    }
    await this.#flush();
  }

  /**
   * An encrypted record's summary and JSON; undefined when it cannot be read
   * (it is left as it is, and reported as skipped).
   */
  async #decrypt(record: StoredRecord, report: IndexedDbOpenReport): Promise<{ json: string; summary?: string } | undefined> {
    const keyId = record.key_id as string;
    if (!this.#keyring) throw encryptionRequired(`the IndexedDB store "${this.name}" (record ${record.execution_id})`, keyId);
    let plain: Uint8Array;
    try {
      if (!(record.sealed instanceof Uint8Array)) throw new ToolResultError('decryption_failed', `record ${record.execution_id} has no ciphertext`);
      plain = await this.#keyring.open(fromSealedBytes(keyId, record.sealed), recordContext(record), `the result of execution ${record.execution_id}`);
    } catch (e) {
      if (!skippedCode(e)) throw e;
      this.#unreadable(record, report, e as ToolResultError);
      return undefined;
    }
    const text = new TextDecoder().decode(plain);
    const cut = text.indexOf('\n');
    const summary = JSON.parse(text.slice(0, cut)) as string | null;
    return summary === null ? { json: text.slice(cut + 1) } : { json: text.slice(cut + 1), summary };
  }

  /** Leaves an encrypted record this store could not read as it is: remembered as unreadable, reported as skipped. */
  #unreadable(record: StoredRecord, report: IndexedDbOpenReport, error: ToolResultError): void {
    const code = skippedCode(error) ?? 'decryption_failed';
    const skipped: SkippedRecord = {
      execution_id: record.execution_id,
      ...(typeof record.tool_call_id === 'string' ? { tool_call_id: record.tool_call_id } : {}),
      key_id: record.key_id as string,
      code,
    };
    this.markUnreadable({ ...skipped, tool_name: record.tool_name, dialog_id: record.dialog_id }, error);
    report.skipped?.push(skipped);
  }

  /** The record of a result to add: clear, or encrypted under the current key. */
  async #record(value: ToolResult, options: { dialogId?: string; summary?: string }): Promise<StoredRecord> {
    const executionId = value.metadata.execution_id;
    const record: StoredRecord = { execution_id: executionId, stored_at: this.#now() };
    if (options.dialogId !== undefined) record.dialog_id = options.dialogId;
    if (!this.#keyring) {
      if (options.summary !== undefined) record.summary = options.summary;
      record.json = JSON.stringify(value);
      return record;
    }
    // The summary (JSON: a string, or null for none) on the first line; JSON text never holds a raw line break.
    const plain = `${JSON.stringify(options.summary ?? null)}\n${JSON.stringify(value)}`;
    record.tool_call_id = value.input.tool_call_id ?? executionId;
    record.tool_name = value.input.tool_name;
    const sealed = await this.#keyring.seal(plain, recordContext(record));
    record.key_id = sealed.key_id;
    record.sealed = sealedBytes(sealed);
    return record;
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
    refuseUnknownOptions(options, ['dialogId', 'summary'], 'put');
    this.#open();
    const verdict = validateToolResult(result);
    if (!verdict.ok) throw new ToolResultError('invalid_tool_result', 'invalid ToolResult', verdict.issues);
    const value = verdict.value;
    // The screen decides before anything is written.
    this.index.admit(value);
    const callId = value.input.tool_call_id ?? value.metadata.execution_id;
    const locked = this.unreadableRecord(value.metadata.execution_id) ?? this.unreadableRecord(undefined, callId);
    if (locked) throw unreadableConflict(locked);
    if (this.index.meta(value.metadata.execution_id) || this.index.getByToolCallId(callId)) {
      // Already stored, or a conflict: the index decides, nothing is written.
      const same = this.index.put(value, options);
      await this.#flush();
      await this.#appendAudit(undefined, 'retention evicted results');
      return same;
    }
    // Checked before writing: ids the log cannot hold refuse the put, rather than leave a result stored without its entry.
    if (this.#audit) storedRecord({ execution_id: value.metadata.execution_id, tool_call_id: callId, dialog_id: options.dialogId });
    const record = await this.#record(value, options);
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
    // `stored` before the evictions: the result may be one of them.
    await this.#appendAudit(this.#audit && storedRecord(report.meta), 'the result is stored');
    return report;
  }

  /** Applies the retention policy now; evicted results' records are deleted before it resolves. */
  async prune(): Promise<Eviction[]> {
    this.#open();
    const evicted = this.index.prune();
    await this.#flush();
    await this.#appendAudit(undefined, 'retention evicted results');
    return evicted;
  }

  /**
   * Re-encrypts every record not under the current key (older keys' and
   * clear ones) under it, one transaction per record: a crash midway leaves
   * every record readable with the keys given, and running it again
   * finishes. Resolves with how many it re-encrypted. Records the store
   * could not read keep their keys: they are named in a `key_unavailable`
   * or `decryption_failed` error after the rest are done.
   */
  async rewrap(options: { onRewrapped?: (record: { execution_id: string; from: string | null }) => void } = {}): Promise<number> {
    this.#open();
    const keyring = this.#keyring;
    if (!keyring) throw rewrapNeedsEncryption('IndexedDbResultStore');
    refuseUnknownOptions(options, ['onRewrapped'], 'rewrap');
    const unreadable = new Set((this.openReport.skipped ?? []).map((r) => r.execution_id));
    const records = await request(this.#db.transaction(RESULTS).objectStore(RESULTS).getAll() as IDBRequest<StoredRecord[]>);
    let done = 0;
    // Records found unreadable now (changed since the store opened).
    const found: IndexedDbOpenReport = { loaded: 0, quarantined: [], skipped: [] };
    for (const record of records) {
      if (record.key_id === keyring.current || unreadable.has(record.execution_id)) continue;
      // Read and encrypted outside the transaction (WebCrypto's awaits would end it), written only if unchanged meanwhile.
      let plain: { json: string; summary?: string } | undefined;
      if (record.key_id === undefined) plain = { json: record.json as string, summary: record.summary };
      else plain = await this.#decrypt(record, found);
      if (!plain) continue;
      const next: StoredRecord = {
        seq: record.seq,
        execution_id: record.execution_id,
        stored_at: record.stored_at,
        ...(record.dialog_id === undefined ? {} : { dialog_id: record.dialog_id }),
      };
      const text = `${JSON.stringify(plain.summary ?? null)}\n${plain.json}`;
      const value = JSON.parse(plain.json) as ToolResult;
      next.tool_call_id = value.input?.tool_call_id ?? record.execution_id;
      next.tool_name = value.input?.tool_name;
      const sealed = await keyring.seal(text, recordContext(next));
      next.key_id = sealed.key_id;
      next.sealed = sealedBytes(sealed);
      let written = false;
      try {
        const tx = this.#db.transaction(RESULTS, 'readwrite');
        const results = tx.objectStore(RESULTS);
        const now = await request(results.get(record.seq as number) as IDBRequest<StoredRecord | undefined>);
        if (now && now.execution_id === record.execution_id && now.key_id === record.key_id) {
          results.put(next);
          written = true;
        }
        await committed(tx);
      } catch (e) {
        throw storageError('rewrap', e);
      }
      if (!written) continue;
      done++;
      options.onRewrapped?.({ execution_id: record.execution_id, from: record.key_id ?? null });
    }
    const left = [...(this.openReport.skipped ?? []), ...(found.skipped ?? [])];
    if (left.length) throw rewrapIncomplete(done, left);
    return done;
  }

  /** Closes the database connection; later writes throw `store_closed`. */
  close(): void {
    this.#closed = true;
    this.#db.close();
  }
}
