import { toWireBytes } from '../bindings/typescript/dist/node/wire.js';
import * as t from 'toolresult';
const big = { rows: Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], score: i / 3 })) };
for (let k=0;k<5;k++){
  let t0=performance.now(); const w = toWireBytes(big, { maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: 128 }); const a=performance.now()-t0;
  const copy = w.bytes.slice();
  t0=performance.now(); const r = t.truncateOutput(big, { maxBytes: 5*1024*1024 }); const b=performance.now()-t0;
  const s = JSON.stringify({ok:true,value:r});
  t0=performance.now(); JSON.parse(s); const c=performance.now()-t0;
  t0=performance.now(); t.sha256Hex(copy); const d=performance.now()-t0;
  console.log('bytes', a.toFixed(1), 'truncate total', b.toFixed(1), 'parse out', c.toFixed(1), 'sha', d.toFixed(1));
}
