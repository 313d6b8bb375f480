// `toolresult/screen` in workerd: the Worker entry's wasm loaders first (this
// entry may be the first one loaded), then the exports of screen.ts.
import '../workerd.js';

export * from './screen.js';
