// `toolresult/ai` in Node: installs the wasm (the main entry; this entry may
// be the first one loaded), teaches the adapter to load `ai` on first need
// (`require` of the optional peer: ai 6 is CommonJS, ai 7 ESM, which Node
// 20.19+ and 22.12+ require), then exports the adapter. Browsers get
// adapters/ai.ts as it is and pass `asSchema` themselves.
import '../index.js';
import { aiPeer } from './ai.js';

aiPeer.load = () => require('ai');

export * from './ai.js';
