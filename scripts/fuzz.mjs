// `npm run fuzz -- --seconds N [--runs M] [--target NAME]`: runs each
// cargo-fuzz target (nightly, libFuzzer; no sanitizer: the code has no
// `unsafe`, and the speed buys executions) for N seconds or M executions,
// whichever comes first, from the committed seeds, and prints the executions
// and crashes per target. Crash inputs land in fuzz/artifacts/; each one found
// becomes a seed in fuzz/seeds/<target>/ (replayed by `npm test`, see
// scripts/fuzz-replay.mjs) and a regression case in tests/hostile/. The depth
// reached is recorded in docs/internals/fuzzing.md.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { seedDirsOf, TARGETS } from './fuzz-targets.mjs';
import { root, run, step, toolsDir } from './lib.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const seconds = Number(flag('--seconds', '60'));
const runs = flag('--runs', undefined);
const only = flag('--target', undefined);
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error(
    'usage: npm run fuzz -- [--seconds N] [--runs M] [--target a,b,… of envelope|builders|json_roundtrip|truncate|convert|tape|render|screen|document|model_bound]',
  );
  process.exit(2);
}

const toolRoot = path.join(toolsDir(), 'cargo-fuzz');
const cargoFuzz = path.join(toolRoot, 'bin', 'cargo-fuzz');
step('fuzz: setup');
run('rustup', ['toolchain', 'install', 'nightly', '--profile', 'minimal']);
if (!existsSync(cargoFuzz)) run('cargo', ['install', 'cargo-fuzz', '--root', toolRoot]);
const env = { ...process.env, PATH: `${path.dirname(cargoFuzz)}${path.delimiter}${process.env.PATH}` };

const results = [];
for (const target of only ? only.split(',') : TARGETS) {
  step(`fuzz: ${target} for ${seconds} s`);
  const corpus = path.join(root, 'fuzz', 'corpus', target);
  mkdirSync(corpus, { recursive: true });
  const extra = target !== 'builders' ? [`-dict=${path.join(root, 'fuzz', 'envelope.dict')}`] : [];
  const seedDirs = seedDirsOf(target);
  const r = spawnSync(
    'cargo',
    [
      '+nightly',
      'fuzz',
      'run',
      '-O',
      '--sanitizer',
      'none',
      target,
      corpus,
      ...seedDirs,
      '--',
      `-max_total_time=${seconds}`,
      ...(runs ? [`-runs=${runs}`] : []),
      '-rss_limit_mb=4096',
      '-max_len=4096',
      ...extra,
    ],
    { cwd: root, env, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const log = `${r.stdout}\n${r.stderr}`;
  const done = log.match(/Done (\d+) runs in (\d+) second/);
  const artifacts = path.join(root, 'fuzz', 'artifacts', target);
  const crashes = existsSync(artifacts) ? readdirSync(artifacts).filter((f) => /^(crash|oom|timeout|leak)-/.test(f)) : [];
  results.push({ target, execs: done ? Number(done[1]) : NaN, seconds: done ? Number(done[2]) : NaN, crashes: crashes.length, exit: r.status });
  if (r.status !== 0) console.error(log.split('\n').slice(-40).join('\n'));
}

console.log('\n| target | execs | seconds | execs/s | crashes |\n|---|---:|---:|---:|---:|');
for (const r of results) {
  console.log(`| ${r.target} | ${r.execs.toLocaleString('en')} | ${r.seconds} | ${Math.round(r.execs / r.seconds).toLocaleString('en')} | ${r.crashes} |`);
}
process.exit(results.every((r) => r.exit === 0 && r.crashes === 0) ? 0 : 1);
