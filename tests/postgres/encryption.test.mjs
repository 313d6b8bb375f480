// Encryption at rest in PostgresResultStore against a real PostgreSQL server
// (docs/guide/storage.md, "Encryption at rest"): nothing the tool or its
// caller gave in any column of any table, round trips (put, putMany,
// history, listDialog, meta, other nodes' events), a key not given or a
// wrong one, a flipped byte, ciphertext moved to another row, rotation and
// `rewrap` (also killed midway), clear rows read and encrypted, a store
// opened without the option.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { PostgresResultStore } from 'toolresult/postgres';
import { createSuccess, ToolRegistry, ToolResultError } from 'toolresult';
import { defineStoreContract } from '../stores/contract.mjs';
import { startPostgres } from './server.mjs';

const require = createRequire(import.meta.url);
const CANARY = 'canary-a41d0b6e-do-not-store-in-clear';
const key = () => webcrypto.getRandomValues(new Uint8Array(32));
const k1 = key();
const k2 = key();
let server;
let admin;
let schemas = 0;
const scratch = mkdtempSync(path.join(tmpdir(), 'toolresult-pg-enc-'));
const freshSchema = () => `enc${process.pid}_${++schemas}`;

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

const open = (schema, encryption, options = {}) =>
  PostgresResultStore.open({ connection: server.connection, schema, listen: false, ...(encryption ? { encryption } : {}), ...options });
const isCode =
  (code, also = () => true) =>
  (e) =>
    e instanceof ToolResultError && e.code === code && also(e);
// The behaviour every store shares (tests/stores/contract.mjs), encrypted.
defineStoreContract('PostgresResultStore with encryption', { open: (options) => open(freshSchema(), { keys: { k1 }, current: 'k1' }, options), runs: 8 });

let n = 0;
const secret = (tool = 'read_file') => {
  const callId = `call_${++n}`;
  return createSuccess({
    input: { tool_name: tool, parameters: { path: `/srv/${CANARY}/${callId}`, note: CANARY }, tool_call_id: callId },
    output: { content: `${CANARY}\nline two\n`, lines: 2 },
    side_effects: [{ type: 'modified', resource: `/srv/${CANARY}`, timestamp: '2026-11-22T10:00:00Z', is_reversible: false }],
  });
};
// An output that fails its tool's output schema: the issues and the error message quote it.
const registry = new ToolRegistry().register({ name: 'calc', output_schema: { type: 'object', properties: { n: { const: 1 } } } });
const failed = () =>
  registry.checkResult(createSuccess({ input: { tool_name: 'calc', parameters: { q: CANARY }, tool_call_id: `call_${++n}` }, output: { n: CANARY } }));

/** Every row of every table of the schema, each as PostgreSQL's text of the whole row (bytea as hex). */
async function everyRow(schema) {
  const { rows: tables } = await admin.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema]);
  const out = [];
  for (const { table_name } of tables) {
    const { rows } = await admin.query(`SELECT t::text AS row FROM "${schema}"."${table_name}" t`);
    for (const r of rows) out.push({ table: table_name, row: r.row });
  }
  return out;
}
const rowOf = async (schema, executionId) => (await admin.query(`SELECT * FROM "${schema}".toolresult_results WHERE execution_id = $1`, [executionId])).rows[0];

test('the option is checked before any connection is made', async () => {
  for (const [encryption, at] of [
    [{ keys: { k1 }, current: 'nope' }, '/encryption/current'],
    [{ keys: { k1: new Uint8Array(31) }, current: 'k1' }, '/encryption/keys/k1'],
    [{ keys: {}, current: 'k1' }, '/encryption/keys'],
  ]) {
    await assert.rejects(
      // Port 1: a connection attempt would fail differently.
      PostgresResultStore.open({ connection: { host: '127.0.0.1', port: 1 }, encryption }),
      isCode('invalid_options', (e) => e.issues.some((i) => i.path === at)),
    );
  }
});

