// The behaviour every result store shares (docs/spec.md §11: storage, history,
// events and metrics; §12: per-dialog listing), written once and run
// unchanged against each store: the in-memory ResultStore (Node and browser
// builds), the FileResultStore and the PostgresResultStore. Every call is
// awaited, so synchronous and asynchronous stores pass the same assertions.
//
// `defineStoreContract(name, { open, runs })`: `open({ retention, now })`
// resolves to a fresh, empty store; `close(store)` (optional) releases it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { toolresult } from '../node/helpers.mjs';

const { createSuccess, createFailure, ToolRegistry, ToolResultError } = toolresult;

let n = 0;
const at = (s) => `2026-11-22T10:00:${String(s).padStart(2, '0')}Z`;

/** A result of `tool` started at second `started` (failed when `status` is given). */
export function make(tool, params, output, { started = 0, callId, status } = {}) {
  const input = { tool_name: tool, parameters: params, tool_call_id: callId ?? `call_${process.pid}_${++n}` };
  const times = { started_at: at(started), completed_at: at(started) };
  return status
    ? createFailure({ input, output, status, error_code: status.toUpperCase(), error_message: 'it failed', ...times })
    : createSuccess({ input, output, ...times });
}

function collect(store) {
  const seen = [];
  for (const type of ['stored', 'validation_failed', 'truncated', 'evicted']) store.on(type, (e) => seen.push([type, e.detail]));
  return seen;
}

const D = { dialogId: 'dlg' };

