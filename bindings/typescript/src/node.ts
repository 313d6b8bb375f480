// `toolresult/node`: everything in the main entry plus the file store and the result inbox.
export * from './index.js';
export { FileResultStore } from './stores/file.js';
export type { FileMeta, FileStoreOpenReport, SealedFileMeta } from './stores/file.js';
export { ResultInbox } from './inbox.js';
export type { InboxOpenReport, InboxReasons, InboxReceipt } from './inbox.js';
export { FileAuditLog } from './audit/file.js';
export type { FileAuditLogOpenReport, FileAuditLogOptions } from './audit/file.js';
