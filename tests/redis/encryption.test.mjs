// Encrypted bus payloads (toolresult/redis; docs/guide/storage.md,
// "Encryption at rest") against a real redis-server started for this file:
// nothing of the result in any stream entry (results, dead letters) or Pub/Sub
// message; publisher and consumer with the key round-trip; a consumer without
// it, with another key, or without the option dead-letters (Streams) or
// reports (Pub/Sub) a typed issue and the ciphertext, never garbage; an
// entry moved to another stream or changed fails to decrypt.
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { createClient } from 'redis';
import { ToolResultError } from 'toolresult';
import { AgentResultStream, publishAgentResult, subscribeAgentResults } from 'toolresult/redis';
import { startRedis } from './server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const valid = JSON.parse(readFileSync(path.join(here, '..', 'fixtures', 'agent', 'valid-success.json'), 'utf8'));
const CANARY = 'canary-0c9e51f2-do-not-store-in-clear';
const result = (task_id, extra = {}) => ({ ...valid, task_id, result: { project_path: `/workspace/${CANARY}`, note: CANARY }, ...extra });
const k1 = webcrypto.getRandomValues(new Uint8Array(32));
const k2 = webcrypto.getRandomValues(new Uint8Array(32));

let server;
let client;
let streams = 0;
const open = [];
const connections = [];

before(async () => {
  server = await startRedis({ aof: false });
  client = createClient({ url: server.url });
  await client.connect();
});

after(async () => {
  for (const s of open) await s.close();
  for (const c of connections) await c.close().catch(() => c.destroy());
  await client?.close();
  await server?.stop();
});

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
const entriesOf = async (key) => (await cmd('XRANGE', key, '-', '+')).map(([id, f]) => ({ id, ...fieldsOf(f) }));
/** Every field of every entry of every key of the server, as text. */
async function everything() {
  const out = [];
  for (const key of await cmd('KEYS', '*')) {
    const type = String(await cmd('TYPE', key));
    if (type === 'stream') for (const e of await entriesOf(key)) out.push(JSON.stringify(e));
    else if (type === 'hash') out.push(JSON.stringify(await cmd('HGETALL', key)));
    else if (type === 'string') out.push(String(await cmd('GET', key)));
  }
  return out;
}
const stream = (encryption, options = {}) => {
  const s = new AgentResultStream(client, { stream: `enc${++streams}`, ...(encryption ? { encryption } : {}), ...options });
  open.push(s);
  return s;
};

test('streams: nothing of the result in any entry; a consumer with the key gets it whole', async () => {
  const encryption = { keys: { k1 }, current: 'k1' };
  const s = stream(encryption);
  await s.publish(result('t1'));
  await s.publish(result('t2'));
  const entries = await entriesOf(s.stream);
  assert.equal(entries.length, 2);
  for (const e of entries) {
    assert.equal(e.result.includes(CANARY), false);
    assert.equal(JSON.parse(e.result).key_id, 'k1');
  }
  // A consumer of the same stream (another object, as another process would be) with the key.
  const reader = new AgentResultStream(client, { stream: s.stream, encryption });
  open.push(reader);
  const seen = [];
  const c = await reader.consume((r) => seen.push(r), { group: 'g', consumer: 'c', blockMs: 50 });
  await until(() => seen.length === 2, 'both handled');
  await c.close();
  assert.deepEqual(seen, [result('t1'), result('t2')]);
  for (const text of await everything()) assert.equal(text.includes(CANARY), false, text.slice(0, 200));
});

test('streams: without the key, with another key, without the option: dead-lettered as invalid with a typed issue, the ciphertext kept', async () => {
  const s = stream({ keys: { k1 }, current: 'k1' });
  await s.publish(result('t1'));
  const original = (await entriesOf(s.stream))[0].result;
  const cases = [
    ['other-key', { keys: { k2 }, current: 'k2' }, 'key_unavailable'],
    ['wrong-bytes', { keys: { k1: k2 }, current: 'k1' }, 'decryption_failed'],
    ['no-option', undefined, 'encryption_required'],
  ];
  for (const [group, encryption, code] of cases) {
    const reader = new AgentResultStream(client, { stream: s.stream, deadLetterStream: `${s.stream}:dead:${group}`, ...(encryption ? { encryption } : {}) });
    open.push(reader);
    const invalid = [];
    reader.on('invalid', (e) => invalid.push(e.detail.issues));
    const handled = [];
    const c = await reader.consume((r) => handled.push(r), { group, consumer: 'c', blockMs: 50 });
    await until(() => invalid.length === 1, `${group}: reported`);
    await c.close();
    assert.deepEqual(handled, [], `${group}: never handed to the handler`);
    assert.deepEqual(
      invalid[0].map((i) => i.code),
      [code],
    );
    const [dead] = await entriesOf(reader.deadLetterStream);
    assert.equal(dead.reason, 'invalid');
    assert.equal(dead.original, original, `${group}: the ciphertext, as sent`);
    assert.equal(dead.original.includes(CANARY), false);
  }
});

