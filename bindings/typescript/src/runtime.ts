// Holds the instantiated wasm bindings. Entry points install them; the API
// reads them. Kept apart from api.ts so that installing is not public API.
import { ToolResultError } from './errors.js';

export type Wasm = typeof import('./wasm/node/toolresult_wasm.js');

let wasm: Wasm | undefined;
const listeners: (() => void)[] = [];

export function installWasm(bindings: Wasm): void {
  wasm = bindings;
  for (const reset of listeners) reset();
}

/** Registers a cache reset to run whenever new bindings are installed. */
export function onInstall(reset: () => void): void {
  listeners.push(reset);
}

export function bindings(): Wasm {
  if (!wasm) {
    throw new ToolResultError('not_initialized', 'toolresult is not initialized: await init() from "toolresult/web" first');
  }
  return wasm;
}
