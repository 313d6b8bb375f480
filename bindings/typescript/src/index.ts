// Node entry point (CommonJS; dist/node/index.mjs re-exports it for `import`).
import * as bindings from './wasm/node/toolresult_wasm.js';
import { installWasm } from './runtime.js';

installWasm(bindings);

export * from './api.js';
export * from './bound.js';
export { ToolResultError, formatIssues } from './errors.js';
export type { ToolResultErrorCode } from './errors.js';
export type * from './generated/types.js';
