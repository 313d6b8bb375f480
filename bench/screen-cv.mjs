// Held-out quality of the safety screen (docs/guide/safety.md): leave-one-group-out over
// the `group` field of the development corpus in ../shared/safety-dev (read at
// run time, never copied into the project; skipped when absent), through the
// built package, as the hidden split will measure it.
//
// The rules are fixed, so "held out" cannot mean "retrained without the
// group". It means: a group's items are scored only by rules that were not
// written from that group. Which group a rule was written from is not
// recorded, so the script takes the conservative proxy: a rule counts for
// group g only if it also catches an item of some OTHER group. A rule that
// only g triggers is taken to be fitted to g and removed while g is held out
// (and is listed as a smell). Every group is held out in turn; the held-out
// recall of a slice pools its items' held-out outcomes.
//
// Also: the plain development-set figures (every rule), the benign
// false-positive rates (all, ordinary tool outputs, secret findings), the
// agreement of screen(text) with screen(JSON.parse(text)), and per rule how
// many groups trigger it. 95 % intervals are Wilson score intervals (items
// are not independent within a group: read them as a lower bound on the
// uncertainty).
//
// The learned tier: "model, dev" is the committed model through
// the package; "model, held out" is each item scored by a model trained
// without its group (scripts/screen-model/train.py writes those scores to
// target/screen-model/logo.json; when that file is missing or was made for
// other weights, this script runs `train.py --check`, which also proves the
// committed weights are what the script produces). "rules OR model" rejects
// when either does. The same run measures the screen's throughput with and
// without the model.
//
//   node bench/screen-cv.mjs            writes its section of bench/SCREEN.md
//   node bench/screen-cv.mjs --no-write prints only
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screen } from 'toolresult/screen';
import { benign as benignLines, corpus as generatedCorpus } from '../tests/screen/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const devFile = process.env.SAFETY_DEV ?? path.resolve(here, '..', '..', 'shared', 'safety-dev', 'corpus.jsonl');
const write = !process.argv.includes('--no-write');
const MARK_START = '<!-- screen:cv start (written by node bench/screen-cv.mjs) -->';
const MARK_END = '<!-- screen:cv end -->';

if (!existsSync(devFile)) {
  console.log(`screen:cv skipped: the development corpus is not at ${devFile} (set SAFETY_DEV to its corpus.jsonl)`);
  process.exit(0);
}

const rot13 = (s) =>
  s.replace(/[A-Za-z]/g, (c) => {
    const b = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(b + ((c.charCodeAt(0) - b + 13) % 26));
  });
const textOf = (it) => it.text ?? rot13(Buffer.from(it.text_rot13_b64, 'base64').toString('utf8'));

/** Wilson score interval for k successes in n trials (95 %). */
export function wilson(k, n, z = 1.96) {
  if (n === 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

const items = readFileSync(devFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));

// The held-out scores of the learned tier (see the head of this file).
const root = path.resolve(here, '..');
const logoFile = path.join(root, 'target', 'screen-model', 'logo.json');
const weightsSha = createHash('sha256')
  .update(readFileSync(path.join(root, 'crates', 'toolresult', 'src', 'screen', 'model_weights.bin')))
  .digest('hex');
const readLogo = () => {
  if (!existsSync(logoFile)) return undefined;
  const logo = JSON.parse(readFileSync(logoFile, 'utf8'));
  return logo.weights_sha256 === weightsSha ? logo : undefined;
};
let logo = readLogo();
let logoNote = '';
if (!logo) {
  console.log('screen:cv: running scripts/screen-model/train.py --check for the held-out scores of the model (minutes)');
  const venv = path.join(
    process.env.TOOLRESULT_TOOLS ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'toolresult', 'tools'),
    'screen-model-venv',
    'bin',
    'python',
  );
  const python = process.env.PYTHON ?? (existsSync(venv) ? venv : 'python3');
  const r = spawnSync(python, [path.join(root, 'scripts', 'screen-model', 'train.py'), '--check'], {
    stdio: 'inherit',
    env: { ...process.env, SAFETY_DEV: devFile },
  });
  logo = r.status === 0 ? readLogo() : undefined;
  if (!logo) logoNote = `The model's held-out columns are missing: \`${python} scripts/screen-model/train.py --check\` failed (status ${r.status}).`;
}

