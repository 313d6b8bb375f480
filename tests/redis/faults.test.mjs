// toolresult/redis streams under faults, against a real redis-server (AOF on,
// appendfsync always): 3 producer processes × 1,000 results (10 % legacy
// TaskResults, 5 % invalid) and 2 consumer processes; one consumer is killed
// with SIGKILL mid-stream and started again under its name, and Redis itself
// is killed (SIGKILL) and restarted from its AOF while results flow. Every
// valid result must be recorded exactly once by (workflow_id, task_id), every
// invalid one must be in the dead-letter stream with its issues and the
// original message, and every entry Redis acknowledged to a producer must
// still be in the stream after the restart.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { createClient } from 'redis';
import { message } from './messages.mjs';
import { startRedis } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PRODUCERS = 3;
const PER_PRODUCER = 1000;
const STREAM = 'faults:results';
const GROUP = 'orchestrator';
let server;
let admin;
const scratch = mkdtempSync(path.join(tmpdir(), 'toolresult-redis-faults-'));

before(async () => {
  server = await startRedis({ aof: true });
  admin = createClient({ url: server.url, socket: { reconnectStrategy: (n) => Math.min(20 * 2 ** n, 500) } });
  admin.on('error', () => {});
  await admin.connect();
});

after(async () => {
  await admin?.close().catch(() => admin.destroy());
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const wait = (ms) => new Promise((r) => setTimeout(r, ms));

function child(script, job, onLine) {
  const file = path.join(scratch, `${job.name}.json`);
  writeFileSync(file, JSON.stringify(job));
  const proc = spawn(process.execPath, [path.join(here, script), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  createInterface({ input: proc.stdout }).on('line', (line) => onLine(line));
  const exit = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { proc, exit };
}

function startConsumer(name) {
  const lines = [];
  let ready;
  const isReady = new Promise((r) => {
    ready = r;
  });
  const c = child(
    'consumer.mjs',
    { name: `${name}-${Date.now()}`, url: server.url, stream: STREAM, group: GROUP, consumer: name, dir: scratch, idleMs: 2000, workMs: 2 },
    (line) => {
      if (line === 'ready') ready();
      else lines.push(line);
    },
  );
  c.exit.then(() => ready());
  return { ...c, lines, ready: isReady };
}

async function until(f, what, ms) {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await wait(50);
  }
}

test('3 producers × 1,000 results, 2 consumers, one SIGKILLed and restarted, Redis SIGKILLed and restarted from its AOF: nothing lost, nothing twice', {
  timeout: 150_000,
}, async () => {
  const counters = [];
  const consumers = { c1: startConsumer('c1'), c2: startConsumer('c2') };
  await Promise.all(Object.values(consumers).map((c) => c.ready));

  // What Redis acknowledged to each producer: i → entry id.
  const acked = Array.from({ length: PRODUCERS }, () => new Map());
  let retried = 0;
  const total = () => acked.reduce((n, m) => n + m.size, 0);
  const producers = Array.from({ length: PRODUCERS }, (_, p) =>
    child('producer.mjs', { name: `p${p}`, url: server.url, stream: STREAM, p, count: PER_PRODUCER, pauseMs: 4 }, (line) => {
      const [word, i, id, note] = line.split(' ');
      if (word !== 'ack') return;
      acked[p].set(Number(i), id);
      if (note === 'retried') retried += 1;
    }),
  );

  // Mid-stream: kill consumer c1 without warning, start it again under its name.
  await until(() => total() >= 900, '900 acknowledged publishes', 60_000);
  const ackedAtKill = total();
  consumers.c1.proc.kill('SIGKILL');
  const killed = await consumers.c1.exit;
  assert.equal(killed.signal, 'SIGKILL', killed.stderr);
  const callsBeforeKill = readFileSync(path.join(scratch, 'calls-c1.log'), 'utf8').split('\n').filter(Boolean).length;
  consumers.c1 = startConsumer('c1');
  await consumers.c1.ready;

  // Later: kill Redis (no shutdown save: only the AOF survives) and start it again.
  await until(() => total() >= 1900, '1,900 acknowledged publishes', 60_000);
  const ackedAtRestart = total();
  await server.restart({ signal: 'SIGKILL', downMs: 300 });

  const exits = await Promise.all(producers.map((p) => p.exit));
  for (const e of exits) assert.equal(e.code, 0, e.stderr);
  assert.ok(ackedAtKill < PRODUCERS * PER_PRODUCER && ackedAtRestart < PRODUCERS * PER_PRODUCER, 'the faults happened while results were being produced');
  assert.equal(total(), PRODUCERS * PER_PRODUCER, 'every publish was acknowledged in the end');

  // The whole stream, classified by the text each producer sent.
  const byText = new Map();
  for (let p = 0; p < PRODUCERS; p++) for (let i = 0; i < PER_PRODUCER; i++) byText.set(message(p, i).text, { p, i, ...message(p, i) });
  const entries = await admin.sendCommand(['XRANGE', STREAM, '-', '+']);
  const inStream = new Set(entries.map((e) => e[0]));
  const lost = [];
  for (let p = 0; p < PRODUCERS; p++) for (const [i, id] of acked[p]) if (!inStream.has(id)) lost.push(`${p}/${i} ${id}`);
  assert.deepEqual(lost, [], 'every entry Redis acknowledged to a producer survived the restart');
  let invalidEntries = 0;
  for (const [, fields] of entries) {
    const m = byText.get(fields[1]);
    assert.ok(fields[0] === 'result' && m, `an entry the producers sent: ${fields[1].slice(0, 80)}`);
    if (m.kind === 'invalid') invalidEntries += 1;
  }

  const validKeys = new Set();
  const invalidTexts = new Set();
  let legacy = 0;
  for (const m of byText.values()) {
    if (m.kind === 'invalid') invalidTexts.add(m.text);
    else validKeys.add(m.key);
    if (m.kind === 'legacy') legacy += 1;
  }
  const deadCount = async () => Number(await admin.sendCommand(['XLEN', `${STREAM}:dead`]));
  const handledCount = async () => Number(await admin.sendCommand(['HLEN', `${STREAM}:test:handled`]));
  const pendingCount = async () => Number((await admin.sendCommand(['XPENDING', STREAM, GROUP]))[0]);
  await until(
    async () => (await handledCount()) >= validKeys.size && (await deadCount()) >= invalidEntries && (await pendingCount()) === 0,
    'the consumers to drain the stream',
    90_000,
  );

  for (const c of Object.values(consumers)) {
    const closed = new Promise((r) => c.proc.stdout.on('close', r));
    c.proc.kill('SIGTERM');
    const e = await c.exit;
    assert.equal(e.code, 0, e.stderr);
    await closed;
    const last = c.lines.find((l) => l.startsWith('{'));
    if (last) counters.push(JSON.parse(last));
  }

  // Exactly once, by (workflow_id, task_id): the records made atomically with each acknowledgement.
  const handled = await admin.hGetAll(`${STREAM}:test:handled`);
  const twice = Object.entries(handled).filter(([, n]) => n !== '1');
  assert.deepEqual(twice, [], 'no result recorded twice');
  const missing = [...validKeys].filter((k) => !(k in handled));
  assert.deepEqual(missing, [], 'no valid result lost');
  assert.equal(Object.keys(handled).length, validKeys.size, 'nothing recorded that was not sent');
  const log = (await admin.sendCommand(['LRANGE', `${STREAM}:test:log`, '0', '-1'])).map((l) => JSON.parse(l));
  assert.equal(log.length, validKeys.size, 'one log line per result');
  const legacySources = log.filter((l) => l.agent_id.startsWith('legacy-agent')).map((l) => l.source);
  assert.equal(legacySources.length, legacy, 'every legacy TaskResult migrated with its agent id');
  assert.ok(
    legacySources.every((s) => s === 'task_result' || s === 'agent_message'),
    `legacy sources: ${[...new Set(legacySources)]}`,
  );

  // Every invalid message dead-lettered with its issues and the original text, none held back.
  const dead = await admin.sendCommand(['XRANGE', `${STREAM}:dead`, '-', '+']);
  const deadTexts = new Set();
  for (const [, fields] of dead) {
    const f = Object.fromEntries(fields.flatMap((v, k) => (k % 2 ? [] : [[v, fields[k + 1]]])));
    assert.equal(f.reason, 'invalid', JSON.stringify(f));
    assert.ok(invalidTexts.has(f.original), 'the dead letter holds the original message');
    const issues = JSON.parse(f.issues);
    assert.ok(issues.length > 0 && issues.every((i) => typeof i.code === 'string' && typeof i.path === 'string' && i.message), f.issues);
    deadTexts.add(f.original);
  }
  assert.equal(dead.length, invalidEntries, 'one dead letter per invalid entry');
  assert.equal(deadTexts.size, invalidTexts.size, 'every invalid message dead-lettered');

  // The handler ran again only for the entry the killed consumer had in hand.
  const calls = ['c1', 'c2'].flatMap((c) => {
    const f = path.join(scratch, `calls-${c}.log`);
    return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : [];
  });
  const called = new Set(calls.map((l) => l.split(' ')[0]));
  assert.equal(called.size, validKeys.size);
  const extraCalls = calls.length - called.size;
  assert.ok(extraCalls <= 1, `handler calls beyond one per result: ${extraCalls}`);
  assert.ok(callsBeforeKill > 0, 'the killed consumer had handled results');

  const sum = (k) => counters.reduce((n, c) => n + c[k], 0);
  const report = {
    produced: PRODUCERS * PER_PRODUCER,
    valid: validKeys.size - legacy,
    legacy,
    invalid: invalidTexts.size,
    streamEntries: entries.length,
    publishRetries: retried,
    handled: Object.keys(handled).length,
    deadLettered: dead.length,
    duplicates: twice.length,
    lost: missing.length + lost.length,
    handlerCallsAgain: extraCalls,
    ackedAtConsumerKill: ackedAtKill,
    ackedAtRedisRestart: ackedAtRestart,
    survivorCounters: { handled: sum('handled'), duplicates: sum('duplicates'), redelivered: sum('redelivered'), connectionErrors: sum('connectionErrors') },
  };
  console.log(`fault test: ${JSON.stringify(report)}`);
  writeFileSync(path.join(tmpdir(), 'toolresult-redis-faults.json'), JSON.stringify(report, null, 2));
});
