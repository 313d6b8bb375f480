// `toolresult/http` in workerd: the Worker entry's wasm loaders first (this
// entry may be the first one loaded), then the endpoints (index.ts).
import '../workerd.js';

export * from './index.js';
