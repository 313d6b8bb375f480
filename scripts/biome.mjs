// Runs Biome (the TypeScript / JavaScript formatter and linter, biome.jsonc)
// from the tools cache, installing it first when missing: `node scripts/biome.mjs ci .`.
//
// Biome is one native binary per platform, published as optional npm
// dependencies of `@biomejs/biome`. It is not a devDependency: a registry
// that lacks one platform's package (this machine's mirror has no Android
// or current macOS builds) makes `npm ci` refuse the lock file everywhere.
// So the binary for this platform is fetched by itself, like wasm-bindgen.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, run, toolsDir } from './lib.mjs';

export const BIOME_VERSION = '2.6.8';

/** The npm package that holds this platform's binary. */
function platformPackage() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform];
  if (!arch || !platform) throw new Error(`Biome has no build for ${process.platform}-${process.arch}`);
  // glibc or musl: Node reports the glibc version it runs on, if any.
  const musl = platform === 'linux' && !process.report?.getReport?.().header?.glibcVersionRuntime;
  return `@biomejs/cli-${platform}-${arch}${musl ? '-musl' : ''}`;
}

export function biomeBin() {
  return path.join(toolsDir(), `biome-${BIOME_VERSION}`, process.platform === 'win32' ? 'biome.exe' : 'biome');
}

/** Installs the binary into the tools cache unless it is there. */
export function ensureBiome() {
  const bin = biomeBin();
  if (existsSync(bin)) return bin;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'biome-'));
  try {
    run('npm', ['pack', `${platformPackage()}@${BIOME_VERSION}`, '--pack-destination', tmp, '--silent']);
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack wrote no tarball');
    run('tar', ['-xzf', path.join(tmp, tarball), '-C', tmp]);
    mkdirSync(path.dirname(bin), { recursive: true });
    renameSync(path.join(tmp, 'package', path.basename(bin)), bin);
    chmodSync(bin, 0o755);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bin = ensureBiome();
  const r = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit', cwd: root });
  process.exit(r.status ?? 1);
}
