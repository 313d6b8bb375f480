// `toolresult/node`: everything in the main entry plus the file store.
export * from './index.js';
export { FileResultStore } from './node-store.js';
export type { FileMeta, FileStoreOpenReport } from './node-store.js';
