// `npm run bench`: toolresult side by side with the JS validators users would
// pick instead, in one process on the same inputs. Writes bench/RESULTS.md.
//   --smoke   a seconds-long run that only proves the bench still works
//             (npm test runs it; it asserts nothing about time)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Bench } from 'tinybench';
import { createHash } from 'node:crypto';
import { parseAgentResult, sha256Hex, truncateOutput, validateAgentResult } from 'toolresult';
import * as competitors from './competitors.mjs';
import { inputs } from './inputs.mjs';
import { outputs, outputTextValidators, outputValidators } from './tool-output.mjs';
import { budgetSection } from './budgets.mjs';
import { callsFor, tightLoop } from './tight.mjs';
import { sizesPage, wasmSizes } from './wasm-sizes.mjs';
import { coldStart, coldStartTable } from './cold-start.mjs';

const smoke = process.argv.includes('--smoke');
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const require = createRequire(import.meta.url);

const variants = {
  'toolresult validateAgentResult(string)': () => (text) => validateAgentResult(text).ok,
  'toolresult parseAgentResult(string)': () => (text) => {
    try {
      return parseAgentResult(text) !== undefined;
    } catch {
      return false;
    }
  },
  'toolresult validateAgentResult(object)†': () => {
    const parsed = new Map();
    return (text) => {
      let value = parsed.get(text);
      if (value === undefined) parsed.set(text, (value = JSON.parse(text)));
      return validateAgentResult(value).ok;
    };
  },
  'ajv (compiled)': competitors.ajvCompiled,
  'ajv (standalone)': competitors.ajvStandalone,
  'zod 4': () => competitors.zod({ jitless: false }),
  'zod 4 (jitless)': () => competitors.zod({ jitless: true }),
  valibot: competitors.valibot,
  typebox: competitors.typebox,
  '@cfworker/json-schema': competitors.cfworker,
};
const AJV = 'ajv (compiled)';
const CF = '@cfworker/json-schema';

const validators = {};
for (const [name, make] of Object.entries(variants)) validators[name] = await make();

// Every validator must agree on every input before it is timed.
for (const [inputName, text] of Object.entries(inputs)) {
  const expected = !inputName.startsWith('invalid');
  for (const [name, check] of Object.entries(validators)) {
    if (check(text) !== expected) throw new Error(`${name} says ${!expected} for ${inputName}`);
  }
}

// This machine's speed drifts over seconds (neighbours, frequency), so one
// long run per task would compare each library with a different machine.
// Instead every input gets ROUNDS short runs of all its tasks, the task order
// rotating each round, and a task's figure is the median of its round medians.
const ROUNDS = smoke ? 1 : 5;
async function measure(tasks, { time, warmupTime, iterations }) {
  const names = Object.keys(tasks);
  const perRound = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time, warmupTime, iterations });
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) bench.add(name, tasks[name]);
    await bench.run();
    for (const t of bench.tasks) perRound[t.name].push(t.result.latency.p50 * 1e6);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(names.map((n) => [n, median(perRound[n])]));
}
const timing = (big) => (smoke ? { time: 10, warmupTime: 5, iterations: 3 } : { time: big ? 600 : 300, warmupTime: 100, iterations: 20 });

const medians = {}; // input -> variant -> ns
for (const [inputName, text] of Object.entries(inputs)) {
  const tasks = Object.fromEntries(Object.entries(validators).map(([name, check]) => [name, () => check(text)]));
  medians[inputName] = await measure(tasks, timing(text.length > 100_000));
  console.log(`${inputName} (${text.length} bytes) done`);
}

// The same calls in a tight loop (bench/tight.mjs): tinybench times each
// sample on its own, and at a few microseconds per call that overhead
// compresses the ratios between fast validators. Each validator is called
// many times in a row (20,000 for the small inputs), nine rounds with the
// order rotating, the median of the rounds' means. The invalid input's
// issues are read, as a caller reports them (ajv keeps them on `.errors`).
const TIGHT = ['toolresult validateAgentResult(string)', AJV];
const ajvValidate = competitors.ajvValidate();
const tightTasks = (text, invalid) => ({
  [TIGHT[0]]: invalid ? () => validateAgentResult(text).issues.length : () => validateAgentResult(text).ok,
  [TIGHT[1]]: invalid ? () => (ajvValidate(JSON.parse(text)) ? 0 : ajvValidate.errors.length) : () => ajvValidate(JSON.parse(text)),
});
const tight = {}; // input -> validator -> ns
for (const [inputName, text] of Object.entries(inputs)) {
  const invalid = inputName.startsWith('invalid');
  const calls = smoke ? 20 : callsFor(medians[inputName][AJV]);
  tight[inputName] = tightLoop(tightTasks(text, invalid), { calls, rounds: smoke ? 1 : 9 });
}
console.log('tight loop done');

