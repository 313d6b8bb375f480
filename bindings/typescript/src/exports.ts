// The main entry's export list, shared by the Node entry (index.ts), the
// browser entry (web.ts) and the Worker entry (workerd.ts); the entries only
// install the wasm modules and add their own loaders (docs: CONTRIBUTING "Add
// an export"). What fewer users need is in the subpaths of src/entries/.
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
// Normalizing stays here; conversions to and from other frameworks' shapes are
// `toolresult/convert`, rendering `toolresult/render`, the screen and the result
// document `toolresult/screen`, the audit log `toolresult/audit` (src/entries/).
export { type MigrationContext, type NormalizeResult, migrateTaskResult, normalizeAgentResult } from './convert.js';
export type { ScreenEventDetail, StoreScreenMetrics, StoreScreenMode } from './screen.js';
export type { AuditAction, AuditEntry, AuditLog, AuditRecord, SyncAuditLog } from './audit/log.js';
export type { EncryptionOptions, Listing, SkippedCode, SkippedRecord } from './stores/encryption.js';
export { ToolResultError, formatIssues } from './errors.js';
export type { Outcome, ToolResultErrorCode } from './errors.js';
export type * from './generated/types.js';
