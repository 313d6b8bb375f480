// The browser entry's own contract: nothing works before init(), init() is
// idempotent, and after it the API is the same as in Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const wasmPath = path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist/web/wasm/web/toolresult_wasm_bg.wasm');

test('toolresult/web: not_initialized before init(), works after, init() twice is fine', async () => {
  const web = await import('toolresult/web');
  assert.throws(
    () => web.validateToolResult('{}'),
    (e) => e instanceof web.ToolResultError && e.code === 'not_initialized',
  );
  // A failed load is not remembered: init() can be called again.
  await assert.rejects(web.init(new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9])));
  assert.throws(
    () => web.validateToolResult('{}'),
    (e) => e.code === 'not_initialized',
  );
  const bytes = readFileSync(wasmPath);
  await Promise.all([web.init(bytes), web.init(bytes)]);
  const r = web.validateToolResult('{}');
  assert.equal(r.ok, false);
  assert.ok(r.issues.some((i) => i.code === 'missing_field' && i.path === '/input'));
});
