// `toolresult/audit` in workerd: the Worker entry's wasm loaders first (this
// entry may be the first one loaded), then the exports of audit.ts.
import '../workerd.js';

export * from './audit.js';
