// A throwaway Redis server for the tests and the bench: Debian's redis-server
// (installed with apt-get when missing and we are root), on a free loopback
// port, its data in a temp folder, removed on `stop()`. AOF on with
// `appendfsync always` by default: a write is on disk before Redis replies.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** The redis-server binary, installing Debian's package if needed (as root; without `apt-get update` first, then with). */
export function redisServerBin() {
  if (!existsSync(BIN) && process.getuid?.() === 0) {
    const install = () =>
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    try {
      install();
    } catch {
      execFileSync('apt-get', ['update'], { stdio: 'inherit' });
      install();
    }
  }
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: install Debian's redis-server (apt-get install -y redis-server) or set REDIS_SERVER`);
  return BIN;
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

async function waitForPort(port, child, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const up = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        // PING until the AOF is loaded (LOADING replies otherwise).
        s.write('PING\r\n');
        s.once('data', (d) => {
          s.destroy();
          resolve(d.toString().startsWith('+PONG'));
        });
      });
      s.once('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > end) throw new Error(`redis-server did not answer on ${port}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/**
 * Starts a server. Returns `{ url, port, dir, restart(), stop() }`.
 * `restart({ signal })` kills it (SIGKILL by default: no shutdown save, only
 * what the AOF holds survives) and starts it again on the same port and data.
 */
export async function startRedis({ aof = true } = {}) {
  const bin = redisServerBin();
  const dir = mkdtempSync(path.join(tmpdir(), 'toolresult-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    aof ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--logfile',
    path.join(dir, 'redis.log'),
    '--daemonize',
    'no',
  ];
  let child;
  const launch = async () => {
    child = spawn(bin, args, { stdio: 'ignore' });
    await waitForPort(port, child);
  };
  await launch();
  let stopped = false;
  const exited = (c) => (c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r)));
  return {
    port,
    dir,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid;
    },
    async restart({ signal = 'SIGKILL', downMs = 300 } = {}) {
      const c = child;
      c.kill(signal);
      await exited(c);
      await new Promise((r) => setTimeout(r, downMs));
      await launch();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      child.kill('SIGKILL');
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
