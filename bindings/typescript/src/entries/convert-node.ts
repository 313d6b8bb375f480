// `toolresult/convert` in Node, Deno and Bun: installs the wasm loaders (this entry
// may be the first one loaded), then the exports of convert.ts.
import '../index.js';

export * from './convert.js';
