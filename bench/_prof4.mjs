import { toWireBytes } from '../bindings/typescript/dist/node/wire.js';
import { writeInput } from '../bindings/typescript/dist/node/input.js';
import { call } from '../bindings/typescript/dist/node/runtime.js';
import * as t from 'toolresult';
const big = { rows: Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], score: i / 3 })) };
const bytes = toWireBytes(big, { maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: 128 }).bytes.slice();
for (let k=0;k<5;k++){
  let t0=performance.now(); let len; call((w)=>{len=writeInput(w,bytes)}); const a=performance.now()-t0;
  t0=performance.now(); const out = call((w)=>w.truncate_json_input(len, 5*1024*1024, false)); const b=performance.now()-t0;
  t0=performance.now(); call((w)=>w.sha256_input(len)); const c=performance.now()-t0;
  console.log('write', a.toFixed(1), 'wasm cut', b.toFixed(1), 'wasm sha', c.toFixed(1), out.length);
}
