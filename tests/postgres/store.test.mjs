// PostgresResultStore against a real PostgreSQL server started for this file:
// the shared store contract, migrations, events across nodes, corrupt rows,
// 4 writer processes contending, a writer killed mid-transaction, the server
// restarted under load, and connections terminated mid-put.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { PostgresResultStore, POSTGRES_SCHEMA_VERSION, canonicalJson } from 'toolresult/postgres';
import { instrumentStore } from 'toolresult/otel';
import { InMemorySpanExporter, BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createSuccess, createFailure, ToolResultError } from 'toolresult';
import { defineStoreContract, make } from '../stores/contract.mjs';
import { startPostgres } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let server;
let admin;
let schemas = 0;
const scratch = mkdtempSync(path.join(tmpdir(), 'toolresult-pg-test-'));
const freshSchema = () => `t${process.pid}_${++schemas}`;

before(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ ...server.connection, max: 4 });
  admin.on('error', () => {});
});

after(async () => {
  await admin?.end();
  server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const openStore = (options = {}) => PostgresResultStore.open({ connection: server.connection, schema: freshSchema(), ...options });

defineStoreContract('PostgresResultStore', { open: (options) => openStore({ ...options, listen: false }), runs: 12 });

const wait = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(f, what, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await wait(20);
  }
}

test('migrations: versioned and idempotent; a newer schema is refused; migrate:false checks', async () => {
  const schema = freshSchema();
  const store = await PostgresResultStore.open({ connection: server.connection, schema, listen: false });
  const catalog = async () =>
    (
      await admin.query(`SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 ORDER BY 1`, [schema])
    ).rows.map((r) => `${r.relname}:${r.relkind}`);
  const before = await catalog();
  assert.ok(before.includes('toolresult_results:r') && before.includes('toolresult_evictions:r') && before.includes('toolresult_results_history:i'));
  assert.equal(await store.schemaVersion(), POSTGRES_SCHEMA_VERSION);
  assert.deepEqual(await store.migrate(), [], 'a second run applies nothing');
  assert.deepEqual(await catalog(), before, 'and changes nothing');
  const { rows } = await admin.query(`SELECT version FROM "${schema}".toolresult_migrations`);
  assert.deepEqual(
    rows.map((r) => r.version),
    Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1),
  );
  await store.close();

  await admin.query(`INSERT INTO "${schema}".toolresult_migrations (version, description) VALUES (999, 'from the future')`);
  await assert.rejects(
    PostgresResultStore.open({ connection: server.connection, schema, listen: false }),
    (e) => e instanceof ToolResultError && e.code === 'schema_too_new' && /999/.test(e.message) && /upgrade the package/.test(e.message),
  );
  await assert.rejects(
    PostgresResultStore.open({ connection: server.connection, schema: freshSchema(), migrate: false, listen: false }),
    (e) => e.code === 'schema_outdated',
  );
  await assert.rejects(
    PostgresResultStore.open({ connection: server.connection, schema: 'bad name; drop', listen: false }),
    (e) => e.code === 'invalid_options',
  );
  await assert.rejects(PostgresResultStore.open({}), (e) => e.code === 'invalid_options');
  // Two nodes migrating at once: one applies, the other waits and applies nothing.
  const racing = freshSchema();
  const pool = new pg.Pool(server.connection);
  const [a, b] = await Promise.all([
    PostgresResultStore.open({ pool, schema: racing, listen: false, migrate: false }).catch(() => null),
    Promise.all(
      [0, 1].map(async () => {
        const s = await PostgresResultStore.open({ pool, schema: freshSchema(), listen: false });
        await s.close();
        return s;
      }),
    ),
  ]);
  assert.equal(a, null, 'migrate:false on an empty schema is refused');
  assert.equal(b.length, 2);
  const both = await Promise.all([0, 1].map(() => PostgresResultStore.open({ pool, schema: racing, listen: false })));
  assert.deepEqual(await Promise.all(both.map((s) => s.schemaVersion())), [POSTGRES_SCHEMA_VERSION, POSTGRES_SCHEMA_VERSION]);
  for (const s of both) await s.close();
  await pool.end();
});

test('a given pool is used and never ended by the store', async () => {
  const pool = new pg.Pool(server.connection);
  const store = await PostgresResultStore.open({ pool, schema: freshSchema() });
  assert.equal(store.listening, true);
  await store.put(make('t', {}, 1), { dialogId: 'd' });
  await store.close();
  assert.equal((await pool.query('SELECT 1 AS one')).rows[0].one, 1, 'the pool still works');
  await pool.end();
});