export function defineStoreContract(name, { open, close = async (s) => s.close?.(), runs = 40 }) {
  const withStore = (options, body) => async () => {
    const store = await open(options);
    try {
      await body(store);
    } finally {
      await close(store);
    }
  };

  test(
    `${name}: put is idempotent, never overwrites, and announces what it stored`,
    withStore({}, async (store) => {
      const seen = collect(store);
      const r = make('read_file', { path: 'a.txt' }, 'one\ntwo\n');
      const report = await store.put(r, D);
      assert.equal(report.stored, true);
      assert.equal(report.meta.summary, 'Read file: a.txt (2 lines)');
      assert.equal(report.meta.dialog_id, 'dlg');
      assert.deepEqual(report.evicted, []);
      const again = await store.put(r, D);
      assert.equal(again.stored, false);
      assert.deepEqual(again.meta, report.meta, 'the repeat reports what is stored');
      assert.deepEqual(
        seen.map(([t]) => t),
        ['stored'],
        'the repeat is not announced',
      );
      assert.deepEqual(await store.get(r.metadata.execution_id), r);
      assert.deepEqual(await store.getByToolCallId(r.input.tool_call_id), r);
      assert.deepEqual(await store.meta(r.metadata.execution_id), report.meta);
      assert.equal(await store.get('nope'), undefined);
      assert.equal(await store.getByToolCallId('nope'), undefined);
      assert.equal(await store.meta('nope'), undefined);
      await assert.rejects(
        async () => store.put({ ...r, output: 'changed' }, D),
        (e) => e instanceof ToolResultError && e.code === 'store_conflict' && e.issues[0].path === '/metadata/execution_id',
      );
      const sameCall = make('read_file', { path: 'b.txt' }, 'other', { callId: r.input.tool_call_id });
      await assert.rejects(
        async () => store.put(sameCall, D),
        (e) => e.code === 'store_conflict' && e.issues[0].path === '/input/tool_call_id',
      );
      assert.deepEqual((await store.get(r.metadata.execution_id)).output, 'one\ntwo\n', 'not overwritten');
      await assert.rejects(
        async () => store.put({ status: 'success' }, D),
        (e) => e.code === 'invalid_tool_result',
      );
      assert.equal((await store.metrics()).current_count, 1);
      assert.deepEqual(
        seen.map(([t]) => t),
        ['stored'],
        'refused puts are not announced',
      );
    }),
  );

  test(
    `${name}: validation_failed, truncated and evicted events; unsubscribe works`,
    withStore({ retention: { maxCount: 2 } }, async (store) => {
      const seen = collect(store);
      const registry = new ToolRegistry().register({ name: 'calc', output_schema: { type: 'number' } });
      const failed = registry.checkResult(make('calc', {}, 'NaN'));
      await store.put(failed, D);
      const truncated = createSuccess({ input: { tool_name: 'big', tool_call_id: `call_big_${++n}` }, output: 'x', output_truncated: true });
      await store.put(truncated, D);
      const off = store.on('stored', () => assert.fail('unsubscribed listener called'));
      off();
      const third = make('t', {}, 1);
      const report = await store.put(third, D);
      assert.equal(report.evicted.length, 1);
      assert.equal(report.evicted[0].execution_id, failed.metadata.execution_id);
      assert.equal(report.evicted[0].reason, 'max_count');
      assert.deepEqual(
        seen.map(([t]) => t),
        ['stored', 'validation_failed', 'stored', 'truncated', 'stored', 'evicted'],
      );
      const vf = seen.find(([t]) => t === 'validation_failed')[1];
      assert.equal(vf.issues[0].code, 'type');
      assert.equal(vf.meta.status, 'output_validation_failed');
      assert.deepEqual(seen.at(-1)[1], {
        execution_id: failed.metadata.execution_id,
        tool_call_id: failed.input.tool_call_id,
        tool_name: 'calc',
        dialog_id: 'dlg',
        reason: 'max_count',
      });
      assert.equal(await store.get(failed.metadata.execution_id), undefined, 'evicted results are gone');
    }),
  );

  test(
    `${name}: history is newest first with limit, status, since/until; bad queries are typed errors`,
    withStore({}, async (store) => {
      for (const s of [3, 1, 4, 2]) await store.put(make('grep', { pattern: `p${s}` }, { matches: s }, { started: s }), D);
      await store.put(make('grep', { pattern: 'x' }, undefined, { started: 5, status: 'timeout' }), D);
      await store.put(make('bash', { command: 'ls' }, {}, { started: 9 }), D);
      // Same start: the later stored comes first.
      const tieA = make('tie', {}, 'a', { started: 7 });
      const tieB = make('tie', {}, 'b', { started: 7 });
      await store.put(tieA, D);
      await store.put(tieB, D);
      const started = (list) => list.map((r) => r.metadata.started_at.slice(17, 19));
      assert.deepEqual(started(await store.history('grep')), ['05', '04', '03', '02', '01']);
      assert.deepEqual(started(await store.history('grep', { limit: 2 })), ['05', '04']);
      assert.deepEqual(started(await store.history('grep', { status: 'success' })), ['04', '03', '02', '01']);
      assert.deepEqual(started(await store.history('grep', { status: 'timeout' })), ['05']);
      assert.deepEqual(started(await store.history('grep', { since: at(2), until: at(4) })), ['03', '02']);
      assert.deepEqual(
        (await store.history('tie')).map((r) => r.output),
        ['b', 'a'],
      );
      assert.deepEqual(await store.history('nothing'), []);
      await assert.rejects(
        async () => store.history('grep', { limit: 0 }),
        (e) => e.code === 'invalid_options',
      );
      await assert.rejects(
        async () => store.history('grep', { limit: 10_001 }),
        (e) => e.code === 'invalid_options',
      );
      await assert.rejects(
        async () => store.history('grep', { since: 'yesterday' }),
        (e) => e.code === 'invalid_options' && e.issues[0].path === '/since',
      );
      await assert.rejects(
        async () => store.history('grep', { status: 'bogus' }),
        (e) => e.code === 'invalid_options',
      );
    }),
  );

  let clock = Date.parse(at(0));
  test(
    `${name}: retention by count, bytes and age; listDialog gives metadata only, in order`,
    withStore({ retention: { maxAgeMs: 10_000, maxBytes: 4000 }, now: () => clock }, async (store) => {
      const evicted = [];
      store.on('evicted', (e) => evicted.push(e.detail));
      const put = [];
      for (let i = 0; i < 5; i++) {
        const r = make('t', { i }, 'y'.repeat(900), { started: i });
        put.push(r.metadata.execution_id);
        await store.put(r, D);
      }
      const m = await store.metrics();
      assert.ok(m.current_bytes <= 4000);
      assert.ok(evicted.length >= 1 && evicted.every((e) => e.reason === 'max_bytes'));
      assert.deepEqual(
        evicted.map((e) => e.execution_id),
        put.slice(0, evicted.length),
        'the oldest stored go first',
      );
      const listed = await store.listDialog('dlg');
      assert.equal(listed.length, 5 - evicted.length);
      assert.deepEqual(
        listed.map((x) => x.execution_id),
        put.slice(evicted.length),
        'in the order they were stored',
      );
      assert.ok(listed.every((x) => x.dialog_id === 'dlg' && !('output' in x) && x.size_bytes === 902));
      assert.deepEqual(await store.listDialog('other'), []);
      clock += 60_000;
      const aged = await store.prune();
      assert.equal(aged.length, listed.length);
      assert.ok(aged.every((e) => e.reason === 'max_age'));
      assert.equal((await store.metrics()).current_count, 0);
      assert.equal(evicted.length, 5, 'every eviction was announced');
      assert.equal((await store.metrics()).evicted, 5);
      assert.deepEqual(await store.prune(), [], 'nothing left to prune');
    }),
  );

  test(`${name}: invalid retention policies are typed errors`, async () => {
    await assert.rejects(
      async () => close(await open({ retention: { maxCount: -1 } })),
      (e) => e.code === 'invalid_options',
    );
    await assert.rejects(
      async () => close(await open({ retention: { keepForever: true } })),
      (e) => e.code === 'invalid_options' && /keepForever/.test(e.message),
    );
  });

  test(
    `${name}: metrics count the counters of docs/spec.md §11 and the output-size histogram`,
    withStore({ retention: { maxCount: 2 } }, async (store) => {
      await store.put(make('t', {}, 'x'.repeat(5000)), D);
      await store.put(make('t', {}, 1, { status: 'validation_error' }), D);
      await store.put(
        createSuccess({
          input: { tool_name: 'w' },
          output: 1,
          side_effects: [
            { type: 'created', resource: 'a', timestamp: at(0) },
            { type: 'deleted', resource: 'b', timestamp: at(0) },
          ],
        }),
        D,
      );
      await store.put(createSuccess({ input: { tool_name: 'big', tool_call_id: `call_tr_${++n}` }, output: 'x', output_truncated: true }), D);
      const m = await store.metrics();
      assert.equal(m.stored, 4, 'evicted results still count as stored');
      assert.deepEqual(m.by_status, { success: 3, validation_error: 1 });
      assert.deepEqual(Object.keys(m.by_status), ['success', 'validation_error']);
      assert.equal(m.validation_failures, 1);
      assert.equal(m.side_effects, 2);
      assert.equal(m.truncated, 1);
      assert.equal(m.evicted, 2);
      assert.equal(m.current_count, 2);
      assert.ok(m.current_bytes > 0);
      assert.equal(
        m.output_size.reduce((a, b) => a + b.count, 0),
        4,
      );
      assert.deepEqual(
        m.output_size.map((b) => b.le),
        [1024, 10240, 102400, 1048576, 10485760, null],
      );
      assert.equal(m.output_size[1].count, 1);
      assert.equal(m.output_size_sum, 5002 + 1 + 1 + 3);
    }),
  );

  test(`${name}: property: history is newest first and bounded; retention limits always hold`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 8 }),
        async (starts, limit, maxCount) => {
          const store = await open({ retention: { maxCount } });
          try {
            let evicted = 0;
            store.on('evicted', () => evicted++);
            for (const s of starts) {
              await store.put(make('p', {}, s, { started: s }), D);
              assert.ok((await store.metrics()).current_count <= maxCount);
            }
            const h = await store.history('p', { limit });
            assert.equal(h.length, Math.min(limit, maxCount, starts.length));
            for (let i = 1; i < h.length; i++) assert.ok(h[i - 1].metadata.started_at >= h[i].metadata.started_at);
            assert.equal((await store.metrics()).current_count + evicted, starts.length);
          } finally {
            await close(store);
          }
        },
      ),
      { numRuns: runs },
    );
  });
}
