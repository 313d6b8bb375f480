// The one export list of the package's API, shared by the Node entry
// (index.ts) and the browser entry (web.ts); the entries only install the
// wasm modules and add their own loaders (docs: CONTRIBUTING "Add an export").
export * from './api.js';
export * from './schemas.js';
export * from './bound.js';
export * from './budget.js';
export * from './schema.js';
export * from './stores/memory.js';
export * from './service.js';
export * from './reference.js';
export * from './paging.js';
export * from './history/prepare.js';
export { detectHistoryFormat, type HistoryFormat } from './history/formats.js';
export { SPOTLIGHT_INSTRUCTIONS, type SpotlightMode, type Spotlighted, spotlight } from './history/spotlight.js';
export { registerSummarizer } from './summary.js';
export * from './convert.js';
export * from './render.js';
export * from './dom.js';
export * from './screen.js';
export * from './document.js';
export { MemoryAuditLog, type MemoryAuditLogOptions } from './audit/memory.js';
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
} from './audit/log.js';
export type { EncryptionOptions, Listing, SkippedCode, SkippedRecord } from './stores/encryption.js';
export { ToolResultError, formatIssues } from './errors.js';
export type { Outcome, ToolResultErrorCode } from './errors.js';
export type * from './generated/types.js';
