// The safety screen, measured (docs/screen.md §9). Writes bench/SCREEN.md.
//   - quality on the labelled development set in ../shared/safety-dev
//     (skipped when the folder is absent; never copied into the project),
//     per category and subset, against the targets;
//   - throughput in Node on benign tool output, side by side with a
//     hand-rolled scan of 20 gitleaks-style RegExps (what a team would write
//     instead; it covers secrets only).
//   --check   exit 1 when a target on the development set is missed (npm test)
//   --smoke   a short run that writes nothing (npm test)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screen } from 'toolresult/screen';
import { benign, corpus } from '../tests/screen/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes('--check');
const smoke = process.argv.includes('--smoke');
const devFile = process.env.SAFETY_DEV ?? path.resolve(here, '..', '..', 'shared', 'safety-dev', 'corpus.jsonl');

const rot13 = (s) =>
  s.replace(/[A-Za-z]/g, (c) => {
    const b = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(b + ((c.charCodeAt(0) - b + 13) % 26));
  });
const textOf = (it) => it.text ?? rot13(Buffer.from(it.text_rot13_b64, 'base64').toString('utf8'));

const TARGETS = [
  { name: 'secret recall (subset generated)', target: 0.95, kind: 'min', pick: (it) => it.label === 'secret' && it.subset === 'generated' },
  {
    name: 'executable_payload recall (subset generated)',
    target: 0.9,
    kind: 'min',
    pick: (it) => it.label === 'executable_payload' && it.subset === 'generated',
  },
  {
    name: 'policy_change + fetch_execute recall (subset template)',
    target: 0.95,
    kind: 'min',
    pick: (it) => (it.label === 'policy_change' || it.label === 'fetch_execute_instruction') && it.subset === 'template',
  },
  { name: 'hidden_text recall', target: 0.95, kind: 'min', pick: (it) => it.label === 'hidden_text' },
];

function caught(it, report) {
  const ok = [it.label, ...(it.also ?? [])];
  return report.verdict === 'reject' && report.findings.some((f) => ok.includes(f.category));
}

function quality() {
  if (!existsSync(devFile)) {
    console.log(`safety-dev corpus not found at ${devFile}: quality on the development set skipped`);
    return undefined;
  }
  const items = readFileSync(devFile, 'utf8').split('\n').filter(Boolean).map(JSON.parse);
  const results = items.map((it) => ({ it, report: screen(textOf(it)) }));
  const rows = [];
  const failures = [];
  for (const t of TARGETS) {
    const sel = results.filter((r) => t.pick(r.it));
    const rate = sel.filter((r) => caught(r.it, r.report)).length / sel.length;
    rows.push([t.name, sel.length, rate, `≥ ${(t.target * 100).toFixed(0)} %`]);
    if (rate < t.target) failures.push(`${t.name}: ${(rate * 100).toFixed(1)} %`);
  }
  const benignItems = results.filter((r) => r.it.label === 'benign');
  const secretFp =
    benignItems.filter((r) => r.report.verdict === 'reject' && r.report.findings.some((f) => f.category === 'secret' && f.action === 'reject')).length /
    benignItems.length;
  const anyFp = benignItems.filter((r) => r.report.verdict === 'reject').length / benignItems.length;
  rows.push(['benign rejected with a secret finding', benignItems.length, secretFp, '≤ 1 %']);
  rows.push(['benign rejected (any reason)', benignItems.length, anyFp, '≤ 2 %']);
  if (secretFp > 0.01) failures.push(`benign secret FP ${(secretFp * 100).toFixed(2)} %`);
  if (anyFp > 0.02) failures.push(`benign FP ${(anyFp * 100).toFixed(2)} %`);
  // Every label × subset, reported without a threshold.
  const subsets = new Map();
  for (const r of results) {
    const key = `${r.it.label} / ${r.it.subset}`;
    const s = subsets.get(key) ?? { n: 0, good: 0 };
    s.n++;
    if (r.it.label === 'benign' ? r.report.verdict === 'accept' : caught(r.it, r.report)) s.good++;
    subsets.set(key, s);
  }
  return { rows, failures, subsets, n: items.length };
}

