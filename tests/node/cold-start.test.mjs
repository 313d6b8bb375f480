// What a new process runs (docs/internals/performance.md, "Cold start"):
// `require('toolresult')` loads the core bundle and compiles no wasm; the first
// validation compiles the core module from the package's one copy of it
// (dist/web/wasm/web/, beside the browser glue); the rest of the API loads on
// first use of one of its exports; a subpath (toolresult/render) loads its own
// bundle and reuses the compiled core module.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('toolresult/package.json'));
const fixture = fileURLToPath(new URL('../fixtures/agent/valid-success.json', import.meta.url));

// Each step runs in the same new process; after each, the package files it has
// required and the .wasm files it has read, relative to the package.
const script = `
const fs = require('node:fs');
const path = require('node:path');
const pkg = ${JSON.stringify(pkgDir)};
const wasmReads = [];
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (String(file).endsWith('.wasm')) wasmReads.push(path.relative(pkg, String(file)));
  return readFileSync.call(this, file, ...rest);
};
const seen = () => ({
  loaded: Object.keys(require.cache).filter((f) => f.startsWith(pkg + path.sep)).map((f) => path.relative(pkg, f)).sort(),
  wasm: [...wasmReads],
});
const text = readFileSync(${JSON.stringify(fixture)}, 'utf8');
const steps = {};
const t = require('toolresult');
steps.required = seen();
if (!t.validateAgentResult(text).ok) throw new Error('the fixture is valid');
steps.validated = seen();
const result = t.createSuccess({ input: { tool_name: 'echo' }, output: 'hi' });
if (!require('toolresult/render').renderText(result).includes('hi')) throw new Error('renderText');
steps.rendered = seen();
if (!t.spotlight('hi').text.includes('hi')) throw new Error('spotlight');
steps.spotlit = seen();
console.log(JSON.stringify(steps));
`;

test('require loads the core bundle only; the first validation compiles the core module; the rest loads on first use', () => {
  const steps = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
  const node = (f) => path.join('dist', 'node', f);
  const coreWasm = path.join('dist', 'web', 'wasm', 'web', 'toolresult_wasm_bg.wasm');
  assert.deepEqual(steps.required, { loaded: [node('bundle.js'), node('index.js')], wasm: [] }, 'no wasm and no other bundle at require');
  assert.deepEqual(steps.validated, { loaded: [node('bundle.js'), node('index.js'), node('wasm/node/toolresult_wasm.js')], wasm: [coreWasm] });
  assert.ok(steps.rendered.loaded.includes(node('bundle-render.js')), 'toolresult/render loads its own bundle');
  assert.ok(steps.spotlit.loaded.includes(node('bundle-main.js')), 'spotlight loads the rest of the main entry');
  assert.deepEqual(steps.spotlit.wasm, [coreWasm], 'the core module is compiled once');
});

test('the Node build holds no .wasm file: its glue reads the copy beside the browser glue', () => {
  const nodeWasm = readdirSync(path.join(pkgDir, 'dist', 'node'), { recursive: true }).filter((f) => String(f).endsWith('.wasm'));
  assert.deepEqual(nodeWasm, []);
  const webWasm = readdirSync(path.join(pkgDir, 'dist', 'web', 'wasm', 'web')).filter((f) => f.endsWith('.wasm'));
  assert.deepEqual(webWasm.sort(), ['toolresult_schema_wasm_bg.wasm', 'toolresult_screen_wasm_bg.wasm', 'toolresult_wasm_bg.wasm']);
});
