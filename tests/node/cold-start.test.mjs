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
const prelude = `
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
`;
const run = (body) => JSON.parse(execFileSync(process.execPath, ['-e', `${prelude + body}console.log(JSON.stringify(steps));`], { encoding: 'utf8' }));
const node = (f) => path.join('dist', 'node', f);
const wasmFile = (name) => path.join('dist', 'web', 'wasm', 'web', `${name}_bg.wasm`);

const script = `
const t = require('toolresult');
steps.required = seen();
if (!t.validateAgentResult(text).ok) throw new Error('the fixture is valid');
steps.validated = seen();
const result = t.createSuccess({ input: { tool_name: 'echo' }, output: 'hi' });
if (!require('toolresult/render').renderText(result).includes('hi')) throw new Error('renderText');
steps.rendered = seen();
if (!t.spotlight('hi').text.includes('hi')) throw new Error('spotlight');
steps.spotlit = seen();
`;

test('require loads the core bundle only; the first validation compiles the core module; the rest loads on first use', () => {
  const steps = run(script);
  const coreWasm = wasmFile('toolresult_wasm');
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
  assert.deepEqual(webWasm.sort(), [
    'toolresult_agent_wasm_bg.wasm',
    'toolresult_schema_wasm_bg.wasm',
    'toolresult_screen_wasm_bg.wasm',
    'toolresult_wasm_bg.wasm',
  ]);
});

const agentScript = `
const t = require('toolresult');
if (!t.validateAgentResult(text).ok) throw new Error('the fixture is valid');
const result = t.createSuccess({ input: { tool_name: 'echo' }, output: 'hi' });
if (!require('toolresult/render').renderText(result).includes('hi')) throw new Error('renderText');
if (!t.truncateOutput('z'.repeat(100), { maxBytes: 10 }).output_truncated) throw new Error('truncateOutput');
steps.core = seen();
const store = new t.ResultStore();
if (!store.put(result, { dialogId: 'd1' }).stored) throw new Error('put');
steps.stored = seen();
if (t.toReference(result, { dialogId: 'd1' }).tool_call_id !== result.metadata.execution_id) throw new Error('toReference');
if (require('toolresult/convert').toMcpCallToolResult(result).content[0].text !== 'hi') throw new Error('toMcpCallToolResult');
steps.converted = seen();
`;

test('validation, builders, rendering and bounding compile the core module only; the first store use compiles the agent module, once', () => {
  const steps = run(agentScript);
  const agentGlue = node('wasm/node/toolresult_agent_wasm.js');
  const core = wasmFile('toolresult_wasm');
  const agent = wasmFile('toolresult_agent_wasm');
  assert.deepEqual(steps.core.wasm, [core], 'only the core module');
  assert.ok(!steps.core.loaded.includes(agentGlue), 'the agent glue is not required');
  assert.deepEqual(steps.stored.wasm, [core, agent], 'new ResultStore compiles the agent module');
  assert.ok(steps.stored.loaded.includes(agentGlue));
  assert.deepEqual(steps.converted.wasm, [core, agent], 'references and conversions reuse it');
});

// `import` binds every name of the main entry at once (dist/node/index.mjs):
// the functions outside the core bundle are forwarders that load their module
// on first call, so binding them loads nothing; the classes and objects load
// the modules that own them (bundle-main.js), not the rest of the main entry.
test('import loads the core bundle and the modules of classes and objects only; require and import give the same objects', () => {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
import * as t from 'toolresult';
import { createRequire } from 'node:module';
import path from 'node:path';
const pkg = ${JSON.stringify(pkgDir)};
const require = createRequire(path.join(pkg, 'package.json'));
const loaded = () => Object.keys(require.cache).filter((f) => f.startsWith(pkg + path.sep)).map((f) => path.relative(pkg, f)).sort();
const atImport = loaded();
const cjs = require('toolresult');
const differ = Object.keys(cjs).filter((k) => cjs[k] !== t[k]);
const fn = (f) => ({ name: f.name, length: f.length });
const afterBinding = loaded();
const format = t.detectHistoryFormat([{ role: 'user', content: 'hi' }]);
const afterCall = loaded();
const real = require(path.join(pkg, 'dist/node/bundle-main-rest.js'))['history/formats.js'].detectHistoryFormat;
console.log(JSON.stringify({ atImport, afterBinding, afterCall, differ, defaultIsCjs: t.default === cjs, forwarder: fn(t.detectHistoryFormat), real: fn(real), format }));
`,
    ],
    { encoding: 'utf8' },
  );
  const r = JSON.parse(out);
  assert.deepEqual(r.atImport, [node('bundle-main.js'), node('bundle.js')], 'import loads two bundles and no wasm glue');
  assert.ok(!r.afterBinding.includes(node('bundle-main-rest.js')), 'reading every export of require loads no other bundle either');
  assert.ok(r.afterCall.includes(node('bundle-main-rest.js')), "a forwarder's first call loads its module");
  assert.deepEqual(r.differ, [], 'every export is the same object for require and import');
  assert.equal(r.defaultIsCjs, true);
  assert.deepEqual(r.forwarder, r.real, 'a forwarder has the name and length of its function');
  assert.equal(r.format, 'toolresult', 'a forwarder calls its function');
});
