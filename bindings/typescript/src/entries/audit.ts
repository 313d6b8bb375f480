// `toolresult/audit`: the audit trail's in-memory log, its canonical form and
// verification. The file log is in `toolresult/node`, the PostgreSQL one in
// `toolresult/postgres`. docs/guide/storage.md.
export { MemoryAuditLog, type MemoryAuditLogOptions } from '../audit/memory.js';
export {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditCheckpoint,
  type AuditEntry,
  type AuditLog,
  type AuditRecord,
  type AuditVerification,
  type SyncAuditLog,
  type VerifyAuditLogOptions,
  canonicalAuditEntry,
  verifyAuditLog,
} from '../audit/log.js';
