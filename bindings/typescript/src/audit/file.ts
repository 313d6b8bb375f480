// The audit log in a file (`toolresult/node`): one JSON entry per line,
// appended and fsynced before `append` resolves, so an acknowledged entry
// survives the process being killed. A torn last line (a write the process
// died in, never acknowledged) is cut away on open; a bad line anywhere else
// is left where it is, and `verifyAuditLog` reports it.
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { ToolResultError, quoteText, refuseUnknownOptions } from '../errors.js';
import {
  type AuditCheckpoint,
  type AuditEntry,
  type AuditRecord,
  type SyncAuditLog,
  auditEntryProblem,
  chainAuditEntry,
  checkAuditRecord,
  signAuditCheckpoint,
} from './log.js';
import { checkFromSeq } from './memory.js';
import { createFlushed, fsyncDir } from '../node-fs.js';

/** Options of `FileAuditLog.open`. */
export interface FileAuditLogOptions {
  /** The clock for each entry's `at` (ms since the epoch); default `Date.now`. */
  now?: () => number;
}

/** What opening the log found. */
export interface FileAuditLogOpenReport {
  /** The last entry's seq and hash (null for an empty log). */
  head: { seq: number; hash: string } | null;
  /** Bytes of a torn last line cut away (a write interrupted before it was acknowledged); 0 when none. */
  truncatedBytes: number;
}

const NL = 0x0a;
const CHUNK = 64 * 1024;

function storageError(what: string, e: unknown): ToolResultError {
  return new ToolResultError('storage_error', `${what}: ${(e as Error)?.message ?? String(e)}`);
}

/** The offset of the last `\n` before `end`, or -1. */
function lastNewline(fd: number, end: number): number {
  const buf = Buffer.alloc(CHUNK);
  for (let stop = end; stop > 0; ) {
    const start = Math.max(0, stop - CHUNK);
    const n = fs.readSync(fd, buf, 0, stop - start, start);
    const at = buf.subarray(0, n).lastIndexOf(NL);
    if (at >= 0) return start + at;
    stop = start;
  }
  return -1;
}