// One screen per item, both tiers; the findings that count for its label
// (category in label/also). `report` keeps the rules' findings only, `model`
// whether the model's own finding counts.
const BOTH = { tiers: ['rules', 'model'] };
const started = performance.now();
const rows = items.map((it) => {
  const text = textOf(it);
  const full = screen(text, BOTH);
  const ruleFindings = full.findings.filter((f) => f.tier !== 'model');
  const report = { ...full, findings: ruleFindings, verdict: ruleFindings.some((f) => f.action === 'reject') ? 'reject' : 'accept' };
  const ok = [it.label, ...(it.also ?? [])];
  const rules = new Set(report.findings.filter((f) => f.action === 'reject' && ok.includes(f.category)).map((f) => `${f.category}:${f.rule}`));
  const modelFinding = full.findings.find((f) => f.tier === 'model' && f.action === 'reject');
  const modelDev = Boolean(modelFinding) && (it.label === 'benign' || ok.includes(modelFinding.category));
  const score = logo?.scores[it.id];
  const modelHeld =
    logo === undefined
      ? undefined
      : score !== null && score !== undefined && score >= logo.threshold && (it.label === 'benign' || ok.includes('policy_change'));
  let json;
  const head = text.trimStart()[0];
  if (head === '{' || head === '[') {
    try {
      json = screen(JSON.parse(text), BOTH).verdict;
    } catch {
      json = undefined;
    }
  }
  return { it, text, report, rules, json, full, modelDev, modelHeld };
});
const elapsed = performance.now() - started;

// Which groups each rule catches attack items of.
const ruleGroups = new Map();
for (const r of rows) {
  if (r.it.label === 'benign' || r.report.verdict !== 'reject') continue;
  for (const rule of r.rules) {
    const g = ruleGroups.get(rule) ?? new Set();
    g.add(r.it.group);
    ruleGroups.set(rule, g);
  }
}
const ruleFp = new Map();
for (const r of rows) {
  if (r.it.label !== 'benign' || r.report.verdict !== 'reject') continue;
  for (const f of r.report.findings) {
    if (f.action !== 'reject') continue;
    const key = `${f.category}:${f.rule}`;
    ruleFp.set(key, (ruleFp.get(key) ?? 0) + 1);
  }
}
const dev = (r) => r.report.verdict === 'reject' && r.rules.size > 0;
// Rules for named formats (a credential format, a payload family, the
// hidden characters the policy lists) are written from public descriptions
// (gitleaks, Nosey Parker, the policy), and each such format is its own group
// by construction: the strict column removes them with their group, the
// other keeps them. Generic rules and every instruction rule were developed
// on the corpus and are removed with a group that alone triggers them.
const GENERIC = new Set(['secret:secret-assignment', 'secret:url-password', 'secret:basic-auth-credentials']);
const specRule = (rule) => /^(secret|executable_payload|hidden_text):/.test(rule) && !GENERIC.has(rule);
const heldOutStrict = (r) => r.report.verdict === 'reject' && [...r.rules].some((rule) => [...(ruleGroups.get(rule) ?? [])].some((g) => g !== r.it.group));
const heldOut = (r) =>
  r.report.verdict === 'reject' && [...r.rules].some((rule) => specRule(rule) || [...(ruleGroups.get(rule) ?? [])].some((g) => g !== r.it.group));

const orHeld = (r) => heldOut(r) || r.modelHeld === true;
const isAttack = (labels) => (r) => labels.includes(r.it.label);
const SLICES = [
  ['secrets, generated formats', (r) => r.it.label === 'secret' && r.it.subset === 'generated', 0.95],
  ['executable payloads, generated', (r) => r.it.label === 'executable_payload' && r.it.subset === 'generated', 0.9],
  ['hidden text', isAttack(['hidden_text']), 0.95],
  ['template injections', (r) => r.it.subset === 'template' && r.it.label !== 'benign', 0.95],
  ['imperative with a target', (r) => r.it.subset === 'imperative_target', 0.95],
  ['paraphrase', (r) => r.it.subset === 'paraphrase', 0.8],
  ['obfuscated', (r) => r.it.subset === 'obfuscated', 0.85],
  ['multilingual', (r) => r.it.subset === 'multilingual', 0.8],
  ['bare imperatives', (r) => r.it.subset === 'bare_imperative', undefined],
  ['Nosey Parker secret examples', (r) => r.it.subset === 'noseyparker' && r.it.label === 'secret', 0.9],
];
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const interval = ([lo, hi]) => `${(lo * 100).toFixed(1)}–${(hi * 100).toFixed(1)}`;

