// Browser entry point (ESM). Call `await init()` once before anything else,
// `await loadAgentModule()` before storing, referencing, budgeting or
// converting results, `await loadSchemaEngine()` before compiling JSON Schemas
// and `await loadScreen()` before screening (docs/internals/modules.md).
import initWasm, * as bindings from './wasm/web/toolresult_wasm.js';
import type { InitInput } from './wasm/web/toolresult_wasm.js';
import { IndexedDbResultStore, type IndexedDbStoreOptions } from './stores/indexeddb.js';
import { agentModule, installWasm, schemaEngine, screenModule, type WasmModule } from './runtime.js';

let ready: Promise<void> | undefined;

type Source = InitInput | Promise<InitInput>;
type Glue = { default(options?: { module_or_path: Source }): Promise<unknown> };

/**
 * A loader of a module that is fetched on demand: its glue is a dynamic
 * import (bundlers split it off), instantiated once; a failed load can be
 * retried.
 */
function onDemand<W>(target: WasmModule<W>, glue: () => Promise<W & Glue>): (module_or_path?: Source) => Promise<void> {
  let loading: Promise<void> | undefined;
  return (module_or_path) => {
    loading ??= glue()
      .then(async (m) => {
        await m.default(module_or_path === undefined ? undefined : { module_or_path });
        target.install(m);
      })
      .catch((e: unknown) => {
        loading = undefined;
        throw e;
      });
    return loading;
  };
}

const agentLoader = onDemand(agentModule, () => import('./wasm/web/toolresult_agent_wasm.js'));
const schemaLoader = onDemand(schemaEngine, () => import('./wasm/web/toolresult_schema_wasm.js'));
const screenLoader = onDemand(screenModule, () => import('./wasm/web/toolresult_screen_wasm.js'));

/**
 * Loads and instantiates the wasm module. By default it is fetched from next to
 * this file; pass a URL, Response, bytes or a compiled `WebAssembly.Module` to
 * load it from elsewhere. Safe to call more than once; a failed load can be
 * retried (as `loadSchemaEngine()`'s).
 */
export function init(module_or_path?: InitInput | Promise<InitInput>): Promise<void> {
  ready ??= initWasm(module_or_path === undefined ? undefined : { module_or_path })
    .then(() => installWasm(bindings))
    .catch((e: unknown) => {
      ready = undefined;
      throw e;
    });
  return ready;
}

/**
 * Loads the agent module, a separate wasm module (fetched from next to this
 * file unless given a URL, Response, bytes or module) that holds the result
 * store (`ResultStore`, the IndexedDB store's index), references and
 * `get_tool_result` pages, context budgets (`boundForModel`,
 * `prepareHistory`), `normalizeAgentResult`, the conversions of
 * `toolresult/convert` and `diffHunks`. Validation, builders, bounding and
 * rendering work after `init()` alone. Safe to call more than once; a failed
 * load can be retried.
 */
export function loadAgentModule(module_or_path?: InitInput | Promise<InitInput>): Promise<void> {
  return agentLoader(module_or_path);
}

/**
 * Loads the JSON Schema engine, a separate wasm module (fetched from next to
 * this file unless given a URL, Response, bytes or module) that holds
 * `compileSchema` and `ToolRegistry`. Safe to call more than once; a failed
 * load can be retried.
 */
export function loadSchemaEngine(module_or_path?: InitInput | Promise<InitInput>): Promise<void> {
  return schemaLoader(module_or_path);
}

/**
 * Loads the screen module, a separate wasm module (fetched from next to this
 * file unless given a URL, Response, bytes or module) that holds the safety
 * screen (`screen`, `redactSecrets`) and the result document
 * (`renderResultDocument`, `parseResultDocument`, `checkResultDocument`).
 * Safe to call more than once; a failed load can be retried.
 */
export function loadScreen(module_or_path?: InitInput | Promise<InitInput>): Promise<void> {
  return screenLoader(module_or_path);
}

/** Whether the JSON Schema engine module has been loaded (diagnostics). */
export function schemaEngineLoaded(): boolean {
  return schemaEngine.loaded;
}

/**
 * Opens (creating if needed) the IndexedDB database `name` as a result store
 * and reloads every result in it (see `IndexedDbResultStore`). Awaits
 * `init()` and `loadAgentModule()` first: the store's index lives in the
 * agent module.
 */
export async function openIndexedDbStore(name: string, options?: IndexedDbStoreOptions): Promise<IndexedDbResultStore> {
  await Promise.all([init(), loadAgentModule()]);
  return IndexedDbResultStore.open(name, options);
}

export { IndexedDbResultStore } from './stores/indexeddb.js';
export type { IndexedDbOpenReport, IndexedDbStoreOptions } from './stores/indexeddb.js';
export * from './exports.js';
