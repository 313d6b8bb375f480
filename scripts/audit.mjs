// The advisory audit of the Rust dependencies, against a RustSec advisory
// database you have on disk (a clone of the rustsec/advisory-db repository):
//
//   npm run audit -- --db ../advisory-db
//
// CI cannot fetch the database (CONTRIBUTING.md, "Dependency audit"), so
// `npm test` does not run this; run it where a clone is at hand, and before
// a release. cargo-deny reads the clone offline: nothing is fetched.
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cargoDenyBin, run, step } from './lib.mjs';

const at = process.argv.indexOf('--db');
const db = at > 0 ? process.argv[at + 1] : undefined;
if (!db || !existsSync(path.join(db, 'crates')) || !existsSync(path.join(db, '.git'))) {
  console.error('usage: npm run audit -- --db PATH (a git clone of the RustSec advisory-db repository, with its crates/ folder)');
  process.exit(2);
}

// cargo-deny looks for the database under db-path, in a folder named after
// the URL it would fetch from (this name is cargo-deny 0.20's for the default
// RustSec URL); a link to the caller's clone in a scratch folder gives it
// that name without copying or touching the clone.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolresult-audit-'));
try {
  symlinkSync(path.resolve(db), path.join(scratch, 'advisory-db-3157b0e258782691'), 'dir');
  const config = path.join(scratch, 'deny.toml');
  writeFileSync(config, `[advisories]\ndb-path = ${JSON.stringify(scratch)}\ndb-urls = ["https://github.com/rustsec/advisory-db"]\n`);
  // cargo-deny reads every crate of the lock file for every target (the
  // fuzz and Windows ones too); on a fresh tree they are not downloaded yet.
  step('audit: the crates of Cargo.lock (cargo fetch)');
  run('cargo', ['fetch', '--locked']);
  step(`audit: RustSec advisories (cargo-deny, database ${db}, offline)`);
  run(cargoDenyBin(), ['--offline', '--config', config, 'check', 'advisories']);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