test('streams: an entry moved to another stream, or changed, fails to decrypt; the dead letters of a consumer with the key are encrypted too', async () => {
  const encryption = { keys: { k1 }, current: 'k1' };
  const a = stream(encryption);
  await a.publish(result('t1'));
  const sealed = JSON.parse((await entriesOf(a.stream))[0].result);
  const b = stream(encryption);
  await cmd('XADD', b.stream, '*', 'result', JSON.stringify(sealed));
  const bytes = Buffer.from(sealed.ciphertext, 'base64');
  bytes[5] ^= 1;
  await cmd('XADD', b.stream, '*', 'result', JSON.stringify({ ...sealed, ciphertext: bytes.toString('base64') }));
  // A result that decrypts and then fails validation: its issues quote the result.
  await cmd('XADD', b.stream, '*', 'result', '{"task_id": "x"}');
  const invalid = [];
  b.on('invalid', (e) => invalid.push(e.detail.issues.map((i) => i.code)));
  const c = await b.consume(() => {}, { group: 'g', consumer: 'c', blockMs: 50 });
  await until(() => invalid.length === 3, 'all three reported');
  await c.close();
  assert.deepEqual(invalid.slice(0, 2), [['decryption_failed'], ['decryption_failed']]);
  const dead = await entriesOf(b.deadLetterStream);
  assert.equal(dead.length, 3);
  for (const d of dead) assert.equal(JSON.parse(d.issues).sealed, 'aes-256-gcm', 'the issues are encrypted');

  // A handler that fails until maxDeliveries: its error is kept encrypted in Redis, clear in the event.
  const f = stream(encryption);
  await f.publish(result('t9'));
  const deadEvents = [];
  f.on('dead_lettered', (e) => deadEvents.push(e.detail));
  const failing = await f.consume(
    () => {
      throw new Error(`handler saw ${CANARY}`);
    },
    { group: 'g', consumer: 'c', blockMs: 50, maxDeliveries: 2, idleMs: 50, claimIntervalMs: 20 },
  );
  await until(() => deadEvents.length === 1, 'dead-lettered after two attempts');
  await failing.close();
  assert.match(deadEvents[0].error, new RegExp(`handler saw ${CANARY}`));
  const [letter] = await entriesOf(f.deadLetterStream);
  assert.equal(JSON.parse(letter.error).sealed, 'aes-256-gcm');
  for (const text of await everything()) assert.equal(text.includes(CANARY), false, text.slice(0, 200));
});

test('pub/sub: nothing of the result on the wire; a subscriber with the key gets it, in order; one without gets a typed onInvalid', async () => {
  const channel = 'enc:results';
  const encryption = { keys: { k1, k2 }, current: 'k2' };
  const raw = [];
  const plain = client.duplicate();
  await plain.connect();
  connections.push(plain);
  await plain.subscribe(channel, (m) => raw.push(m));
  const withKey = client.duplicate();
  await withKey.connect();
  connections.push(withKey);
  const got = [];
  const sub = await subscribeAgentResults(withKey, channel, (r) => got.push(r.task_id), { encryption });
  const without = client.duplicate();
  await without.connect();
  connections.push(without);
  const invalid = [];
  const got2 = [];
  const sub2 = await subscribeAgentResults(without, channel, (r) => got2.push(r.task_id), { onInvalid: (m) => invalid.push(m) });

  const ids = Array.from({ length: 20 }, (_, i) => `p${i}`);
  for (const id of ids) {
    const report = await publishAgentResult(client, channel, result(id), { encryption, wrap: id === 'p3' });
    assert.equal(report.message.includes(CANARY), false);
  }
  // A clear message is read too (a publisher that has not turned encryption on yet).
  await publishAgentResult(client, channel, result('clear'));
  await until(() => got.length === 21 && invalid.length === 20 && got2.length === 1 && raw.length === 21, 'every message');
  assert.deepEqual(got, [...ids, 'clear'], 'in the order published');
  assert.deepEqual(got2, ['clear'], 'without the option only the clear message is read');
  for (const m of raw.slice(0, 20)) assert.equal(m.includes(CANARY), false);
  assert.deepEqual(new Set(invalid.map((m) => m.issues[0].code)), new Set(['encryption_required']));
  assert.equal(invalid[0].raw, raw[0], 'the message as received');
  await sub.unsubscribe();
  await sub2.unsubscribe();
  await assert.rejects(
    publishAgentResult(client, channel, result('x'), { encryption: { keys: { k1 }, current: 'k3' } }),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options' && e.issues[0].path === '/encryption/current',
  );
  assert.throws(
    () => new AgentResultStream(client, { encryption: { keys: { k1: new Uint8Array(8) }, current: 'k1' } }),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options',
  );
});
