// Entry point for workerd (Cloudflare Workers), picked by the `workerd` export
// condition (Wrangler sets it; so does any bundler given it). A Worker cannot
// fetch a `.wasm` file by URL as the browser entry does, nor compile bytes at
// run time; it imports `.wasm` files as modules, each a compiled
// `WebAssembly.Module`. So this entry imports the four modules and
// instantiates each synchronously on first use: nothing to `await` first.
// `init()`, `loadAgentModule()`, `loadSchemaEngine()` and `loadScreen()` are here for code shared
// with the browser entry, and take a `WebAssembly.Module` to use another build.
import * as bindings from './wasm/web/toolresult_wasm.js';
import * as agentBindings from './wasm/web/toolresult_agent_wasm.js';
import * as schemaBindings from './wasm/web/toolresult_schema_wasm.js';
import * as screenBindings from './wasm/web/toolresult_screen_wasm.js';
// Namespace imports: the default export of a `.wasm` module is its
// `WebAssembly.Module` in workerd, but the declarations wasm-bindgen writes
// beside the files describe the instance's exports instead.
import * as coreWasm from './wasm/web/toolresult_wasm_bg.wasm';
import * as agentWasm from './wasm/web/toolresult_agent_wasm_bg.wasm';
import * as schemaWasm from './wasm/web/toolresult_schema_wasm_bg.wasm';
import * as screenWasm from './wasm/web/toolresult_screen_wasm_bg.wasm';
import { IndexedDbResultStore, type IndexedDbStoreOptions } from './stores/indexeddb.js';
import { agentModule, core, schemaEngine, screenModule, type WasmModule } from './runtime.js';

type Glue = { initSync(module: { module: WebAssembly.Module }): unknown };

const compiled = (ns: unknown): WebAssembly.Module => (ns as { default: WebAssembly.Module }).default;

function instantiate<G extends Glue>(glue: G, module: WebAssembly.Module): G {
  glue.initSync({ module });
  return glue;
}

core.setLoader(() => instantiate(bindings, compiled(coreWasm)));
agentModule.setLoader(() => instantiate(agentBindings, compiled(agentWasm)));
schemaEngine.setLoader(() => instantiate(schemaBindings, compiled(schemaWasm)));
screenModule.setLoader(() => instantiate(screenBindings, compiled(screenWasm)));

/** Instantiates one module now: from `module` if given, else the imported one. */
function load<W, G extends W & Glue>(target: WasmModule<W>, glue: G, module?: unknown): Promise<void> {
  try {
    if (module === undefined) target.bindings();
    else if (module instanceof WebAssembly.Module) target.install(instantiate(glue, module));
    else throw new TypeError('in workerd, pass a WebAssembly.Module (import it from its .wasm file) or nothing');
    return Promise.resolve();
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * Instantiates the core module now (it is otherwise instantiated on first
 * use): the imported one, or the `WebAssembly.Module` given.
 */
export function init(module?: WebAssembly.Module): Promise<void> {
  return load(core, bindings, module);
}

/** Instantiates the agent module now (it is otherwise instantiated on first use). */
export function loadAgentModule(module?: WebAssembly.Module): Promise<void> {
  return load(agentModule, agentBindings, module);
}

/** Instantiates the JSON Schema engine module now (otherwise on first use). */
export function loadSchemaEngine(module?: WebAssembly.Module): Promise<void> {
  return load(schemaEngine, schemaBindings, module);
}

/** Instantiates the screen module now (otherwise on first use). */
export function loadScreen(module?: WebAssembly.Module): Promise<void> {
  return load(screenModule, screenBindings, module);
}

/** Whether the JSON Schema engine module has been loaded (diagnostics). */
export function schemaEngineLoaded(): boolean {
  return schemaEngine.loaded;
}

/** Opens an IndexedDB database as a result store; workerd has no IndexedDB of its own, so pass `options.indexedDB`. */
export async function openIndexedDbStore(name: string, options?: IndexedDbStoreOptions): Promise<IndexedDbResultStore> {
  return IndexedDbResultStore.open(name, options);
}

export { IndexedDbResultStore } from './stores/indexeddb.js';
export type { IndexedDbOpenReport, IndexedDbStoreOptions } from './stores/indexeddb.js';
export * from './exports.js';
