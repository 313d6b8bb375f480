// toolresult/redis AgentResultStream against a real redis-server (started for
// this file) through node-redis: validated publish, normalized consume,
// invalid entries dead-lettered at once, handled once per (workflow_id,
// task_id), maxDeliveries, pending entries of a dead consumer claimed after
// idleMs, close() finishing the entry in hand, withAck, counters, events and
// OpenTelemetry metrics. The fault test (faults.test.mjs) runs processes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { createClient } from 'redis';
import { ToolResultError } from 'toolresult';
import { AgentResultStream, instrumentAgentResultStream } from 'toolresult/redis';
import { startRedis } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (f) => readFileSync(path.join(here, '..', 'fixtures', f), 'utf8');
const valid = JSON.parse(fixture('agent/valid-success.json'));
const context = { agent_id: 'legacy-agent', agent_type: 'scaffold', action: 'scaffold_project' };
const result = (task_id, extra = {}) => ({ ...valid, task_id, ...extra });

let server;
let client;
let streams = 0;
const open = [];

before(async () => {
  server = await startRedis({ aof: false });
  client = createClient({ url: server.url });
  await client.connect();
});

after(async () => {
  for (const s of open) await s.close();
  await client?.close();
  await server?.stop();
});

/** A stream of its own per test. */
function freshStream(options = {}) {
  const s = new AgentResultStream(client, { stream: `s${++streams}`, context, ...options });
  open.push(s);
  return s;
}
const cmd = (...args) => client.sendCommand(args.map(String));
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(f, what, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await wait(10);
  }
}
const fieldsOf = (flat) => Object.fromEntries(flat.flatMap((v, i) => (i % 2 ? [] : [[v, flat[i + 1]]])));
const deadLetters = async (s) => (await cmd('XRANGE', s.deadLetterStream, '-', '+')).map(([id, f]) => ({ id, ...fieldsOf(f) }));
const pending = async (s, group) => Number((await cmd('XPENDING', s.stream, group))[0]);
function record(s) {
  const events = [];
  for (const type of ['published', 'handled', 'duplicate', 'invalid', 'dead_lettered', 'redelivered', 'handler_error'])
    s.on(type, (e) => events.push([type, e.detail]));
  return events;
}

test('publish validates before XADD: an invalid result is refused with ToolResultError and nothing is appended', async () => {
  const s = freshStream();
  const events = record(s);
  await assert.rejects(
    s.publish(result('t1', { status: 'failed' })),
    (e) => e instanceof ToolResultError && e.code === 'invalid_agent_result' && e.issues.length > 0,
  );
  await assert.rejects(s.publish('{"task_id":'), (e) => e.code === 'invalid_agent_result');
  assert.equal(Number(await cmd('EXISTS', s.stream)), 0, 'not even created');
  const id = await s.publish(result('t2'));
  assert.match(id, /^\d+-\d+$/);
  const entries = await cmd('XRANGE', s.stream, '-', '+');
  assert.deepEqual(
    entries.map(([eid, f]) => [eid, f[0], JSON.parse(f[1])]),
    [[id, 'result', result('t2')]],
  );
  assert.deepEqual(events, [['published', { id, workflow_id: valid.workflow_id, task_id: 't2' }]]);
  assert.equal(s.counters().published, 1);

  const trimmed = freshStream({ maxLen: 10 });
  for (let i = 0; i < 300; i++) await trimmed.publish(result(`m${i}`));
  const len = Number(await cmd('XLEN', trimmed.stream));
  assert.ok(len < 300 && len >= 10, `MAXLEN ~ 10 trimmed the stream to ${len}`);
  assert.throws(
    () => new AgentResultStream(client, { maxLen: 0 }),
    (e) => e.code === 'invalid_options',
  );
  assert.throws(
    () => new AgentResultStream({}),
    (e) => e.code === 'invalid_options',
  );
});

