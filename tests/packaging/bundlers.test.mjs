// The packed tarball in the bundlers people use: scratch projects built with
// Vite, webpack 5 and esbuild, each a page that validates a result, loads the
// schema engine, renders, converts, screens and keeps an audit log (the
// subpaths toolresult/render, /convert, /screen and /audit), served with the strict CSP + Trusted Types and
// loaded in headless Chromium; the Vite page also runs the package in a Web
// Worker. Each bundler is configured exactly as docs/guide/browsers-and-bundlers.md says (esbuild
// needs the .wasm files copied next to the bundle; webpack needs
// output.trustedTypes on a Trusted Types page; Vite needs nothing).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../browser/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgDir = path.join(root, 'bindings', 'typescript');
const fixtureText = readFileSync(path.join(root, 'tests', 'fixtures', 'tool', 'valid-success.json'), 'utf8');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
let work;
let tarball;
let browser;

const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

before(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'toolresult-bundlers-'));
  const out = JSON.parse(sh(npm, ['pack', '--json', '--pack-destination', work], pkgDir));
  tarball = path.join(work, out[0].filename);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The page every bundler builds: validate, render, load the schema engine, convert (the agent module), screen, audit; optionally a worker. */
function mainSource({ worker }) {
  return `import { init, loadAgentModule, loadSchemaEngine, loadScreen, validateToolResult, compileSchema } from 'toolresult';
import { MemoryAuditLog } from 'toolresult/audit';
import { toMcpCallToolResult } from 'toolresult/convert';
import { renderDomChecked } from 'toolresult/render';
import { screen } from 'toolresult/screen';
${worker ? "import workerPath from './worker.js?worker&url';" : ''}
const text = ${JSON.stringify(fixtureText)};
await init();
const r = validateToolResult(text);
// Rendering needs the core module only (docs/internals/modules.md): before the engine loads.
document.body.append(renderDomChecked(text));
const rendered = document.querySelector('.tool-result-view') !== null;
await loadSchemaEngine();
const out = { ok: r.ok, tool: r.ok ? r.value.input.tool_name : null, schema: compileSchema({ type: 'object', required: ['a'] }).validate({}).map((i) => i.code) };
out.rendered = rendered;
// Conversions are the agent module's.
await loadAgentModule();
out.mcp = r.ok && Array.isArray(toMcpCallToolResult(r.value).content);
await loadScreen();
out.screen = screen(text).verdict;
out.audit = new MemoryAuditLog().appendSync({ action: 'stored', execution_id: 'e1' }).seq;
${
  worker
    ? `// Trusted Types: the worker's URL goes through a policy.
const policy = trustedTypes.createPolicy('app', { createScriptURL: (u) => u });
const w = new Worker(policy.createScriptURL(new URL(workerPath, import.meta.url).href), { type: 'module' });
out.worker = await new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); w.postMessage(text); });`
    : ''
}
document.body.dataset.result = JSON.stringify(out);
`;
}

const WORKER = `import { init, validateToolResult } from 'toolresult';
self.onmessage = async (e) => {
  await init();
  const r = validateToolResult(e.data);
  self.postMessage({ ok: r.ok, tool: r.ok ? r.value.input.tool_name : null });
};
`;

function project(name, { worker = false } = {}) {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }));
  sh(npm, ['install', '--no-audit', '--no-fund', '--offline', tarball], dir);
  writeFileSync(path.join(dir, 'src', 'main.js'), mainSource({ worker }));
  if (worker) writeFileSync(path.join(dir, 'src', 'worker.js'), WORKER);
  return dir;
}

const html = (script) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>app</title><link rel="icon" href="data:,">${script}</head><body></body></html>`;

/** Serves `dist` with the strict CSP, loads it in Chromium, returns what the page reported. */
async function load(dist) {
  const server = await serve(dist);
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    await page.goto(server.url);
    await page.waitForSelector('body[data-result]', { timeout: 30_000 }).catch(() => {});
    const result = await page.evaluate(() => document.body.dataset.result);
    assert.deepEqual(problems, [], 'no console errors or CSP violations');
    return JSON.parse(result);
  } finally {
    await page.close();
    await server.close();
  }
}

const EXPECTED = { ok: true, tool: 'read_file', schema: ['required'], rendered: true, mcp: true, screen: 'accept', audit: 1 };

test('Vite: a page and a Web Worker using the package', async () => {
  const dir = project('vite-app', { worker: true });
  writeFileSync(path.join(dir, 'index.html'), html('<script type="module" src="/src/main.js"></script>'));
  writeFileSync(path.join(dir, 'vite.config.js'), "export default { base: './', build: { target: 'es2022' }, worker: { format: 'es' } };\n");
  sh(process.execPath, [bin('vite', 'bin/vite.js'), 'build', '--logLevel', 'error'], dir);
  const wasm = readdirSync(path.join(dir, 'dist', 'assets')).filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length >= 2, true, `Vite emitted the wasm modules: ${wasm.join(', ')}`);
  assert.deepEqual(await load(path.join(dir, 'dist')), { ...EXPECTED, worker: { ok: true, tool: 'read_file' } });
});

test('webpack 5: asset modules pick up the .wasm files; under Trusted Types, output.trustedTypes', async () => {
  const dir = project('webpack-app');
  writeFileSync(
    path.join(dir, 'webpack.config.js'),
    `import path from 'node:path';
export default { mode: 'production', target: 'web', entry: './src/main.js', performance: { hints: false },
  // Lazy chunks (the agent module's, the engine's and the screen's glue) are loaded by <script src>: Trusted Types pages need webpack's policy.
  output: { path: path.resolve('dist'), filename: 'main.js', clean: true, trustedTypes: true } };
`,
  );
  sh(process.execPath, [bin('webpack-cli', 'bin/cli.js'), '--config', 'webpack.config.js'], dir);
  writeFileSync(path.join(dir, 'dist', 'index.html'), html('<script defer src="main.js"></script>'));
  assert.deepEqual(await load(path.join(dir, 'dist')), EXPECTED);
});

test('esbuild: bundle, then copy the .wasm files next to it (docs/guide/browsers-and-bundlers.md, "Bundlers")', async () => {
  const dir = project('esbuild-app');
  sh(
    bin('esbuild', 'bin/esbuild'),
    ['src/main.js', '--bundle', '--format=esm', '--platform=browser', '--target=es2022', '--outfile=dist/main.js', '--log-level=warning'],
    dir,
  );
  const wasmDir = path.join(dir, 'node_modules', 'toolresult', 'dist', 'web', 'wasm', 'web');
  for (const f of readdirSync(wasmDir).filter((f) => f.endsWith('.wasm'))) cpSync(path.join(wasmDir, f), path.join(dir, 'dist', f));
  writeFileSync(path.join(dir, 'dist', 'index.html'), html('<script type="module" src="main.js"></script>'));
  assert.deepEqual(await load(path.join(dir, 'dist')), EXPECTED);
});
