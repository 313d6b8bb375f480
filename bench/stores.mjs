// `npm run bench` (second part): the PostgreSQL store side by side with the
// file store — puts per second (single and batched) and the latency of
// `history`, `get` and `listDialog` with 1,000,000 results stored. Starts its
// own PostgreSQL server (tests/postgres/server.mjs). Writes bench/STORES.md.
//   --smoke   a small run that only proves this bench still works
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createSuccess } from 'toolresult';
import { FileResultStore } from 'toolresult/node';
import { PostgresResultStore } from 'toolresult/postgres';
import { startPostgres } from '../tests/postgres/server.mjs';

const smoke = process.argv.includes('--smoke');
const here = path.dirname(fileURLToPath(import.meta.url));
const STORED = smoke ? 5_000 : 1_000_000;
const FILE_STORED = smoke ? 500 : 20_000;
const SINGLE = smoke ? 200 : 2_000;
const BATCH = 1_000;
const SAMPLES = smoke ? 50 : 2_000;
const TOOLS = 20;
const PER_DIALOG = 50;

// A deterministic generator (mulberry32), so runs compare.
let seed = 42;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const base = Date.parse('2026-01-01T00:00:00Z');
function result(i, prefix) {
  const started = new Date(base + i * 1000).toISOString();
  return createSuccess({
    input: { tool_name: `tool_${i % TOOLS}`, parameters: { path: `src/file_${i}.ts` }, tool_call_id: `${prefix}_${i}` },
    output: { lines: Math.floor(rand() * 500), text: 'x'.repeat(200 + Math.floor(rand() * 600)) },
    started_at: started,
    completed_at: started,
  });
}

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: q(0.5), p99: q(0.99) };
}
async function latency(n, f) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f(i);
    samples.push(performance.now() - t);
  }
  return stats(samples);
}
const ms = (x) => (x < 1 ? x.toFixed(3) : x.toFixed(2));
const log = (...a) => console.log(...a);

