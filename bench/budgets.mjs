// Context budgets on real tool outputs (docs/bounding.md §7): for three
// per-result budgets, the tool-output tokens a model is given before and
// after `boundForModel`, and the time per transcript; and how close
// `estimateTokens` is to a real tokenizer (gpt-tokenizer, o200k_base).
// Reads ../shared/transcripts-dev/tool_outputs.jsonl (skipped when absent;
// never copied into the project). `run.mjs` embeds the section in
// RESULTS.md; run alone (`node bench/budgets.mjs`) it prints the section and,
// with --write, replaces it in RESULTS.md.
//   --smoke   a few transcripts, one round: proves the bench still works
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countTokens } from 'gpt-tokenizer';
import { boundForModel, createSuccess, estimateTokens } from 'toolresult';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpusFile = process.env.TRANSCRIPTS_DEV ?? path.resolve(here, '..', '..', 'shared', 'transcripts-dev', 'tool_outputs.jsonl');
export const HEADING = '## Context budgets on real tool outputs';
const BUDGETS = [500, 2_000, 8_000];

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The section's lines, or a note when the corpus is absent. */
export function budgetSection({ smoke = false } = {}) {
  if (!existsSync(corpusFile)) return [HEADING, '', `Skipped: ${corpusFile} is absent.`];
  const rows = readFileSync(corpusFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const transcripts = new Map();
  for (const r of rows) {
    const key = `${r.source}/${r.transcript_id}`;
    if (!transcripts.has(key)) transcripts.set(key, []);
    transcripts.get(key).push(r);
  }
  const list = [...transcripts.values()].slice(0, smoke ? 3 : undefined);
  const results = list.map((t) =>
    t.map((r, i) =>
      createSuccess({
        input: { tool_name: r.tool_name || 'tool', tool_call_id: `call_${i}`, parameters: {} },
        output: r.output,
        duration_ms: 1,
      }),
    ),
  );
  const lines = [HEADING, ''];
  lines.push(
    `${rows.length} tool outputs from ${transcripts.size} transcripts (\`../shared/transcripts-dev\`: SWE-agent and tau-bench; its README gives sources and licences). Each output is bounded on its own with \`boundForModel(result, { maxTokens, countTokens })\`, tokens counted by gpt-tokenizer (o200k_base). Time: median over transcripts of the time to bound every output of one transcript${smoke ? ' — SMOKE RUN' : ''}.`,
    '',
    '| budget per result | tool-output tokens before | after | outputs cut | time per transcript (median) |',
    '|---:|---:|---:|---:|---:|',
  );
  let tokensBefore = 0;
  for (const t of results) for (const r of t) tokensBefore += countTokens(r.output);
  for (const maxTokens of BUDGETS) {
    let after = 0;
    let cut = 0;
    const times = [];
    for (const t of results) {
      const start = performance.now();
      const bounded = t.map((r) => boundForModel(r, { maxTokens, countTokens }));
      times.push(performance.now() - start);
      for (const b of bounded) {
        after += b.after.tokens;
        if (b.truncated) cut++;
        if (b.after.tokens > maxTokens) throw new Error(`over budget: ${b.after.tokens} > ${maxTokens}`);
      }
    }
    times.sort((a, b) => a - b);
    lines.push(
      `| ${maxTokens.toLocaleString('en')} tokens | ${tokensBefore.toLocaleString('en')} | ${after.toLocaleString('en')} | ${cut} | ${quantile(times, 0.5).toFixed(2)} ms |`,
    );
  }
  // How close the tokenizer-free estimate is, per output (outputs of 20+ tokens).
  const ratios = [];
  let est = 0;
  let real = 0;
  for (const r of rows) {
    const c = countTokens(r.output);
    const e = estimateTokens(r.output);
    est += e;
    real += c;
    if (c >= 20) ratios.push(e / c);
  }
  ratios.sort((a, b) => a - b);
  lines.push(
    '',
    `\`estimateTokens\` ÷ o200k_base tokens: ${(est / real).toFixed(2)} over the whole corpus; per output (${ratios.length} outputs of 20+ tokens) p10 ${quantile(ratios, 0.1).toFixed(2)}, median ${quantile(ratios, 0.5).toFixed(2)}, p90 ${quantile(ratios, 0.9).toFixed(2)}, min ${ratios[0].toFixed(2)}, max ${ratios.at(-1).toFixed(2)}. Above 1 the estimate overcounts (a budget is then met with room to spare).`,
  );
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const smoke = process.argv.includes('--smoke');
  const section = budgetSection({ smoke });
  console.log(section.join('\n'));
  if (process.argv.includes('--write') && !smoke) {
    const file = path.join(here, 'RESULTS.md');
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf(HEADING);
    const body = `${section.join('\n')}\n`;
    let next;
    if (start < 0) next = text.replace(/\n## wasm modules/, `\n${body}\n## wasm modules`);
    else {
      const end = text.indexOf('\n## ', start + HEADING.length);
      next = text.slice(0, start) + body + (end < 0 ? '' : text.slice(end));
    }
    writeFileSync(file, next);
    console.log(`wrote ${file}`);
  }
}