// Tool output validation against a tool's output schema: given the value
// (no parse), and given the JSON text (each parses it its own way).
const outputModes = {
  value: { validators: outputValidators, input: (v) => v },
  text: { validators: outputTextValidators, input: (v) => JSON.stringify(v) },
};
const outputMedians = {}; // mode -> output -> validator -> ns
for (const [mode, { validators: makers, input }] of Object.entries(outputModes)) {
  const checks = Object.fromEntries(Object.entries(makers).map(([name, make]) => [name, make()]));
  outputMedians[mode] = {};
  for (const [outputName, value] of Object.entries(outputs)) {
    const arg = input(value);
    for (const [name, check] of Object.entries(checks)) {
      if (check(arg) !== true) throw new Error(`${name} rejects the ${outputName} output (${mode})`);
    }
    const tasks = Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, () => check(arg)]));
    outputMedians[mode][outputName] = await measure(tasks, timing(false));
  }
}
// The by-value rows in a tight loop too (see the envelope's).
const outputTight = {}; // output -> validator -> ns
{
  const checks = Object.fromEntries(Object.entries(outputValidators).map(([name, make]) => [name, make()]));
  for (const [outputName, value] of Object.entries(outputs)) {
    const calls = smoke ? 20 : callsFor(outputMedians.value[outputName][AJV]);
    const tasks = Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, () => check(value)]));
    outputTight[outputName] = tightLoop(tasks, { calls, rounds: smoke ? 1 : 9 });
  }
}
console.log('tool output done');