test('events reach every node through LISTEN/NOTIFY, in commit order', async () => {
  const schema = freshSchema();
  const a = await PostgresResultStore.open({ connection: server.connection, schema, retention: { maxCount: 2 } });
  const b = await PostgresResultStore.open({ connection: server.connection, schema, retention: { maxCount: 2 } });
  const seenA = [];
  const seenB = [];
  for (const t of ['stored', 'validation_failed', 'truncated', 'evicted']) {
    a.on(t, (e) => seenA.push([t, e.remote, e.detail.execution_id ?? e.detail.meta.execution_id]));
    b.on(t, (e) => seenB.push([t, e.remote, e.detail.execution_id ?? e.detail.meta.execution_id]));
  }
  const r1 = make('t', {}, 1);
  const r2 = createSuccess({ input: { tool_name: 'big', tool_call_id: `call_ev_${process.pid}` }, output: 'x', output_truncated: true });
  const r3 = make('t', {}, 3);
  // Each put waits until the other node has seen it: local events are
  // dispatched at once, remote ones when the notification arrives.
  const report1 = await a.put(r1, { dialogId: 'd' });
  await until(() => seenB.length === 1, 'B to see the first put');
  await b.put(r2, { dialogId: 'd' });
  await until(() => seenA.length === 3, 'A to see the second put');
  await a.put(r3, { dialogId: 'd' });
  const expected = [
    ['stored', r1.metadata.execution_id],
    ['stored', r2.metadata.execution_id],
    ['truncated', r2.metadata.execution_id],
    ['stored', r3.metadata.execution_id],
    ['evicted', r1.metadata.execution_id],
  ];
  await until(() => seenA.length === 5 && seenB.length === 5, 'both nodes to see 5 events');
  assert.deepEqual(
    seenA.map(([t, , id]) => [t, id]),
    expected,
  );
  assert.deepEqual(
    seenB.map(([t, , id]) => [t, id]),
    expected,
  );
  assert.deepEqual(
    seenA.map(([, remote]) => remote),
    [false, true, true, false, false],
  );
  assert.deepEqual(
    seenB.map(([, remote]) => remote),
    [true, false, false, true, true],
  );
  // A remote event carries the same metadata as the local one.
  const remoteMeta = [];
  b.on('stored', (e) => remoteMeta.push(e.detail));
  await a.put(make('t', {}, 4, { callId: `call_meta_${process.pid}` }), { dialogId: 'd' });
  await until(() => remoteMeta.length === 1, 'the remote stored event');
  assert.deepEqual(remoteMeta[0], await a.meta(remoteMeta[0].execution_id));
  assert.equal(report1.stored, true);
  await a.close();
  await b.close();
});

test('events stay within their schema, even for names that differ only in case', async () => {
  const name = `Case_${process.pid}`;
  const upper = await PostgresResultStore.open({ connection: server.connection, schema: name });
  const lower = await PostgresResultStore.open({ connection: server.connection, schema: name.toLowerCase() });
  const twin = await PostgresResultStore.open({ connection: server.connection, schema: name });
  const seenLower = [];
  const seenTwin = [];
  lower.on('stored', (e) => seenLower.push(e.detail.execution_id));
  twin.on('stored', (e) => seenTwin.push(e.detail.execution_id));
  const r = make('t', {}, 1);
  await upper.put(r, { dialogId: 'd' });
  await until(() => seenTwin.length === 1, 'the store on the same schema to see the put');
  const marker = make('t', {}, 2);
  await lower.put(marker, { dialogId: 'd' });
  await wait(200);
  assert.deepEqual(seenTwin, [r.metadata.execution_id], 'nothing from the other schema');
  assert.deepEqual(seenLower, [marker.metadata.execution_id], 'a store hears only its own schema (here: its own put)');
  assert.equal(await lower.get(r.metadata.execution_id), undefined);
  for (const s of [upper, lower, twin]) await s.close();
});