test('unknown options are refused before any connection is made', async () => {
  const refused = (at, hint) => isCode('invalid_options', (e) => e.issues.length === 1 && e.issues[0].path === at && e.message.includes(hint));
  // Port 1: a connection attempt would fail differently.
  const nowhere = { host: '127.0.0.1', port: 1 };
  await assert.rejects(
    PostgresResultStore.open({ connection: nowhere, encrypton: { keys: { k1 }, current: 'k1' } }),
    refused('/encrypton', 'did you mean encryption?'),
  );
  await assert.rejects(PostgresResultStore.open({ connection: nowhere, listen: false, retension: {} }), refused('/retension', 'retension'));
  await assert.rejects(PostgresResultStore.open({ connection: nowhere, dialog_id: 'd' }), refused('/dialog_id', 'dialog_id'));
  await assert.rejects(PostgresResultStore.open(null), refused('', 'options object'));
});

test('no column of any table holds what the tool or its caller gave; every read round-trips; other nodes decrypt their events', async () => {
  const schema = freshSchema();
  const encryption = { keys: { k1 }, current: 'k1' };
  const store = await open(schema, encryption);
  const other = await open(schema, encryption, { listen: true });
  const remote = [];
  other.on('stored', (e) => remote.push(e.detail));
  other.on('validation_failed', (e) => remote.push(e.detail.issues));
  const a = secret();
  const b = secret('grep');
  const c = failed();
  const reportA = await store.put(a, { dialogId: 'd', summary: `summary ${CANARY}` });
  assert.equal(reportA.stored, true);
  const many = await store.putMany([b, c, a], { dialogId: 'd' });
  assert.deepEqual(
    many.results.map((r) => r.ok && r.value.stored),
    [true, true, false],
  );
  assert.equal((await store.put(a, { dialogId: 'd' })).stored, false, 'a repeat is recognised by its result, not its ciphertext');
  await assert.rejects(store.put({ ...a, output: 'changed' }, { dialogId: 'd' }), isCode('store_conflict'));

  const rows = await everyRow(schema);
  assert.ok(rows.length >= 3 + 2, 'results and migrations rows were scanned');
  for (const { table, row } of rows) assert.equal(row.includes(CANARY), false, `${table}: ${row.slice(0, 200)}`);
  const raw = await rowOf(schema, a.metadata.execution_id);
  assert.equal(raw.key_id, 'k1');
  assert.equal(raw.result, null);
  assert.equal(raw.summary, null);
  assert.equal(raw.preview, null);
  assert.equal(raw.tool_name, 'read_file', 'what queries need stays clear');

  for (const r of [a, b, c]) {
    assert.deepEqual(await store.get(r.metadata.execution_id), r);
    assert.deepEqual(await store.getByToolCallId(r.input.tool_call_id), r);
  }
  assert.equal((await store.meta(a.metadata.execution_id)).summary, `summary ${CANARY}`);
  const history = await store.history('read_file');
  assert.deepEqual([...history], [a]);
  assert.deepEqual(history.skipped, []);
  const listed = await store.listDialog('d');
  assert.deepEqual(
    listed.map((m) => m.execution_id),
    [a, b, c].map((r) => r.metadata.execution_id),
  );
  assert.equal(listed[0].summary, `summary ${CANARY}`);
  assert.match(listed[1].preview, new RegExp(CANARY));
  assert.deepEqual(listed.skipped, []);

  const end = Date.now() + 10_000;
  while (remote.length < 4 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  assert.equal(remote[0].summary, `summary ${CANARY}`, "another node's stored event, decrypted");
  assert.deepEqual(remote.at(-1), c.validation_issues, 'and the validation issues of a failed validation');
  await store.close();
  await other.close();
});

test('a key not given, a wrong key, no encryption at all: typed errors, lists say what they skipped, rows untouched', async () => {
  const schema = freshSchema();
  const writer = await open(schema, { keys: { k1 }, current: 'k1' });
  const a = secret();
  const b = secret();
  await writer.putMany([a, b], { dialogId: 'd' });
  await writer.close();
  const before = await everyRow(schema);

  const without = await open(schema, { keys: { k2 }, current: 'k2' });
  const unreadable = [];
  without.on('unreadable', (e) => unreadable.push(e.detail));
  await assert.rejects(
    without.get(a.metadata.execution_id),
    isCode('key_unavailable', (e) => e.message.includes('"k1"')),
  );
  await assert.rejects(without.meta(a.metadata.execution_id), isCode('key_unavailable'));
  const history = await without.history('read_file');
  assert.deepEqual([...history], []);
  assert.deepEqual(
    history.skipped,
    [b, a].map((r) => ({ execution_id: r.metadata.execution_id, tool_call_id: r.input.tool_call_id, key_id: 'k1', code: 'key_unavailable' })),
  );
  assert.deepEqual(
    (await without.listDialog('d')).skipped.map((r) => r.code),
    ['key_unavailable', 'key_unavailable'],
  );
  assert.ok(unreadable.length >= 5);
  await assert.rejects(without.put(a, { dialogId: 'd' }), isCode('key_unavailable'), 'cannot tell a repeat from a conflict');
  await without.close();

  const wrong = await open(schema, { keys: { k1: k2 }, current: 'k1' });
  await assert.rejects(wrong.get(b.metadata.execution_id), isCode('decryption_failed'));
  await wrong.close();

  const clear = await open(schema, undefined);
  await assert.rejects(
    clear.get(a.metadata.execution_id),
    isCode('encryption_required', (e) => e.message.includes('"k1"')),
  );
  await assert.rejects(clear.getByToolCallId(b.input.tool_call_id), isCode('encryption_required'));
  const listed = await clear.listDialog('d');
  assert.equal(listed.length, 0, 'never ciphertext as data');
  assert.deepEqual(
    listed.skipped.map((r) => r.code),
    ['encryption_required', 'encryption_required'],
  );
  assert.equal(await clear.size(), 2);
  await clear.close();
  assert.deepEqual(await everyRow(schema), before, 'nothing was changed or deleted');
});

test('a flipped byte fails that row only; ciphertext moved to another row fails to decrypt', async () => {
  const schema = freshSchema();
  const encryption = { keys: { k1 }, current: 'k1' };
  const store = await open(schema, encryption);
  const results = [secret(), secret(), secret(), secret()];
  await store.putMany(results, { dialogId: 'd' });
  const [a, b, c, d] = results.map((r) => r.metadata.execution_id);
  await admin.query(`UPDATE "${schema}".toolresult_results SET sealed = set_byte(sealed, 20, get_byte(sealed, 20) # 1) WHERE execution_id = $1`, [b]);
  await admin.query(
    `UPDATE "${schema}".toolresult_results SET sealed = (SELECT sealed FROM "${schema}".toolresult_results WHERE execution_id = $1) WHERE execution_id = $2`,
    [a, c],
  );
  await admin.query(
    `UPDATE "${schema}".toolresult_results SET sealed_meta = (SELECT sealed_meta FROM "${schema}".toolresult_results WHERE execution_id = $1) WHERE execution_id = $2`,
    [a, d],
  );
  assert.deepEqual(await store.get(a), results[0]);
  await assert.rejects(store.get(b), isCode('decryption_failed'));
  await assert.rejects(store.get(c), isCode('decryption_failed'));
  assert.deepEqual(await store.get(d), results[3], "d's result is whole");
  await assert.rejects(store.meta(d), isCode('decryption_failed'), "d's summary is a's: refused");
  const history = await store.history('read_file');
  assert.deepEqual(history.map((r) => r.metadata.execution_id).sort(), [a, d].sort());
  assert.deepEqual(
    history.skipped.map((r) => [r.execution_id, r.code]).sort(),
    [
      [b, 'decryption_failed'],
      [c, 'decryption_failed'],
    ].sort(),
  );
  assert.deepEqual(
    (await store.listDialog('d')).skipped.map((r) => r.execution_id),
    [d],
  );
  await store.close();
});

test('rotation: clear rows and k1 rows read under k2, rewrap moves every row under k2, then k1 can go', async () => {
  const schema = freshSchema();
  const clear = await open(schema, undefined);
  const plain = [secret(), secret()];
  await clear.putMany(plain, { dialogId: 'd' });
  await clear.close();
  assert.ok(
    (await everyRow(schema)).some(({ row }) => row.includes(CANARY)),
    'the scan finds clear rows',
  );

  const one = await open(schema, { keys: { k1 }, current: 'k1' });
  for (const r of plain) assert.deepEqual(await one.get(r.metadata.execution_id), r, 'clear rows are read');
  const under1 = [secret(), secret()];
  await one.putMany(under1, { dialogId: 'd' });
  await one.close();
  const both = await open(schema, { keys: { k1, k2 }, current: 'k2' });
  const under2 = secret();
  await both.put(under2, { dialogId: 'd' });
  const { rows } = await admin.query(`SELECT key_id FROM "${schema}".toolresult_results ORDER BY seq`);
  assert.deepEqual(
    rows.map((r) => r.key_id),
    [null, null, 'k1', 'k1', 'k2'],
  );
  const told = [];
  assert.equal(await both.rewrap({ onRewrapped: (r) => told.push(r.from) }), 4);
  assert.deepEqual(told, [null, null, 'k1', 'k1']);
  assert.equal(await both.rewrap(), 0);
  await both.close();
  for (const { table, row } of await everyRow(schema)) assert.equal(row.includes(CANARY), false, table);
  const only = await open(schema, { keys: { k2 }, current: 'k2' });
  for (const r of [...plain, ...under1, under2]) assert.deepEqual(await only.get(r.metadata.execution_id), r);
  assert.equal((await only.listDialog('d')).length, 5);
  assert.match((await only.listDialog('d'))[0].summary, new RegExp(`^Read file: /srv/${CANARY}/`), "a clear row's summary, encrypted and back");
  await only.close();
  const without = await open(schema, undefined);
  await assert.rejects(
    without.rewrap(),
    isCode('invalid_options', (e) => e.issues[0].path === '/encryption'),
  );
  await without.close();
});

test('rewrap killed midway (SIGKILL): every row stays readable with the keys given, and a second rewrap finishes', async () => {
  const schema = freshSchema();
  const count = 600;
  const writer = await open(schema, { keys: { k1 }, current: 'k1' });
  const results = Array.from({ length: count }, () => secret());
  for (let i = 0; i < count; i += 100) await writer.putMany(results.slice(i, i + 100), { dialogId: 'd' });
  await writer.close();
  const script = path.join(scratch, 'rewrap.cjs');
  writeFileSync(
    script,
    `const { PostgresResultStore } = require(${JSON.stringify(require.resolve('toolresult/postgres'))});
const hex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const [connection, schema, a, b] = process.argv.slice(2);
(async () => {
  const store = await PostgresResultStore.open({ connection: JSON.parse(connection), schema, listen: false, encryption: { keys: { k1: hex(a), k2: hex(b) }, current: 'k2' } });
  await store.rewrap({ onRewrapped: () => process.stdout.write('REWRAPPED\\n') });
  process.stdout.write('DONE\\n');
  await store.close();
})();`,
  );
  const child = spawn(process.execPath, [script, JSON.stringify(server.connection), schema, Buffer.from(k1).toString('hex'), Buffer.from(k2).toString('hex')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let lines = 0;
  let done = false;
  await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      for (const line of String(chunk).split('\n')) {
        if (line === 'REWRAPPED') lines++;
        if (line === 'DONE') done = true;
      }
      if (lines >= 20) child.kill('SIGKILL');
    });
    child.on('exit', resolve);
  });
  assert.equal(done, false, 'killed before it finished');
  const counts = async () =>
    Object.fromEntries(
      (await admin.query(`SELECT key_id, count(*)::int AS n FROM "${schema}".toolresult_results GROUP BY key_id`)).rows.map((r) => [r.key_id, r.n]),
    );
  const midway = await counts();
  assert.ok(midway.k2 >= 20 && midway.k1 > 0, JSON.stringify(midway));
  const both = await open(schema, { keys: { k1, k2 }, current: 'k2' });
  const history = await both.history('read_file', { limit: 1000 });
  assert.equal(history.length, count);
  assert.deepEqual(history.skipped, []);
  for (const r of results.slice(0, 50)) assert.deepEqual(await both.get(r.metadata.execution_id), r);
  assert.equal(await both.rewrap(), midway.k1);
  assert.deepEqual(await counts(), { k2: count });
  await both.close();
  const only = await open(schema, { keys: { k2 }, current: 'k2' });
  const all = await only.history('read_file', { limit: 1000 });
  assert.equal(all.length, count);
  assert.deepEqual(all.skipped, []);
  await only.close();
});

