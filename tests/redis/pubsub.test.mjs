// toolresult/redis Pub/Sub against a real redis-server (started for this file)
// through node-redis: what arrives is normalized (AgentResult, legacy
// TaskResult, the legacy AgentMessage; as text or as bytes), anything invalid
// goes to onInvalid with its issues and the raw message, a throwing handler
// does not end the subscription, and publishAgentResult refuses an invalid
// result before anything reaches the channel.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { createClient } from 'redis';
import { ToolResultError } from 'toolresult';
import { publishAgentResult, subscribeAgentResults } from 'toolresult/redis';
import { startRedis } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'fixtures');
const fixture = (f) => readFileSync(path.join(fixtures, f), 'utf8');
const valid = JSON.parse(fixture('agent/valid-success.json'));
const context = { agent_id: 'legacy-agent', agent_type: 'scaffold', action: 'scaffold_project' };

let server;
let pub;
const subscribers = [];

before(async () => {
  server = await startRedis({ aof: false });
  pub = createClient({ url: server.url });
  await pub.connect();
});

after(async () => {
  for (const s of subscribers) await s.close().catch(() => s.destroy());
  await pub?.close();
  await server?.stop();
});

async function subscriber() {
  const s = pub.duplicate();
  await s.connect();
  subscribers.push(s);
  return s;
}
/** A plain node-redis subscriber: every message as sent. */
async function rawListener(channel) {
  const s = await subscriber();
  const got = [];
  await s.subscribe(channel, (m) => got.push(m));
  return got;
}
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(f, what, ms = 5000) {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await wait(10);
  }
}

test('subscribeAgentResults: AgentResult, legacy TaskResult and AgentMessage normalized; invalid ones reported with issues and the raw message', async () => {
  const channel = 'orchestrator:results';
  const handled = [];
  const invalid = [];
  const sub = await subscribeAgentResults(await subscriber(), channel, (r, info) => handled.push({ r, info }), {
    context,
    onInvalid: (m) => invalid.push(m),
  });
  const sent = {
    agent: JSON.stringify(valid),
    legacy: fixture('convert/task-result-success.json'),
    wrappedLegacy: fixture('convert/agent-message-task-result.json'),
    wrappedAgent: fixture('convert/agent-message-agent-result.json'),
  };
  const bad = {
    mismatch: fixture('agent/invalid-success-mismatch.json'),
    truncated: fixture('agent/invalid-truncated-json.json'),
    wrappedBad: fixture('convert/invalid-agent-message-payload.json'),
    notJson: 'stage complete!',
    empty: '',
  };
  for (const m of [...Object.values(sent), ...Object.values(bad)]) await pub.publish(channel, m);
  await until(() => handled.length + invalid.length === 9, 'nine messages');

  assert.equal(handled.length, 4);
  const [agent, legacy, wrappedLegacy, wrappedAgent] = handled;
  assert.deepEqual(agent.r, valid);
  assert.equal(agent.info.source, 'agent_result');
  assert.deepEqual(agent.info.changes, []);
  assert.equal(agent.info.channel, channel);

  const legacyIn = JSON.parse(sent.legacy);
  assert.equal(legacy.info.source, 'task_result');
  assert.equal(legacy.r.task_id, legacyIn.task_id);
  assert.equal(legacy.r.agent_id, 'legacy-agent', 'from the context');
  assert.deepEqual(legacy.r.result, legacyIn.output, 'output became result');
  assert.equal(legacy.r.success, true);
  assert.equal(legacy.r.version, '1.0.0');
  assert.ok(legacy.info.changes.length > 0, 'the migration says what it changed');

  assert.equal(wrappedLegacy.info.source, 'agent_message');
  assert.equal(wrappedLegacy.r.agent_id, 'legacy-agent', 'a context’s agent_id wins over the wrapper’s (migrate.rs)');
  assert.equal(wrappedLegacy.r.timestamp, JSON.parse(sent.wrappedLegacy).timestamp, 'the wrapper’s timestamp');
  assert.equal(wrappedLegacy.r.workflow_id, JSON.parse(sent.wrappedLegacy).workflow_id);
  assert.equal(wrappedAgent.info.source, 'agent_message');
  assert.deepEqual(wrappedAgent.r, valid);

  assert.deepEqual(
    invalid.map((m) => m.raw),
    Object.values(bad),
    'each with the message as received, in order',
  );
  for (const m of invalid) {
    assert.equal(m.channel, channel);
    assert.ok(m.issues.length > 0);
    for (const i of m.issues) assert.ok(typeof i.code === 'string' && typeof i.path === 'string' && i.message, JSON.stringify(i));
  }
  assert.ok(
    invalid[0].issues.some((i) => i.path === '/success'),
    JSON.stringify(invalid[0].issues),
  );
  assert.deepEqual(sub.counts(), { received: 9, handled: 4, invalid: 5, handlerErrors: 0 });
  await sub.unsubscribe();
  await pub.publish(channel, sent.agent);
  await wait(100);
  assert.equal(handled.length, 4, 'nothing after unsubscribe');
});

