// What the stores and the HTTP handler append to an audit log: the records
// for a stored, evicted, read or listed result, the `audit` option's check,
// and the error for a write that succeeded while its audit entry did not.
import { ToolResultError } from '../errors.js';
import type { Eviction } from '../generated/types.js';
import { type AuditLog, type AuditRecord, type SyncAuditLog, checkAuditRecord } from './log.js';

/**
 * The `audit` option of a store or handler: undefined, or a log. A
 * synchronous store (`ResultStore`, `FileResultStore`) needs a log that
 * appends synchronously (`appendSync`: `MemoryAuditLog`, `FileAuditLog`), so
 * that the entry is durable when its `put` returns.
 */
export function auditOption(audit: unknown, who: string, sync: true): SyncAuditLog | undefined;
export function auditOption(audit: unknown, who: string, sync: false): AuditLog | undefined;
export function auditOption(audit: unknown, who: string, sync: boolean): AuditLog | undefined {
  if (audit === undefined) return undefined;
  const log = audit as Partial<SyncAuditLog> | null;
  if (log === null || typeof log !== 'object' || typeof log.append !== 'function') {
    const message = `${who}: audit is an audit log (MemoryAuditLog, FileAuditLog, PostgresAuditLog, or anything with append)`;
    throw new ToolResultError('invalid_options', message, [{ path: '/audit', code: 'invalid_options', message }]);
  }
  if (sync && typeof log.appendSync !== 'function') {
    const message = `${who} stores synchronously, so its audit log must append synchronously (MemoryAuditLog or FileAuditLog); an asynchronous log goes with an asynchronous store (PostgresResultStore, the IndexedDB store)`;
    throw new ToolResultError('invalid_options', message, [{ path: '/audit', code: 'invalid_options', message }]);
  }
  return log as AuditLog;
}

/** A record with the ids present (an empty or absent one is left out). */
function withIds(
  action: AuditRecord['action'],
  ids: { execution_id?: string; tool_call_id?: string; dialog_id?: string | null },
  extra: { actor?: string; sha256?: string } = {},
): AuditRecord {
  const record: AuditRecord = { action };
  if (ids.execution_id) record.execution_id = ids.execution_id;
  if (ids.tool_call_id) record.tool_call_id = ids.tool_call_id;
  if (ids.dialog_id) record.dialog_id = ids.dialog_id;
  if (extra.actor !== undefined) record.actor = extra.actor;
  if (extra.sha256 !== undefined) record.sha256 = extra.sha256;
  return record;
}

/**
 * The `stored` record of a result, checked (`invalid_audit_record`): a store
 * builds it before it writes, so an id the log cannot hold refuses the put
 * instead of leaving a result stored without its entry.
 */
export function storedRecord(ids: { execution_id: string; tool_call_id?: string; dialog_id?: string | null }, sha256?: string): AuditRecord {
  return checkAuditRecord(withIds('stored', ids, { sha256 }));
}

/** The `evicted` record of an eviction (retention removed the result). */
export function evictedRecord(e: Eviction): AuditRecord {
  return withIds('evicted', e);
}

/**
 * The `quarantined` record of a file or record a store moved aside when it
 * opened (it did not validate, or was foreign). Its ids are what its place
 * says (a file's folder and name, a record's fields), kept only when a log
 * can hold them: the entry says that something was moved, in any case.
 */
export function quarantinedRecord(ids: { execution_id?: string; tool_call_id?: string; dialog_id?: string | null }): AuditRecord {
  try {
    return checkAuditRecord(withIds('quarantined', ids));
  } catch {
    return { action: 'quarantined' };
  }
}

/** The `read` or `listed` record of an HTTP answer. */
export function accessRecord(
  action: 'read' | 'listed',
  ids: { execution_id?: string; tool_call_id?: string; dialog_id: string },
  actor: string | undefined,
  sha256?: string,
): AuditRecord {
  return withIds(action, ids, { actor, sha256 });
}

/**
 * `audit_failed`: what was done is done (a result stored, evictions applied),
 * but its audit entry could not be appended. `cause` is the log's error.
 */
export function auditFailed(done: string, cause: unknown): ToolResultError {
  const message = `${done}, but its audit entry could not be appended: ${(cause as Error)?.message ?? String(cause)}`;
  const error = new ToolResultError('audit_failed', message);
  (error as { cause?: unknown }).cause = cause;
  return error;
}
