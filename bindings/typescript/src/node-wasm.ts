// The Node build's wasm modules: where their files are, and each compiled once.
// The package holds one copy of each `.wasm` file, beside the browser glue
// (dist/web/wasm/web/), where bundlers (`new URL('…_bg.wasm', import.meta.url)`)
// and workerd (`.wasm` imports) look for it. The Node glue (dist/node/wasm/node/,
// rewritten by scripts/build.mjs) asks this module for its compiled module
// instead of reading a copy of its own (docs/internals/modules.md §2).
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The wasm modules, by the name of their file (`<name>_bg.wasm`). */
export type WasmName = 'toolresult_wasm' | 'toolresult_agent_wasm' | 'toolresult_schema_wasm' | 'toolresult_screen_wasm';

// This module is bundled into dist/node/bundle.js.
const dir = path.join(__dirname, '..', 'web', 'wasm', 'web');
const compiled = new Map<WasmName, WebAssembly.Module>();

/** The path of a module's `.wasm` file. */
export function wasmPath(name: WasmName): string {
  return path.join(dir, `${name}_bg.wasm`);
}

/**
 * The compiled module, compiled from its file on first use (synchronously) and
 * kept: the glue instantiates it again after a trap (runtime.ts).
 */
export function wasmModule(name: WasmName): WebAssembly.Module {
  let module = compiled.get(name);
  if (!module) {
    module = new WebAssembly.Module(readFileSync(wasmPath(name)));
    compiled.set(name, module);
  }
  return module;
}