function readExact(fd: number, start: number, end: number): Buffer {
  const buf = Buffer.alloc(end - start);
  let done = 0;
  while (done < buf.length) {
    const n = fs.readSync(fd, buf, done, buf.length - done, start + done);
    if (n === 0) break;
    done += n;
  }
  return buf.subarray(0, done);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A line of the file as an entry, or a `corrupt_audit_log` error naming the line. */
function parseLine(bytes: Uint8Array, lineNo: number, file: string): AuditEntry {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (e) {
    throw new ToolResultError('corrupt_audit_log', `line ${lineNo} of ${file} is not an audit entry: not JSON (${(e as Error).message})`);
  }
  const problem = auditEntryProblem(value);
  if (problem) throw new ToolResultError('corrupt_audit_log', `line ${lineNo} of ${file} is not an audit entry: it ${problem}`);
  return value as AuditEntry;
}

/** The entries of the file's complete lines (up to `end` bytes), from line `fromSeq`. */
async function* readLines(file: string, fromSeq: number, end?: number): AsyncGenerator<AuditEntry> {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw storageError(`cannot read ${file}`, e);
  }
  try {
    const limit = end ?? fs.fstatSync(fd).size;
    const buf = Buffer.alloc(CHUNK);
    let carry: Buffer = Buffer.alloc(0);
    let lineNo = 0;
    for (let pos = 0; pos < limit; ) {
      const n = fs.readSync(fd, buf, 0, Math.min(CHUNK, limit - pos), pos);
      if (n === 0) break;
      pos += n;
      let data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      // One line at a time, so a bad line is reported after every entry before it was seen.
      for (let nl = data.indexOf(NL); nl >= 0; nl = data.indexOf(NL)) {
        lineNo++;
        const line = data.subarray(0, nl);
        data = data.subarray(nl + 1);
        if (lineNo >= fromSeq) yield parseLine(line, lineNo, file);
      }
      // Copied: `buf` is reused for the next chunk.
      carry = Buffer.from(data);
    }
    // Bytes after the last newline are a write still in flight (or torn): not an entry yet.
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A hash-chained audit log in a file of JSON lines (docs/guide/storage.md,
 * "Audit trail"). `append` writes the line and fsyncs it before resolving;
 * appends run one at a time (each is written whole, synchronously), so the
 * chain is one chain whatever the callers await. One process writes a file at
 * a time: `open` takes `<file>.lock` and refuses a log another live process
 * holds (`audit_log_locked`); `close()` lets it go.
 */
export class FileAuditLog implements SyncAuditLog {
  readonly file: string;
  readonly openReport: FileAuditLogOpenReport;
  readonly #lock: string;
  readonly #now: () => number;
  #fd: number;
  #size: number;
  #head: { seq: number; hash: string } | null;
  #broken: string | undefined;
  #closed = false;

  private constructor(
    file: string,
    lock: string,
    fd: number,
    size: number,
    head: FileAuditLog['openReport']['head'],
    report: FileAuditLogOpenReport,
    now: () => number,
  ) {
    this.file = file;
    this.#lock = lock;
    this.#fd = fd;
    this.#size = size;
    this.#head = head;
    this.openReport = report;
    this.#now = now;
  }

  /**
   * Opens (creating if needed) the log at `file`. Cuts a torn last line away
   * (it was never acknowledged) and reads the head from the last line; a last
   * line that is complete but not an entry is `corrupt_audit_log` (the chain
   * cannot go on from it). Lines before it are not read: `verifyAuditLog`
   * checks them.
   */
  static open(file: string, options: FileAuditLogOptions = {}): FileAuditLog {
    if (typeof file !== 'string' || file === '') throw new ToolResultError('invalid_options', 'FileAuditLog.open(file): file is a path');
    refuseUnknownOptions(options, ['now'], 'FileAuditLog.open');
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw new ToolResultError('invalid_options', 'now must be a function', [{ path: '/now', code: 'invalid_options', message: 'now must be a function' }]);
    }
    const resolved = path.resolve(file);
    const dir = path.dirname(resolved);
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw storageError(`cannot create ${dir}`, e);
    }
    const lock = `${resolved}.lock`;
    takeLock(lock, resolved);
    let fd: number | undefined;
    try {
      const existed = fs.existsSync(resolved);
      fd = fs.openSync(resolved, 'a+');
      if (!existed) fsyncDir(dir);
      let size = fs.fstatSync(fd).size;
      let truncatedBytes = 0;
      if (size > 0 && readExact(fd, size - 1, size)[0] !== NL) {
        const keep = lastNewline(fd, size) + 1;
        truncatedBytes = size - keep;
        fs.ftruncateSync(fd, keep);
        fs.fsyncSync(fd);
        size = keep;
      }
      let head: FileAuditLogOpenReport['head'] = null;
      if (size > 0) {
        const start = lastNewline(fd, size - 1) + 1;
        let last: AuditEntry;
        try {
          last = parseLine(readExact(fd, start, size - 1), 0, resolved);
        } catch (e) {
          if (!(e instanceof ToolResultError)) throw e;
          const why = e.message.slice(e.message.indexOf('is not an audit entry'));
          throw new ToolResultError('corrupt_audit_log', `the last line of ${resolved} ${why}, so the chain cannot go on from it`);
        }
        head = { seq: last.seq, hash: last.hash };
      }
      return new FileAuditLog(resolved, lock, fd, size, head, { head: head && { ...head }, truncatedBytes }, options.now ?? Date.now);
    } catch (e) {
      if (fd !== undefined) fs.closeSync(fd);
      fs.rmSync(lock, { force: true });
      if (e instanceof ToolResultError) throw e;
      throw storageError(`cannot open ${resolved}`, e);
    }
  }

  /**
   * The entries of the log at `file` without opening it for writing (no
   * lock): for an auditor beside the writing process. Reads complete lines
   * only; a bad line is `corrupt_audit_log` when the iteration reaches it.
   */
  static readEntries(file: string, options?: { fromSeq?: number }): AsyncIterable<AuditEntry> {
    return readLines(path.resolve(file), checkFromSeq(options));
  }

  #check(): void {
    if (this.#closed) throw new ToolResultError('store_closed', `the audit log ${this.file} was closed`);
    if (this.#broken) throw new ToolResultError('storage_error', `the audit log ${this.file} cannot be appended to until it is opened again: ${this.#broken}`);
  }

  appendSync(record: AuditRecord): AuditEntry {
    this.#check();
    const entry = chainAuditEntry(this.#head, checkAuditRecord(record), this.#now());
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`);
    try {
      for (let done = 0; done < bytes.length; ) done += fs.writeSync(this.#fd, bytes, done, bytes.length - done);
      fs.fdatasyncSync(this.#fd);
    } catch (e) {
      // Take a partial line back out: the next entry must start on a line of its own.
      try {
        fs.ftruncateSync(this.#fd, this.#size);
        fs.fsyncSync(this.#fd);
      } catch (again) {
        this.#broken = `a failed write could not be undone (${(again as Error).message})`;
      }
      throw storageError(`cannot append to ${this.file}`, e);
    }
    this.#size += bytes.length;
    this.#head = { seq: entry.seq, hash: entry.hash };
    return { ...entry };
  }

  async append(record: AuditRecord): Promise<AuditEntry> {
    return this.appendSync(record);
  }

  /** The entries on disk, read again from the file (so a change made to it since shows). */
  entries(options?: { fromSeq?: number }): AsyncIterable<AuditEntry> {
    return readLines(this.file, checkFromSeq(options));
  }

  async head(): Promise<{ seq: number; hash: string } | null> {
    return this.#head && { ...this.#head };
  }

  checkpoint(privateKey: CryptoKey): Promise<AuditCheckpoint> {
    return signAuditCheckpoint(this.#head && { ...this.#head }, privateKey);
  }

  /** Closes the file and lets the lock go; later appends throw `store_closed`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    fs.closeSync(this.#fd);
    this.#fd = -1;
    fs.rmSync(this.#lock, { force: true });
  }
}

/** Whether the process `pid` on this host is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<file>.lock` (created exclusively, holding our pid and host). A lock
 * left by a process of this host that is gone (killed) is taken over; one of
 * a live process, or of another host, is refused. Two processes taking over
 * the same stale lock at the same instant is not guarded against.
 */
function takeLock(lock: string, file: string): void {
  const me = JSON.stringify({ pid: process.pid, host: hostname() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      createFlushed(lock, me);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw storageError(`cannot create ${lock}`, e);
    }
    let holder: { pid?: unknown; host?: unknown } = {};
    try {
      holder = JSON.parse(fs.readFileSync(lock, 'utf8')) as typeof holder;
    } catch {
      // Empty or torn: its writer died between creating and writing it.
    }
    const pid = typeof holder.pid === 'number' ? holder.pid : undefined;
    const here = holder.host === undefined || holder.host === hostname();
    if (pid !== undefined && (!here || pid === process.pid || alive(pid))) {
      const who = pid === process.pid ? 'this process (close the other FileAuditLog first)' : `process ${pid}${here ? '' : ` on ${quoteText(holder.host)}`}`;
      throw new ToolResultError(
        'audit_log_locked',
        `the audit log ${file} is open in ${who}: one process appends to a file at a time (remove ${lock} if that process is gone)`,
      );
    }
    fs.rmSync(lock, { force: true });
  }
  throw new ToolResultError('audit_log_locked', `could not take ${lock}: another process took it meanwhile`);
}