test('subscribeAgentResults: messages as bytes (node-redis buffer mode) are read as UTF-8 text', async () => {
  const channel = 'orchestrator:bytes';
  const s = await subscriber();
  const handled = [];
  const invalid = [];
  const listeners = new Map();
  // The same client, with node-redis's third argument (bufferMode) set.
  const bytes = {
    subscribe: (ch, l) => {
      listeners.set(ch, l);
      return s.subscribe(ch, l, true);
    },
    unsubscribe: (ch, l) => s.unsubscribe(ch, l, true),
  };
  const sub = await subscribeAgentResults(bytes, channel, (r) => handled.push(r), { onInvalid: (m) => invalid.push(m) });
  const withAccents = { ...valid, result: { note: 'café ✓ 日本' } };
  await pub.publish(channel, JSON.stringify(withAccents));
  await pub.publish(channel, Buffer.from([0x7b, 0xff, 0x7d]));
  await until(() => handled.length + invalid.length === 2, 'two messages');
  assert.deepEqual(handled, [withAccents]);
  assert.equal(invalid.length, 1);
  assert.ok(invalid[0].issues.length > 0);
  await sub.unsubscribe();
});

test('a handler that throws or rejects does not end the subscription; onError hears of it; a throwing onInvalid neither', async () => {
  const channel = 'orchestrator:throws';
  const seen = [];
  const errors = [];
  const sub = await subscribeAgentResults(
    await subscriber(),
    channel,
    async (r) => {
      seen.push(r.task_id);
      if (r.task_id === 'boom') throw new Error('handler exploded');
      if (r.task_id === 'reject') await Promise.reject(new TypeError('async failure'));
    },
    {
      onError: (e, r, info) => errors.push([e.message, r.task_id, info.source]),
      onInvalid: () => {
        throw new Error('onInvalid exploded too');
      },
    },
  );
  for (const task_id of ['a', 'boom', 'b', 'reject', 'c']) await pub.publish(channel, JSON.stringify({ ...valid, task_id }));
  await pub.publish(channel, '{"not":"a result"}');
  await pub.publish(channel, JSON.stringify({ ...valid, task_id: 'after-invalid' }));
  await until(() => seen.length === 6 && sub.counts().received === 7, 'every message');
  await sub.unsubscribe();
  assert.deepEqual(seen, ['a', 'boom', 'b', 'reject', 'c', 'after-invalid']);
  assert.deepEqual(errors, [
    ['handler exploded', 'boom', 'agent_result'],
    ['async failure', 'reject', 'agent_result'],
  ]);
  assert.deepEqual(sub.counts(), { received: 7, handled: 4, invalid: 1, handlerErrors: 2 });
});