test('consume: AgentResult, legacy TaskResult and AgentMessage normalized; invalid entries dead-lettered at once with their issues and the original; acknowledged after the handler', async () => {
  const s = freshStream();
  const events = record(s);
  const agentId = await s.publish(result('a1'));
  const legacy = fixture('convert/task-result-success.json');
  const legacyId = String(await cmd('XADD', s.stream, '*', 'result', legacy));
  // The fixtures' TaskResult and AgentMessage carry the same task: another id, or it is a duplicate.
  const wrappedIn = JSON.parse(fixture('convert/agent-message-task-result.json'));
  wrappedIn.payload.task_id = 'wrapped-task';
  await cmd('XADD', s.stream, '*', 'result', JSON.stringify(wrappedIn));
  const bad = fixture('agent/invalid-success-mismatch.json');
  const badId = String(await cmd('XADD', s.stream, '*', 'result', bad));
  const noField = String(await cmd('XADD', s.stream, '*', 'payload', JSON.stringify(valid)));
  await cmd('XADD', s.stream, '*', 'result', 'not json at all');

  const seen = [];
  const c = await s.consume(
    (r, info) => {
      seen.push({ r, info: { ...info } });
    },
    { group: 'orchestrator', consumer: 'c1', blockMs: 50 },
  );
  await until(() => seen.length === 3 && s.counters().deadLettered === 3, 'every entry');
  await until(async () => (await pending(s, 'orchestrator')) === 0, 'every entry acknowledged');
  await c.close();

  assert.deepEqual(seen[0].r, result('a1'));
  assert.equal(seen[0].info.source, 'agent_result');
  assert.equal(seen[0].info.id, agentId);
  assert.equal(seen[0].info.deliveries, 1);
  assert.equal(seen[0].info.group, 'orchestrator');
  assert.equal(seen[0].info.consumer, 'c1');
  assert.equal(seen[0].info.channel, s.stream);
  assert.equal(seen[1].info.source, 'task_result');
  assert.equal(seen[1].info.id, legacyId);
  assert.equal(seen[1].r.agent_id, 'legacy-agent');
  assert.deepEqual(seen[1].r.result, JSON.parse(legacy).output);
  assert.ok(seen[1].info.changes.length > 0);
  assert.equal(seen[2].info.source, 'agent_message');
  assert.equal(seen[2].r.task_id, 'wrapped-task');
  assert.equal(seen[2].r.agent_id, 'legacy-agent', 'the context’s agent_id wins over the wrapper’s (migrate.rs)');

  const dead = await deadLetters(s);
  assert.deepEqual(
    dead.map((d) => [d.reason, d.source_id, d.stream, d.group, d.consumer]),
    [
      ['invalid', badId, s.stream, 'orchestrator', 'c1'],
      ['invalid', noField, s.stream, 'orchestrator', 'c1'],
      ['invalid', dead[2].source_id, s.stream, 'orchestrator', 'c1'],
    ],
  );
  assert.equal(dead[0].original, bad, 'the message as it was sent');
  assert.ok(JSON.parse(dead[0].issues).some((i) => i.path === '/success'));
  assert.equal(JSON.parse(dead[1].issues)[0].code, 'missing_field');
  assert.equal(dead[2].original, 'not json at all');
  assert.ok(JSON.parse(dead[2].issues).length > 0);

  assert.deepEqual(s.counters(), {
    published: 1,
    handled: 3,
    duplicates: 0,
    invalid: 3,
    deadLettered: 3,
    redelivered: 0,
    handlerErrors: 0,
    connectionErrors: 0,
  });
  assert.deepEqual(
    events.map(([t]) => t),
    ['published', 'handled', 'handled', 'handled', 'invalid', 'dead_lettered', 'invalid', 'dead_lettered', 'invalid', 'dead_lettered'],
  );
  const handled = events.find(([t]) => t === 'handled')[1];
  assert.equal(handled.deliveries, 1);
  assert.equal(handled.source, 'agent_result');
  assert.ok(handled.duration_ms >= 0);
});