test('a corrupt or tampered row is reported (corrupt_row) and never returned', async () => {
  const store = await openStore({ listen: false });
  const good = make('grep', {}, { matches: 1 }, { started: 1 });
  const broken = make('grep', {}, { matches: 2 }, { started: 2 });
  const tampered = make('grep', {}, { matches: 3 }, { started: 3 });
  for (const r of [good, broken, tampered]) await store.put(r, { dialogId: 'd' });
  await admin.query(`UPDATE "${store.schema}".toolresult_results SET result = result - 'status' WHERE execution_id = $1`, [broken.metadata.execution_id]);
  await admin.query(`UPDATE "${store.schema}".toolresult_results SET result = jsonb_set(result, '{output,matches}', '99') WHERE execution_id = $1`, [
    tampered.metadata.execution_id,
  ]);
  const corrupt = [];
  store.on('corrupt_row', (e) => corrupt.push(e.detail));
  await assert.rejects(store.get(broken.metadata.execution_id), (e) => e.code === 'corrupt_row' && e.issues.some((i) => i.path === '/status'));
  await assert.rejects(store.getByToolCallId(tampered.input.tool_call_id), (e) => e.code === 'corrupt_row' && e.issues[0].code === 'checksum_mismatch');
  const history = await store.history('grep');
  assert.deepEqual(history, [good], 'corrupt rows are skipped');
  assert.deepEqual(corrupt.map((c) => c.execution_id).sort(), [broken, tampered, broken, tampered].map((r) => r.metadata.execution_id).sort());
  assert.deepEqual(await store.get(good.metadata.execution_id), good, 'the store still works');
  await store.close();
});

test('values jsonb cannot hold are typed errors, not lost or changed data', async () => {
  const store = await openStore({ listen: false });
  const nul = make('t', {}, { text: 'a\u0000b' });
  await assert.rejects(store.put(nul, { dialogId: 'd' }), (e) => e.code === 'unsupported_value' && e.issues[0].path === '/output/text');
  // Numbers and key order come back as written (jsonb reorders keys; the sha256 is over canonical JSON).
  const odd = make('t', {}, { z: 1, a: [1e21, 1.5e-7, -0.25, 12345678901234], é: 'ü\u2028', '': null });
  await store.put(odd, { dialogId: 'd' });
  assert.deepEqual(await store.get(odd.metadata.execution_id), odd);
  assert.equal(canonicalJson({ b: 1, a: [true, null, 'x'] }), '{"a":[true,null,"x"],"b":1}');
  assert.equal(
    (await store.putMany([odd, { nope: 1 }], { dialogId: 'd' })).results.map((r) => (r.ok ? r.value.stored : r.error.code)).join(),
    'false,invalid_tool_result',
  );
  await store.close();
});

test('putMany: one transaction, each result reported on its own', async () => {
  const store = await openStore({ listen: false });
  const stored = [];
  store.on('stored', (e) => stored.push(e.detail.execution_id));
  const first = make('t', {}, 1);
  await store.put(first, { dialogId: 'd' });
  const batch = [make('t', {}, 2), first, { ...first, output: 'other' }, make('t', {}, 3)];
  batch.push(batch[0]); // the same result twice in one batch
  const report = await store.putMany(batch, { dialogId: 'd' });
  assert.deepEqual(
    report.results.map((r) => (r.ok ? (r.value.stored ? 'stored' : 'same') : r.error.code)),
    ['stored', 'same', 'store_conflict', 'stored', 'same'],
  );
  assert.deepEqual(
    stored,
    [first, batch[0], batch[3]].map((r) => r.metadata.execution_id),
  );
  assert.equal((await store.metrics()).current_count, 3);
  await store.close();
});

