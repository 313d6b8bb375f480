// The tamper-evident audit trail (docs/guide/storage.md, "Audit trail"):
// append-only entries, each holding the hash of the one before, so changing,
// removing, inserting or reordering an entry breaks the chain; signed
// checkpoints pin the head so a cut tail or a rebuilt chain is caught too.
// This module has the types, the canonical form, the hashing, the Ed25519
// checkpoints and `verifyAuditLog`; the logs are in memory.ts, file.ts
// (Node) and ../stores/postgres-audit.ts.
import { sha256Hex } from '../bound.js';
import { ToolResultError, quoteText } from '../errors.js';
import type { IssueCode } from '../generated/types.js';
import { isWellFormed } from '../wire.js';

/** What happened to a tool result. */
export type AuditAction = 'stored' | 'read' | 'listed' | 'evicted' | 'validation_failed' | 'rejected' | 'quarantined';

/** What a caller appends: the log adds `seq`, `at`, `prev` and `hash`. */
export interface AuditRecord {
  action: AuditAction;
  execution_id?: string;
  tool_call_id?: string;
  dialog_id?: string;
  /** Who did it (for reads, what the HTTP handler's `authorize` returned). */
  actor?: string;
  /** Lowercase hex sha256 the store vouches for the result with, when it has one. */
  sha256?: string;
}

/** One entry of the log, as stored. */
export interface AuditEntry extends AuditRecord {
  /** 1 for the first entry, then +1 per entry, without gaps. */
  seq: number;
  /** RFC 3339 time the entry was appended. */
  at: string;
  /** `hash` of the previous entry; 64 zeros for the first. */
  prev: string;
  /** Lowercase hex sha256 of the entry's canonical form (see `canonicalAuditEntry`). */
  hash: string;
}

/** A signed statement that the log had `hash` at `seq`. */
export interface AuditCheckpoint {
  seq: number;
  hash: string;
  /** Base64 Ed25519 signature over the canonical JSON `{"hash":…,"seq":…}` in UTF-8. */
  signature: string;
}

/** An append-only, hash-chained audit log. */
export interface AuditLog {
  /** Appends one entry; resolves only when the entry is durable. */
  append(record: AuditRecord): Promise<AuditEntry>;
  /** Entries in seq order, from `fromSeq` (default 1). */
  entries(options?: { fromSeq?: number }): AsyncIterable<AuditEntry>;
  /** The last entry's seq and hash, or null when the log is empty. */
  head(): Promise<{ seq: number; hash: string } | null>;
  /** Signs the current head `{ seq, hash }` with an Ed25519 private key. */
  checkpoint(privateKey: CryptoKey): Promise<AuditCheckpoint>;
}

/**
 * A log that can also append without waiting (`MemoryAuditLog`,
 * `FileAuditLog`): the synchronous stores (`ResultStore`, `FileResultStore`)
 * need one, so that an entry is durable when their `put` returns.
 */
export interface SyncAuditLog extends AuditLog {
  /** Appends one entry and returns it once it is durable. */
  appendSync(record: AuditRecord): AuditEntry;
}

/** What `verifyAuditLog` found. */
export type AuditVerification =
  | {
      ok: true;
      /** Entries checked. */
      count: number;
      /** The last entry's seq and hash (null for an empty log). */
      head: { seq: number; hash: string } | null;
    }
  | {
      ok: false;
      /** The seq where the log stops being what the chain (or the checkpoint) vouches for. */
      at: number;
      /** What is wrong there. */
      reason: string;
    };

/** Options of `verifyAuditLog`. */
export interface VerifyAuditLogOptions {
  /** A checkpoint kept elsewhere: the log must reach its seq with its hash. Needs `publicKey`. */
  checkpoint?: AuditCheckpoint;
  /** The Ed25519 public key the checkpoint was signed with: a CryptoKey, or its 32 raw bytes. */
  publicKey?: CryptoKey | Uint8Array;
}

