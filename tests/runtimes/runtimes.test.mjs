// The runtime matrix: the shared smoke suite (smoke.mjs) in the Node that runs
// this test, Node 22 and 24, Bun, Deno 2 and workerd, each against the PACKED
// package installed into a scratch project, as a user gets it. Node, Bun and
// Deno run driver.mjs (the endpoints as a plain Request → Response call);
// workerd serves worker.mjs, bundled with the `workerd` export condition and
// the .wasm files as modules, and the endpoints are checked over real HTTP on
// loopback. The binaries are pinned in scripts/runtimes.mjs and installed into
// .tools/ by `node scripts/setup.mjs --for test`.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { RUNTIMES, runtimeBin, runtimeVersion } from '../../scripts/runtimes.mjs';
import { httpChecks, runChecks } from './smoke.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const pkgDir = path.join(root, 'bindings', 'typescript');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const require = createRequire(import.meta.url);
let work;
let project;

// Every check of smoke.mjs plus the five HTTP ones: a runtime that ran fewer did not run them all.
const SMOKE = 10;
const HTTP = 5;

before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'toolresult-runtimes-'));
  const out = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', work], { cwd: pkgDir, encoding: 'utf8' }));
  project = path.join(work, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'runtimes', version: '1.0.0', private: true, type: 'module' }));
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--offline', path.join(work, out[0].filename)], { cwd: project, stdio: 'ignore' });
  for (const f of ['smoke.mjs', 'driver.mjs', 'worker.mjs']) copyFileSync(path.join(here, f), path.join(project, f));
});

after(() => rmSync(work, { recursive: true, force: true }));

function binaryOf(id) {
  const bin = runtimeBin(id);
  assert.ok(existsSync(bin), `${RUNTIMES[id].title} ${RUNTIMES[id].version} is not installed: run node scripts/setup.mjs --for test`);
  return bin;
}