test('once per (workflow_id, task_id): a result published twice is handled once (acknowledged as a duplicate); once: false hands both', async () => {
  const s = freshStream();
  const events = record(s);
  for (const id of ['d1', 'd2', 'd1']) await s.publish(result(id));
  // The same result in the legacy shape: the same (workflow_id, task_id) after migration.
  await cmd('XADD', s.stream, '*', 'result', JSON.stringify({ task_id: 'd2', workflow_id: valid.workflow_id, status: 'success', output: {} }));
  const seen = [];
  const c = await s.consume((r) => seen.push(r.task_id), { group: 'g', consumer: 'c', blockMs: 50 });
  await until(async () => s.counters().duplicates === 2 && (await pending(s, 'g')) === 0, 'duplicates acknowledged');
  assert.deepEqual(seen, ['d1', 'd2']);
  assert.deepEqual(
    events.filter(([t]) => t === 'duplicate').map(([, d]) => [d.task_id, d.inProgress]),
    [
      ['d1', false],
      ['d2', false],
    ],
  );
  const ttl = Number(await cmd('TTL', `${s.stream}:processed:g:${valid.workflow_id.length}:${valid.workflow_id}:d1`));
  assert.ok(ttl > 6 * 24 * 3600 && ttl <= 7 * 24 * 3600, `the marker expires (${ttl} s)`);
  await c.close();

  // Each group has markers of its own; `once: false` hands every entry.
  const audit = [];
  const all = [];
  const c2 = await s.consume((r) => audit.push(r.task_id), { group: 'audit', consumer: 'a', blockMs: 50 });
  const c3 = await s.consume((r) => all.push(r.task_id), { group: 'raw', consumer: 'a', once: false, blockMs: 50 });
  await until(async () => audit.length === 2 && all.length === 4 && (await pending(s, 'audit')) === 0, 'both groups');
  await c2.close();
  await c3.close();
  assert.deepEqual(audit, ['d1', 'd2']);
  assert.deepEqual(all, ['d1', 'd2', 'd1', 'd2']);
});

test('maxDeliveries: a handler that keeps failing is retried after idleMs, then the entry goes to the dead-letter stream with its error', async () => {
  const s = freshStream();
  const events = record(s);
  await s.publish(result('poison'));
  await s.publish(result('flaky'));
  await s.publish(result('fine'));
  const attempts = { poison: [], flaky: [], fine: [] };
  const c = await s.consume(
    (r, info) => {
      attempts[r.task_id].push(info.deliveries);
      if (r.task_id === 'poison') throw new RangeError(`cannot handle (attempt ${info.deliveries})`);
      if (r.task_id === 'flaky' && info.deliveries < 3) throw new Error('not yet');
    },
    { group: 'g', consumer: 'c', idleMs: 100, claimIntervalMs: 20, maxDeliveries: 4, blockMs: 20 },
  );
  await until(async () => s.counters().deadLettered === 1 && (await pending(s, 'g')) === 0, 'the poison entry dead-lettered', 15_000);
  await c.close();
  assert.deepEqual(attempts, { poison: [1, 2, 3, 4], flaky: [1, 2, 3], fine: [1] });
  const [dead] = await deadLetters(s);
  assert.equal(dead.reason, 'max_deliveries');
  assert.equal(dead.error, 'RangeError: cannot handle (attempt 4)');
  assert.equal(dead.deliveries, '4');
  assert.deepEqual(JSON.parse(dead.original), result('poison'));
  const c0 = s.counters();
  assert.equal(c0.handled, 2);
  assert.equal(c0.handlerErrors, 6);
  assert.ok(c0.redelivered >= 5, `redelivered ${c0.redelivered}`);
  const dl = events.filter(([t]) => t === 'dead_lettered').map(([, d]) => d);
  assert.deepEqual(
    dl.map((d) => [d.reason, d.deliveries, d.error]),
    [['max_deliveries', 4, 'RangeError: cannot handle (attempt 4)']],
  );
  assert.equal(events.filter(([t]) => t === 'handler_error').length, 6);
  assert.equal(events.find(([t, d]) => t === 'handled' && d.task_id === 'flaky')[1].deliveries, 3);
  // Nothing left behind: no marker for the dead-lettered result, no retry bookkeeping.
  assert.equal(Number(await cmd('EXISTS', `${s.stream}:processed:g:${valid.workflow_id.length}:${valid.workflow_id}:poison`)), 0);
  assert.equal(Number(await cmd('EXISTS', `${s.stream}:retries:g`)), 0);
});

