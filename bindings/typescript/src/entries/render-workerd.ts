// `toolresult/render` in workerd: the Worker entry's wasm loaders first (this
// entry may be the first one loaded), then the exports of render.ts.
import '../workerd.js';

export * from './render.js';
