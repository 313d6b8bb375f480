// `require('toolresult/web')` in Node: the browser entry's API over the Node
// build. The browser build is ESM (it finds its wasm with import.meta.url);
// CommonJS code in Node gets this instead, so the same names work there:
// `init()` resolves at once (the Node build instantiates its wasm itself),
// and `openIndexedDbStore` takes an IndexedDB implementation in
// `options.indexedDB` (e.g. fake-indexeddb), Node having none of its own.
import { IndexedDbResultStore, type IndexedDbStoreOptions } from './stores/indexeddb.js';

export * from './index.js';

/** Present for parity with the browser entry: the Node build is ready once required. */
export function init(_moduleOrPath?: unknown): Promise<void> {
  return Promise.resolve();
}

/** Opens (creating if needed) the IndexedDB database `name` as a result store (see the browser entry). */
export async function openIndexedDbStore(name: string, options?: IndexedDbStoreOptions): Promise<IndexedDbResultStore> {
  return IndexedDbResultStore.open(name, options);
}

export { IndexedDbResultStore } from './stores/indexeddb.js';
export type { IndexedDbOpenReport, IndexedDbStoreOptions } from './stores/indexeddb.js';
