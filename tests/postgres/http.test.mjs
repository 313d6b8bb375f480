// toolresult/http over the PostgresResultStore (asynchronous reads) against a
// real server started for this file: the endpoints' contract over HTTP on
// loopback, as with the other stores (tests/node/http.test.mjs), and two
// nodes sharing the database serve what either stored, with the same ETag.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import pg from 'pg';
import * as toolresult from 'toolresult';
import { createToolResultsHandler, toNodeListener } from 'toolresult/http';
import { PostgresResultStore } from 'toolresult/postgres';
import { httpChecks, httpSeed, runChecks } from '../runtimes/smoke.mjs';
import { startPostgres } from './server.mjs';

let server;
const stores = [];

before(async () => {
  server = await startPostgres({ fsync: false });
});

after(async () => {
  for (const s of stores) await s.close();
  server?.stop();
});

async function open(schema) {
  const store = await PostgresResultStore.open({ connection: server.connection, schema, listen: false });
  stores.push(store);
  return store;
}

async function serve(t, store) {
  const http = createServer(toNodeListener(createToolResultsHandler(store, { public: true })));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => http.close(resolve)));
  return `http://127.0.0.1:${http.address().port}/api`;
}

test('the endpoints over HTTP with the PostgresResultStore; a second node serves the same results', async (t) => {
  const writer = await open(`http_${process.pid}`);
  for (const { dialog_id, result } of httpSeed(toolresult)) await writer.put(result, { dialogId: dialog_id });
  const base = await serve(t, writer);
  const report = await runChecks(httpChecks(fetch, base));
  assert.deepEqual(report.failed, []);
  assert.equal(report.passed.length, 5);

  const reader = await open(`http_${process.pid}`);
  const other = await serve(t, reader);
  const a = await fetch(`${base}/dialogs/dialog_a/tool-results/call_3`);
  const b = await fetch(`${other}/dialogs/dialog_a/tool-results/call_3`);
  assert.equal(a.status, 200);
  assert.equal(b.headers.get('etag'), a.headers.get('etag'));
  assert.deepEqual(await b.json(), await a.json());
  const listed = await (await fetch(`${other}/dialogs/dialog_a/tool-results?limit=1&status=success`)).json();
  assert.deepEqual(
    listed.items.map((m) => m.tool_call_id),
    ['call_3'],
  );
  assert.equal(typeof listed.next_cursor, 'string');
});

test('encrypted rows the server cannot read: the listing names them in skipped, a read is a typed problem', async (t) => {
  const schema = `http_enc_${process.pid}`;
  const encryption = { keys: { k1: crypto.getRandomValues(new Uint8Array(32)) }, current: 'k1' };
  const writer = await PostgresResultStore.open({ connection: server.connection, schema, listen: false, encryption });
  stores.push(writer);
  const make = (id) => toolresult.createSuccess({ input: { tool_name: 'cat', parameters: { path: id }, tool_call_id: id }, output: `secret ${id}` });
  await writer.putMany([make('enc_1'), make('enc_2')], { dialogId: 'alice' });

  // A node opened without the keys: every row is encryption_required, and never served as data.
  const keyless = await open(schema);
  const base = await serve(t, keyless);
  const page = await (await fetch(`${base}/dialogs/alice/tool-results`)).json();
  assert.deepEqual(page.items, []);
  assert.deepEqual(
    page.skipped.map((r) => [r.tool_call_id, r.code]),
    [
      ['enc_1', 'encryption_required'],
      ['enc_2', 'encryption_required'],
    ],
  );
  const read = await fetch(`${base}/dialogs/alice/tool-results/enc_1`);
  assert.equal(read.status, 500);
  assert.equal(read.headers.get('content-type'), 'application/problem+json');
  const body = await read.json();
  assert.equal(body.code, 'encryption_required');
  assert.doesNotMatch(JSON.stringify(body), /k1|secret|toolresult_results/);
  assert.equal((await fetch(`${base}/dialogs/bob/tool-results/enc_1`)).status, 404, "not bob's");

  // With the keys: a row moved to another dialog by SQL fails there (decryption_failed), and is gone from alice's.
  const admin = new pg.Pool(server.connection);
  await admin.query(`UPDATE "${schema}".toolresult_results SET dialog_id = 'mallory' WHERE tool_call_id = 'enc_2'`);
  await admin.end();
  const keyed = await serve(t, writer);
  const mallory = await (await fetch(`${keyed}/dialogs/mallory/tool-results`)).json();
  assert.deepEqual(mallory.items, []);
  assert.deepEqual(
    mallory.skipped.map((r) => [r.tool_call_id, r.code]),
    [['enc_2', 'decryption_failed']],
  );
  const moved = await fetch(`${keyed}/dialogs/mallory/tool-results/enc_2`);
  assert.equal(moved.status, 500);
  assert.equal((await moved.json()).code, 'decryption_failed');
  assert.equal((await fetch(`${keyed}/dialogs/alice/tool-results/enc_2`)).status, 404);
  assert.equal((await fetch(`${keyed}/dialogs/alice/tool-results/enc_1`)).status, 200);
});