test('a row moved to another dialog or id, or filed under another tool or status, fails for that row only', async () => {
  const schema = freshSchema();
  const store = await open(schema, { keys: { k1 }, current: 'k1' });
  const results = [secret(), secret(), secret(), secret()];
  await store.putMany(results, { dialogId: 'alice' });
  const [a, b, c, d] = results.map((r) => r.metadata.execution_id);
  const t = `"${schema}".toolresult_results`;
  await admin.query(`UPDATE ${t} SET dialog_id = 'mallory' WHERE execution_id = $1`, [a]);
  await admin.query(`UPDATE ${t} SET tool_name = 'grep' WHERE execution_id = $1`, [b]);
  await admin.query(`UPDATE ${t} SET status = 'failed' WHERE execution_id = $1`, [c]);

  await assert.rejects(store.get(a), isCode('decryption_failed'));
  await assert.rejects(store.getByToolCallId(results[0].input.tool_call_id), isCode('decryption_failed'));
  await assert.rejects(store.meta(a), isCode('decryption_failed'), 'its summary is bound to its dialog too');
  const mallory = await store.listDialog('mallory');
  assert.deepEqual([...mallory], [], 'never served to the other dialog');
  assert.deepEqual(mallory.skipped, [{ execution_id: a, tool_call_id: results[0].input.tool_call_id, key_id: 'k1', code: 'decryption_failed' }]);
  await assert.rejects(
    store.get(b),
    isCode('decryption_failed', (e) => /tool_name/.test(e.message)),
  );
  await assert.rejects(
    store.get(c),
    isCode('decryption_failed', (e) => /status/.test(e.message)),
  );
  await assert.rejects(store.meta(c), isCode('decryption_failed'), 'listDialog and meta check the clear status against the sealed one');
  const alice = await store.listDialog('alice');
  assert.deepEqual(
    alice.map((m) => m.execution_id),
    [d],
  );
  assert.deepEqual(alice.skipped.map((r) => r.execution_id).sort(), [b, c].sort());
  assert.deepEqual(
    (await store.history('grep')).skipped.map((r) => [r.execution_id, r.code]),
    [[b, 'decryption_failed']],
  );
  assert.deepEqual(await store.get(d), results[3]);
  // Put back, each reads again: nothing was lost or moved.
  await admin.query(`UPDATE ${t} SET dialog_id = 'alice', tool_name = 'read_file', status = 'success' WHERE execution_id = ANY($1)`, [[a, b, c]]);
  for (const r of results) assert.deepEqual(await store.get(r.metadata.execution_id), r);
  await store.close();
});

