// The built package, installed into a framework's own test project.
//
// Each framework under tests/frameworks/<name>/ is an npm project of its own
// (its own package.json and lockfile, installed by `npm test`'s set-up, never
// by `npm start`): their dependency trees differ (zod 3 and 4, a 400 MB CLI
// binary) and a user installs them beside toolresult, not inside it. The
// adapter resolves its optional peer from where it is installed, so the built
// package is copied (not linked: Node resolves a link to its real path, and
// the peer would then be looked up in the repository's node_modules) into the
// project's node_modules/toolresult, as `npm install toolresult` would put it.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..', '..', 'bindings', 'typescript');

/** Copies the built package into `<projectDir>/node_modules/toolresult` unless the copy is current; returns its path. */
export function installBuiltPackage(projectDir) {
  const dist = path.join(pkgDir, 'dist');
  if (!existsSync(path.join(dist, 'node', 'index.js'))) throw new Error(`no build at ${dist}: run \`npm run build\` first`);
  const target = path.join(projectDir, 'node_modules', 'toolresult');
  const stamp = path.join(target, '.built-from');
  const built = String(statSync(path.join(dist, 'node', 'index.js')).mtimeMs);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === built) return target;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const entry of ['package.json', 'dist', 'schemas', 'bin']) {
    const from = path.join(pkgDir, entry);
    if (existsSync(from)) cpSync(from, path.join(target, entry), { recursive: true });
  }
  writeFileSync(stamp, built);
  return target;
}

/** Whether the project's own dependencies are installed (set-up: `node scripts/setup.mjs --for test`). */
export function projectInstalled(projectDir) {
  return existsSync(path.join(projectDir, 'node_modules', '.package-lock.json'));
}
