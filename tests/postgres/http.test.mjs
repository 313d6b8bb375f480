// toolresult/http over the PostgresResultStore (asynchronous reads) against a
// real server started for this file: the endpoints' contract over HTTP on
// loopback, as with the other stores (tests/node/http.test.mjs), and two
// nodes sharing the database serve what either stored, with the same ETag.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
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
