// A throwaway PostgreSQL server for the tests and the bench: Debian's
// PostgreSQL (installed with apt-get when missing and we are root), `initdb`
// into a temp folder, `pg_ctl` on a free loopback port, trust auth, removed on
// `stop()`. initdb refuses to run as root, so as root the server runs as the
// `postgres` user the Debian package creates.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

function findBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : undefined;
}

/** The PostgreSQL binaries folder, installing the Debian package if needed. */
export function postgresBin() {
  let bin = findBin();
  if (!bin && process.getuid?.() === 0) {
    execFileSync('apt-get', ['install', '-y', 'postgresql'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    bin = findBin();
  }
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql) and cannot be installed without root');
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server. Returns `{ connection, port, stop(), restart(), run(sql) }`;
 * `connection` is pg's connection options for the `toolresult` superuser.
 */
export async function startPostgres({ fsync = true } = {}) {
  const bin = postgresBin();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'toolresult-pg-'));
  const data = path.join(dir, 'data');
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const as = (cmd, args, opts = {}) =>
    root ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], opts) : execFileSync(path.join(bin, cmd), args, opts);
  // Without blocking the event loop, so clients in this process live through it.
  const asAsync = (cmd, args) =>
    root ? promisify(execFile)('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]) : promisify(execFile)(path.join(bin, cmd), args);
  as('initdb', ['-D', data, '-A', 'trust', '-U', 'toolresult', '-E', 'UTF8', '--locale=C', '--no-sync'], { stdio: 'pipe' });
  const port = await freePort();
  const options = ['-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', `fsync=${fsync ? 'on' : 'off'}`, '-c', 'max_connections=200'];
  const startArgs = ['-D', data, '-l', path.join(dir, 'log'), '-o', options.join(' '), '-w', '-t', '60', 'start'];
  const start = () => as('pg_ctl', startArgs, { stdio: 'pipe' });
  start();
  let stopped = false;
  return {
    port,
    dir,
    connection: { host: '127.0.0.1', port, user: 'toolresult', database: 'postgres' },
    /** Restarts the server (`fast`: disconnects every client, as an operator's restart does), without blocking. */
    async restart(mode = 'fast', downMs = 300) {
      await asAsync('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      await new Promise((r) => setTimeout(r, downMs));
      await asAsync('pg_ctl', startArgs);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], { stdio: 'pipe' });
      } catch {
        // Already down.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
