// Installs what a job needs, skipping whatever is already there.
//
//   node scripts/setup.mjs              the build (`npm start`, `npm run build`): the wasm32 rustup
//                                       target, the wasm-bindgen CLI (pinned, in the tools cache) and the
//                                       npm packages. Nothing else, so a first `npm start` is quick.
//   node scripts/setup.mjs --for test   also what only `npm test` checks with: the no-std target, the
//                                       MSRV toolchain, cargo-deny, cargo-public-api and its nightly,
//                                       Biome and the runtimes of tests/runtimes/ (Node 22 and 24, Bun,
//                                       Deno, workerd), and the screen model's Python packages (a venv).
//   node scripts/setup.mjs --for audit  also cargo-deny (`npm run audit`).
//
// Chromium, which the browser tests need, is installed by scripts/test.mjs when missing.
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { biomeBin, ensureBiome, BIOME_VERSION } from './biome.mjs';
import {
  CARGO_DENY_VERSION,
  CARGO_PUBLIC_API_VERSION,
  capture,
  cargoDenyBin,
  cargoPublicApiBin,
  msrv,
  PUBLIC_API_NIGHTLY,
  root,
  run,
  screenModelPython,
  step,
  wasmBindgenBin,
  wasmBindgenVersion,
} from './lib.mjs';
import { RUNTIMES, ensureRuntime, runtimeBin } from './runtimes.mjs';

const at = process.argv.indexOf('--for');
const job = at > 0 ? process.argv[at + 1] : 'build';
if (!['build', 'test', 'audit'].includes(job)) {
  console.error(`usage: node scripts/setup.mjs [--for build|test|audit] (got ${job})`);
  process.exit(2);
}
const forTest = job === 'test';

// The no-std target is only built by `npm test` (the core without std).
const TARGETS = ['wasm32-unknown-unknown', ...(forTest ? ['thumbv7em-none-eabihf'] : [])];

step('setup: rust targets');
const installed = capture('rustup', ['target', 'list', '--installed']).split('\n');
const missing = TARGETS.filter((t) => !installed.includes(t));
if (missing.length) run('rustup', ['target', 'add', ...missing]);
else console.log(`present: ${TARGETS.join(', ')}`);

if (forTest) {
  // The declared MSRV, which `npm test` builds the published crates with.
  step(`setup: Rust ${msrv()} (the declared MSRV; minimal profile)`);
  if (
    capture('rustup', ['toolchain', 'list'])
      .split('\n')
      .some((t) => t.startsWith(`${msrv()}-`))
  )
    console.log(`present: ${msrv()}`);
  else run('rustup', ['toolchain', 'install', msrv(), '--profile', 'minimal']);
}

step('setup: wasm-bindgen-cli');
const version = wasmBindgenVersion();
const bin = wasmBindgenBin();
if (existsSync(bin) && capture(bin, ['--version']).includes(version)) {
  console.log(`present: ${bin}`);
} else {
  // No --locked: the CLI's own lockfile pins crates this toolchain may reject.
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', version, '--root', path.dirname(path.dirname(bin))]);
}

if (forTest || job === 'audit') {
  step(`setup: cargo-deny ${CARGO_DENY_VERSION} (licenses, bans, sources; in the tools cache)`);
  if (existsSync(cargoDenyBin())) {
    console.log(`present: ${cargoDenyBin()}`);
  } else {
    run('cargo', ['install', 'cargo-deny', '--version', CARGO_DENY_VERSION, '--locked', '--root', path.dirname(path.dirname(cargoDenyBin()))]);
  }
}

if (forTest) {
  // The Rust half of `npm run api:check` (scripts/api-check.mjs): rustdoc JSON needs a nightly,
  // pinned to one cargo-public-api reads.
  step(`setup: cargo-public-api ${CARGO_PUBLIC_API_VERSION} (in the tools cache) and Rust ${PUBLIC_API_NIGHTLY} (minimal profile), for api:check`);
  if (
    capture('rustup', ['toolchain', 'list'])
      .split('\n')
      .some((t) => t.startsWith(`${PUBLIC_API_NIGHTLY}-`))
  )
    console.log(`present: ${PUBLIC_API_NIGHTLY}`);
  else run('rustup', ['toolchain', 'install', PUBLIC_API_NIGHTLY, '--profile', 'minimal']);
  if (existsSync(cargoPublicApiBin())) console.log(`present: ${cargoPublicApiBin()}`);
  else
    run('cargo', ['install', 'cargo-public-api', '--version', CARGO_PUBLIC_API_VERSION, '--locked', '--root', path.dirname(path.dirname(cargoPublicApiBin()))]);
}

step('setup: npm packages');
const stamp = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');
if (existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lock).mtimeMs) {
  console.log('present: node_modules');
} else {
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

if (forTest) {
  // The agent frameworks the adapters are tested in, each an npm project of its own
  // (tests/frameworks/README.md): only `npm test` installs them.
  const frameworks = path.join(root, 'tests', 'frameworks');
  for (const name of readdirSync(frameworks).sort()) {
    const dir = path.join(frameworks, name);
    if (!existsSync(path.join(dir, 'package-lock.json'))) continue;
    step(`setup: the ${name} test project (tests/frameworks/${name})`);
    const done = path.join(dir, 'node_modules', '.package-lock.json');
    if (existsSync(done) && statSync(done).mtimeMs >= statSync(path.join(dir, 'package-lock.json')).mtimeMs)
      console.log(`present: tests/frameworks/${name}/node_modules`);
    else run('npm', ['ci', '--no-audit', '--no-fund', '--prefix', dir]);
  }
}

if (forTest) {
  // The screen model's training script (scripts/screen-model/), which `npm test` re-runs to prove
  // the committed weights are what it produces: its pinned packages, in a venv in the tools cache.
  const requirements = path.join(root, 'scripts', 'screen-model', 'requirements.txt');
  const py = screenModelPython();
  const pinned = path.join(path.dirname(path.dirname(py)), 'requirements.txt');
  step("setup: the screen model's Python packages (scripts/screen-model/requirements.txt, in a venv in the tools cache)");
  if (existsSync(py) && existsSync(pinned) && readFileSync(pinned, 'utf8') === readFileSync(requirements, 'utf8')) {
    console.log(`present: ${path.dirname(path.dirname(py))}`);
  } else {
    run(process.env.PYTHON ?? 'python3', ['-m', 'venv', path.dirname(path.dirname(py))]);
    run(py, ['-m', 'pip', 'install', '--quiet', '-r', requirements]);
    copyFileSync(requirements, pinned);
  }
}

if (forTest) {
  step(`setup: Biome ${BIOME_VERSION} (formatter and linter, in the tools cache; see scripts/biome.mjs)`);
  if (existsSync(biomeBin())) console.log(`present: ${biomeBin()}`);
  else console.log(`installed: ${ensureBiome()}`);

  // The runtimes tests/runtimes/ runs the smoke suite in (scripts/runtimes.mjs).
  step(
    `setup: runtimes (${Object.values(RUNTIMES)
      .map((r) => `${r.title} ${r.version}`)
      .join(', ')}; in the tools cache)`,
  );
  for (const id of Object.keys(RUNTIMES)) {
    if (existsSync(runtimeBin(id))) console.log(`present: ${runtimeBin(id)}`);
    else console.log(`installed: ${ensureRuntime(id)}`);
  }
}