function runWriter(job) {
  const file = path.join(scratch, `job-${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(job));
  return spawn(process.execPath, [path.join(here, 'writer.mjs'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function collectLines(child) {
  let buf = '';
  const lines = [];
  let err = '';
  child.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, err })));
  return { lines, done };
}

test('4 writer processes, 2,000 results with overlapping ids: no duplicates, every conflict reported, nothing lost', async () => {
  const schema = freshSchema();
  const setup = await PostgresResultStore.open({ connection: server.connection, schema, listen: false });
  await setup.close();
  const base = Array.from({ length: 2000 }, (_, i) =>
    i % 7 === 3
      ? createFailure({
          input: { tool_name: `tool_${i % 5}`, tool_call_id: `fleet_${i}` },
          status: 'timeout',
          error_code: 'TIMEOUT',
          error_message: 'slow',
          started_at: '2026-11-22T10:00:00Z',
        })
      : createSuccess({
          input: { tool_name: `tool_${i % 5}`, tool_call_id: `fleet_${i}` },
          output: { i, text: 'r'.repeat(i % 300) },
          started_at: '2026-11-22T10:00:00Z',
        }),
  );
  // Each id is written by two writers; for every tenth id the second writes a different result (a conflict).
  const shares = [0, 1, 2, 3].map((w) =>
    base
      .map((r, i) => [r, i])
      .filter(([, i]) => (i + w) % 4 < 2)
      .map(([r, i]) => ((i + w) % 4 === 1 && i % 10 === 0 ? { ...r, output: { i, variant: w } } : r)),
  );
  const writers = shares.map((results) => collectLines(runWriter({ mode: 'contend', connection: server.connection, schema, results })));
  const exits = await Promise.all(writers.map((w) => w.done));
  for (const e of exits) assert.equal(e.code, 0, e.err);
  const outcomes = writers.flatMap((w) => w.lines.map((l) => JSON.parse(l)));
  assert.equal(outcomes.length, 4000);
  assert.deepEqual(
    [...new Set(outcomes.map((o) => o.outcome))].sort(),
    ['conflict', 'same', 'stored'].filter((o) => outcomes.some((x) => x.outcome === o)),
  );
  const { rows } = await admin.query(`SELECT execution_id, result::text AS result FROM "${schema}".toolresult_results`);
  assert.equal(rows.length, 2000, 'nothing lost, nothing duplicated');
  const byId = new Map(rows.map((r) => [r.execution_id, JSON.parse(r.result)]));
  let conflicts = 0;
  for (const r of base) {
    const id = r.metadata.execution_id;
    const attempts = outcomes.filter((o) => o.id === id);
    assert.equal(attempts.length, 2);
    const winners = attempts.filter((o) => o.outcome === 'stored');
    assert.equal(winners.length, 1, `exactly one writer stored ${id}`);
    assert.deepEqual(byId.get(id).output, winners[0].output, "the stored result is the winner's, whole");
    const loser = attempts.find((o) => o !== winners[0]);
    const same = JSON.stringify(loser.output) === JSON.stringify(winners[0].output);
    assert.equal(loser.outcome, same ? 'same' : 'conflict');
    if (!same) conflicts++;
  }
  assert.equal(conflicts, 200, 'every conflicting write was refused and reported');
});

test('a writer killed with SIGKILL mid-transaction: every acknowledged result is readable and whole, no batch half-written', async () => {
  const schema = freshSchema();
  const store = await PostgresResultStore.open({ connection: server.connection, schema, listen: false });
  const results = Array.from({ length: 20_000 }, (_, i) => make('crash', { i }, { i, body: 'b'.repeat(200) }, { callId: `crash_${i}` }));
  const child = runWriter({ mode: 'batches', connection: server.connection, schema, results, batch: 50 });
  const { lines, done } = collectLines(child);
  await until(() => lines.length >= 20, 'the writer to acknowledge 20 batches', 60_000);
  child.kill('SIGKILL');
  const exit = await done;
  assert.equal(exit.signal, 'SIGKILL');
  const acked = Number(lines.at(-1).split(' ')[1]);
  const count = (await store.metrics()).current_count;
  assert.ok(count >= acked, `every acknowledged result is there (${count} >= ${acked})`);
  assert.equal(count % 50, 0, 'a batch is all or nothing');
  for (let i = 0; i < acked; i += 97) assert.deepEqual(await store.getByToolCallId(`crash_${i}`), results[i]);
  const corrupt = [];
  store.on('corrupt_row', (e) => corrupt.push(e));
  const all = await store.history('crash', { limit: 10_000 });
  assert.equal(all.length, Math.min(count, 10_000));
  assert.equal(corrupt.length, 0);
  await store.close();
});

test('the server restarted under load: the store reconnects, retried puts stay idempotent, listening resumes', async () => {
  const schema = freshSchema();
  const writer = await PostgresResultStore.open({ connection: server.connection, schema });
  const watcher = await PostgresResultStore.open({ connection: server.connection, schema });
  const lost = [];
  watcher.on('connection_error', (e) => lost.push(e.detail));
  const results = Array.from({ length: 300 }, (_, i) => make('load', { i }, i, { callId: `load_${i}` }));
  let done = 0;
  const load = (async () => {
    const reports = [];
    for (const r of results) {
      reports.push(await writer.put(r, { dialogId: 'd' }));
      done++;
    }
    return reports;
  })();
  await until(() => done >= 50, '50 puts before the restart');
  await server.restart('fast');
  const reports = await load;
  assert.equal(reports.length, 300, 'every put resolved');
  assert.ok(lost.length >= 1, 'the watcher saw its connection drop');
  // Retrying every put after the restart: all no-ops.
  const again = await Promise.all(results.map((r) => writer.put(r, { dialogId: 'd' })));
  assert.ok(again.every((r) => !r.stored));
  assert.equal((await writer.metrics()).current_count, 300);
  await until(() => watcher.listening, 'the watcher to listen again');
  const seen = [];
  watcher.on('stored', (e) => seen.push(e.detail.execution_id));
  const after = make('load', {}, 'after', { callId: 'load_after' });
  await writer.put(after, { dialogId: 'd' });
  await until(() => seen.length === 1, 'an event after the restart');
  assert.equal(seen[0], after.metadata.execution_id);
  await writer.close();
  await watcher.close();
});

test('connections dropped by pg_terminate_backend mid-put: puts retry and succeed exactly once', async () => {
  const schema = freshSchema();
  const store = await PostgresResultStore.open({ connection: { ...server.connection, application_name: 'victim' }, schema });
  const results = Array.from({ length: 200 }, (_, i) => make('term', { i }, { i, pad: 'p'.repeat(2000) }, { callId: `term_${i}` }));
  let stop = false;
  let terminated = 0;
  const killer = (async () => {
    while (!stop) {
      const { rows } = await admin.query(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name = 'victim' AND pid <> pg_backend_pid()`,
      );
      terminated += Number(rows[0].n);
      await wait(15);
    }
  })();
  const reports = [];
  for (const r of results) reports.push(await store.put(r, { dialogId: 'd' }));
  stop = true;
  await killer;
  assert.ok(terminated > 0, 'connections were terminated during the puts');
  assert.equal(reports.length, 200);
  const { rows } = await admin.query(`SELECT count(*) AS n, count(DISTINCT execution_id) AS d FROM "${schema}".toolresult_results`);
  assert.deepEqual([Number(rows[0].n), Number(rows[0].d)], [200, 200]);
  for (const r of results.slice(0, 20)) assert.deepEqual(await store.get(r.metadata.execution_id), r);
  await until(() => store.listening, 'listening again');
  await store.close();
});