const server = await startPostgres();
const rows = [];
try {
  // ---- PostgreSQL
  const pgStore = await PostgresResultStore.open({ connection: { ...server.connection, max: 4 }, schema: 'bench', listen: false });
  let t = performance.now();
  for (let i = 0; i < SINGLE; i++) await pgStore.put(result(i, 'single'), { dialogId: `single_${Math.floor(i / PER_DIALOG)}` });
  const pgSingle = SINGLE / ((performance.now() - t) / 1000);
  log(`postgres single put: ${pgSingle.toFixed(0)}/s`);

  t = performance.now();
  let batchTime = 0;
  for (let b = 0; b * BATCH < STORED; b++) {
    const batch = [];
    for (let i = b * BATCH; i < Math.min(STORED, (b + 1) * BATCH); i++) batch.push(result(i, 'bulk'));
    const t0 = performance.now();
    const report = await pgStore.putMany(batch, { dialogId: `bulk_${b}` });
    batchTime += performance.now() - t0;
    if (!report.results.every((r) => r.ok && r.value.stored)) throw new Error('batch not stored');
    if (b % 100 === 0) log(`  ${b * BATCH} stored`);
  }
  const pgBatched = STORED / (batchTime / 1000);
  log(`postgres batched put (${BATCH} per batch): ${pgBatched.toFixed(0)}/s; ${STORED} stored in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const pgCount = (await pgStore.metrics()).current_count;

  const pgHistory = await latency(SAMPLES, (i) => pgStore.history(`tool_${i % TOOLS}`, { limit: 20 }));
  const pgHistoryWindow = await latency(SAMPLES, (i) => {
    const at = base + Math.floor(rand() * STORED) * 1000;
    return pgStore.history(`tool_${i % TOOLS}`, { limit: 20, since: new Date(at - 3_600_000).toISOString(), until: new Date(at).toISOString() });
  });
  const pgGet = await latency(SAMPLES, () => pgStore.getByToolCallId(`bulk_${Math.floor(rand() * STORED)}`));
  // The dialogs of the single puts hold PER_DIALOG results each, as the file store's do.
  const pgList = await latency(SAMPLES, () => pgStore.listDialog(`single_${Math.floor(rand() * (SINGLE / PER_DIALOG))}`));
  const pgMetrics = await latency(smoke ? 3 : 5, () => pgStore.metrics());
  const pgDialogBig = await latency(smoke ? 10 : 200, () => pgStore.listDialog(`bulk_${Math.floor(rand() * (STORED / BATCH))}`));
  await pgStore.close();

  // ---- File store (every result is two files plus an in-memory index)
  const root = mkdtempSync(path.join(os.tmpdir(), 'toolresult-bench-files-'));
  const fileStore = FileResultStore.open(root);
  t = performance.now();
  for (let i = 0; i < FILE_STORED; i++) fileStore.put(result(i, 'file'), { dialogId: `d_${Math.floor(i / PER_DIALOG)}` });
  const fileSingle = FILE_STORED / ((performance.now() - t) / 1000);
  log(`file single put: ${fileSingle.toFixed(0)}/s`);
  t = performance.now();
  const reopened = FileResultStore.open(root);
  const reopenMs = performance.now() - t;
  const fileHistory = await latency(SAMPLES, (i) => reopened.history(`tool_${i % TOOLS}`, { limit: 20 }));
  const fileGet = await latency(SAMPLES, () => reopened.getByToolCallId(`file_${Math.floor(rand() * FILE_STORED)}`));
  const fileGetDisk = await latency(SAMPLES, () => {
    const i = Math.floor(rand() * FILE_STORED);
    return reopened.get(`d_${Math.floor(i / PER_DIALOG)}`, `file_${i}`);
  });
  const fileList = await latency(SAMPLES, () => reopened.listDialog(`d_${Math.floor(rand() * (FILE_STORED / PER_DIALOG))}`));
  rmSync(root, { recursive: true, force: true });

  rows.push(
    ['results stored', pgCount.toLocaleString('en'), FILE_STORED.toLocaleString('en')],
    ['put, one at a time (results/s)', pgSingle.toFixed(0), fileSingle.toFixed(0)],
    [`putMany, ${BATCH} per transaction (results/s)`, pgBatched.toFixed(0), '—'],
    ['history(tool, { limit: 20 }) p50 / p99 (ms)', `${ms(pgHistory.p50)} / ${ms(pgHistory.p99)}`, `${ms(fileHistory.p50)} / ${ms(fileHistory.p99)}`],
    ['history with since/until (1 h window) p50 / p99 (ms)', `${ms(pgHistoryWindow.p50)} / ${ms(pgHistoryWindow.p99)}`, '—'],
    ['getByToolCallId p50 / p99 (ms)', `${ms(pgGet.p50)} / ${ms(pgGet.p99)}`, `${ms(fileGet.p50)} / ${ms(fileGet.p99)} (index in memory)`],
    ['get(dialog, call) from disk p50 / p99 (ms)', '—', `${ms(fileGetDisk.p50)} / ${ms(fileGetDisk.p99)}`],
    ['listDialog (50 results) p50 / p99 (ms)', `${ms(pgList.p50)} / ${ms(pgList.p99)}`, `${ms(fileList.p50)} / ${ms(fileList.p99)}`],
    [`listDialog (${BATCH} results) p50 / p99 (ms)`, `${ms(pgDialogBig.p50)} / ${ms(pgDialogBig.p99)}`, '—'],
    ['metrics() p50 (ms) — aggregates over every row', ms(pgMetrics.p50), '—'],
    ['open (reload every result) (ms)', '—', ms(reopenMs)],
  );
} finally {
  server.stop();
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const md = [
  '# Result stores: PostgreSQL and files',
  '',
  `Generated by \`npm run bench\` (bench/stores.mjs)${smoke ? ' — SMOKE RUN, numbers are not meaningful' : ''}. ${cpu}, ${os.cpus().length} cores, Node ${process.version}.`,
  'PostgreSQL: a local server started by the bench (Debian package, fsync on, defaults otherwise), reached over loopback TCP through `pg` with a pool of 4.',
  'Results are ~0.5–1 KB ToolResults over 20 tools; every read validates the result again (and checks its sha256 for PostgreSQL).',
  'The file store holds fewer results because it writes two files per result (each fsynced with its folder) and keeps its index in memory.',
  '',
  '| | PostgresResultStore | FileResultStore |',
  '|---|---:|---:|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
  '',
];
const out = smoke ? path.join(os.tmpdir(), 'toolresult-bench-stores-smoke.md') : path.join(here, 'STORES.md');
writeFileSync(out, md.join('\n'));
log(md.join('\n'));
log(`wrote ${out}`);
