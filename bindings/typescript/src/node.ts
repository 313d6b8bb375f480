// `toolresult/node`: everything in the main entry plus the file store and the result inbox.
export * from './index.js';
export { FileResultStore } from './node-store.js';
export type { FileMeta, FileStoreOpenReport } from './node-store.js';
export { ResultInbox } from './inbox.js';
export type { InboxOpenReport, InboxReasons, InboxReceipt } from './inbox.js';
