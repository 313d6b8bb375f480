// `toolresult/mcp` in Node: installs the wasm modules (this entry may be the
// first one loaded), then the adapter (adapters/mcp.ts, which the browser
// build serves as `toolresult/mcp` itself, after `init()` from "toolresult/web").
import '../index.js';

export * from './mcp.js';
