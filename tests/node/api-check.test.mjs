// The probe of `npm run api:check` (scripts/api-check.mjs, the npm half): on a
// copy of the built declarations and of the committed reports, an unchanged
// surface passes, an added export fails naming the subpath with the diff, and
// --update rewrites the copy's report. The real dist/ and api/ are only read.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgDir = path.join(root, 'bindings', 'typescript');
const apiDir = path.join(root, 'api');
const SUBPATHS = ['otel', 'mcp'];
let work;
let pkg;
let reports;

const reportsOf = (dir) =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.api.md'))
      .map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]),
  );

function apiCheck(...args) {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'api-check.mjs'), '--only', 'npm', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, TOOLRESULT_API_PACKAGE: pkg, TOOLRESULT_API_REPORTS: reports },
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'toolresult-api-check-'));
  // The package as published, declarations only, its dependencies' types from the workspace;
  // two of its subpath exports, each with its committed report, keep the probe quick
  // (`npm test` checks them all). toolresult/mcp has a browser condition besides.
  pkg = path.join(work, 'package');
  mkdirSync(pkg);
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  manifest.exports = Object.fromEntries(SUBPATHS.map((s) => [`./${s}`, manifest.exports[`./${s}`]]));
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify(manifest, null, 2));
  cpSync(path.join(pkgDir, 'dist'), path.join(pkg, 'dist'), {
    recursive: true,
    filter: (src) => statSync(src).isDirectory() || /\.d\.[cm]?ts$/.test(src) || path.basename(src) === 'package.json',
  });
  symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'), 'dir');
  reports = path.join(work, 'api');
  mkdirSync(reports);
  for (const s of SUBPATHS) cpSync(path.join(apiDir, `toolresult-${s}.api.md`), path.join(reports, `toolresult-${s}.api.md`));
});

after(() => rmSync(work, { recursive: true, force: true }));

test('api:check passes on the unchanged surface', () => {
  const { status, out } = apiCheck();
  assert.equal(status, 0, out);
  for (const s of SUBPATHS) assert.match(out, new RegExp(`unchanged: toolresult/${s} \\(`));
  assert.doesNotMatch(out, /API CHANGED/);
});

test('an added export fails api:check, naming the subpath and showing the diff; --update rewrites the report', () => {
  const realOtel = readFileSync(path.join(pkgDir, 'dist', 'node', 'otel.d.ts'), 'utf8');
  const realReports = reportsOf(apiDir);
  appendFileSync(path.join(pkg, 'dist', 'node', 'otel.d.ts'), '\n/** Added by the api-check probe. */\nexport declare const addedByTheProbe: number;\n');

  const failed = apiCheck();
  assert.equal(failed.status, 1, failed.out);
  assert.match(failed.out, /API CHANGED: toolresult\/otel differs from/);
  assert.match(failed.out, /^\+ export const addedByTheProbe: number;$/m);
  assert.match(failed.out, /npm run api:check -- --update/);
  // Only that subpath changed.
  assert.equal(failed.out.match(/API CHANGED/g).length, 1, failed.out);

  const updated = apiCheck('--update');
  assert.equal(updated.status, 0, updated.out);
  assert.match(updated.out, /updated: toolresult\/otel/);
  assert.match(readFileSync(path.join(reports, 'toolresult-otel.api.md'), 'utf8'), /^export const addedByTheProbe: number;$/m);
  assert.equal(apiCheck().status, 0, 'passes once the report is updated');

  // The real build and reports were only read.
  assert.equal(readFileSync(path.join(pkgDir, 'dist', 'node', 'otel.d.ts'), 'utf8'), realOtel);
  assert.doesNotMatch(realOtel, /addedByTheProbe/);
  assert.deepEqual(reportsOf(apiDir), realReports);
});

test('a subpath without a report, or a report without a subpath, fails api:check', () => {
  rmSync(path.join(reports, 'toolresult-mcp.api.md'));
  writeFileSync(path.join(reports, 'toolresult-gone.api.md'), '# toolresult/gone\n');
  const { status, out } = apiCheck();
  rmSync(path.join(reports, 'toolresult-gone.api.md'));
  cpSync(path.join(apiDir, 'toolresult-mcp.api.md'), path.join(reports, 'toolresult-mcp.api.md'));
  assert.equal(status, 1, out);
  assert.match(out, /API CHANGED: toolresult\/mcp: no committed report/);
  assert.match(out, /toolresult-gone\.api\.md reports an export the package no longer has/);
});
