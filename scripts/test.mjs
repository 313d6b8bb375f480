// `npm test`: every check, in the order that fails fastest.
import { existsSync } from 'node:fs';
import { biomeBin } from './biome.mjs';
import { cargoDenyBin, msrv, run, screenModelPython, step } from './lib.mjs';

const NO_STD_TARGET = 'thumbv7em-none-eabihf';

step('TypeScript and JavaScript: format and lint (Biome, biome.jsonc)');
run(biomeBin(), ['ci', '.']);

step('layers: no import cycle in Rust or TypeScript; the core uses only earlier layers');
run(process.execPath, ['scripts/check-layers.mjs']);

step('rust: dependencies: licenses, bans, sources (cargo-deny, deny.toml)');
// The advisories check needs the RustSec database from GitHub, which this
// machine cannot reach; `npm audit` likewise needs an advisory endpoint the
// registry mirror does not serve (CONTRIBUTING, "Dependency audit").
run(cargoDenyBin(), ['check', 'licenses', 'bans', 'sources']);

step('rust: format');
run('cargo', ['fmt', '--all', '--check']);
// The fuzz targets are a workspace of their own (cargo-fuzz runs them on
// nightly): formatted and compiled here on stable, so an API change that
// breaks one fails `npm test`, not the next fuzzing session.
run('cargo', ['fmt', '--check', '--manifest-path', 'fuzz/Cargo.toml']);

step('rust: clippy (std and no-std)');
run('cargo', ['clippy', '--workspace', '--all-targets', '--', '-D', 'warnings']);
run('cargo', ['clippy', '-p', 'toolresult', '-p', 'toolresult-screen', '--no-default-features', '--target', NO_STD_TARGET, '--', '-D', 'warnings']);

step('rust: docs build without warnings (broken links, bad code blocks)');
run('cargo', ['doc', '--workspace', '--no-deps'], { env: { ...process.env, RUSTDOCFLAGS: '-D warnings' } });

step('rust: tests');
run('cargo', ['test', '--workspace']);

// fuzz/Cargo.lock is not committed (cargo-fuzz resolves its own): no --locked.
step('rust: the usage examples run (each asserts what it shows)');
run('cargo', ['run', '-q', '-p', 'toolresult', '--example', 'quickstart']);
run('cargo', ['run', '-q', '-p', 'toolresult-schema', '--example', 'tool_registry']);

step('rust: the fuzz targets replay their committed seeds and crash regressions (fuzz/, stable)');
run(process.execPath, ['scripts/fuzz-replay.mjs']);

step(`rust: the published crates build with the declared MSRV (Rust ${msrv()}, Cargo.toml rust-version)`);
run('cargo', [`+${msrv()}`, 'check', '--locked', '-p', 'toolresult', '-p', 'toolresult-schema', '-p', 'toolresult-screen']);
run('cargo', [`+${msrv()}`, 'check', '--locked', '-p', 'toolresult', '-p', 'toolresult-screen', '--no-default-features']);

step(`rust: core builds without std (${NO_STD_TARGET})`);
run('cargo', ['build', '-p', 'toolresult', '-p', 'toolresult-screen', '--no-default-features', '--target', NO_STD_TARGET]);

step('generated schemas and types are fresh');
run(process.execPath, ['scripts/generate.mjs', '--check']);

step('build: wasm + TypeScript (type check)');
run(process.execPath, ['scripts/build.mjs']);

step('api: the public API (npm subpath exports, Rust crates) matches the reviewed reports in api/ (npm run api:check)');
run(process.execPath, ['scripts/api-check.mjs']);

step('docs: the generated API reference (docs/reference/api/, TypeDoc) matches the sources (npm run docs:reference)');
run(process.execPath, ['scripts/docs-reference.mjs', '--check']);

step('bench: smoke run (proves the benchmark still works; asserts nothing about time)');
run(process.execPath, ['bench/run.mjs', '--smoke']);

step('node: the shared suites against the browser build (TOOLRESULT_BUILD=web)');
const shared = [
  'tests/node/fixtures.test.mjs',
  'tests/node/agreement.test.mjs',
  'tests/node/api.test.mjs',
  'tests/node/properties.test.mjs',
  'tests/node/bound.test.mjs',
  'tests/node/budget.test.mjs',
  'tests/node/history.test.mjs',
  'tests/node/paging.test.mjs',
  'tests/node/schema.test.mjs',
  'tests/node/schema-plan.test.mjs',
  'tests/node/standard-schema.test.mjs',
  'tests/node/store.test.mjs',
  'tests/node/service.test.mjs',
  'tests/node/convert.test.mjs',
  'tests/node/preview.test.mjs',
  'tests/node/render.test.mjs',
  'tests/node/dom.test.mjs',
  'tests/node/screen.test.mjs',
  'tests/node/document.test.mjs',
  'tests/node/screen-quality.test.mjs',
  'tests/node/locate.test.mjs',
  'tests/node/idb-store.test.mjs',
  'tests/node/idb-encryption.test.mjs',
  'tests/hostile/',
  'tests/conformance/',
];
run(process.execPath, ['--test', ...shared], { env: { ...process.env, TOOLRESULT_BUILD: 'web' } });