test('rewrap clears the summary and preview of rows evicted before encryption was on; an encrypted store copies none into the log', async () => {
  const schema = freshSchema();
  const clear = await open(schema, undefined, { retention: { maxCount: 1 } });
  const early = [secret(), secret(), secret()];
  for (const r of early) await clear.put(r, { dialogId: 'd', summary: `summary ${CANARY}` });
  await clear.close();
  const evictions = async () => (await admin.query(`SELECT t::text AS row FROM "${schema}".toolresult_evictions t ORDER BY id`)).rows.map((r) => r.row);
  assert.equal((await evictions()).length, 2);
  assert.ok(
    (await evictions()).every((row) => row.includes(CANARY)),
    'the evictions log holds their clear summaries so far',
  );

  const store = await open(schema, { keys: { k1 }, current: 'k1' }, { retention: { maxCount: 1 } });
  // The clear row left is evicted by an encrypted store: its summary is not copied.
  await store.put(secret(), { dialogId: 'd' });
  assert.equal((await evictions()).length, 3);
  assert.equal((await evictions())[2].includes(CANARY), false);
  assert.ok(
    (await evictions()).slice(0, 2).every((row) => row.includes(CANARY)),
    'rows evicted before encryption was on still hold theirs',
  );
  assert.equal(await store.rewrap(), 0, 'every row held is encrypted already');
  for (const { table, row } of await everyRow(schema)) assert.equal(row.includes(CANARY), false, `${table}: ${row.slice(0, 200)}`);
  const { rows } = await admin.query(`SELECT execution_id, tool_name, reason, summary, preview FROM "${schema}".toolresult_evictions ORDER BY id`);
  assert.deepEqual(
    rows.map((r) => [r.execution_id, r.tool_name, r.reason, r.summary, r.preview]),
    early.map((r) => [r.metadata.execution_id, 'read_file', 'max_count', null, null]),
    'what retention and metrics need stays',
  );
  assert.equal((await store.metrics()).evicted, 3);
  await store.close();
});
