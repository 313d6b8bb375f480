import { truncateOutput, sha256Hex } from 'toolresult';
import crypto from 'node:crypto';
const bigJson = { rows: Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], score: i / 3 })) };
const limit = 10*1024*1024;
for (let k=0;k<3;k++){
let t=performance.now(); const r = truncateOutput(bigJson, { maxBytes: limit/2 }); console.log('truncate', (performance.now()-t).toFixed(1), r.size, r.original_size, r.output.rows.length);
t=performance.now(); const s=JSON.stringify(bigJson); console.log('stringify', (performance.now()-t).toFixed(1));
t=performance.now(); JSON.parse(s); console.log('parse', (performance.now()-t).toFixed(1));
const text = 'x'.repeat(10*1024*1024);
t=performance.now(); sha256Hex(text); console.log('sha', (performance.now()-t).toFixed(1));
t=performance.now(); crypto.createHash('sha256').update(text).digest('hex'); console.log('node sha', (performance.now()-t).toFixed(1));
}
