// The Node file store (docs/spec.md §11): every result in
// `<root>/dialogs/<dialog_id>/tool_results/<tool_call_id>.json` with its
// `<tool_call_id>.meta.json`. Writes are atomic (temp file, fsync, rename,
// fsync of the folder), so a crash leaves either the old state or the new one.
// Opening reloads everything; a corrupt or foreign file is reported and moved
// to `<root>/quarantine/`, never a crash and never silently skipped.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { validateToolResult } from '../api.js';
import { sha256Hex } from '../bound.js';
import { ToolResultError, quoteText, refuseSnakeCaseOptions, refuseUnknownOptions } from '../errors.js';
import type { Eviction, PutReport, RetentionPolicy, StoredMeta, ToolResult } from '../generated/types.js';
import { SAFE_ID } from '../ids.js';
import { IndexBackedStore, ResultStore, type StoreScreenOptions } from './memory.js';
import { fsyncDir, writeTempBeside } from '../node-fs.js';
import {
  type EncryptionOptions,
  Keyring,
  type SkippedRecord,
  clearFieldChanged,
  clearFieldMismatch,
  encryptionRequired,
  parseSealedJson,
  resultContext,
  sealedJson,
  skippedCode,
  rewrapIncomplete,
  rewrapNeedsEncryption,
  unreadableConflict,
} from './encryption.js';
import { auditFailed, auditOption, evictedRecord, quarantinedRecord, storedRecord } from '../audit/hooks.js';
import type { AuditRecord, SyncAuditLog } from '../audit/log.js';

/** Why a meta file is quarantined with its result file. */
const COMPANION = 'its result file was quarantined';

/** The `.meta.json` next to each result. */
export interface FileMeta extends StoredMeta {
  /** sha256 of the result file's bytes: a meta file only vouches for its own result. */
  sha256: string;
}

/** What opening the store found. */
export interface FileStoreOpenReport {
  /** Results loaded. */
  loaded: number;
  /** Files moved to `<root>/quarantine/`, with why. */
  quarantined: { file: string; movedTo: string; reason: string }[];
  /** Leftover temp files of interrupted writes, deleted (they never held an acknowledged result). */
  removedTemp: string[];
  /** Meta files rewritten from their (valid) result file. */
  repaired: string[];
  /**
   * With `encryption`: records left as they are because they could not be
   * read (their key not given, or failing authentication); reading one
   * throws that code, `history` and `listDialog` list them as `skipped`.
   */
  skipped?: SkippedRecord[];
}

/**
 * The `.meta.json` of an encrypted result: the clear fields only (its
 * summary and preview are computed again from the result when the store
 * opens), the key id, and the sha256 of the encrypted file.
 */
export type SealedFileMeta = Omit<FileMeta, 'summary' | 'preview'> & { key_id: string };

function sealedMeta(meta: StoredMeta, sha256: string, keyId: string): SealedFileMeta {
  const { summary: _summary, preview: _preview, ...clear } = meta;
  return { ...clear, sha256, key_id: keyId };
}

/** Whether an encrypted result's meta file holds exactly the clear fields expected. */
function sameFields(meta: object, expected: object): boolean {
  const a = meta as Record<string, unknown>;
  const b = expected as Record<string, unknown>;
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}

/** Whether a file holds a sealed record (`parseSealedJson` reads it); clear results never start so. */
const isSealedFile = (bytes: Buffer) => bytes.subarray(0, 10).toString('latin1') === '{"sealed":';

/** What `FileResultStore.open` takes; any other key is refused. */
const FILE_STORE_OPTIONS = ['retention', 'now', 'audit', 'encryption', 'screen', 'screenOptions'] as const;

type Step = Generator<Promise<unknown>, void, unknown>;

/** Runs a loader that never waits (a store without encryption). */
function runSync(g: Step): void {
  if (!g.next().done) throw new Error('a store without encryption tried to decrypt');
}

/** Runs a loader, handing each promise it yields back settled. */
async function runAsync(g: Step): Promise<void> {
  let step = g.next();
  while (!step.done) step = g.next(await step.value);
}

