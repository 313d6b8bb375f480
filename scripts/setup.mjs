// Installs what a job needs, skipping whatever is already there.
//
//   node scripts/setup.mjs              the build (`npm start`, `npm run build`): the wasm32 rustup
//                                       target, the wasm-bindgen CLI (pinned, in .tools/) and the
//                                       npm packages. Nothing else, so a first `npm start` is quick.
//   node scripts/setup.mjs --for test   also what only `npm test` checks with: the no-std target, the
//                                       MSRV toolchain, cargo-deny, Biome and the runtimes of
//                                       tests/runtimes/ (Node 22 and 24, Bun, Deno, workerd).
//   node scripts/setup.mjs --for audit  also cargo-deny (`npm run audit`).
//
// Chromium, which the browser tests need, is installed by scripts/test.mjs when missing.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { biomeBin, ensureBiome, BIOME_VERSION } from './biome.mjs';
import { CARGO_DENY_VERSION, capture, cargoDenyBin, msrv, root, run, step, wasmBindgenBin, wasmBindgenVersion } from './lib.mjs';
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
  step(`setup: cargo-deny ${CARGO_DENY_VERSION} (licenses, bans, sources; in .tools/)`);
  if (existsSync(cargoDenyBin())) {
    console.log(`present: ${cargoDenyBin()}`);
  } else {
    run('cargo', ['install', 'cargo-deny', '--version', CARGO_DENY_VERSION, '--locked', '--root', path.dirname(path.dirname(cargoDenyBin()))]);
  }
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
  step(`setup: Biome ${BIOME_VERSION} (formatter and linter, in .tools/; see scripts/biome.mjs)`);
  if (existsSync(biomeBin())) console.log(`present: ${biomeBin()}`);
  else console.log(`installed: ${ensureBiome()}`);

  // The runtimes tests/runtimes/ runs the smoke suite in (scripts/runtimes.mjs).
  step(
    `setup: runtimes (${Object.values(RUNTIMES)
      .map((r) => `${r.title} ${r.version}`)
      .join(', ')}; in .tools/)`,
  );
  for (const id of Object.keys(RUNTIMES)) {
    if (existsSync(runtimeBin(id))) console.log(`present: ${runtimeBin(id)}`);
    else console.log(`installed: ${ensureRuntime(id)}`);
  }
}