test('a consumer that died holding entries: another claims them after idleMs (XAUTOCLAIM), and a result it was handling is taken over once its hold expires', async () => {
  const s = freshStream();
  const events = record(s);
  for (const id of ['x1', 'x2', 'x3']) await s.publish(result(id));
  await cmd('XGROUP', 'CREATE', s.stream, 'g', '0', 'MKSTREAM');
  // "ghost" read all three and died; it was inside the handler of x1 (its hold on x1 lives 400 ms).
  await cmd('XREADGROUP', 'GROUP', 'g', 'ghost', 'COUNT', '10', 'STREAMS', s.stream, '>');
  const marker = `${s.stream}:processed:g:${valid.workflow_id.length}:${valid.workflow_id}:x1`;
  await cmd('SET', marker, 'pending:5:ghost:0-1', 'PX', '400');
  const seen = [];
  const started = Date.now();
  const c = await s.consume((r) => seen.push([r.task_id, Date.now() - started]), {
    group: 'g',
    consumer: 'live',
    idleMs: 200,
    claimIntervalMs: 20,
    blockMs: 20,
  });
  await until(() => seen.length === 3, 'the three claimed', 10_000);
  await c.close();
  assert.deepEqual(seen.map(([id]) => id).sort(), ['x1', 'x2', 'x3']);
  assert.ok(
    seen.every(([, t]) => t >= 150),
    `claimed only once idle for idleMs: ${JSON.stringify(seen)}`,
  );
  assert.ok(seen.find(([id]) => id === 'x1')[1] >= 350, 'x1 waited for the dead consumer’s hold to expire');
  assert.ok(
    events.some(([t, d]) => t === 'duplicate' && d.task_id === 'x1' && d.inProgress),
    'x1 was seen in progress elsewhere first',
  );
  assert.ok(s.counters().redelivered >= 3);
  assert.equal(await pending(s, 'g'), 0);
  const consumers = await cmd('XINFO', 'CONSUMERS', s.stream, 'g');
  const ghost = consumers.map(fieldsOf).find((x) => x.name === 'ghost');
  assert.equal(Number(ghost.pending), 0, 'nothing left with the dead consumer');
});

test('a consumer restarted under its name takes its own pending entries back at once, without waiting for idleMs', async () => {
  const s = freshStream();
  for (const id of ['r1', 'r2']) await s.publish(result(id));
  await cmd('XGROUP', 'CREATE', s.stream, 'g', '0', 'MKSTREAM');
  await cmd('XREADGROUP', 'GROUP', 'g', 'worker-1', 'COUNT', '10', 'STREAMS', s.stream, '>');
  const seen = [];
  const started = Date.now();
  const c = await s.consume((r, info) => seen.push([r.task_id, info.deliveries]), { group: 'g', consumer: 'worker-1', idleMs: 60_000, blockMs: 20 });
  await until(() => seen.length === 2, 'both', 5000);
  assert.ok(Date.now() - started < 5000);
  await c.close();
  assert.deepEqual(seen, [
    ['r1', 1],
    ['r2', 1],
  ]);
  assert.equal(s.counters().redelivered, 2);
});

test('close() finishes the entry in hand, leaves the rest of the batch pending, and a new consumer under the name picks them up', async () => {
  const s = freshStream();
  for (const id of ['h1', 'h2', 'h3', 'h4']) await s.publish(result(id));
  let release;
  const gate = new Promise((r) => {
    release = r;
  });
  let entered;
  const inHandler = new Promise((r) => {
    entered = r;
  });
  const seen = [];
  const c = await s.consume(
    async (r) => {
      seen.push(r.task_id);
      entered();
      await gate;
    },
    { group: 'g', consumer: 'c', count: 10, blockMs: 5000 },
  );
  await inHandler;
  let closed = false;
  const closing = c.close().then(() => {
    closed = true;
  });
  await wait(150);
  assert.equal(closed, false, 'close waits for the handler');
  release();
  await closing;
  assert.deepEqual(seen, ['h1'], 'nothing started after close');
  assert.equal(s.counters().handled, 1, 'the entry in hand was acknowledged');
  assert.equal(await pending(s, 'g'), 3, 'the rest is pending');

  const again = [];
  const c2 = await s.consume((r) => again.push(r.task_id), { group: 'g', consumer: 'c', blockMs: 5000 });
  await until(() => again.length === 3, 'the rest');
  // A consumer blocked in XREADGROUP (5 s) closes at once: the read is cut short.
  const t = Date.now();
  await c2.close();
  assert.ok(Date.now() - t < 2000, `close took ${Date.now() - t} ms`);
  assert.deepEqual(again, ['h2', 'h3', 'h4']);
  assert.equal(await pending(s, 'g'), 0);
  await s.close();
  await assert.rejects(s.publish(result('late')), (e) => e.code === 'store_closed');
});

