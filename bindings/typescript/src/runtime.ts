// Holds the instantiated wasm modules. Entry points install them; the API
// reads them. Every call into wasm goes through a module's `call`, which turns
// a trap into a ToolResultError('internal_trap') after replacing the instance,
// so one trap never leaves the module broken for later calls.
import { ToolResultError } from './errors.js';

export type Wasm = typeof import('./wasm/node/toolresult_wasm.js');
export type SchemaWasm = typeof import('./wasm/node/toolresult_schema_wasm.js');
export type ScreenWasm = typeof import('./wasm/node/toolresult_screen_wasm.js');
export type AgentWasm = typeof import('./wasm/node/toolresult_agent_wasm.js');

let traps = 0;

/** One wasm module: its bindings, how to load them, and trap recovery. */
export class WasmModule<W> {
  #bindings: W | undefined;
  #load: (() => W) | undefined;
  #listeners: (() => void)[] = [];
  #generation = 0;

  constructor(readonly notLoaded: string) {}

  install(bindings: W): void {
    this.#bindings = bindings;
    this.#generation++;
    for (const reset of this.#listeners) reset();
  }

  /** A synchronous loader, run on first use (Node loads modules on demand). */
  setLoader(load: () => W): void {
    this.#load = load;
  }

  get loaded(): boolean {
    return this.#bindings !== undefined;
  }

  /** Bumped whenever an instance is installed or replaced: objects made by an older instance are gone. */
  get generation(): number {
    return this.#generation;
  }

  /** Registers a cache reset to run whenever an instance is installed or replaced. */
  onInstall(reset: () => void): void {
    this.#listeners.push(reset);
  }

  bindings(): W {
    if (!this.#bindings && this.#load) this.install(this.#load());
    if (!this.#bindings) throw new ToolResultError('not_initialized', this.notLoaded);
    return this.#bindings;
  }

  /** Runs `f` against the bindings; a trap replaces the instance and throws. */
  call<R>(f: (w: W) => R): R {
    const w = this.bindings();
    try {
      return f(w);
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      traps++;
      // A fresh instance: new memory, no half-finished state from the trap.
      (w as unknown as { __wbg_reset_state(): void }).__wbg_reset_state();
      this.install(w);
      throw new ToolResultError(
        'internal_trap',
        `the WebAssembly module trapped (${e.message}); it has been restarted and later calls work. Please report this input.`,
      );
    }
  }
}

/**
 * A wasm object that lives in one module instance and is rebuilt by `make`
 * after a trap replaced that instance (compiled schemas, registries). State
 * that cannot be rebuilt (the in-memory store) checks `generation` instead.
 */
export class RebuiltHandle<W, H extends { free(): void }> {
  #handle: H | undefined;
  #generation = -1;

  constructor(
    readonly module: WasmModule<W>,
    readonly make: () => H,
  ) {}

  /** The handle for the current instance, rebuilt if the instance changed. */
  get(): H {
    if (this.#handle && this.#generation === this.module.generation) return this.#handle;
    const handle = this.make();
    this.#handle = handle;
    this.#generation = this.module.generation;
    return handle;
  }

  /** Frees the handle now (if its instance is still the current one). */
  free(): void {
    if (this.#handle && this.#generation === this.module.generation) this.#handle.free();
    this.#handle = undefined;
  }
}

/**
 * The core module: validation, builders, bounding and rendering (what a page
 * that shows results needs; docs/internals/modules.md).
 */
export const core = new WasmModule<Wasm>('toolresult is not initialized: await init() from "toolresult/web" first');

/**
 * The agent module: the result store, references, context budgets,
 * normalization, conversions and diffs. Loaded on first use (Node, workerd)
 * or by `loadAgentModule()` (browsers).
 */
export const agentModule = new WasmModule<AgentWasm>(
  'the agent module (result store, references, context budgets, normalization, conversions, diffs) is not loaded: await loadAgentModule() from "toolresult/web" first',
);

/**
 * The JSON Schema engine module: `compileSchema` and `ToolRegistry`.
 * Loaded on first use (Node) or by `loadSchemaEngine()` (browsers).
 */
export const schemaEngine = new WasmModule<SchemaWasm>('the JSON Schema engine module is not loaded: await loadSchemaEngine() from "toolresult/web" first');

/**
 * The screen module: the safety screen and the result document (docs/screen.md,
 * docs/document.md). Loaded on first use (Node) or by `loadScreen()` (browsers).
 */
export const screenModule = new WasmModule<ScreenWasm>(
  'the screen module (safety screen, result document) is not loaded: await loadScreen() from "toolresult/web" first',
);

export function installWasm(bindings: Wasm): void {
  core.install(bindings);
}

export function onInstall(reset: () => void): void {
  core.onInstall(reset);
}

export function bindings(): Wasm {
  return core.bindings();
}

export function call<R>(f: (w: Wasm) => R): R {
  return core.call(f);
}

/** How many traps have been recovered from (diagnostics). */
export function trapCount(): number {
  return traps;
}

/**
 * What the host does natively, installed by an entry point: the Node entry
 * hashes with `node:crypto` (same bytes, same digest, 4–6× faster than the
 * wasm sha256) and measures UTF-8 with `Buffer.byteLength`; browsers keep the
 * synchronous wasm ones.
 */
export const platform: {
  sha256Hex?: (input: string | Uint8Array) => string;
  /** UTF-8 byte length of a string (Node: `Buffer.byteLength`). */
  utf8Length?: (text: string) => number;
} = {};
