// The JSON Schema engine is a separate wasm module: code that does not check
// JSON Schemas — envelopes, builders, bounding, the result store, references,
// conversions, renderers (docs/internals/modules.md) — never reads, downloads or
// instantiates it. So is the agent module (store, references, conversions):
// browsers fetch it only when loadAgentModule() asks. (Each test file runs in
// its own process, so nothing else has loaded the package here.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('toolresult/package.json'));
const ENGINE = 'toolresult_schema_wasm';

const agent = JSON.parse(fs.readFileSync(new URL('../fixtures/agent/valid-success.json', import.meta.url), 'utf8'));

// `t` is the main entry; `convert` and `render` are toolresult/convert and
// toolresult/render of the same build.
function coreWork(t, render) {
  assert.equal(t.validateAgentResult(agent).ok, true);
  const r = t.createSuccess({ input: { tool_name: 'x' }, output: 'y'.repeat(1000) });
  assert.equal(t.validateToolResult(JSON.stringify(r)).ok, true);
  assert.equal(t.truncateOutput('z'.repeat(100), { maxBytes: 10 }).output_truncated, true);
  assert.equal(t.sha256Hex('abc').length, 64);
  assert.match(render.renderText(r), /y/);
  return r;
}

// The store, references, conversions and diffs: the agent module's work.
function agentWork(t, convert, render, r) {
  const store = new t.ResultStore();
  const report = store.put(r, { dialogId: 'd1' });
  assert.equal(report.stored, true);
  assert.equal(store.get(r.metadata.execution_id).metadata.execution_id, r.metadata.execution_id);
  assert.equal(store.metrics().stored, 1);
  assert.match(t.summarize(r), /x/);
  assert.equal(t.toReference(r, { dialogId: 'd1' }).tool_call_id, r.metadata.execution_id);
  assert.equal(convert.toMcpCallToolResult(r).content[0].text, r.output);
  assert.equal(convert.fromAnthropicToolResult({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }, { tool_name: 'x' }).status, 'success');
  assert.equal(t.normalizeAgentResult(agent).ok, true);
  assert.equal(render.diffHunks('a\nb\n', 'a\nc\n').length, 1);
}

function envelopeWork(t, convert, render) {
  agentWork(t, convert, render, coreWork(t, render));
}

test('Node: envelope work does not read or require the schema engine; compileSchema loads it once', () => {
  const reads = [];
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (file, ...rest) {
    reads.push(String(file));
    return readFileSync.call(this, file, ...rest);
  };
  try {
    const t = require('toolresult');
    envelopeWork(t, require('toolresult/convert'), require('toolresult/render'));
    assert.equal(t.schemaEngineLoaded(), false);
    assert.deepEqual(
      reads.filter((f) => f.includes(ENGINE)),
      [],
      'engine wasm not read',
    );
    assert.deepEqual(
      Object.keys(require.cache).filter((k) => k.includes(ENGINE)),
      [],
      'engine glue not required',
    );
    assert.ok(
      reads.some((f) => f.endsWith('toolresult_wasm_bg.wasm')),
      'the core module was read (the hook works)',
    );

    assert.equal(t.compileSchema({ type: 'string' }).isValid('s'), true);
    assert.equal(t.schemaEngineLoaded(), true);
    assert.equal(t.compileSchema({ type: 'string' }).isValid(1), false);
    assert.deepEqual(
      reads.filter((f) => f.includes(ENGINE) && f.endsWith('.wasm')).map((f) => path.basename(f)),
      [`${ENGINE}_bg.wasm`],
      'read once, on first use',
    );
  } finally {
    fs.readFileSync = readFileSync;
  }
});