/** The actions an entry may record. */
export const AUDIT_ACTIONS: readonly AuditAction[] = ['stored', 'read', 'listed', 'evicted', 'validation_failed', 'rejected', 'quarantined'];

/** `prev` of the first entry. */
export const AUDIT_GENESIS: string = '0'.repeat(64);

const RECORD_FIELDS = ['action', 'execution_id', 'tool_call_id', 'dialog_id', 'actor', 'sha256'] as const;
const OPTIONAL_TEXT = ['execution_id', 'tool_call_id', 'dialog_id', 'actor'] as const;
const ENTRY_FIELDS = new Set<string>([...RECORD_FIELDS, 'seq', 'at', 'prev', 'hash']);
const HEX64 = /^[0-9a-f]{64}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
/** Longest text field, in UTF-16 code units: an entry stays one short line. */
export const AUDIT_TEXT_MAX = 4096;

function badRecord(path: string, code: IssueCode, message: string): ToolResultError {
  return new ToolResultError('invalid_audit_record', `invalid audit record: ${message}`, [{ path, code, message }]);
}

/** Why `value` cannot be a text field of an entry (with the issue code), or undefined when it can. */
function textProblem(value: unknown): [IssueCode, string] | undefined {
  if (typeof value !== 'string') return ['invalid_type', `must be a string, got ${quoteText(value)}`];
  if (value === '') return ['empty_string', 'must not be empty (leave it out instead)'];
  if (value.length > AUDIT_TEXT_MAX) return ['too_large', `must be at most ${AUDIT_TEXT_MAX} characters, got ${value.length}`];
  // PostgreSQL text refuses U+0000, and a lone surrogate has no UTF-8 form:
  // either would come back different from what was hashed.
  if (value.includes('\u0000')) return ['unsupported_value', 'must not contain U+0000'];
  if (!isWellFormed(value)) return ['lone_surrogate', 'must not contain a lone UTF-16 surrogate'];
  return undefined;
}

/**
 * Checks a record before it is appended and returns a clean copy (only the
 * record's fields; absent ones left out). Throws `invalid_audit_record`
 * naming the field: an unknown field (a misspelt `executionId`) would
 * otherwise be lost without a word.
 */
export function checkAuditRecord(record: AuditRecord): AuditRecord {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) throw badRecord('', 'invalid_type', 'an audit record is an object');
  for (const key of Object.keys(record)) {
    if (!(RECORD_FIELDS as readonly string[]).includes(key)) {
      throw badRecord(`/${key}`, 'unknown_field', `unknown field ${quoteText(key, '`')}: a record has ${RECORD_FIELDS.join(', ')}`);
    }
  }
  if (!AUDIT_ACTIONS.includes(record.action)) {
    throw badRecord('/action', 'invalid_enum', `action must be one of ${AUDIT_ACTIONS.join(', ')}, got ${quoteText(record.action)}`);
  }
  const out: AuditRecord = { action: record.action };
  for (const key of OPTIONAL_TEXT) {
    const value = record[key];
    if (value === undefined) continue;
    const problem = textProblem(value);
    if (problem) throw badRecord(`/${key}`, problem[0], `${key} ${problem[1]}`);
    out[key] = value;
  }
  if (record.sha256 !== undefined) {
    if (typeof record.sha256 !== 'string' || !HEX64.test(record.sha256)) {
      throw badRecord('/sha256', 'invalid_sha256', `sha256 must be 64 lowercase hex digits, got ${quoteText(record.sha256)}`);
    }
    out.sha256 = record.sha256;
  }
  return out;
}

/**
 * The text an entry's hash is taken over: the entry without `hash`, as JSON
 * with its keys sorted by UTF-16 code units, no whitespace, strings and
 * numbers as `JSON.stringify` writes them, absent fields left out (never
 * `null`); hashed as UTF-8. Entries hold only strings and whole numbers, so
 * this is also the entry's RFC 8785 (JCS) form.
 */
