// `toolresult/render` in Node, Deno and Bun: installs the wasm loaders (this entry
// may be the first one loaded), then the exports of render.ts.
import '../index.js';

export * from './render.js';
