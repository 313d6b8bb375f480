// `toolresult/mastra` in Node: installs the wasm modules (this entry may be
// the first one loaded), then the adapter (adapters/mastra.ts, which the
// browser build serves itself, after `init()` from "toolresult/web").
import '../index.js';

export * from './mastra.js';
