// The browser's first-use cost of the package, measured in headless Chromium
// on the web demo (web-demo/dist, served on loopback with its CSP). Writes
// bench/BROWSER.md: what a user downloads (gzip, per file and per step), and
// per wasm module the WebAssembly.compileStreaming time and the time from
// loading it to its first answer; the page's load and first validation.
// Loopback has no network latency: these are CPU costs, the floor of what a
// user on a real connection sees. `--smoke` runs once and writes nothing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/browser/chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '..', 'web-demo', 'dist');
const smoke = process.argv.includes('--smoke');
const RUNS = smoke ? 1 : 7;

const files = [...readdirSync(dist).filter((f) => f.endsWith('.html')), ...readdirSync(path.join(dist, 'assets')).map((f) => `assets/${f}`)];
const size = Object.fromEntries(
  files.map((f) => {
    const bytes = readFileSync(path.join(dist, f));
    return [f, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }];
  }),
);
const find = (re) => files.filter((f) => re.test(f));
const sum = (list) => list.reduce((a, f) => a + size[f].gzip, 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const shell = [...find(/\.html$/), ...find(/index-.*\.(js|css)$/)];
const envelope = find(/toolresult_wasm_bg-.*\.wasm$/);
const agentFiles = find(/toolresult_agent_wasm(_bg)?-.*\.(wasm|js)$/);
const tools = find(/toolresult_schema_wasm(_bg)?-.*\.(wasm|js)$/).filter((f) => !/worker/.test(f));
const screenFiles = find(/toolresult_screen_wasm(_bg)?-.*\.(wasm|js)$/);
const worker = find(/worker-.*\.js$/);

const server = await serve(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const samples = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    const s = await page.evaluate(async () => {
      const mark = (name) => performance.getEntriesByName(name)[0]?.startTime;
      const nav = performance.getEntriesByType('navigation')[0];
      const out = { domContentLoaded: nav.domContentLoadedEventEnd, ready: mark('toolresult:ready') };
      const t = globalThis.toolresult;
      // The agent module, measured before the example's conversions load it.
      let c0 = performance.now();
      await t.loadAgentModule();
      t.toReference(t.createSuccess({ input: { tool_name: 'echo' }, output: 'hi' }), { dialogId: 'bench' });
      out.agentFirstUse = performance.now() - c0;
      // First validation: the example, through the worker (which loads its own core module).
      const before = Number(document.body.dataset.analyses ?? 0);
      const t0 = performance.now();
      document.getElementById('example').click();
      while (Number(document.body.dataset.analyses ?? 0) === before) await new Promise((r) => setTimeout(r, 1));
      out.firstValidation = performance.now() - t0;
      // Per module: compileStreaming alone, then load + first answer through the package.
      const wasm = performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((n) => n.endsWith('.wasm'));
      const compile = async (re, list) => {
        const u = list.find((n) => re.test(n));
        if (!u) return undefined;
        const c0 = performance.now();
        await WebAssembly.compileStreaming(fetch(u));
        return performance.now() - c0;
      };
      out.compileCore = await compile(/toolresult_wasm_bg/, wasm);
      out.compileAgent = await compile(/toolresult_agent_wasm_bg/, wasm);
      c0 = performance.now();
      await t.loadSchemaEngine();
      t.compileSchema({ type: 'object', required: ['a'] }).validate({});
      out.toolsFirstUse = performance.now() - c0;
      c0 = performance.now();
      await t.loadScreen();
      t.screen('hello');
      out.screenFirstUse = performance.now() - c0;
      const all = performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((n) => n.endsWith('.wasm'));
      out.compileTools = await compile(/toolresult_schema_wasm_bg/, all);
      out.compileScreen = await compile(/toolresult_screen_wasm_bg/, all);
      return out;
    });
    samples.push(s);
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.close();
}

const m = (k) => median(samples.map((s) => s[k]));
const ms = (x) => `${x.toFixed(1)} ms`;
const version = await (async () => {
  const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const v = b.version();
  await b.close();
  return v;
})();

const md = `# The package in a browser: first-use cost

Measured by \`bench/browser.mjs\` in headless Chromium ${version} on the web demo
(\`web-demo/dist\`, served on loopback with its CSP; median of ${RUNS} cold loads, each in a
fresh browser context). Loopback has no network latency: the times are CPU costs, the floor
of what a user sees; add the download time of the sizes below on a real connection.

## What a user downloads (gzip)

| step | files | gzip |
|---|---|---:|
| the page (HTML, CSS, JS) | ${shell.length} | ${kb(sum(shell))} |
| + core module (\`init()\`: validation, builders, bounding, locate, renderers) | ${envelope.length} | ${kb(sum(envelope))} |
| + validation worker (its JS; it reuses the core module's URL) | ${worker.length} | ${kb(sum(worker))} |
| + agent module (\`loadAgentModule()\`: store, references, context budgets, normalization, conversions, diffs) | ${agentFiles.length} | ${kb(sum(agentFiles))} |
| + JSON Schema engine module (\`loadSchemaEngine()\`: \`compileSchema\`, \`ToolRegistry\`) | ${tools.length} | ${kb(sum(tools))} |
| + screen module (\`loadScreen()\`) | ${screenFiles.length} | ${kb(sum(screenFiles))} |

A page that validates and renders results needs the first three rows:
**${kb(sum(shell) + sum(envelope) + sum(worker))}** (docs/internals/modules.md). Storing, referencing or converting
them adds the agent module: **${kb(sum(shell) + sum(envelope) + sum(worker) + sum(agentFiles))}**; checking JSON Schemas
adds the engine to that: **${kb(sum(shell) + sum(envelope) + sum(worker) + sum(agentFiles) + sum(tools))}**.

| file | raw | gzip |
|---|---:|---:|
${files.map((f) => `| \`${f.replace(/-[A-Za-z0-9_-]{8}\./, '-[hash].')}\` | ${kb(size[f].raw)} | ${kb(size[f].gzip)} |`).join('\n')}

## Time (median)

| what | time |
|---|---:|
| DOMContentLoaded | ${ms(m('domContentLoaded'))} |
| page ready (core module instantiated, \`init()\` resolved) | ${ms(m('ready'))} |
| first validation (click → issues shown; the worker starts and loads its module) | ${ms(m('firstValidation'))} |
| core module: \`WebAssembly.compileStreaming\` | ${ms(m('compileCore'))} |
| agent module: \`WebAssembly.compileStreaming\` | ${ms(m('compileAgent'))} |
| agent module: \`loadAgentModule()\` + first \`toReference()\` | ${ms(m('agentFirstUse'))} |
| JSON Schema engine module: \`WebAssembly.compileStreaming\` | ${ms(m('compileTools'))} |
| JSON Schema engine module: \`loadSchemaEngine()\` + first schema validation | ${ms(m('toolsFirstUse'))} |
| screen module: \`WebAssembly.compileStreaming\` | ${ms(m('compileScreen'))} |
| screen module: \`loadScreen()\` + first \`screen()\` | ${ms(m('screenFirstUse'))} |
`;
console.log(md);
if (!smoke) writeFileSync(path.join(here, 'BROWSER.md'), md);