// Bounding a large output: truncate + sha256 vs Node's crypto hashing alone.
const MB = 1024 * 1024;
const bigText = 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n'.repeat(Math.ceil(((smoke ? 1.2 : 11) * MB) / 56));
const hashText = bigText.slice(0, (smoke ? 1 : 10) * MB);
const bigJson = { rows: Array.from({ length: smoke ? 10_000 : 100_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], score: i / 3 })) };
const limit = (smoke ? 1 : 10) * MB;
const halfJson = JSON.stringify(truncateOutput(bigJson, { maxBytes: limit / 2 }).output);
// The browser build's API over the Node build hashes in wasm (browsers have
// no synchronous native sha256): measured here on the same wasm module.
const webWasm = path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist/web/wasm/web/toolresult_wasm_bg.wasm');
const webBuild = await import(pathToFileURL(path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist/web/web.js')).href);
await webBuild.init(readFileSync(webWasm));
const bounding = {
  [`toolresult sha256Hex(${hashText.length / MB} MB string)`]: () => sha256Hex(hashText),
  [`toolresult browser build sha256Hex(${hashText.length / MB} MB string) (wasm)`]: () => webBuild.sha256Hex(hashText),
  [`node crypto sha256 (${hashText.length / MB} MB string)`]: () => createHash('sha256').update(hashText).digest('hex'),
  [`toolresult truncateOutput(${(bigText.length / MB).toFixed(1)} MB text, ${limit / MB} MiB limit)`]: () => truncateOutput(bigText, { maxBytes: limit }),
  // The same text hashed alone: truncation hashes the whole text, so this is its floor.
  [`node crypto sha256 of that ${(bigText.length / MB).toFixed(1)} MB text`]: () => createHash('sha256').update(bigText).digest('hex'),
  [`toolresult truncateOutput(JSON, ${(JSON.stringify(bigJson).length / MB).toFixed(1)} MB → ${limit / MB / 2} MiB)`]: () =>
    truncateOutput(bigJson, { maxBytes: limit / 2 }),
  // What the truncation cannot beat in JS: writing the value out and reading the 5 MiB output back in.
  [`(JSON.stringify of the ${(JSON.stringify(bigJson).length / MB).toFixed(1)} MB value + JSON.parse of a 5 MiB output)`]: () => [
    JSON.stringify(bigJson).length,
    JSON.parse(halfJson),
  ],
};
const boundBench = new Bench({ time: smoke ? 10 : 3000, warmupTime: smoke ? 5 : 500, iterations: smoke ? 2 : 10 });
for (const [name, f] of Object.entries(bounding)) boundBench.add(name, f);
await boundBench.run();
for (const t of boundBench.tasks) if (t.result?.error || !t.result?.latency) throw new Error(`${t.name}: ${t.result?.error ?? 'no result'}`);
const boundMedians = Object.fromEntries(boundBench.tasks.map((t) => [t.name, t.result.latency.p50 * 1e6]));
console.log('bounding done');

// Cold start: a new process loads the library, builds the validator and
// validates once, minus a bare `node -e 0` (bench/cold-start.mjs).
const cold = coldStart({ runs: smoke ? 1 : 31 });

// Bundle size: esbuild, minified, gzip; the wasm module counted on top for us.
function bundleSize(name, entry) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
  // The entry sits here so that it resolves packages from this repository.
  const file = path.join(here, `.bundle-${name.replace(/\W/g, '')}.mjs`);
  writeFileSync(file, entry);
  const out = path.join(dir, 'out.js');
  const r = spawnSync(
    path.join(root, 'node_modules/.bin/esbuild'),
    [file, '--bundle', '--minify', '--format=esm', '--platform=browser', `--outfile=${out}`, '--log-level=error'],
    { cwd: here, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`esbuild ${name}: ${r.stderr}`);
  const size = gzipSync(readFileSync(out), { level: 9 }).length;
  rmSync(dir, { recursive: true, force: true });
  rmSync(file);
  return size;
}
const wasmGz = gzipSync(readFileSync(path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist/web/wasm/web/toolresult_wasm_bg.wasm')), {
  level: 9,
}).length;
const agentGz = gzipSync(readFileSync(path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist/web/wasm/web/toolresult_agent_wasm_bg.wasm')), {
  level: 9,
}).length;
const engineGz = gzipSync(
  readFileSync(path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist/web/wasm/web/toolresult_schema_wasm_bg.wasm')),
  { level: 9 },
).length;
const sizes = {
  // The bare specifier: esbuild (platform browser) picks the browser build, as a user's bundler does.
  toolresult:
    bundleSize('toolresult', `import { init, validateAgentResult } from 'toolresult/web'; await init(); console.log(validateAgentResult('{}'));`) + wasmGz,
  'ajv (compiled)': bundleSize(
    'ajv',
    `import Ajv from 'ajv/dist/2020.js'; import f from 'ajv-formats'; const a = new Ajv(); f(a); console.log(a.compile({}));`,
  ),
  'zod 4': bundleSize('zod', `import { z } from 'zod'; console.log(z.strictObject({ a: z.string() }).safeParse({}));`),
  valibot: bundleSize('valibot', `import * as v from 'valibot'; console.log(v.safeParse(v.strictObject({ a: v.string() }), {}));`),
  '@cfworker/json-schema': bundleSize('cfworker', `import { Validator } from '@cfworker/json-schema'; console.log(new Validator({}).validate(1));`),
};

// ----------------------------------------------------------------- report
// Read from node_modules directly: not every package exports ./package.json.
const version = (pkg) => JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;
const libs = ['toolresult', 'ajv', 'ajv-formats', 'zod', 'valibot', '@sinclair/typebox', '@cfworker/json-schema', 'tinybench', 'esbuild'];
const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`);
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;

const lines = [];
lines.push('# Benchmark results', '');
lines.push(`Generated by \`npm run bench\` (bench/run.mjs)${smoke ? ' — SMOKE RUN, numbers are not meaningful' : ''}.`, '');
lines.push(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.arch()}, Node ${process.version}.`,
  '',
);
lines.push(`Libraries: ${libs.map((l) => `${l} ${version(l)}`).join(', ')}.`, '');
lines.push(
  `Each validator gets the JSON string and does its own \`JSON.parse\`; one process, same inputs. Each figure is the median of ${ROUNDS} rounds' medians (p50 of tinybench samples); the order of the tasks rotates from round to round, because this machine's speed drifts over seconds.`,
  '',
);
lines.push('† `validateAgentResult(object)` is given the already parsed object (its JSON.parse is not timed).', '');
lines.push('## AgentResult envelope validation (median time per call; lower is better)', '');
const inputNames = Object.keys(inputs);
lines.push(`| validator | ${inputNames.map((n) => `${n} (${inputs[n].length.toLocaleString('en')} B)`).join(' | ')} |`);
lines.push(`|---|${inputNames.map(() => '---:').join('|')}|`);
for (const name of Object.keys(validators)) {
  lines.push(`| ${name} | ${inputNames.map((n) => fmt(medians[n][name])).join(' | ')} |`);
}
lines.push('', '### Ratios (toolresult ÷ other; below 1 means toolresult is faster)', '');
lines.push(`| ratio | ${inputNames.join(' | ')} |`);
lines.push(`|---|${inputNames.map(() => '---:').join('|')}|`);
for (const ours of ['toolresult validateAgentResult(string)', 'toolresult parseAgentResult(string)']) {
  for (const other of [AJV, CF]) {
    lines.push(`| ${ours.replace('toolresult ', '')} ÷ ${other} | ${inputNames.map((n) => ratio(medians[n][ours], medians[n][other])).join(' | ')} |`);
  }
}
lines.push(
  '',
  '### Tight loop (each validator called many times in a row, 9 rounds, median of the rounds; bench/tight.mjs)',
  '',
  "The same calls without tinybench's per-sample timer, whose overhead compresses ratios at the microsecond scale. For the invalid input both read the issues they report.",
  '',
);
lines.push(`| validator | ${inputNames.join(' | ')} |`);
lines.push(`|---|${inputNames.map(() => '---:').join('|')}|`);
for (const name of TIGHT) lines.push(`| ${name} | ${inputNames.map((n) => fmt(tight[n][name])).join(' | ')} |`);
lines.push(`| validateAgentResult(string) ÷ ${AJV} | ${inputNames.map((n) => ratio(tight[n][TIGHT[0]], tight[n][AJV])).join(' | ')} |`);
lines.push('', '## Tool output validation (a search-results output schema with nested objects, arrays, enums, patterns and formats; median per call)', '');
const outputNames = Object.keys(outputs);
lines.push(`| validator | ${outputNames.map((n) => `${n} (${JSON.stringify(outputs[n]).length.toLocaleString('en')} B)`).join(' | ')} |`);
lines.push(`|---|${outputNames.map(() => '---:').join('|')}|`);
for (const [mode, title, ours] of [
  ['value', 'given the value', 'toolresult compileSchema().isValid'],
  ['text', 'given the JSON text (the others JSON.parse it first)', 'toolresult compileSchema().isValidJson(text)'],
]) {
  lines.push(`| **${title}** |${outputNames.map(() => ' |').join('')}`);
  const m = outputMedians[mode];
  for (const name of Object.keys(m[outputNames[0]])) lines.push(`| ${name} | ${outputNames.map((n) => fmt(m[n][name])).join(' | ')} |`);
  for (const other of [AJV, CF]) {
    lines.push(`| ratio ÷ ${other} | ${outputNames.map((n) => ratio(m[n][ours], m[n][other])).join(' | ')} |`);
  }
  // The adapters' paths (by value only).
  for (const name of Object.keys(m[outputNames[0]]).filter((n) => n.startsWith('toolresult ') && n !== ours)) {
    lines.push(`| ${name.replace('toolresult ', '').replace(/ \(.*\)$/, '')} ÷ ${AJV} | ${outputNames.map((n) => ratio(m[n][name], m[n][AJV])).join(' | ')} |`);
  }
}
lines.push('', '### Given the value, in a tight loop (as for the envelope; 9 rounds, median)', '');
lines.push(`| validator | ${outputNames.join(' | ')} |`);
lines.push(`|---|${outputNames.map(() => '---:').join('|')}|`);
for (const name of Object.keys(outputTight[outputNames[0]])) lines.push(`| ${name} | ${outputNames.map((n) => fmt(outputTight[n][name])).join(' | ')} |`);
for (const name of Object.keys(outputTight[outputNames[0]]).filter((n) => n.startsWith('toolresult '))) {
  lines.push(
    `| ${name.replace('toolresult ', '').replace(/ \(.*\)$/, '')} ÷ ${AJV} | ${outputNames.map((n) => ratio(outputTight[n][name], outputTight[n][AJV])).join(' | ')} |`,
  );
}
lines.push('', '## Bounding a large output (median time per call)', '');
lines.push('| operation | median | vs node crypto sha256 |', '|---|---:|---:|');
const cryptoName = Object.keys(boundMedians).find((n) => n.startsWith('node crypto'));
for (const [name, ns] of Object.entries(boundMedians)) lines.push(`| ${name} | ${fmt(ns)} | ${ratio(ns, boundMedians[cryptoName])} |`);
const textCut = Object.keys(boundMedians).find((n) => n.includes('MB text,'));
const textHash = Object.keys(boundMedians).find((n) => n.startsWith('node crypto sha256 of that'));
lines.push(
  '',
  `Text truncation ÷ node crypto sha256 of the same text (the target compares these): **${ratio(boundMedians[textCut], boundMedians[textHash])}**. ` +
    'The ratio column above divides by the shorter slice of it, which Node hashes faster per byte than the whole flat string.',
);
lines.push('', '## Cold start (a new process: load, build the validator, validate once; bench/cold-start.mjs)', '');
lines.push(...coldStartTable(cold));
lines.push('', '## Bundle size (esbuild --minify, gzip -9; toolresult includes its wasm module)', '');
lines.push('| library | gzip |', '|---|---:|');
for (const [name, bytes] of Object.entries(sizes)) lines.push(`| ${name} | ${(bytes / 1024).toFixed(1)} KiB |`);
lines.push(`| (toolresult wasm module alone) | ${(wasmGz / 1024).toFixed(1)} KiB |`);
lines.push(`| (toolresult agent module, loaded for the store, references and conversions) | ${(agentGz / 1024).toFixed(1)} KiB |`);
lines.push(`| (toolresult JSON Schema engine module, loaded on first schema use) | ${(engineGz / 1024).toFixed(1)} KiB |`);
const screenGz = gzipSync(
  readFileSync(path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist/web/wasm/web/toolresult_screen_wasm_bg.wasm')),
  { level: 9 },
).length;
// Context budgets on real transcripts (bench/budgets.mjs; skipped without ../shared/transcripts-dev).
lines.push('', ...budgetSection({ smoke }));
lines.push('', '## wasm modules (gzip -9) and their first use in a browser', '');
lines.push('| module | what it holds | gzip |', '|---|---|---:|');
lines.push(`| core (\`init()\`) | validation, builders, bounding, sha256, locate, renderers | ${(wasmGz / 1024).toFixed(1)} KiB |`);
lines.push(`| agent (\`loadAgentModule()\`) | store, references, context budgets, normalization, conversions, diffs | ${(agentGz / 1024).toFixed(1)} KiB |`);
lines.push(`| schema engine (\`loadSchemaEngine()\`) | JSON Schema engine, tool registry | ${(engineGz / 1024).toFixed(1)} KiB |`);
lines.push(`| screen (\`loadScreen()\`) | safety screen, result document | ${(screenGz / 1024).toFixed(1)} KiB |`);
// bench/browser.mjs (run before this script by `npm run bench`) measures the
// first use in headless Chromium: download, compileStreaming, first answer.
const browserFile = path.join(here, 'BROWSER.md');
if (!smoke) {
  const browser = readFileSync(browserFile, 'utf8').split('\n');
  const from = browser.findIndex((l) => l.startsWith('## '));
  lines.push('', `From bench/BROWSER.md (${browser.find((l) => l.startsWith('Measured')) ?? 'headless Chromium'}):`, '');
  lines.push(...browser.slice(from).map((l) => (l.startsWith('## ') ? `#${l}` : l)));
}

const notesFile = path.join(here, 'NOTES.md');
lines.push('', readFileSync(notesFile, 'utf8').trim(), '');

const report = lines.join('\n');
const outFile = smoke ? path.join(os.tmpdir(), 'toolresult-bench-smoke.md') : path.join(here, 'RESULTS.md');
writeFileSync(outFile, report);
// The modules' sizes and what they are made of (bench/wasm-sizes.mjs): the
// one place for those numbers is docs/internals/sizes.md.
const sizesFile = smoke ? path.join(os.tmpdir(), 'toolresult-sizes-smoke.md') : path.join(root, 'docs/internals/sizes.md');
writeFileSync(sizesFile, sizesPage(wasmSizes()));
console.log(`\n${report}\n\nwrote ${outFile}`);