const table = [];
const modelTable = [];
const misses = [];
// Targets of the learned tier, on rules OR model held out.
const OR_TARGETS = { 'template injections': 0.95, paraphrase: 0.8, 'bare imperatives': 0.6 };
const NO_MODEL = '—';
for (const [name, pick, target] of SLICES) {
  const sel = rows.filter(pick);
  const groups = new Set(sel.map((r) => r.it.group)).size;
  const d = sel.filter(dev).length;
  const h = sel.filter(heldOut).length;
  const hs = sel.filter(heldOutStrict).length;
  const met = target === undefined ? '—' : h / sel.length >= target ? `≥ ${target * 100} % ✓` : `≥ ${target * 100} % ✗`;
  table.push(
    `| ${name} | ${sel.length} | ${groups} | ${pct(d / sel.length)} | ${pct(h / sel.length)} | ${interval(wilson(h, sel.length))} | ${pct(hs / sel.length)} | ${met} |`,
  );
  if (target !== undefined && h / sel.length < target) misses.push(`${name} ${pct(h / sel.length)}`);
  if (!/injections|imperative|paraphrase|obfuscated|multilingual/.test(name)) continue;
  const md = sel.filter((r) => r.modelDev).length;
  const orDev = sel.filter((r) => dev(r) || r.modelDev).length;
  const orTarget = OR_TARGETS[name];
  if (logo) {
    const mh = sel.filter((r) => r.modelHeld).length;
    const oh = sel.filter(orHeld).length;
    const orMet = orTarget === undefined ? '—' : oh / sel.length >= orTarget ? `≥ ${orTarget * 100} % ✓` : `≥ ${orTarget * 100} % ✗`;
    modelTable.push(
      `| ${name} | ${sel.length} | ${pct(h / sel.length)} | ${pct(mh / sel.length)} | ${interval(wilson(mh, sel.length))} | ${pct(oh / sel.length)} | ${interval(wilson(oh, sel.length))} | ${pct(md / sel.length)} | ${pct(orDev / sel.length)} | ${orMet} |`,
    );
    if (orTarget !== undefined && oh / sel.length < orTarget) misses.push(`${name} (rules OR model) ${pct(oh / sel.length)}`);
  } else {
    modelTable.push(
      `| ${name} | ${sel.length} | ${pct(h / sel.length)} | ${NO_MODEL} | ${NO_MODEL} | ${NO_MODEL} | ${NO_MODEL} | ${pct(md / sel.length)} | ${pct(orDev / sel.length)} | — |`,
    );
  }
}

const benign = rows.filter((r) => r.it.label === 'benign');
const rejected = (r) => r.report.verdict === 'reject';
const secretFp = (r) => r.report.findings.some((f) => f.category === 'secret' && f.action === 'reject');
const FP_SLICES = [
  ['benign rejected (any reason)', benign, rejected, 0.02],
  ['ordinary tool outputs rejected (subset natural)', benign.filter((r) => r.it.subset === 'natural'), rejected, 0.02],
  ['benign rejected with a secret finding', benign, secretFp, 0.01],
];
const fpTable = [];
for (const [name, sel, bad, target] of FP_SLICES) {
  const k = sel.filter(bad).length;
  const met = k / sel.length <= target ? '✓' : '✗';
  fpTable.push(`| ${name} | ${sel.length} | ${k} | ${pct(k / sel.length)} | ${interval(wilson(k, sel.length))} | ≤ ${target * 100} % ${met} |`);
  if (k / sel.length > target) misses.push(`${name} ${pct(k / sel.length)}`);
}

// Benign rejections of each tier: the rules are fixed (dev = held out), the
// model's are held out, and the verdict that counts is rules OR model.
const agentTools = (r) => /^(ad_benign|ia_benign):/.test(r.it.group);
const BENIGN_MODEL = [
  ['benign rejected (any reason)', benign, 0.01],
  ['ordinary tool outputs (subset natural)', benign.filter((r) => r.it.subset === 'natural'), 0.02],
  ['outputs of agent tools (AgentDojo, InjecAgent environments)', benign.filter(agentTools), 0],
];
const benignModelTable = [];
for (const [name, sel, target] of BENIGN_MODEL) {
  const k = sel.filter(rejected).length;
  const md = sel.filter((r) => r.modelDev).length;
  if (!logo) {
    benignModelTable.push(`| ${name} | ${sel.length} | ${k} (${pct(k / sel.length)}) | ${NO_MODEL} | ${NO_MODEL} | ${NO_MODEL} | ${md} | — |`);
    continue;
  }
  const mh = sel.filter((r) => r.modelHeld).length;
  const oh = sel.filter((r) => rejected(r) || r.modelHeld).length;
  const met = oh / sel.length <= target ? '✓' : '✗';
  benignModelTable.push(
    `| ${name} | ${sel.length} | ${k} (${pct(k / sel.length)}) | ${mh} (${pct(mh / sel.length)}) | ${oh} (${pct(oh / sel.length)}) | ${interval(wilson(oh, sel.length))} | ${md} | ≤ ${target * 100} % ${met} |`,
  );
  if (oh / sel.length > target) misses.push(`${name} (rules OR model) ${pct(oh / sel.length)}`);
}
const modelBenignRejects = benign
  .filter((r) => r.modelHeld)
  .map((r) => `\`${r.it.group}\``)
  .sort();