test("OpenTelemetry: instrumentStore records spans for a PostgreSQL store's puts", async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const store = await openStore({ listen: false });
  const off = instrumentStore(store, { tracer: provider.getTracer('test') });
  const r = make('read_file', { path: 'a' }, 'x');
  await store.put(r, { dialogId: 'd' });
  await store.put(r, { dialogId: 'd' });
  await assert.rejects(store.put({ ...r, output: 'y' }, { dialogId: 'd' }), (e) => e.code === 'store_conflict');
  off();
  await store.put(make('read_file', {}, 'z'), { dialogId: 'd' });
  const spans = exporter.getFinishedSpans();
  assert.equal(spans.length, 1, 'one span per stored result; repeats and refusals record none');
  assert.equal(spans[0].name, 'execute_tool read_file');
  assert.equal(spans[0].attributes['gen_ai.tool.call.id'], r.input.tool_call_id);
  await store.close();
});

test('get_tool_result pages through a result stored in PostgreSQL (the handler answers with a promise)', async () => {
  const { createGetToolResultHandler, pageableText } = await import('toolresult');
  const store = await openStore({ listen: false });
  const output = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(i % 50)}`).join('\n');
  const result = createSuccess({ input: { tool_name: 'bash', tool_call_id: 'call_pg_pages', parameters: {} }, output, duration_ms: 3 });
  await store.put(result, { dialogId: 'dlg' });
  const handler = createGetToolResultHandler(store, { budget: { maxChars: 4000 } });
  let request = { tool_call_id: 'call_pg_pages', offset: 1 };
  const texts = [];
  for (let i = 0; i < 1000 && request; i++) {
    const answer = handler(request);
    assert.ok(answer instanceof Promise);
    const { page } = await answer;
    assert.ok(JSON.stringify({ found: true, page }).length <= 4000);
    texts.push(page.text);
    request = page.next;
  }
  assert.equal(texts.join(''), pageableText(result));
  assert.ok(texts.length > 10);
  assert.equal((await handler({ tool_call_id: 'call_pg_pages', offset: 5000 })).invalid.total_lines, 2000);
  await store.close();
});
