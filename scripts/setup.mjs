// Installs what the build needs, skipping whatever is already there:
// rustup targets, the MSRV toolchain, the wasm-bindgen CLI and cargo-deny at pinned versions
// (repo-local, in .tools/), and the npm packages.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { biomeBin, ensureBiome, BIOME_VERSION } from './biome.mjs';
import { CARGO_DENY_VERSION, capture, cargoDenyBin, msrv, root, run, step, wasmBindgenBin, wasmBindgenVersion } from './lib.mjs';

const TARGETS = ['wasm32-unknown-unknown', 'thumbv7em-none-eabihf'];

step('setup: rust targets');
const installed = capture('rustup', ['target', 'list', '--installed']).split('\n');
const missing = TARGETS.filter((t) => !installed.includes(t));
if (missing.length) run('rustup', ['target', 'add', ...missing]);
else console.log(`present: ${TARGETS.join(', ')}`);

// The declared MSRV, which `npm test` builds the published crates with.
step(`setup: Rust ${msrv()} (the declared MSRV; minimal profile)`);
if (
  capture('rustup', ['toolchain', 'list'])
    .split('\n')
    .some((t) => t.startsWith(`${msrv()}-`))
)
  console.log(`present: ${msrv()}`);
else run('rustup', ['toolchain', 'install', msrv(), '--profile', 'minimal']);

step('setup: wasm-bindgen-cli');
const version = wasmBindgenVersion();
const bin = wasmBindgenBin();
if (existsSync(bin) && capture(bin, ['--version']).includes(version)) {
  console.log(`present: ${bin}`);
} else {
  // No --locked: the CLI's own lockfile pins crates this toolchain may reject.
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', version, '--root', path.dirname(path.dirname(bin))]);
}

step(`setup: cargo-deny ${CARGO_DENY_VERSION} (licenses, bans, sources; in .tools/)`);
if (existsSync(cargoDenyBin())) {
  console.log(`present: ${cargoDenyBin()}`);
} else {
  run('cargo', ['install', 'cargo-deny', '--version', CARGO_DENY_VERSION, '--locked', '--root', path.dirname(path.dirname(cargoDenyBin()))]);
}

step('setup: npm packages');
const stamp = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');
if (existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lock).mtimeMs) {
  console.log('present: node_modules');
} else {
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

step(`setup: Biome ${BIOME_VERSION} (formatter and linter, in .tools/; see scripts/biome.mjs)`);
if (existsSync(biomeBin())) console.log(`present: ${biomeBin()}`);
else console.log(`installed: ${ensureBiome()}`);
