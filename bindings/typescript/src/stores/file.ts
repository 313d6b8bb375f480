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
import { ToolResultError, quoteText, refuseSnakeCaseOptions } from '../errors.js';
import type { Eviction, PutReport, RetentionPolicy, StoredMeta, ToolResult } from '../generated/types.js';
import { SAFE_ID } from '../ids.js';
import { IndexBackedStore, ResultStore, type StoreScreenOptions } from './memory.js';

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
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx');
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  const dfd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(dfd);
  } finally {
    fs.closeSync(dfd);
  }
}

/**
 * Tool results on disk, indexed in memory (a `ResultStore`, so `history`,
 * `getByToolCallId`, `listDialog`, retention, events and metrics work as
 * there). `put` returns only after both files are durable.
 */
export class FileResultStore extends IndexBackedStore {
  readonly root: string;
  readonly openReport: FileStoreOpenReport;

  private constructor(root: string, retention: RetentionPolicy | undefined, now: (() => number) | undefined, screen: StoreScreenOptions) {
    super(new ResultStore({ retention, now, ...screen }));
    this.root = path.resolve(root);
    // Retention removes files too, so disk and index agree.
    this.index.on('evicted', (e) => this.#remove(e.detail));
    fs.mkdirSync(path.join(this.root, 'dialogs'), { recursive: true });
    this.openReport = this.#load();
  }

  /** Opens (creating if needed) the store at `root` and reloads every result. */
  static open(root: string, options: { retention?: RetentionPolicy; now?: () => number } & StoreScreenOptions = {}): FileResultStore {
    return new FileResultStore(root, options.retention, options.now, { screen: options.screen, screenOptions: options.screenOptions });
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
  }

  #load(): FileStoreOpenReport {
    const report: FileStoreOpenReport = { loaded: 0, quarantined: [], removedTemp: [], repaired: [] };
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
          this.#loadOne(report, dialog.name, name.slice(0, -5));
        }
      }
    }
    return report;
  }

  #loadOne(report: FileStoreOpenReport, dialogId: string, id: string): void {
    const file = path.join(this.#dir(dialogId), `${id}.json`);
    const metaFile = path.join(this.#dir(dialogId), `${id}.meta.json`);
    const bytes = fs.readFileSync(file);
    const verdict = validateToolResult(bytes);
    if (!verdict.ok) {
      const first = verdict.issues[0];
      this.#quarantine(report, file, `not a valid ToolResult: ${first.path || '(root)'}: ${first.message} [${first.code}]`);
      if (fs.existsSync(metaFile)) this.#quarantine(report, metaFile, 'its result file was quarantined');
      return;
    }
    const result = verdict.value;
    const callId = result.input.tool_call_id ?? result.metadata.execution_id;
    if (callId !== id) {
      this.#quarantine(report, file, `foreign file: it holds tool_call_id ${callId}, not ${id}`);
      if (fs.existsSync(metaFile)) this.#quarantine(report, metaFile, 'its result file was quarantined');
      return;
    }
    let stored: PutReport;
    try {
      stored = this.index.put(result, { dialogId: dialogId });
    } catch (e) {
      this.#quarantine(report, file, `conflicts with a result already loaded: ${(e as Error).message.split('\n')[0]}`);
      if (fs.existsSync(metaFile)) this.#quarantine(report, metaFile, 'its result file was quarantined');
      return;
    }
    report.loaded++;
    const sha256 = sha256Hex(bytes);
    let meta: FileMeta | undefined;
    if (fs.existsSync(metaFile)) {
      try {
        meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as FileMeta;
      } catch {
        meta = undefined;
      }
      if (meta?.sha256 !== sha256 || meta.execution_id !== result.metadata.execution_id) {
        this.#quarantine(report, metaFile, 'meta file does not match its result file');
        meta = undefined;
      }
    }
    if (!meta) {
      // The result file is complete (it was renamed into place whole); its
      // meta is derived data, written again.
      writeAtomic(metaFile, JSON.stringify({ ...stored.meta, sha256 } satisfies FileMeta));
      report.repaired.push(metaFile);
    }
  }

  #remove(e: Eviction): void {
    if (!e.dialog_id) return;
    for (const suffix of ['.json', '.meta.json']) fs.rmSync(path.join(this.#dir(e.dialog_id), `${e.tool_call_id}${suffix}`), { force: true });
  }

  /**
   * Validates and durably stores a result under `dialogId` (the file is named
   * by its tool_call_id, or execution_id). The same result again is a no-op
   * (`stored: false`); a different one under a stored id is `store_conflict`.
   * Returns once both files are durable.
   */
  put(result: ToolResult | string, options: { dialogId: string; summary?: string }): PutReport {
    refuseSnakeCaseOptions(options, 'put');
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
      return this.index.put(value, { dialogId: options.dialogId, summary: options.summary });
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
    return report;
  }

  /**
   * A result by execution id (`get(executionId)`, from the index, as every
   * store), or by dialog and tool call id (`get(dialogId, toolCallId)`, read
   * from disk and validated again).
   */
  override get(executionIdOrDialogId: string, toolCallId?: string): ToolResult | undefined {
    if (toolCallId === undefined) return this.index.get(executionIdOrDialogId);
    const dialogId = executionIdOrDialogId;
    checkId('dialogId', dialogId);
    checkId('tool_call_id', toolCallId);
    const file = path.join(this.#dir(dialogId), `${toolCallId}.json`);
    if (!fs.existsSync(file)) return undefined;
    const verdict = validateToolResult(fs.readFileSync(file));
    if (!verdict.ok) throw new ToolResultError('corrupt_store', `${file} is no longer a valid ToolResult`, verdict.issues);
    return verdict.value;
  }

  getByExecutionId(executionId: string): ToolResult | undefined {
    return this.index.get(executionId);
  }

  /** Applies the retention policy now; evicted results' files are removed. */
  prune(): Eviction[] {
    return this.index.prune();
  }
}