test('withAck: the handler’s commands run with the acknowledgement; a command Redis refuses fails the delivery like a throw', async () => {
  const s = freshStream();
  await s.publish(result('w1'));
  await s.publish(result('w2'));
  await cmd('SET', 'not-a-hash', 'x');
  const c = await s.consume(
    (r, info) => {
      if (r.task_id === 'w1') info.withAck(['HSET', 'stages', r.task_id, 'done'], ['INCR', 'stage-count']);
      else info.withAck(['HSET', 'not-a-hash', 'f', 'v']);
      assert.throws(
        () => info.withAck(['HSET', 1, 2]),
        (e) => e.code === 'invalid_options',
      );
    },
    { group: 'g', consumer: 'c', idleMs: 50, claimIntervalMs: 10, maxDeliveries: 2, blockMs: 20 },
  );
  await until(async () => s.counters().deadLettered === 1 && (await pending(s, 'g')) === 0, 'w2 dead-lettered');
  await c.close();
  assert.equal(await client.hGet('stages', 'w1'), 'done');
  assert.equal(await client.get('stage-count'), '1');
  const [dead] = await deadLetters(s);
  assert.match(dead.error, /^commit refused: .*WRONGTYPE/);
  assert.equal(JSON.parse(dead.original).task_id, 'w2');
  assert.equal(s.counters().handled, 1);
});

test('consume refuses bad options with ToolResultError', async () => {
  const s = freshStream();
  await assert.rejects(
    s.consume(() => {}, { consumer: 'c' }),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options',
  );
  await assert.rejects(
    s.consume(() => {}, { group: 'g', consumer: 'c', idleMs: -1 }),
    (e) => e.code === 'invalid_options' && /idleMs/.test(e.message),
  );
  await assert.rejects(
    s.consume(() => {}, { group: 'g', consumer: 'c', maxDeliveries: 1.5 }),
    (e) => e.code === 'invalid_options',
  );
  await assert.rejects(s.consume('nope', { group: 'g', consumer: 'c' }), (e) => e.code === 'invalid_options');
  await assert.rejects(
    new AgentResultStream({ sendCommand: async () => 'x' }).consume(() => {}, { group: 'g', consumer: 'c' }),
    (e) => e.code === 'invalid_options',
  );
});

test('instrumentAgentResultStream: the events as OpenTelemetry metrics, by stream, group and reason', async () => {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meter = new MeterProvider({ readers: [reader] }).getMeter('toolresult-test');
  const s = freshStream();
  const off = instrumentAgentResultStream(s, { meter });
  await s.publish(result('o1'));
  await s.publish(result('o1'));
  await s.publish(result('o2'));
  await cmd('XADD', s.stream, '*', 'result', '{}');
  const c = await s.consume(
    (r, info) => {
      if (r.task_id === 'o2' && info.deliveries === 1) throw new Error('once');
    },
    { group: 'g', consumer: 'c', idleMs: 50, claimIntervalMs: 10, blockMs: 20 },
  );
  await until(async () => s.counters().handled === 2 && (await pending(s, 'g')) === 0, 'all');
  await c.close();
  off();
  await s.publish(result('o3'));
  await reader.forceFlush();
  const byName = {};
  for (const scope of exporter.getMetrics().at(-1).scopeMetrics) for (const m of scope.metrics) byName[m.descriptor.name] = m.dataPoints;
  const total = (name) => (byName[name] ?? []).reduce((n, p) => n + (typeof p.value === 'number' ? p.value : p.value.count), 0);
  assert.equal(total('toolresult.agent_results.published'), 3, 'not after off()');
  assert.equal(total('toolresult.agent_results.handled'), 2);
  assert.equal(total('toolresult.agent_results.duplicates'), 1);
  assert.equal(total('toolresult.agent_results.invalid'), 1);
  assert.equal(total('toolresult.agent_results.dead_lettered'), 1);
  assert.equal(total('toolresult.agent_results.handler_errors'), 1);
  assert.ok(total('toolresult.agent_results.redelivered') >= 1);
  assert.equal(total('messaging.process.duration'), 2);
  const [handled] = byName['toolresult.agent_results.handled'];
  assert.deepEqual(handled.attributes, { 'messaging.destination.name': s.stream, 'messaging.consumer.group.name': 'g' });
  assert.equal(byName['toolresult.agent_results.dead_lettered'][0].attributes['toolresult.dead_letter.reason'], 'invalid');
});