/** Runs driver.mjs with `cmd args`, returns its report. */
function drive(cmd, args) {
  const out = execFileSync(cmd, [...args], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const line = out.split('\n').find((l) => l.startsWith('SMOKE-REPORT '));
  assert.ok(line, `no report in:\n${out}`);
  return JSON.parse(line.slice('SMOKE-REPORT '.length));
}

function assertReport(report, count) {
  assert.deepEqual(report.failed, [], `${report.runtime} ${report.version}: failed checks`);
  assert.equal(report.passed.length, count, `${report.runtime} ${report.version}: every check ran`);
}

test(`Node ${process.versions.node} (this Node)`, () => {
  const report = drive(process.execPath, ['driver.mjs']);
  assert.equal(report.version, process.versions.node);
  assertReport(report, SMOKE + HTTP);
});

for (const id of ['node22', 'node24']) {
  test(`${RUNTIMES[id].title} (${RUNTIMES[id].version})`, () => {
    const report = drive(binaryOf(id), ['driver.mjs']);
    assert.equal(report.version, RUNTIMES[id].version);
    assertReport(report, SMOKE + HTTP);
  });
}

test(`Bun (${RUNTIMES.bun.version})`, () => {
  const report = drive(binaryOf('bun'), ['driver.mjs']);
  assert.equal(report.runtime, 'bun');
  assert.equal(report.version, RUNTIMES.bun.version);
  assertReport(report, SMOKE + HTTP);
});

// Reading the package (its .js and .wasm files) is the only permission it needs.
test(`Deno (${RUNTIMES.deno.version})`, () => {
  const report = drive(binaryOf('deno'), ['run', '--no-prompt', `--allow-read=${project}`, 'driver.mjs']);
  assert.equal(report.runtime, 'deno');
  assert.equal(report.version, RUNTIMES.deno.version);
  assertReport(report, SMOKE + HTTP);
});

test("the browser entry's init(), loadAgentModule(), loadSchemaEngine() and loadScreen() take a WebAssembly.Module", async () => {
  const dist = path.join(project, 'node_modules', 'toolresult', 'dist', 'web');
  const web = await import(pathToFileURL(path.join(dist, 'web.js')).href);
  const compiled = (name) => new WebAssembly.Module(readFileSync(path.join(dist, 'wasm', 'web', `${name}_bg.wasm`)));
  assert.throws(
    () => web.validateAgentResult('{}'),
    (e) => e.code === 'not_initialized',
    'nothing works before init',
  );
  await web.init(compiled('toolresult_wasm'));
  const r = web.createSuccess({ input: { tool_name: 'echo' }, output: 'hi' });
  assert.throws(
    () => new web.ResultStore(),
    (e) => e.code === 'not_initialized' && /loadAgentModule/.test(e.message),
    'the store needs the agent module',
  );
  await web.loadAgentModule(compiled('toolresult_agent_wasm'));
  assert.equal(new web.ResultStore().put(r, { dialogId: 'd' }).stored, true);
  await web.loadSchemaEngine(compiled('toolresult_schema_wasm'));
  await web.loadScreen(compiled('toolresult_screen_wasm'));
  assert.equal(web.validateAgentResult('{}').ok, false);
  assert.equal(web.compileSchema({ type: 'integer' }).isValid(3), true);
  // The subpaths' browser files use the instances the main entry loaded.
  const entry = (name) => import(pathToFileURL(path.join(dist, 'entries', `${name}.js`)).href);
  assert.equal((await entry('screen')).screen('fine').verdict, 'accept');
  assert.match((await entry('render')).renderText(r), /hi/);
  assert.equal((await entry('convert')).toMcpCallToolResult(r).content[0].text, 'hi');
});

/** A free loopback port (closed again before workerd binds it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

test(`workerd (${RUNTIMES.workerd.version}): a Worker bundled from the packed package, over HTTP`, async (t) => {
  const workerd = binaryOf('workerd');
  const out = path.join(work, 'worker');
  mkdirSync(out);
  // As Wrangler bundles a Worker: the `workerd` condition first, .wasm imports kept as modules beside the bundle.
  const esbuild = require('esbuild');
  const wasm = new Map();
  await esbuild.build({
    entryPoints: [path.join(project, 'worker.mjs')],
    outfile: path.join(out, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    logLevel: 'warning',
    plugins: [
      {
        name: 'wasm-modules',
        setup(build) {
          build.onResolve({ filter: /\.wasm$/ }, (args) => {
            const file = path.resolve(args.resolveDir, args.path);
            wasm.set(path.basename(file), file);
            return { path: `./${path.basename(file)}`, external: true };
          });
        },
      },
    ],
  });
  assert.deepEqual(
    [...wasm.keys()].sort(),
    ['toolresult_agent_wasm_bg.wasm', 'toolresult_schema_wasm_bg.wasm', 'toolresult_screen_wasm_bg.wasm', 'toolresult_wasm_bg.wasm'],
    'the four modules are imported',
  );
  for (const [name, file] of wasm) copyFileSync(file, path.join(out, name));
  const port = await freePort();
  const modules = ['(name = "worker.js", esModule = embed "worker.js")', ...[...wasm.keys()].map((name) => `(name = "${name}", wasm = embed "${name}")`)];
  writeFileSync(
    path.join(out, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ ${modules.join(', ')} ],
  compatibilityDate = "2026-01-01",
);
`,
  );
  const child = spawn(workerd, ['serve', path.join(out, 'config.capnp')], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  t.after(() => child.kill());
  const origin = `http://127.0.0.1:${port}`;
  let smoke;
  for (let i = 0; ; i++) {
    try {
      smoke = await fetch(`${origin}/smoke`);
      break;
    } catch (e) {
      if (i > 150 || child.exitCode !== null) throw new Error(`workerd did not serve (${e.message}):\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  assert.equal(smoke.status, 200, log);
  const report = await smoke.json();
  assertReport(report, SMOKE + 2);
  assert.equal(report.version, 'Cloudflare-Workers', 'the isolate is a Worker');
  // The endpoints over real HTTP on loopback.
  assertReport({ runtime: 'workerd', version: RUNTIMES.workerd.version, ...(await runChecks(httpChecks(fetch, `${origin}/api`))) }, HTTP);
  assert.equal(runtimeVersion('workerd', workerd).startsWith('workerd '), true);
});
