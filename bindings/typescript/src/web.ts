// Browser entry point (ESM). Call `await init()` once before anything else.
import initWasm, * as bindings from './wasm/web/toolresult_wasm.js';
import type { InitInput } from './wasm/web/toolresult_wasm.js';
import { installWasm } from './runtime.js';

let ready: Promise<void> | undefined;

/**
 * Loads and instantiates the wasm module. By default it is fetched from next to
 * this file; pass a URL, Response, bytes or a compiled `WebAssembly.Module` to
 * load it from elsewhere. Safe to call more than once.
 */
export function init(module_or_path?: InitInput | Promise<InitInput>): Promise<void> {
  ready ??= initWasm(module_or_path === undefined ? undefined : { module_or_path }).then(() => installWasm(bindings));
  return ready;
}

export * from './api.js';
export * from './bound.js';
export { ToolResultError, formatIssues } from './errors.js';
export type { ToolResultErrorCode } from './errors.js';
export type * from './generated/types.js';