export function canonicalAuditEntry(entry: Omit<AuditEntry, 'hash'> & { hash?: string }): string {
  const obj = entry as unknown as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => k !== 'hash' && obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k])}`).join(',')}}`;
}

/** Lowercase hex sha256 of the entry's canonical form. */
export function auditEntryHash(entry: Omit<AuditEntry, 'hash'> & { hash?: string }): string {
  return sha256Hex(canonicalAuditEntry(entry));
}

/**
 * The next entry after `head`: seq + 1, `prev` = head's hash (64 zeros after
 * none), `at` from `nowMs`, and its hash. `record` must be checked already.
 */
export function chainAuditEntry(head: { seq: number; hash: string } | null, record: AuditRecord, nowMs: number): AuditEntry {
  // The entry's own key order is for people reading a file; the hash does not depend on it.
  const entry = { seq: (head?.seq ?? 0) + 1, at: new Date(nowMs).toISOString(), ...record, prev: head?.hash ?? AUDIT_GENESIS } as AuditEntry;
  entry.hash = auditEntryHash(entry);
  return entry;
}

/** Why `value` is not a well-formed entry, or undefined when it is (the chain is checked elsewhere). */
export function auditEntryProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'is not an object';
  const e = value as Record<string, unknown>;
  for (const key of Object.keys(e)) if (!ENTRY_FIELDS.has(key)) return `has an unknown field ${quoteText(key, '`')}`;
  if (typeof e.seq !== 'number') return `has a seq that is a ${e.seq === null ? 'null' : typeof e.seq}, not a number`;
  if (!Number.isSafeInteger(e.seq) || e.seq < 1) return `has seq ${e.seq}, not a whole number >= 1`;
  if (typeof e.at !== 'string' || !RFC3339.test(e.at)) return `has at ${quoteText(e.at)}, not an RFC 3339 time`;
  if (!AUDIT_ACTIONS.includes(e.action as AuditAction)) return `has action ${quoteText(e.action)}, not one of ${AUDIT_ACTIONS.join(', ')}`;
  for (const key of ['prev', 'hash'] as const) {
    if (typeof e[key] !== 'string' || !HEX64.test(e[key] as string)) return `has ${key} ${quoteText(e[key])}, not 64 lowercase hex digits`;
  }
  for (const key of OPTIONAL_TEXT) {
    if (e[key] === undefined) continue;
    const problem = textProblem(e[key]);
    if (problem) return `has ${key} that ${problem[1]}`;
  }
  if (e.sha256 !== undefined && (typeof e.sha256 !== 'string' || !HEX64.test(e.sha256)))
    return `has sha256 ${quoteText(e.sha256)}, not 64 lowercase hex digits`;
  return undefined;
}

// ---------------------------------------------------------------------------
// Checkpoints: Ed25519 through WebCrypto, one code path for every runtime.

function invalidOption(path: string, message: string): ToolResultError {
  return new ToolResultError('invalid_options', message, [{ path, code: 'invalid_options', message }]);
}

/** The bytes a checkpoint's signature covers: the canonical JSON `{"hash":…,"seq":…}` in UTF-8. */
function checkpointBytes(seq: number, hash: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`{"hash":${JSON.stringify(hash)},"seq":${seq}}`) as Uint8Array<ArrayBuffer>;
}

