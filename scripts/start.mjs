// `npm start`: builds (via package.json), runs the CLI over examples/ (files
// named invalid-* are meant to fail; every example must get the verdict its
// name promises), then serves the web demo (web-demo/dist) on localhost with
// its Content-Security-Policy until stopped. PORT picks the port (default 5173).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root, pkgDir, step } from './lib.mjs';
import { serve } from './serve.mjs';

const dir = path.join(root, 'examples');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
step(`toolresult validate examples/*.json (${files.length} files)`);
const cli = path.join(pkgDir, 'bin', 'toolresult.cjs');
const r = spawnSync(process.execPath, [cli, 'validate', ...files.map((f) => path.join('examples', f))], {
  cwd: root,
  stdio: 'inherit',
});
if (r.status === 2 || r.status === null) process.exit(2);

const json = spawnSync(process.execPath, [cli, 'validate', '--json', ...files.map((f) => path.join(dir, f))], {
  encoding: 'utf8',
});
const wrong = JSON.parse(json.stdout).filter((e) => e.ok === path.basename(e.file).startsWith('invalid-'));
if (wrong.length) {
  console.error(`unexpected verdicts: ${wrong.map((e) => e.file).join(', ')}`);
  process.exit(1);
}
console.log('every example got the verdict its name promises');

step('web demo');
const dist = path.join(root, 'web-demo', 'dist');
const { url } = await serve(dist, { port: Number(process.env.PORT ?? 5173) });
console.log(`The toolresult web demo is at ${url} (Ctrl-C stops it).`);
