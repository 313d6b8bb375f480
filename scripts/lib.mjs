// Shared helpers for the repo scripts: paths and a child-process runner that
// streams output and fails loudly.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const pkgDir = path.join(root, 'bindings', 'typescript');

/** A version the workspace's Cargo.toml pins (one source of truth). */
function cargoTomlVersion(pattern, what) {
  const m = readFileSync(path.join(root, 'Cargo.toml'), 'utf8').match(pattern);
  if (!m) throw new Error(`Cargo.toml must ${what}`);
  return m[1];
}

/** The exact wasm-bindgen version pinned in Cargo.toml. */
export function wasmBindgenVersion() {
  return cargoTomlVersion(/^wasm-bindgen\s*=\s*"=([0-9.]+)"/m, 'pin wasm-bindgen as "=x.y.z"');
}

/** The declared MSRV (`rust-version` in Cargo.toml), which `npm test` builds the published crates with. */
export function msrv() {
  return cargoTomlVersion(/^rust-version\s*=\s*"([0-9.]+)"/m, 'declare rust-version = "x.y"');
}

/**
 * Where the pinned tools live (wasm-bindgen, cargo-deny, Biome, the runtimes):
 * a per-user cache shared by every clone, so a second clone does not build
 * them again. `TOOLRESULT_TOOLS` overrides it.
 */
export function toolsDir() {
  if (process.env.TOOLRESULT_TOOLS) return path.resolve(process.env.TOOLRESULT_TOOLS);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'toolresult', 'tools');
}

/** The Python of the screen model's training script: a venv in the tools cache (scripts/setup.mjs --for test). */
export function screenModelPython() {
  return path.join(toolsDir(), 'screen-model-venv', 'bin', 'python');
}

export function wasmBindgenBin() {
  return path.join(toolsDir(), `wasm-bindgen-${wasmBindgenVersion()}`, 'bin', 'wasm-bindgen');
}

/** cargo-deny, pinned, built into the tools cache (deny.toml; `npm test` runs it offline). */
export const CARGO_DENY_VERSION = '0.20.2';
export function cargoDenyBin() {
  return path.join(toolsDir(), `cargo-deny-${CARGO_DENY_VERSION}`, 'bin', 'cargo-deny');
}

/**
 * cargo-public-api, pinned, built into the tools cache, and the nightly whose rustdoc JSON it reads
 * (scripts/api-check.mjs: the Rust half of `npm run api:check`). Moved together: each
 * cargo-public-api release reads one rustdoc JSON format (0.52.0: format 57, which
 * nightly-2025-08-02 does not write yet), and the listing can differ between nightlies.
 */
export const CARGO_PUBLIC_API_VERSION = '0.52.0';
export const PUBLIC_API_NIGHTLY = 'nightly-2026-05-20';
export function cargoPublicApiBin() {
  return path.join(toolsDir(), `cargo-public-api-${CARGO_PUBLIC_API_VERSION}`, 'bin', 'cargo-public-api');
}

export function binPath(name) {
  return path.join(root, 'node_modules', '.bin', name);
}

/** Runs a command, inheriting stdio; throws with the command line on failure. */
export function run(cmd, args, opts = {}) {
  const shown = [cmd, ...args].join(' ');
  console.log(`$ ${shown}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) throw new Error(`${shown}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${shown}: exit code ${r.status}`);
}

/**
 * Runs independent commands at once (the build's wasm-bindgen, wasm-opt and tsc
 * steps: each uses one core), inheriting stdio; rejects with the first
 * failure's command line once all have ended.
 */
export async function runAll(commands, opts = {}) {
  const ended = await Promise.all(
    commands.map(
      ([cmd, args]) =>
        new Promise((resolve) => {
          const shown = [cmd, ...args].join(' ');
          console.log(`$ ${shown}`);
          const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
          child.on('error', (e) => resolve(`${shown}: ${e.message}`));
          child.on('close', (code, signal) => resolve(code === 0 ? undefined : `${shown}: exit code ${code ?? signal}`));
        }),
    ),
  );
  const failed = ended.filter((e) => e !== undefined);
  if (failed.length) throw new Error(failed.join('\n'));
}

/** Runs a command and returns its stdout ('' if it cannot run). */
export function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
  return r.status === 0 ? r.stdout : '';
}

export function step(title) {
  console.log(`\n=== ${title}`);
}
