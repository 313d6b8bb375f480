// toolresult/redis describes node-redis structurally (it imports nothing of
// it): this checks that node-redis 5's real types fit, under nodenext.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

test('a node-redis 5 client (createClient, duplicate) and an OpenTelemetry Meter type-check against toolresult/redis', () => {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--skipLibCheck'];
  try {
    execFileSync(process.execPath, [tsc, ...args, path.join(here, 'types-check.ts')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    assert.fail(`tsc: ${e.stdout}${e.stderr}`);
  }
});