test('browser build: init() fetches the core module only; the agent module and the engine are fetched on demand, once', async () => {
  const wasmDir = path.join(pkgDir, 'dist', 'web', 'wasm', 'web');
  const fetched = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url) => {
    fetched.push(String(url));
    const file = fileURLToPathSafe(url);
    return new Response(fs.readFileSync(file), { headers: { 'content-type': 'application/wasm' } });
  };
  try {
    const web = await import('toolresult/web');
    await web.init(); // fetched from next to the module, through the stub
    // The subpaths' browser files (their `browser` condition), beside web.js.
    const entry = (name) => import(pathToFileURL(path.join(pkgDir, 'dist', 'web', 'entries', `${name}.js`)).href);
    const [convert, render] = [await entry('convert'), await entry('render')];
    const r = coreWork(web, render);
    assert.deepEqual(
      fetched.map((u) => path.basename(u)),
      ['toolresult_wasm_bg.wasm'],
      'only the core module was fetched',
    );

    // Before loadAgentModule(), a typed error that says what to call.
    const notLoaded = (e) => e instanceof web.ToolResultError && e.code === 'not_initialized' && /loadAgentModule\(\)/.test(e.message);
    assert.throws(() => new web.ResultStore(), notLoaded);
    assert.throws(() => web.toReference(r, { dialogId: 'd1' }), notLoaded);
    assert.throws(() => convert.toMcpCallToolResult(r), notLoaded);
    assert.throws(() => web.normalizeAgentResult(agent), notLoaded);
    assert.throws(() => render.diffHunks('a', 'b'), notLoaded);

    await Promise.all([web.loadAgentModule(), web.loadAgentModule()]);
    agentWork(web, convert, render, r);
    await web.loadAgentModule();
    assert.equal(web.schemaEngineLoaded(), false);
    assert.throws(
      () => web.compileSchema(true),
      (e) => e.code === 'not_initialized' && /loadSchemaEngine/.test(e.message),
    );
    assert.deepEqual(
      fetched.map((u) => path.basename(u)),
      ['toolresult_wasm_bg.wasm', 'toolresult_agent_wasm_bg.wasm'],
      'the agent module was fetched once, and nothing of the engine',
    );

    await Promise.all([web.loadSchemaEngine(), web.loadSchemaEngine()]);
    assert.deepEqual(
      fetched.map((u) => path.basename(u)),
      ['toolresult_wasm_bg.wasm', 'toolresult_agent_wasm_bg.wasm', `${ENGINE}_bg.wasm`],
    );
    assert.equal(web.schemaEngineLoaded(), true);
    assert.equal(web.compileSchema({ minimum: 3 }).isValid(2), false);
    assert.ok(fs.existsSync(path.join(wasmDir, `${ENGINE}_bg.wasm`)));
  } finally {
    globalThis.fetch = realFetch;
  }
});

// A new process, so that nothing has loaded a module before openIndexedDbStore().
test('browser build: openIndexedDbStore() loads the core and agent modules by itself, once', () => {
  const script = `
    import fs from 'node:fs';
    const fetched = [];
    globalThis.fetch = async (url) => {
      fetched.push(new URL(url).pathname.split('/').pop());
      return new Response(fs.readFileSync(new URL(url)), { headers: { 'content-type': 'application/wasm' } });
    };
    const { IDBFactory } = await import(${JSON.stringify(import.meta.resolve('fake-indexeddb'))});
    const web = await import(${JSON.stringify(import.meta.resolve('toolresult/web'))});
    const indexedDB = new IDBFactory();
    const store = await web.openIndexedDbStore('a', { indexedDB });
    const r = web.createSuccess({ input: { tool_name: 'x' }, output: 'y' });
    const stored = (await store.put(r, { dialogId: 'd1' })).stored;
    const reference = web.toReference(r, { dialogId: 'd1' }).tool_call_id === r.metadata.execution_id;
    await web.openIndexedDbStore('b', { indexedDB });
    console.log(JSON.stringify({ fetched, stored, got: store.get(r.metadata.execution_id)?.output, reference }));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.deepEqual(out.fetched.sort(), ['toolresult_agent_wasm_bg.wasm', 'toolresult_wasm_bg.wasm']);
  assert.equal(out.stored, true);
  assert.equal(out.got, 'y');
  assert.equal(out.reference, true);
});

function fileURLToPathSafe(url) {
  const u = url instanceof URL ? url : new URL(String(url));
  assert.equal(u.protocol, 'file:', `only package files are fetched, got ${u}`);
  return decodeURIComponent(u.pathname);
}
