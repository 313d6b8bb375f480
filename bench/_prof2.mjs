import { toWireText } from '../bindings/typescript/dist/node/wire.js';
const bigJson = { rows: Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], score: i / 3 })) };
for (let k=0;k<4;k++){
let t=performance.now(); const w = toWireText(bigJson, { maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: 128 }); const a=performance.now()-t;
t=performance.now(); const b = Buffer.from(w.text); const c=performance.now()-t;
t=performance.now(); const s=JSON.stringify(bigJson); const d=performance.now()-t;
console.log('wire', a.toFixed(1), 'encode', c.toFixed(1), 'stringify', d.toFixed(1), s===w.text);
}