function isKey(key: unknown, type: 'private' | 'public'): key is CryptoKey {
  const k = key as CryptoKey | null;
  return k !== null && typeof k === 'object' && k.type === type && (k.algorithm as { name?: string } | undefined)?.name === 'Ed25519';
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  try {
    return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * Signs `head` with an Ed25519 private key (every log's `checkpoint`).
 * Throws `not_found` for an empty log (there is nothing to vouch for) and
 * `invalid_options` for a key that is not an Ed25519 signing key.
 */
export async function signAuditCheckpoint(head: { seq: number; hash: string } | null, privateKey: CryptoKey): Promise<AuditCheckpoint> {
  if (!isKey(privateKey, 'private'))
    throw invalidOption('/privateKey', 'checkpoint takes an Ed25519 private CryptoKey (crypto.subtle.generateKey or importKey)');
  if (!head) throw new ToolResultError('not_found', 'the audit log is empty: there is no entry for a checkpoint to vouch for');
  let signature: ArrayBuffer;
  try {
    signature = await globalThis.crypto.subtle.sign('Ed25519', privateKey, checkpointBytes(head.seq, head.hash));
  } catch (e) {
    throw invalidOption('/privateKey', `the key cannot sign (it needs the "sign" usage): ${(e as Error).message}`);
  }
  return { seq: head.seq, hash: head.hash, signature: toBase64(new Uint8Array(signature)) };
}

async function publicKeyOf(key: CryptoKey | Uint8Array): Promise<CryptoKey> {
  if (key instanceof Uint8Array) {
    if (key.length !== 32) throw invalidOption('/publicKey', `an Ed25519 public key is 32 bytes, got ${key.length}`);
    return globalThis.crypto.subtle.importKey('raw', new Uint8Array(key), 'Ed25519', false, ['verify']);
  }
  if (!isKey(key, 'public')) throw invalidOption('/publicKey', 'publicKey is an Ed25519 public CryptoKey or its 32 raw bytes');
  return key;
}

/** Whether `checkpoint` carries a valid signature by `publicKey` over its seq and hash. */
async function signedBy(checkpoint: AuditCheckpoint, publicKey: CryptoKey): Promise<boolean> {
  const signature = fromBase64(checkpoint.signature);
  if (signature?.length !== 64) return false;
  try {
    return await globalThis.crypto.subtle.verify('Ed25519', publicKey, signature, checkpointBytes(checkpoint.seq, checkpoint.hash));
  } catch (e) {
    throw invalidOption('/publicKey', `the key cannot verify (it needs the "verify" usage): ${(e as Error).message}`);
  }
}

function checkCheckpoint(c: unknown): AuditCheckpoint {
  if (c === null || typeof c !== 'object') throw invalidOption('/checkpoint', 'checkpoint is what log.checkpoint() returned: { seq, hash, signature }');
  const { seq, hash, signature } = c as Record<string, unknown>;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1)
    throw invalidOption('/checkpoint/seq', `checkpoint.seq must be a whole number >= 1, got ${quoteText(seq)}`);
  if (typeof hash !== 'string' || !HEX64.test(hash))
    throw invalidOption('/checkpoint/hash', `checkpoint.hash must be 64 lowercase hex digits, got ${quoteText(hash)}`);
  if (typeof signature !== 'string') throw invalidOption('/checkpoint/signature', 'checkpoint.signature must be a base64 string');
  return { seq, hash, signature };
}

// ---------------------------------------------------------------------------
// Verification

function isAuditLog(source: unknown): source is AuditLog {
  const s = source as AuditLog;
  return s !== null && typeof s === 'object' && typeof s.entries === 'function' && typeof s.head === 'function';
}

/**
 * Walks a log (or an exported array / iterable of entries) and checks every
 * link: seqs 1, 2, 3… without gaps, each `prev` the hash of the entry before
 * (64 zeros for the first), each `hash` the sha256 of the entry's canonical
 * form. So a changed, deleted, inserted or reordered entry is found, at the
 * seq where the chain breaks. With `checkpoint` (and the `publicKey` it was
 * signed with) the log must also reach the checkpoint's seq with its hash: a
 * cut tail, or a chain rebuilt from an earlier point, is found too; a
 * checkpoint that key did not sign is refused. Given a log object, its
 * `head()` must match its entries too (taken before reading them, so
 * appends meanwhile do no harm).
 */
export async function verifyAuditLog(
  source: AuditLog | Iterable<AuditEntry> | AsyncIterable<AuditEntry>,
  options: VerifyAuditLogOptions = {},
): Promise<AuditVerification> {
  if (options === null || typeof options !== 'object') throw invalidOption('', 'options must be an object');
  for (const key of Object.keys(options)) {
    if (key !== 'checkpoint' && key !== 'publicKey')
      throw invalidOption(`/${key}`, `unknown option ${quoteText(key, '`')}: verifyAuditLog takes checkpoint and publicKey`);
  }
  const iterable =
    isAuditLog(source) || (source !== null && typeof source === 'object' && (Symbol.iterator in source || Symbol.asyncIterator in (source as object)));
  if (!iterable) throw invalidOption('', 'verifyAuditLog takes an audit log, or an array or (async) iterable of its entries');

  let checkpoint: AuditCheckpoint | undefined;
  if (options.checkpoint !== undefined) {
    checkpoint = checkCheckpoint(options.checkpoint);
    if (options.publicKey === undefined) throw invalidOption('/publicKey', 'a checkpoint is only worth its signature: give the publicKey it was signed with');
    const key = await publicKeyOf(options.publicKey);
    if (!(await signedBy(checkpoint, key))) {
      return { ok: false, at: checkpoint.seq, reason: 'the checkpoint is not signed by this key: its signature does not match its seq and hash' };
    }
  } else if (options.publicKey !== undefined) {
    throw invalidOption('/checkpoint', 'publicKey verifies a checkpoint: give the checkpoint too');
  }

  let claimed: { seq: number; hash: string } | null = null;
  let entries: Iterable<AuditEntry> | AsyncIterable<AuditEntry>;
  if (isAuditLog(source)) {
    claimed = await source.head();
    entries = source.entries();
  } else {
    entries = source as Iterable<AuditEntry> | AsyncIterable<AuditEntry>;
  }

  let count = 0;
  let prev = AUDIT_GENESIS;
  try {
    for await (const entry of entries) {
      const n = count + 1;
      const problem = auditEntryProblem(entry);
      if (problem) return { ok: false, at: n, reason: `the entry at position ${n} ${problem}` };
      if (entry.hash !== auditEntryHash(entry)) {
        return { ok: false, at: n, reason: `entry ${entry.seq} was changed: its hash does not match its content` };
      }
      if (entry.seq !== n) {
        return { ok: false, at: n, reason: `expected seq ${n}, found seq ${entry.seq}: an entry was deleted, inserted or moved` };
      }
      if (entry.prev !== prev) {
        return {
          ok: false,
          at: n,
          reason:
            n === 1
              ? 'the first entry does not start the chain (its prev is not 64 zeros): entries before it were removed'
              : `entry ${n} does not follow entry ${n - 1} (its prev is not that entry's hash): an entry was deleted, inserted, moved or rewritten`,
        };
      }
      if (checkpoint && n === checkpoint.seq && entry.hash !== checkpoint.hash) {
        return { ok: false, at: n, reason: `entry ${n} is not the one the checkpoint vouches for (another hash): the log was rewritten from here or before` };
      }
      if (claimed && n === claimed.seq && entry.hash !== claimed.hash) {
        return { ok: false, at: n, reason: `entry ${n} is not the log's head (another hash): the log was rewritten from here or before` };
      }
      prev = entry.hash;
      count = n;
    }
  } catch (e) {
    // A log that cannot even be read (a corrupt line in a file) breaks the chain there.
    if (e instanceof ToolResultError && e.code === 'corrupt_audit_log') return { ok: false, at: count + 1, reason: e.message };
    throw e;
  }
  if (checkpoint && count < checkpoint.seq) {
    return { ok: false, at: count + 1, reason: `the log ends at seq ${count}, but the checkpoint vouches for seq ${checkpoint.seq}: entries were cut` };
  }
  if (claimed && count < claimed.seq) {
    return { ok: false, at: count + 1, reason: `the log's entries end at seq ${count}, but its head is seq ${claimed.seq}: entries were cut` };
  }
  return { ok: true, count, head: count ? { seq: count, hash: prev } : null };
}
