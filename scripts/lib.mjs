// Shared helpers for the repo scripts: paths and a child-process runner that
// streams output and fails loudly.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

export function wasmBindgenBin() {
  return path.join(root, '.tools', `wasm-bindgen-${wasmBindgenVersion()}`, 'bin', 'wasm-bindgen');
}

/** cargo-deny, pinned, built into .tools/ (deny.toml; `npm test` runs it offline). */
export const CARGO_DENY_VERSION = '0.20.2';
export function cargoDenyBin() {
  return path.join(root, '.tools', `cargo-deny-${CARGO_DENY_VERSION}`, 'bin', 'cargo-deny');
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

/** Runs a command and returns its stdout ('' if it cannot run). */
export function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
  return r.status === 0 ? r.stdout : '';
}

export function step(title) {
  console.log(`\n=== ${title}`);
}