// Re-trains the screen model (no held-out run: seconds) and compares the bytes with the committed
// weights and constants; the held-out run that chose the threshold is `npm run screen:cv`'s.
// Skipped (with a note) when ../shared/safety-dev is absent.
step('screen: the committed model is what scripts/screen-model/train.py produces (and the shared hash vectors)');
run(screenModelPython(), ['scripts/screen-model/train.py', '--check', '--no-cv']);

// Skipped (with a note) when ../shared/safety-dev is absent; the corpus is never copied here.
step('screen: quality targets on the development set (../shared/safety-dev) and a throughput smoke run');
run(process.execPath, ['bench/screen.mjs', '--check', '--smoke']);

// Debian's Chromium, installed with apt-get when missing (as root, as on CI):
// the web demo and the bundler pages run in it.
step('browser: the web demo in headless Chromium (strict CSP, Trusted Types, IndexedDB, worker, axe-core)');
ensureChromium();
run(process.execPath, ['--test', '--test-concurrency=1', 'tests/browser/']);
run(process.execPath, ['bench/browser.mjs', '--smoke']);

step('node: tests against the built Node package, then packaging (npm pack; CJS, ESM, TypeScript, Vite, webpack, esbuild; attw, publint)');
run(process.execPath, ['--test', 'tests/node/', 'tests/hostile/', 'tests/conformance/', 'tests/packaging/']);

step('docs: every js/ts/jsx block of README.md and docs/ runs against the built package (scripts/docs-test.mjs)');
run(process.execPath, ['scripts/docs-test.mjs']);

// The packed package in every runtime a team deploys to (pinned in scripts/runtimes.mjs,
// installed into the tools cache by `setup.mjs --for test`): workerd serves a Worker bundled from it.
step('runtimes: the smoke suite and the HTTP endpoints in Node 20, 22 and 24, Bun, Deno and workerd (the packed package)');
run(process.execPath, ['--test', 'tests/runtimes/']);

// The framework adapters (src/adapters/) inside the frameworks themselves: MCP SDK v1 and v2 in-process;
// AI SDK 7 (`ai`) and 6 (`ai-v6`) with their mock models; LangChain's createAgent with its fake model;
// the OpenAI Agents Runner with its scripted model; the spans with OpenTelemetry's in-memory exporter.
step('adapters: toolresult/mcp, /ai, /langchain and /openai-agents (and their spans) against the installed framework majors');
run(process.execPath, ['--test', 'tests/adapters/']);

// The adapters for agent frameworks installed beside the package, each in its own
// project under tests/frameworks/ (its set-up is in scripts/setup.mjs).
step('adapters: the agent frameworks of tests/frameworks/ (each its own npm project, the built package installed into it)');
run(process.execPath, ['--test', '--test-concurrency=1', 'tests/frameworks/']);

// Starts its own server (Debian's PostgreSQL, installed with apt-get when missing).
step('postgres: the store contract, the multi-node tests and the audit log (concurrent writers, tampering) against a real server');
run(process.execPath, ['--test', 'tests/postgres/']);
run(process.execPath, ['bench/stores.mjs', '--smoke']);

// Starts its own redis-server (Debian's, installed with apt-get when missing) with AOF on.
step('redis: toolresult/redis Pub/Sub and Streams against a real server, producers and consumers killed, Redis restarted');
ensureRedis();
run(process.execPath, ['--test', 'tests/redis/']);
run(process.execPath, ['bench/redis.mjs', '--smoke']);

function ensureChromium() {
  const bin = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (existsSync(bin)) {
    console.log(`present: ${bin}`);
    return;
  }
  if (process.getuid?.() !== 0) throw new Error(`${bin} is missing: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM`);
  try {
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  } catch {
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  }
}

function ensureRedis() {
  const bin = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
  if (existsSync(bin)) {
    console.log(`present: ${bin}`);
    return;
  }
  if (process.getuid?.() !== 0) throw new Error(`${bin} is missing: install Debian's redis-server (apt-get install -y redis-server) or set REDIS_SERVER`);
  try {
    run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server']);
  } catch {
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server']);
  }
}
