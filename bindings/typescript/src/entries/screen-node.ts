// `toolresult/screen` in Node, Deno and Bun: installs the wasm loaders (this entry
// may be the first one loaded), then the exports of screen.ts.
import '../index.js';

export * from './screen.js';
