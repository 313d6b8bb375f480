// `toolresult/openai-agents` in Node: installs the wasm modules (this entry
// may be the first one loaded), then the adapter (adapters/openai-agents.ts,
// which the browser build serves itself, after `init()` from "toolresult/web").
import '../index.js';

export * from './openai-agents.js';
