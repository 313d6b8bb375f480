// The advisory audit (scripts/audit.mjs) against advisory databases made here:
// it reads the database offline and fails on an advisory that matches a crate
// of the build, passes when none does, and refuses a path that is no database.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');

/** A one-advisory RustSec database (a git repository, as cargo-deny reads it). */
function database(crate) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolresult-advisories-'));
  mkdirSync(path.join(dir, 'crates', crate), { recursive: true });
  writeFileSync(
    path.join(dir, 'crates', crate, 'RUSTSEC-2099-0001.md'),
    [
      '```toml',
      '[advisory]',
      'id = "RUSTSEC-2099-0001"',
      `package = "${crate}"`,
      'date = "2099-01-01"',
      'url = "https://rustsec.org/advisories/RUSTSEC-2099-0001"',
      'categories = ["memory-corruption"]',
      '',
      '[versions]',
      'patched = [">= 999.0.0"]',
      '```',
      '',
      '# A test advisory',
      '',
      'Made by tests/node/audit.test.mjs.',
      '',
    ].join('\n'),
  );
  const git = (...args) => assert.equal(spawnSync('git', args, { cwd: dir }).status, 0, `git ${args.join(' ')}`);
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=test@localhost', '-c', 'user.name=test', 'commit', '-qm', 'test advisory');
  return dir;
}

function audit(...args) {
  return spawnSync(process.execPath, ['scripts/audit.mjs', ...args], { cwd: root, encoding: 'utf8' });
}

test('an advisory for a crate of the build fails the audit, naming it', () => {
  const db = database('itoa');
  try {
    const r = audit('--db', db);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /RUSTSEC-2099-0001/);
  } finally {
    rmSync(db, { recursive: true, force: true });
  }
});

test('an advisory for a crate the build does not use passes', () => {
  const db = database('no-such-crate-in-toolresult');
  try {
    const r = audit('--db', db);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /advisories ok/);
  } finally {
    rmSync(db, { recursive: true, force: true });
  }
});

test('without a database it says how to run it', () => {
  for (const args of [[], ['--db', path.join(os.tmpdir(), 'no-such-advisory-db')]]) {
    const r = audit(...args);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /usage: npm run audit -- --db PATH/);
  }
});
