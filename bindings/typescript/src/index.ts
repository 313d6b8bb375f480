// Node entry point (CommonJS; dist/node/index.mjs re-exports it for `import`).
import { type AgentWasm, agentModule, core, platform, schemaEngine, screenModule, type SchemaWasm, type ScreenWasm, type Wasm } from './runtime.js';

// The core module is compiled and instantiated on first use, as the others:
// a process that loads the package and never calls into wasm compiles none.
core.setLoader(() => require('./wasm/node/toolresult_wasm.js') as Wasm);
// Strings are hashed as UTF-8 with lone surrogates as U+FFFD, as in wasm.
// node:crypto is required on first use: it costs ~4 ms of every cold start.
let createHash: typeof import('node:crypto').createHash | undefined;
platform.sha256Hex = (input) => {
  createHash ??= (require('node:crypto') as typeof import('node:crypto')).createHash;
  return createHash('sha256').update(input).digest('hex');
};
// Text truncation measures the text here instead of copying it into wasm.
platform.utf8Length = (text) => Buffer.byteLength(text, 'utf8');
// The agent module (store, references, budgets, conversions) likewise.
agentModule.setLoader(() => require('./wasm/node/toolresult_agent_wasm.js') as AgentWasm);
// The JSON Schema engine is a module of its own, required on first use only.
schemaEngine.setLoader(() => require('./wasm/node/toolresult_schema_wasm.js') as SchemaWasm);
// So is the screen module (safety screen, result document).
screenModule.setLoader(() => require('./wasm/node/toolresult_screen_wasm.js') as ScreenWasm);

// The loaders resolve once the module is instantiated (Node does it
// synchronously; they exist so code shared with browsers can await them).
function loadNow(module: { bindings(): unknown }): Promise<void> {
  try {
    module.bindings();
    return Promise.resolve();
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * Loads the agent module (the result store, references, context budgets,
 * normalization, conversions, diffs) now instead of on first use (browsers
 * must await it).
 */
export function loadAgentModule(): Promise<void> {
  return loadNow(agentModule);
}

/** Loads the screen module now instead of on first use (browsers must await it). */
export function loadScreen(): Promise<void> {
  return loadNow(screenModule);
}

/**
 * Loads the JSON Schema engine module (`compileSchema`, `ToolRegistry`) now
 * instead of on first use (Node loads it by itself; browsers must await it).
 */
export function loadSchemaEngine(): Promise<void> {
  return loadNow(schemaEngine);
}

/** Whether the JSON Schema engine module has been loaded (diagnostics). */
export function schemaEngineLoaded(): boolean {
  return schemaEngine.loaded;
}

export * from './exports.js';
