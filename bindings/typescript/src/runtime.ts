// Holds the instantiated wasm bindings. Entry points install them; the API
// reads them. Every call into wasm goes through `call`, which turns a trap
// into a ToolResultError('internal_trap') after replacing the instance, so one
// trap never leaves the module broken for later calls.
import { ToolResultError } from './errors.js';

export type Wasm = typeof import('./wasm/node/toolresult_wasm.js');

let wasm: Wasm | undefined;
const listeners: (() => void)[] = [];
let traps = 0;

export function installWasm(bindings: Wasm): void {
  wasm = bindings;
  for (const reset of listeners) reset();
}

/** Registers a cache reset to run whenever an instance is installed or replaced. */
export function onInstall(reset: () => void): void {
  listeners.push(reset);
}

export function bindings(): Wasm {
  if (!wasm) {
    throw new ToolResultError('not_initialized', 'toolresult is not initialized: await init() from "toolresult/web" first');
  }
  return wasm;
}

/** Runs `f` against the bindings; a trap replaces the instance and throws. */
export function call<R>(f: (w: Wasm) => R): R {
  const w = bindings();
  try {
    return f(w);
  } catch (e) {
    if (!(e instanceof WebAssembly.RuntimeError)) throw e;
    traps++;
    // A fresh instance: new memory, no half-finished state from the trap.
    (w as unknown as { __wbg_reset_state(): void }).__wbg_reset_state();
    installWasm(w);
    throw new ToolResultError(
      'internal_trap',
      `the WebAssembly module trapped (${e.message}); it has been restarted and later calls work. Please report this input.`,
    );
  }
}

/** How many traps have been recovered from (diagnostics). */
export function trapCount(): number {
  return traps;
}