function checkId(kind: string, id: string): void {
  if (typeof id !== 'string' || !SAFE_ID.test(id)) {
    throw new ToolResultError(
      'invalid_id',
      `${kind} ${quoteText(id, '`')} cannot be a file name: use 1-200 letters, digits, '.', '_' or '-', not starting with '.'`,
    );
  }
}

/** Writes a file so that readers see the old content or the new, never a part. */
function writeAtomic(file: string, data: string): void {
  fs.renameSync(writeTempBeside(file, data), file);
  fsyncDir(path.dirname(file));
}

/**
 * Tool results on disk, indexed in memory (a `ResultStore`, so `history`,
 * `getByToolCallId`, `listDialog`, retention, events and metrics work as
 * there). `put` returns only after both files are durable.
 */
export class FileResultStore<Encrypted extends boolean = false> extends IndexBackedStore {
  readonly root: string;
  readonly openReport: FileStoreOpenReport;
  readonly #keyring: Keyring | undefined;
  /** With encryption: every readable record on disk and the key it is under (null: clear), for `rewrap`. */
  readonly #records = new Map<string, { dialogId: string; id: string; keyId: string | null }>();
  /** With encryption, writes wait here for each other: encrypting awaits, and a write must not interleave another. */
  #queue: Promise<unknown> = Promise.resolve();
  readonly #audit: SyncAuditLog | undefined;
  /** Evictions and quarantines not yet appended to the audit log (a listener must not throw: they are appended after). */
  #pending: AuditRecord[] = [];