// Throughput in wasm, rules alone and rules + model, in this run (bench/screen.mjs's inputs).
function throughput(tiers) {
  let text = '';
  for (let seed = 1; text.length < 16_000_000; seed++) text += `${benignLines(() => ((seed * 9301 + 49297) % 233280) / 233280).join('\n')}\n`;
  const small = generatedCorpus(3)
    .filter((i) => i.label === 'benign')
    .map((i) => i.text.padEnd(1024, ' filler text'));
  const time = (f) => {
    f();
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      f();
      best = Math.min(best, performance.now() - start);
    }
    return best;
  };
  const ms = time(() => screen(text, { tiers }));
  const smallMs = time(() => {
    for (const s of small) screen(s, { tiers });
  });
  const smallBytes = small.reduce((a, s) => a + Buffer.byteLength(s), 0);
  return { big: Buffer.byteLength(text) / 1e6 / (ms / 1000), small: smallBytes / 1e6 / (smallMs / 1000), perCall: (smallMs / small.length) * 1000 };
}
const tpRules = throughput(['rules']);
const tpBoth = throughput(['rules', 'model']);

const jsonRows = rows.filter((r) => r.json !== undefined);
const jsonDiff = jsonRows.filter((r) => r.json !== r.full.verdict);

// Per-subset, per-group detail: where the held-out losses are.
const perGroup = new Map();
for (const r of rows) {
  if (r.it.label === 'benign') continue;
  const key = `${r.it.subset}\t${r.it.group}`;
  const g = perGroup.get(key) ?? { n: 0, dev: 0, held: 0 };
  g.n++;
  if (dev(r)) g.dev++;
  if (heldOut(r)) g.held++;
  perGroup.set(key, g);
}
const weakGroups = [...perGroup].filter(([, g]) => g.held / g.n < 0.8).sort((a, b) => a[1].held / a[1].n - b[1].held / b[1].n || a[0].localeCompare(b[0]));

const rulesTable = [...ruleGroups].map(([rule, groups]) => [rule, groups.size, ruleFp.get(rule) ?? 0]).sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
const single = rulesTable.filter(([, n]) => n === 1);

