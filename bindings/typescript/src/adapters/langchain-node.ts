// `toolresult/langchain` in Node: installs the wasm (the main entry; this
// entry may be the first one loaded), teaches the adapter to load
// `langchain` on first need (`require` of the optional peer), then exports
// the adapter. Elsewhere, pass `createMiddleware` and `ToolMessage`.
import '../index.js';
import { langchainPeer } from './langchain.js';

langchainPeer.load = () => require('langchain');

export * from './langchain.js';