test('publishAgentResult: an invalid result is refused with ToolResultError and nothing is published', async () => {
  const channel = 'orchestrator:publish';
  const raw = await rawListener(channel);
  const bad = { ...valid, success: false, metrics: undefined };
  await assert.rejects(
    publishAgentResult(pub, channel, bad),
    (e) =>
      e instanceof ToolResultError &&
      e.code === 'invalid_agent_result' &&
      e.issues.some((i) => i.path === '/success') &&
      e.issues.some((i) => i.path === '/metrics' || i.message.includes('metrics')),
  );
  await assert.rejects(publishAgentResult(pub, channel, '{"task_id": 1'), (e) => e instanceof ToolResultError && e.code === 'invalid_agent_result');
  const legacy = fixture('convert/task-result-success.json');
  await assert.rejects(publishAgentResult(pub, channel, legacy), (e) => e.code === 'invalid_agent_result', 'a legacy TaskResult is not published as is');
  const cyclic = { ...valid };
  cyclic.result = { self: cyclic };
  await assert.rejects(publishAgentResult(pub, channel, cyclic), (e) => e.code === 'invalid_agent_result');

  // The next message the raw subscriber sees is the valid one sent after.
  const report = await publishAgentResult(pub, channel, valid);
  assert.equal(report.receivers, 1);
  await until(() => raw.length > 0, 'the valid message');
  await wait(50);
  assert.deepEqual(
    raw.map((m) => JSON.parse(m)),
    [valid],
  );
  assert.equal(report.message, raw[0]);
  assert.equal(report.trace_id, undefined);
});

test('publishAgentResult { wrap }: the legacy AgentMessage with trace_id, which subscribers unwrap', async () => {
  const channel = 'orchestrator:wrapped';
  const raw = await rawListener(channel);
  const handled = [];
  const sub = await subscribeAgentResults(await subscriber(), channel, (r, info) => handled.push({ r, info }));
  const a = await publishAgentResult(pub, channel, valid, { wrap: true });
  const b = await publishAgentResult(pub, channel, JSON.stringify(valid), { wrap: { stage: 'scaffolding', trace_id: 'trace-42', agent_id: 'relay-1' } });
  assert.equal(a.receivers, 2);
  await until(() => raw.length === 2 && handled.length === 2, 'both messages');
  const [ma, mb] = raw.map((m) => JSON.parse(m));
  assert.match(a.trace_id, /^[0-9a-f-]{36}$/);
  assert.equal(ma.trace_id, a.trace_id);
  assert.equal(ma.type, 'result');
  assert.equal(ma.agent_id, valid.agent_id);
  assert.equal(ma.workflow_id, valid.workflow_id);
  assert.deepEqual(ma.payload, valid);
  assert.ok(!Number.isNaN(Date.parse(ma.timestamp)));
  assert.match(ma.id, /^[0-9a-f-]{36}$/);
  assert.equal(mb.trace_id, 'trace-42');
  assert.equal(b.trace_id, 'trace-42');
  assert.equal(mb.stage, 'scaffolding');
  assert.equal(mb.agent_id, 'relay-1');
  for (const h of handled) {
    assert.deepEqual(h.r, valid);
    assert.equal(h.info.source, 'agent_message');
  }
  await sub.unsubscribe();
});

test('toolresult/redis loads without importing redis (its types are structural)', () => {
  const out = execFileSync(
    process.execPath,
    [
      '-e',
      `const m = require('toolresult/redis');
       const loaded = Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/](redis|@redis)[\\\\/]/.test(f));
       console.log(JSON.stringify({ loaded, exports: Object.keys(m).sort() }));`,
    ],
    { encoding: 'utf8' },
  );
  const { loaded, exports } = JSON.parse(out);
  assert.deepEqual(loaded, []);
  for (const name of ['AgentResultStream', 'AgentResultStreamEvent', 'instrumentAgentResultStream', 'publishAgentResult', 'subscribeAgentResults']) {
    assert.ok(exports.includes(name), name);
  }
});