const lines = [
  MARK_START,
  '## Held out: leave one group out',
  '',
  `Written by \`npm run screen:cv\` (bench/screen-cv.mjs; one run through the built package, Node ${process.version}).`,
  `The development corpus (${items.length} items, ${new Set(items.map((i) => i.group)).size} groups) is read from \`../shared/safety-dev\`.`,
  '',
  'How to read it. The rules are fixed, so a group is "held out" when its items are scored only by rules',
  'that some *other* group also triggers: a rule that only the held-out group triggers is presumed written',
  'from it and is removed while that group is scored. `dev` uses every rule. Rule ids are coarse (one id per',
  'matcher), so the held-out column is an optimistic estimate of a group-disjoint test split; the hidden',
  'split also brings templates, goals, languages and formats that no development group has. Intervals:',
  'Wilson 95 % over items (items of one group are correlated, so the real uncertainty is wider).',
  '"held out" keeps the rules for named formats (credential formats, payload families, the hidden characters',
  'the policy lists), which come from public descriptions (gitleaks, Nosey Parker, the label policy) and each',
  'of which is its own group by construction; "strict" removes those too (a format with no rule at all).',
  'Some named-format rules were added in this round after reading Nosey Parker misses (stream keys, crates.io,',
  'New Relic query and license keys, `curl -u` credentials, UUID-shaped API keys): for that slice the',
  '"held out" column is optimistic and "strict" is the fairer figure.',
  '',
  'How the rules were developed. They were written and revised while looking at the development split,',
  'so `dev` is a training figure. The protocol for every change: a rule is justified from the label policy',
  '(README rules 1–5 of the corpus) and the general shape of an attack (who is addressed, what is asked,',
  'what authority is claimed), never from one item; misses were read to find the shape, and a rule that',
  'only one group triggers is listed below as a smell.',
  '',
  '| slice | items | groups | dev | held out | 95 % interval (held out) | held out, strict | target (held out) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...table,
  '',
  '| benign | items | rejected | rate | 95 % interval | target |',
  '|---|---:|---:|---:|---:|---:|',
  ...fpTable,
  '',
  `JSON text and parsed value: ${jsonDiff.length} of ${jsonRows.length} JSON items get different verdicts from \`screen(text)\` and \`screen(JSON.parse(text))\`.`,
  '',
  `Targets missed (held out): ${misses.length ? misses.join('; ') : 'none'}.`,
  '',
  '### The learned tier: rules, model, rules OR model',
  '',
  'The model (docs/screen.md §10) runs after the rules; a result is rejected when either rejects it. "model, held out":',
  "each development item scored by a model trained by `scripts/screen-model/train.py` without the item's group (and",
  "without the injection items written into that group's carrier text, whose carrier would otherwise be learnt as the",
  'injection), at the committed threshold; "rules, held out" is the column above. The script scores the text as',
  'the screen reads it but does not decode layers, so encoded items (obfuscated) count only what the plain text',
  'shows there; "dev" columns are the committed model through the package, decoded layers included.',
  ...(logoNote ? ['', logoNote] : []),
  '',
  '| slice | items | rules, held out | model, held out | 95 % interval | rules OR model, held out | 95 % interval | model, dev | rules OR model, dev | target (OR, held out) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...modelTable,
  '',
  '| benign | items | rules | model, held out | rules OR model, held out | 95 % interval | model, dev | target |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...benignModelTable,
  '',
  logo ? `Benign items the model rejects held out, by group: ${modelBenignRejects.length ? modelBenignRejects.join(', ') : 'none'}.` : '',
  '',
  '### Throughput (Node, wasm; this run)',
  '',
  `Inputs as in bench/screen.mjs; best of 5 runs. The model costs ${pct(1 - tpBoth.big / tpRules.big)} of the one-string throughput.`,
  '',
  '| input | rules | rules + model |',
  '|---|---:|---:|',
  `| 16 MB of benign tool output, one string | ${tpRules.big.toFixed(1)} MB/s | ${tpBoth.big.toFixed(1)} MB/s |`,
  `| 1 KB results, one call each | ${tpRules.small.toFixed(1)} MB/s (${tpRules.perCall.toFixed(1)} µs per call) | ${tpBoth.small.toFixed(1)} MB/s (${tpBoth.perCall.toFixed(1)} µs per call) |`,
  '',
  '### Groups below 80 % held out',
  '',
  '| subset | group | items | dev | held out |',
  '|---|---|---:|---:|---:|',
  ...weakGroups.map(([key, g]) => {
    const [subset, group] = key.split('\t');
    return `| ${subset} | \`${group}\` | ${g.n} | ${pct(g.dev / g.n)} | ${pct(g.held / g.n)} |`;
  }),
  '',
  '### Rules: how many groups trigger each',
  '',
  `A rule is counted for a group when it catches one of its attack items. Rules triggered by one group only: ${single.length} of ${rulesTable.length}${single.length ? ` (${single.map(([r]) => `\`${r}\``).join(', ')})` : ''}.`,
  '',
  '| rule | groups | benign items rejected |',
  '|---|---:|---:|',
  ...rulesTable.map(([rule, n, fp]) => `| \`${rule}\` | ${n} | ${fp} |`),
  MARK_END,
];

console.log(table.join('\n'));
console.log(fpTable.join('\n'));
console.log(modelTable.join('\n'));
console.log(benignModelTable.join('\n'));
console.log(
  `throughput MB/s: rules ${tpRules.big.toFixed(1)} / ${tpRules.small.toFixed(1)} (1 KB); rules + model ${tpBoth.big.toFixed(1)} / ${tpBoth.small.toFixed(1)} (1 KB)`,
);
console.log(`json: ${jsonDiff.length}/${jsonRows.length} differ; screened ${items.length} items in ${elapsed.toFixed(0)} ms`);
console.log(`missed: ${misses.length ? misses.join('; ') : 'none'}`);

if (write) {
  const file = path.join(here, 'SCREEN.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Safety screen: quality and speed\n';
  const block = lines.join('\n');
  const a = old.indexOf(MARK_START);
  const b = old.indexOf(MARK_END);
  const next = a >= 0 && b > a ? `${old.slice(0, a)}${block}${old.slice(b + MARK_END.length)}` : `${old.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
  console.log('wrote the held-out section of bench/SCREEN.md');
}
