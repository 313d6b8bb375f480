// The audit log in memory: for tests, for the browser, and for a process
// that ships its entries elsewhere (they are lost with the process).
import { ToolResultError, quoteText, refuseUnknownOptions } from '../errors.js';
import { type AuditCheckpoint, type AuditEntry, type AuditRecord, type SyncAuditLog, chainAuditEntry, checkAuditRecord, signAuditCheckpoint } from './log.js';

/** Options of `new MemoryAuditLog()`. */
export interface MemoryAuditLogOptions {
  /** The clock for each entry's `at` (ms since the epoch); default `Date.now`. */
  now?: () => number;
}

/** Checks `fromSeq` of `entries()`: a whole number >= 1, or absent. */
export function checkFromSeq(options: { fromSeq?: number } | undefined): number {
  const fromSeq = options?.fromSeq ?? 1;
  if (typeof fromSeq !== 'number' || !Number.isSafeInteger(fromSeq) || fromSeq < 1) {
    const message = `fromSeq must be a whole number >= 1, got ${quoteText(fromSeq)}`;
    throw new ToolResultError('invalid_options', message, [{ path: '/fromSeq', code: 'invalid_options', message }]);
  }
  return fromSeq;
}

/**
 * A hash-chained audit log in memory (docs/guide/storage.md, "Audit trail").
 * Appends are synchronous, so it also serves the synchronous stores. Entries
 * handed out are copies: changing one changes nothing in the log.
 */
export class MemoryAuditLog implements SyncAuditLog {
  readonly #entries: AuditEntry[] = [];
  readonly #now: () => number;

  constructor(options: MemoryAuditLogOptions = {}) {
    refuseUnknownOptions(options, ['now'], 'new MemoryAuditLog');
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw new ToolResultError('invalid_options', 'now must be a function returning ms since the epoch', [
        { path: '/now', code: 'invalid_options', message: 'now must be a function' },
      ]);
    }
    this.#now = options.now ?? Date.now;
  }

  appendSync(record: AuditRecord): AuditEntry {
    const entry = chainAuditEntry(this.#head(), checkAuditRecord(record), this.#now());
    this.#entries.push(entry);
    return { ...entry };
  }

  async append(record: AuditRecord): Promise<AuditEntry> {
    return this.appendSync(record);
  }

  entries(options?: { fromSeq?: number }): AsyncIterable<AuditEntry> {
    // Checked now, not at the first `next()`.
    const fromSeq = checkFromSeq(options);
    const entries = this.#entries;
    return (async function* () {
      for (let i = fromSeq - 1; i < entries.length; i++) yield { ...entries[i] };
    })();
  }

  #head(): { seq: number; hash: string } | null {
    const last = this.#entries[this.#entries.length - 1];
    return last ? { seq: last.seq, hash: last.hash } : null;
  }

  async head(): Promise<{ seq: number; hash: string } | null> {
    return this.#head();
  }

  checkpoint(privateKey: CryptoKey): Promise<AuditCheckpoint> {
    return signAuditCheckpoint(this.#head(), privateKey);
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.length;
  }
}
