// `toolresult/http` in Node, Deno and Bun: installs the wasm modules (this
// entry may be the first one loaded), then the endpoints (index.ts, which
// the browser build serves as `toolresult/http` itself).
import '../index.js';

export * from './index.js';