  private constructor(
    root: string,
    retention: RetentionPolicy | undefined,
    now: (() => number) | undefined,
    screen: StoreScreenOptions,
    audit?: SyncAuditLog,
    keyring?: Keyring,
  ) {
    super(new ResultStore({ retention, now, ...screen }));
    this.root = path.resolve(root);
    this.#audit = audit;
    this.#keyring = keyring;
    // Retention removes files too, so disk and index agree.
    this.index.on('evicted', (e) => {
      this.#remove(e.detail);
      this.#records.delete(e.detail.execution_id);
      if (this.#audit) this.#pending.push(evictedRecord(e.detail));
    });
    fs.mkdirSync(path.join(this.root, 'dialogs'), { recursive: true });
    this.openReport = { loaded: 0, quarantined: [], removedTemp: [], repaired: [], ...(keyring ? { skipped: [] } : {}) };
    // With encryption the static `open` loads, awaiting each decryption.
    if (keyring) return;
    runSync(this.#load(this.openReport));
    this.#appendAudit(undefined, 'the store opened (files quarantined, results evicted by retention)');
  }

  /** Appends `stored` (when given) and the evictions and quarantines since the last call; `audit_failed` if the log refuses. */
  #appendAudit(stored: AuditRecord | undefined, done: string): void {
    if (!this.#audit) return;
    const records = stored ? [stored, ...this.#pending] : this.#pending;
    this.#pending = [];
    try {
      for (const r of records) this.#audit.appendSync(r);
    } catch (e) {
      throw auditFailed(done, e);
    }
  }

  /**
   * Opens (creating if needed) the store at `root` and reloads every result.
   * With `encryption` (docs/guide/storage.md, "Encryption at rest") it
   * resolves once every record is decrypted, and its `put` and `rewrap` are
   * asynchronous (WebCrypto is); reads stay synchronous, from the index.
   */
  static open(
    root: string,
    options: { retention?: RetentionPolicy; now?: () => number; audit?: SyncAuditLog; encryption: EncryptionOptions } & StoreScreenOptions,
  ): Promise<FileResultStore<true>>;
  static open(
    root: string,
    options?: { retention?: RetentionPolicy; now?: () => number; audit?: SyncAuditLog; encryption?: undefined } & StoreScreenOptions,
  ): FileResultStore;
  static open(
    root: string,
    options: { retention?: RetentionPolicy; now?: () => number; audit?: SyncAuditLog; encryption?: EncryptionOptions } & StoreScreenOptions = {},
  ): FileResultStore | Promise<FileResultStore<true>> {
    // With `encryption` the answer is a promise, so every refusal is a rejection.
    if (options?.encryption !== undefined) return FileResultStore.#openEncrypted(root, options);
    refuseUnknownOptions(options, FILE_STORE_OPTIONS, 'FileResultStore.open');
    const audit = auditOption(options.audit, 'FileResultStore', true);
    return new FileResultStore(root, options.retention, options.now, { screen: options.screen, screenOptions: options.screenOptions }, audit);
  }

  static async #openEncrypted(
    root: string,
    options: { retention?: RetentionPolicy; now?: () => number; audit?: SyncAuditLog; encryption?: EncryptionOptions } & StoreScreenOptions,
  ): Promise<FileResultStore<true>> {
    refuseUnknownOptions(options, FILE_STORE_OPTIONS, 'FileResultStore.open');
    const keyring = Keyring.from(options.encryption);
    const audit = auditOption(options.audit, 'FileResultStore', true);
    const screen = { screen: options.screen, screenOptions: options.screenOptions };
    const store = new FileResultStore<true>(root, options.retention, options.now, screen, audit, keyring);
    await runAsync(store.#load(store.openReport));
    store.#appendAudit(undefined, 'the store opened (files quarantined, results evicted by retention)');
    return store;
  }

  /** Runs `f` after every write before it (with encryption, writes await). */
  #exclusive<T>(f: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(f, f);
    this.#queue = run.catch(() => {});
    return run;
  }

  #dir(dialogId: string): string {
    return path.join(this.root, 'dialogs', dialogId, 'tool_results');
  }

  #quarantine(report: FileStoreOpenReport, file: string, reason: string): void {
    const qdir = path.join(this.root, 'quarantine');
    fs.mkdirSync(qdir, { recursive: true });
    const rel = path.relative(this.root, file).split(path.sep).join('__');
    const movedTo = path.join(qdir, `${Date.now()}-${randomBytes(3).toString('hex')}-${rel}`);
    fs.renameSync(file, movedTo);
    report.quarantined.push({ file, movedTo, reason });
    // One entry per result: its meta file follows it without one of its own.
    if (this.#audit && reason !== COMPANION) {
      const [top, dialogId, folder, name] = path.relative(this.root, file).split(path.sep);
      const toolCallId = folder === 'tool_results' ? name?.replace(/(\.meta)?\.json$/, '') : undefined;
      this.#pending.push(quarantinedRecord({ dialog_id: top === 'dialogs' ? dialogId : undefined, tool_call_id: toolCallId }));
    }
  }

