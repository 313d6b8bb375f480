// Replays every fuzz target over its committed seeds (fuzz/seeds/, the
// crash regressions included) on stable Rust, without coverage
// instrumentation: libFuzzer runs each file given by name once and aborts on
// the first failing assertion or panic. Part of `npm test`, so a crash found
// once cannot come back unnoticed (docs/internals/fuzzing.md).
import { readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { seedDirsOf, TARGETS } from './fuzz-targets.mjs';
import { root, run } from './lib.mjs';

const manifest = path.join(root, 'fuzz', 'Cargo.toml');
run('cargo', ['build', '--manifest-path', manifest, '--bins']);

let failed = 0;
for (const target of TARGETS) {
  const files = seedDirsOf(target).flatMap((dir) =>
    readdirSync(dir)
      .map((f) => path.join(dir, f))
      .filter((f) => statSync(f).isFile()),
  );
  const bin = path.join(root, 'fuzz', 'target', 'debug', target);
  const r = spawnSync(bin, ['-rss_limit_mb=4096', ...files], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ran = (r.stderr.match(/^Executed /gm) ?? []).length;
  const ok = r.status === 0 && ran === files.length;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${target}: ${ran}/${files.length} inputs`);
  if (!ok) {
    failed++;
    console.error(r.stderr.split('\n').slice(-30).join('\n'));
  }
}
if (failed) {
  console.error(`${failed} fuzz target(s) failed on their committed inputs`);
  process.exit(1);
}