/** What a team would write instead: gitleaks-style RegExps, secrets only. */
const REGEXPS = [
  /\b(AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{36}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{82}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20}\b/g,
  /\bxox[baprs]-[A-Za-z0-9-]{10,}\b/g,
  /\bsk_live_[A-Za-z0-9]{24,}\b/g,
  /\bsk-(proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g,
  /\bsk-ant-api03-[A-Za-z0-9_-]{90,}/g,
  /\bhf_[A-Za-z0-9]{34}\b/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g,
  /\bAIza[A-Za-z0-9_-]{35}\b/g,
  /\bdop_v1_[a-f0-9]{64}\b/g,
  /\bshpat_[a-fA-F0-9]{32}\b/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/g,
  /[a-z+]+:\/\/[^:\s/]+:[^@\s/]+@/g,
  /(?:api[_-]?key|secret|token|password)\s*[:=]\s*['"]?[A-Za-z0-9/+_-]{16,}/gi,
  /\bxapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+\b/g,
  /\bSK[0-9a-fA-F]{32}\b/g,
];
function regexScan(text) {
  let n = 0;
  for (const re of REGEXPS) {
    re.lastIndex = 0;
    while (re.exec(text)) n++;
  }
  return n;
}

function throughput() {
  // ~16 MB of benign tool output: logs, listings, JSON, HTML, prose.
  let text = '';
  for (let seed = 1; text.length < (smoke ? 200_000 : 16_000_000); seed++) text += `${benign(() => ((seed * 9301 + 49297) % 233280) / 233280).join('\n')}\n`;
  const bytes = Buffer.byteLength(text);
  const time = (f) => {
    f();
    const runs = smoke ? 1 : 5;
    const start = performance.now();
    for (let i = 0; i < runs; i++) f();
    return (performance.now() - start) / runs;
  };
  const ms = time(() => screen(text));
  const regexMs = time(() => regexScan(text));
  // Many small results (1 KB each), as an orchestrator screens them.
  const small = corpus(3)
    .filter((i) => i.label === 'benign')
    .map((i) => i.text.padEnd(1024, ' filler text'));
  const smallBytes = small.reduce((a, s) => a + Buffer.byteLength(s), 0);
  const smallMs = time(() => {
    for (const s of small) screen(s);
  });
  return {
    bytes,
    mbps: bytes / 1e6 / (ms / 1000),
    regexMbps: bytes / 1e6 / (regexMs / 1000),
    smallMbps: smallBytes / 1e6 / (smallMs / 1000),
    smallPerCall: (smallMs / small.length) * 1000,
  };
}

const q = quality();
const tp = throughput();
const pct = (x) => `${(x * 100).toFixed(1)} %`;
console.log(
  `throughput: ${tp.mbps.toFixed(1)} MB/s on ${(tp.bytes / 1e6).toFixed(1)} MB of benign text (RegExp scan: ${tp.regexMbps.toFixed(1)} MB/s); 1 KB results: ${tp.smallMbps.toFixed(1)} MB/s, ${tp.smallPerCall.toFixed(1)} µs each`,
);
if (q) {
  for (const [name, n, rate, target] of q.rows) console.log(`${name}: ${pct(rate)} of ${n} (target ${target})`);
}
if (!smoke) {
  const lines = [
    '# Safety screen: quality and speed',
    '',
    `Written by \`node bench/screen.mjs\` (one run; Node ${process.version}, this machine: 2 cores). Targets and`,
    'method: docs/screen.md §9. The development set is `../shared/safety-dev` (2,070 labelled items from public',
    'benchmarks and generators; not part of this repository). A separate, group-disjoint test split with other',
    'templates, goals and credential formats exists elsewhere: expect lower figures there.',
    '',
  ];
  if (q) {
    lines.push('## Targets (development set)', '', '| measure | items | result | target |', '|---|---:|---:|---:|');
    for (const [name, n, rate, target] of q.rows) lines.push(`| ${name} | ${n} | ${pct(rate)} | ${target} |`);
    lines.push(
      '',
      '## Every label and subset',
      '',
      'Recall for attacks; for `benign`, the share accepted.',
      '',
      '| label / subset | items | result |',
      '|---|---:|---:|',
    );
    for (const [key, s] of [...q.subsets].sort()) lines.push(`| ${key} | ${s.n} | ${pct(s.good / s.n)} |`);
  }
  lines.push(
    '',
    '## Throughput (Node, wasm)',
    '',
    '| input | toolresult `screen` (all five categories) | 20 gitleaks-style RegExps (secrets only) |',
    '|---|---:|---:|',
    `| ${(tp.bytes / 1e6).toFixed(1)} MB of benign tool output, one string | ${tp.mbps.toFixed(1)} MB/s | ${tp.regexMbps.toFixed(1)} MB/s |`,
    `| 1 KB results, one call each | ${tp.smallMbps.toFixed(1)} MB/s (${tp.smallPerCall.toFixed(1)} µs per call) | |`,
    '',
  );
  // Keep the held-out section that bench/screen-cv.mjs writes into the same file.
  const file = path.join(here, 'SCREEN.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const cv = old.indexOf('<!-- screen:cv start');
  const cvEnd = old.indexOf('<!-- screen:cv end -->');
  if (cv >= 0 && cvEnd > cv) lines.push(old.slice(cv, cvEnd + '<!-- screen:cv end -->'.length), '');
  writeFileSync(file, lines.join('\n'));
  console.log('wrote bench/SCREEN.md');
}
if (check && q?.failures.length) {
  console.error(`targets missed on the development set: ${q.failures.join('; ')}`);
  process.exit(1);
}