  *#load(report: FileStoreOpenReport): Step {
    const dialogs = path.join(this.root, 'dialogs');
    for (const dialog of fs.readdirSync(dialogs, { withFileTypes: true })) {
      const where = path.join(dialogs, dialog.name);
      if (!dialog.isDirectory() || !SAFE_ID.test(dialog.name)) {
        this.#quarantine(report, where, 'not a dialog folder');
        continue;
      }
      const dir = this.#dir(dialog.name);
      if (!fs.existsSync(dir)) continue;
      const names = fs.readdirSync(dir).sort();
      const results = new Set(names.filter((n) => n.endsWith('.json') && !n.endsWith('.meta.json')).map((n) => n.slice(0, -5)));
      for (const name of names) {
        const file = path.join(dir, name);
        if (name.startsWith('.') && name.endsWith('.tmp')) {
          fs.rmSync(file, { force: true });
          report.removedTemp.push(file);
        } else if (name.endsWith('.meta.json')) {
          if (!results.has(name.slice(0, -10))) this.#quarantine(report, file, 'meta file without its result file');
        } else if (!name.endsWith('.json') || !SAFE_ID.test(name.slice(0, -5))) {
          this.#quarantine(report, file, 'not a result file');
        } else {
          yield* this.#loadOne(report, dialog.name, name.slice(0, -5));
        }
      }
    }
  }

  *#loadOne(report: FileStoreOpenReport, dialogId: string, id: string): Step {
    const file = path.join(this.#dir(dialogId), `${id}.json`);
    const metaFile = path.join(this.#dir(dialogId), `${id}.meta.json`);
    const bytes = fs.readFileSync(file);
    // The result's JSON: the file, or what it decrypts to.
    let plain: Uint8Array = bytes;
    let keyId: string | null = null;
    let envelope: Record<string, unknown> = {};
    if (isSealedFile(bytes)) {
      const sealed = parseSealedJson(bytes.toString('utf8'));
      // Without keys, an encrypted file (readable or not) stops the open before anything is moved.
      if (!this.#keyring) throw encryptionRequired(`the result file ${file}`, sealed?.ok ? sealed.sealed.key_id : 'unknown');
      const executionId = sealed?.ok ? sealed.clear.execution_id : undefined;
      if (!sealed?.ok || typeof executionId !== 'string') {
        this.#quarantine(report, file, `not a readable encrypted record: ${sealed && !sealed.ok ? sealed.reason : 'no execution_id'}`);
        if (fs.existsSync(metaFile)) this.#quarantine(report, metaFile, COMPANION);
        return;
      }
      const keyring = this.#keyring;
      const what = `the result of execution ${executionId} (${file})`;
      // The file's place (dialog folder, file name) is bound in: a file moved or copied elsewhere fails.
      const context = resultContext({ execution_id: executionId, tool_call_id: id, dialog_id: dialogId });
      const opened = (yield keyring.open(sealed.sealed, context, what).then(
        (bytes) => ({ ok: true as const, bytes }),
        (error: unknown) => ({ ok: false as const, error }),
      )) as { ok: true; bytes: Uint8Array } | { ok: false; error: unknown };
      if (!opened.ok) {
        const code = skippedCode(opened.error);
        if (!code) throw opened.error;
        // Left as it is: a key given later reads it (nothing is deleted or quarantined).
        const toolName = typeof sealed.clear.tool_name === 'string' ? sealed.clear.tool_name : undefined;
        this.#skip(
          report,
          { execution_id: executionId, tool_call_id: id, key_id: sealed.sealed.key_id, code },
          toolName,
          dialogId,
          opened.error as ToolResultError,
        );
        return;
      }
      plain = opened.bytes;
      keyId = sealed.sealed.key_id;
      envelope = sealed.clear;
    }
    const verdict = validateToolResult(plain);
    if (!verdict.ok) {
      const first = verdict.issues[0];
      this.#quarantine(report, file, `not a valid ToolResult: ${first.path || '(root)'}: ${first.message} [${first.code}]`);
      if (fs.existsSync(metaFile)) this.#quarantine(report, metaFile, COMPANION);
      return;
    }
    const result = verdict.value;
    const callId = result.input.tool_call_id ?? result.metadata.execution_id;
    if (keyId !== null) {
      // It decrypted, so its ids are the file's; the envelope's clear tool name is not authenticated.
      const { execution_id, tool_name } = envelope;
      const field = clearFieldMismatch(result, { execution_id, tool_call_id: id, tool_name });
      if (field) {
        const error = clearFieldChanged(`the result of execution ${String(execution_id)} (${file})`, keyId, field);
        const record = { execution_id: String(execution_id), tool_call_id: id, key_id: keyId, code: 'decryption_failed' as const };
        this.#skip(report, record, typeof tool_name === 'string' ? tool_name : undefined, dialogId, error);
        return;
      }
    }
    if (callId !== id) {
      this.#quarantine(report, file, `foreign file: it holds tool_call_id ${callId}, not ${id}`);
      if (fs.existsSync(metaFile)) this.#quarantine(report, metaFile, COMPANION);
      return;
    }
    let stored: PutReport;
    try {
      stored = this.index.put(result, { dialogId: dialogId });
    } catch (e) {
      this.#quarantine(report, file, `conflicts with a result already loaded: ${(e as Error).message.split('\n')[0]}`);
      if (fs.existsSync(metaFile)) this.#quarantine(report, metaFile, COMPANION);
      return;
    }
    report.loaded++;
    const executionId = result.metadata.execution_id;
    this.forgetUnreadable(executionId);
    // Retention removed it (and its files) as it loaded: no meta to write.
    if (stored.evicted.some((e) => e.execution_id === executionId)) return;
    if (this.#keyring) this.#records.set(executionId, { dialogId, id, keyId });
    const sha256 = sha256Hex(bytes);
    let meta: (FileMeta | SealedFileMeta) | undefined;
    if (fs.existsSync(metaFile)) {
      try {
        meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as FileMeta | SealedFileMeta;
      } catch {
        meta = undefined;
      }
      const stale =
        meta?.sha256 !== sha256 ||
        meta.execution_id !== executionId ||
        (meta as Partial<SealedFileMeta>).key_id !== (keyId ?? undefined) ||
        // An encrypted result's meta holds only fields derived from it: one that says otherwise (a changed status) is written again.
        (keyId !== null && !sameFields(meta, sealedMeta(stored.meta, sha256, keyId)));
      if (stale) {
        // An encrypted result's own meta gone stale (`rewrap` stopped between
        // its two files) is written again, not quarantined: the old one may
        // hold the clear summary and preview.
        if (keyId === null || meta?.execution_id !== executionId) this.#quarantine(report, metaFile, 'meta file does not match its result file');
        meta = undefined;
      }
    }
    if (!meta) {
      // The result file is complete (it was renamed into place whole); its
      // meta is derived data, written again.
      writeAtomic(metaFile, JSON.stringify(keyId === null ? ({ ...stored.meta, sha256 } satisfies FileMeta) : sealedMeta(stored.meta, sha256, keyId)));
      report.repaired.push(metaFile);
    }
  }

  /** Leaves a record this store could not read as it is, remembered as unreadable and reported as skipped. */
  #skip(report: FileStoreOpenReport, record: SkippedRecord, toolName: string | undefined, dialogId: string, error: ToolResultError): void {
    // Its clear fields are unauthenticated: one naming a result read already does not hide it.
    if (!this.index.meta(record.execution_id)) this.markUnreadable({ ...record, tool_name: toolName, dialog_id: dialogId }, error);
    report.skipped?.push(record);
  }

  #remove(e: Eviction): void {
    if (!e.dialog_id) return;
    for (const suffix of ['.json', '.meta.json']) fs.rmSync(path.join(this.#dir(e.dialog_id), `${e.tool_call_id}${suffix}`), { force: true });
  }

  /**
   * Validates and durably stores a result under `dialogId` (the file is named
   * by its tool_call_id, or execution_id). The same result again is a no-op
   * (`stored: false`); a different one under a stored id is `store_conflict`.
   * Returns once both files are durable (with encryption, a promise: see `open`).
   */
  put(result: ToolResult | string, options: { dialogId: string; summary?: string }): Encrypted extends true ? Promise<PutReport> : PutReport;
  put(result: ToolResult | string, options: { dialogId: string; summary?: string }): PutReport | Promise<PutReport> {
    if (this.#keyring) return this.#exclusive(() => this.#putEncrypted(this.#keyring as Keyring, result, options));
    refuseSnakeCaseOptions(options, 'put');
    refuseUnknownOptions(options, ['dialogId', 'summary'], 'put');
    checkId('dialogId', options?.dialogId);
    const verdict = validateToolResult(result);
    if (!verdict.ok) throw new ToolResultError('invalid_tool_result', 'invalid ToolResult', verdict.issues);
    const value = verdict.value;
    const id = value.input.tool_call_id ?? value.metadata.execution_id;
    checkId('tool_call_id', id);
    // The screen decides before anything is written (the index's put would
    // screen again; the gate's verdict is the same).
    this.index.admit(value);
    if (this.index.meta(value.metadata.execution_id) || this.index.getByToolCallId(id)) {
      // Already stored, or a conflict: the index decides, nothing is written.
      const same = this.index.put(value, { dialogId: options.dialogId, summary: options.summary });
      this.#appendAudit(undefined, 'retention evicted results');
      return same;
    }
    const dir = this.#dir(options.dialogId);
    fs.mkdirSync(dir, { recursive: true });
    const text = JSON.stringify(value);
    const file = path.join(dir, `${id}.json`);
    if (fs.existsSync(file)) {
      throw new ToolResultError('store_conflict', `${file} exists and is not in the index; it is never overwritten`);
    }
    writeAtomic(file, text);
    const report = this.index.put(value, { dialogId: options.dialogId, summary: options.summary });
    // Retention may have evicted this very result (too old): its files are gone already.
    if (!report.evicted.some((e) => e.execution_id === report.meta.execution_id)) {
      writeAtomic(path.join(dir, `${id}.meta.json`), JSON.stringify({ ...report.meta, sha256: sha256Hex(text) } satisfies FileMeta));
    }
    // `stored` before the evictions: the result may be one of them.
    this.#appendAudit(this.#audit && storedRecord(report.meta, sha256Hex(text)), 'the result is stored');
    return report;
  }

  /** `put` with encryption: the same steps, the result file encrypted and the meta file without summary and preview. */
  async #putEncrypted(keyring: Keyring, result: ToolResult | string, options: { dialogId: string; summary?: string }): Promise<PutReport> {
    refuseSnakeCaseOptions(options, 'put');
    refuseUnknownOptions(options, ['dialogId', 'summary'], 'put');
    checkId('dialogId', options?.dialogId);
    const verdict = validateToolResult(result);
    if (!verdict.ok) throw new ToolResultError('invalid_tool_result', 'invalid ToolResult', verdict.issues);
    const value = verdict.value;
    const executionId = value.metadata.execution_id;
    const id = value.input.tool_call_id ?? executionId;
    checkId('tool_call_id', id);
    this.index.admit(value);
    // A record this store could not read may be this result or another under its ids: it cannot tell, so nothing is written.
    const locked = this.unreadableRecord(executionId) ?? this.unreadableRecord(undefined, id);
    if (locked) throw unreadableConflict(locked);
    if (this.index.meta(executionId) || this.index.getByToolCallId(id)) {
      const same = this.index.put(value, { dialogId: options.dialogId, summary: options.summary });
      this.#appendAudit(undefined, 'retention evicted results');
      return same;
    }
    const dir = this.#dir(options.dialogId);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${id}.json`);
    if (fs.existsSync(file)) {
      throw new ToolResultError('store_conflict', `${file} exists and is not in the index; it is never overwritten`);
    }
    const sealed = await keyring.seal(JSON.stringify(value), resultContext({ execution_id: executionId, tool_call_id: id, dialog_id: options.dialogId }));
    const text = sealedJson(sealed, { execution_id: executionId, tool_name: value.input.tool_name });
    writeAtomic(file, text);
    const report = this.index.put(value, { dialogId: options.dialogId, summary: options.summary });
    const sha256 = sha256Hex(text);
    if (!report.evicted.some((e) => e.execution_id === executionId)) {
      writeAtomic(path.join(dir, `${id}.meta.json`), JSON.stringify(sealedMeta(report.meta, sha256, sealed.key_id)));
      this.#records.set(executionId, { dialogId: options.dialogId, id, keyId: sealed.key_id });
    }
    this.#appendAudit(this.#audit && storedRecord(report.meta, sha256), 'the result is stored');
    return report;
  }

  /**
   * Re-encrypts every record not under the current key (older keys' and
   * clear ones) under it, one file at a time, each atomically: a crash
   * midway leaves every record readable with the keys given, and running it
   * again finishes. Resolves with how many it re-encrypted; `onRewrapped` is
   * told of each once it is durable. Records the store could not read keep
   * their keys: they are named in a `key_unavailable` or `decryption_failed`
   * error after the rest are done.
   */
  rewrap(options: { onRewrapped?: (record: { execution_id: string; from: string | null }) => void } = {}): Promise<number> {
    const keyring = this.#keyring;
    if (!keyring) return Promise.reject(rewrapNeedsEncryption('FileResultStore'));
    try {
      refuseUnknownOptions(options, ['onRewrapped'], 'rewrap');
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#exclusive(async () => {
      let done = 0;
      for (const [executionId, record] of [...this.#records]) {
        if (record.keyId === keyring.current || !this.#records.has(executionId)) continue;
        const file = path.join(this.#dir(record.dialogId), `${record.id}.json`);
        const context = resultContext({ execution_id: executionId, tool_call_id: record.id, dialog_id: record.dialogId });
        const bytes = fs.readFileSync(file);
        let plain: Uint8Array = bytes;
        if (isSealedFile(bytes)) {
          const sealed = parseSealedJson(bytes.toString('utf8'));
          if (!sealed?.ok) throw new ToolResultError('corrupt_store', `${file} is no longer a readable encrypted record`);
          plain = await keyring.open(sealed.sealed, context, `the result of execution ${executionId} (${file})`);
        } else {
          const verdict = validateToolResult(bytes);
          if (!verdict.ok || verdict.value.metadata.execution_id !== executionId) {
            throw new ToolResultError('corrupt_store', `${file} no longer holds the result of execution ${executionId}`);
          }
        }
        const meta = this.index.meta(executionId) as StoredMeta;
        const text = sealedJson(await keyring.seal(plain, context), { execution_id: executionId, tool_name: meta.tool_name });
        writeAtomic(file, text);
        writeAtomic(path.join(this.#dir(record.dialogId), `${record.id}.meta.json`), JSON.stringify(sealedMeta(meta, sha256Hex(text), keyring.current)));
        const from = record.keyId;
        record.keyId = keyring.current;
        done++;
        options.onRewrapped?.({ execution_id: executionId, from });
      }
      const left = this.openReport.skipped ?? [];
      if (left.length) throw rewrapIncomplete(done, left);
      return done;
    });
  }

  /**
   * A result by execution id (`get(executionId)`, from the index, as every
   * store), or by dialog and tool call id (`get(dialogId, toolCallId)`, read
   * from disk and validated again).
   */
  override get(executionIdOrDialogId: string, toolCallId?: string): ToolResult | undefined {
    if (toolCallId === undefined) return super.get(executionIdOrDialogId);
    const dialogId = executionIdOrDialogId;
    checkId('dialogId', dialogId);
    checkId('tool_call_id', toolCallId);
    if (this.#keyring) {
      // Decrypting awaits: an encrypted store answers from its index, which holds what opening decrypted.
      // A record it could not read throws its error in its own dialog only; in another it is not there.
      if (this.unreadableRecord(undefined, toolCallId)?.dialog_id === dialogId) return super.getByToolCallId(toolCallId);
      const found = this.index.getByToolCallId(toolCallId);
      return found && this.index.meta(found.metadata.execution_id)?.dialog_id === dialogId ? found : undefined;
    }
    const file = path.join(this.#dir(dialogId), `${toolCallId}.json`);
    if (!fs.existsSync(file)) return undefined;
    const bytes = fs.readFileSync(file);
    if (isSealedFile(bytes)) {
      // Encrypted since this store opened (another process, with keys): not corrupt, and never returned as data.
      const sealed = parseSealedJson(bytes.toString('utf8'));
      throw encryptionRequired(`the result file ${file}`, sealed?.ok ? sealed.sealed.key_id : 'unknown');
    }
    const verdict = validateToolResult(bytes);
    if (!verdict.ok) throw new ToolResultError('corrupt_store', `${file} is no longer a valid ToolResult`, verdict.issues);
    return verdict.value;
  }

  getByExecutionId(executionId: string): ToolResult | undefined {
    return super.get(executionId);
  }

  /** Applies the retention policy now; evicted results' files are removed. */
  prune(): Eviction[] {
    const evicted = this.index.prune();
    this.#appendAudit(undefined, 'retention evicted results');
    return evicted;
  }
}
