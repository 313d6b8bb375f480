// toolresult/http in Node: seed 003's endpoints over real HTTP on loopback
// (node:http with toNodeListener, and Express), with every store Node has:
// in-memory, file, IndexedDB (fake-indexeddb). The same contract runs in
// Bun, Deno and workerd (tests/runtimes/) and against PostgreSQL
// (tests/postgres/http.test.mjs). Then what only a server shows:
// authorization, paging while the store changes, errors that say nothing of
// the server, HEAD, basePath and Express mounting.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { IDBFactory } from 'fake-indexeddb';
import { createToolResultsHandler, toNodeListener } from 'toolresult/http';
import { FileResultStore } from 'toolresult/node';
import { createSuccess, ResultStore, ToolResultError } from 'toolresult';
import { httpChecks, httpSeed, runChecks } from '../runtimes/smoke.mjs';

const require = createRequire(import.meta.url);
const toolresult = require('toolresult');
const scratch = mkdtempSync(path.join(tmpdir(), 'toolresult-http-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Serves `listener` on a loopback port for the test; returns its origin. */
async function serve(t, listener) {
  const server = createServer(listener);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${server.address().port}`;
}

async function seeded(store) {
  for (const { dialog_id, result } of httpSeed(toolresult)) await store.put(result, { dialogId: dialog_id });
  return store;
}

const stores = {
  ResultStore: () => new ResultStore(),
  FileResultStore: () => FileResultStore.open(mkdtempSync(path.join(scratch, 'file-'))),
  IndexedDbResultStore: () => require('toolresult/web').openIndexedDbStore('http', { indexedDB: new IDBFactory() }),
};

for (const [name, open] of Object.entries(stores)) {
  test(`the endpoints over HTTP with the ${name}`, async (t) => {
    const store = await seeded(await open());
    const origin = await serve(t, toNodeListener(createToolResultsHandler(store, { public: true })));
    const report = await runChecks(httpChecks(fetch, `${origin}/api`));
    assert.deepEqual(report.failed, []);
    assert.equal(report.passed.length, 5);
  });
}

test('the file store: results read back from a reopened store are served with the same ETag', async (t) => {
  const dir = mkdtempSync(path.join(scratch, 'reopen-'));
  await seeded(FileResultStore.open(dir));
  const first = await serve(t, toNodeListener(createToolResultsHandler(FileResultStore.open(dir), { public: true })));
  const a = await fetch(`${first}/api/dialogs/dialog_a/tool-results/call_2`);
  assert.equal(a.status, 200);
  assert.equal((await a.json()).status, 'failed');
  const second = await serve(t, toNodeListener(createToolResultsHandler(FileResultStore.open(dir), { public: true })));
  const b = await fetch(`${second}/api/dialogs/dialog_a/tool-results/call_2`, { headers: { 'if-none-match': a.headers.get('etag') } });
  assert.equal(b.status, 304);
});

test('nothing is served until authorize is given or public: true', async (t) => {
  const store = await seeded(new ResultStore());
  const origin = await serve(t, toNodeListener(createToolResultsHandler(store)));
  for (const p of ['/api/dialogs/dialog_a/tool-results', '/api/dialogs/dialog_a/tool-results/call_1']) {
    const r = await fetch(`${origin}${p}`);
    assert.equal(r.status, 403);
    assert.equal(r.headers.get('content-type'), 'application/problem+json');
    const body = await r.json();
    assert.equal(body.code, 'not_authorized');
    assert.doesNotMatch(JSON.stringify(body), /call_1|read_file/, 'nothing of the store');
  }
});

test('authorize decides per dialog and call: 401 asks for credentials, 403 refuses, before the store is read', async (t) => {
  const store = await seeded(new ResultStore());
  const seen = [];
  let reads = 0;
  const counting = {
    listDialog: (d) => {
      reads++;
      return store.listDialog(d);
    },
    getByToolCallId: (c) => {
      reads++;
      return store.getByToolCallId(c);
    },
    meta: (e) => store.meta(e),
  };
  const handler = createToolResultsHandler(counting, {
    authorize: async (request, target) => {
      seen.push(target);
      const token = request.headers.get('authorization');
      if (!token) return { status: 401, wwwAuthenticate: 'Bearer realm="results"' };
      if (token === 'Bearer alice') return target.dialogId === 'dialog_a';
      return { status: 403, detail: 'this token reads nothing' };
    },
  });
  const origin = await serve(t, toNodeListener(handler));
  const get = (p, token) => fetch(`${origin}/api${p}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  const anonymous = await get('/dialogs/dialog_a/tool-results');
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="results"');
  assert.equal((await anonymous.json()).code, 'unauthenticated');

  const alice = await get('/dialogs/dialog_a/tool-results/call_3', 'alice');
  assert.equal(alice.status, 200);
  assert.equal((await alice.json()).input.tool_call_id, 'call_3');
  const otherDialog = await get('/dialogs/dialog_b/tool-results', 'alice');
  assert.equal(otherDialog.status, 403);
  assert.equal((await otherDialog.json()).code, 'forbidden');
  const mallory = await get('/dialogs/dialog_a/tool-results', 'mallory');
  assert.equal(mallory.status, 403);
  assert.equal((await mallory.json()).detail, 'this token reads nothing');

  assert.deepEqual(seen, [{ dialogId: 'dialog_a' }, { dialogId: 'dialog_a', toolCallId: 'call_3' }, { dialogId: 'dialog_b' }, { dialogId: 'dialog_a' }]);
  assert.equal(reads, 1, 'only the allowed request read the store');
  // A malformed id is refused before authorize runs.
  const bad = await get('/dialogs/a%20b/tool-results', 'alice');
  assert.equal(bad.status, 400);
  assert.equal(seen.length, 4);
});

test('a failing store or authorize is a 500 that says nothing of the server; onError gets the error', async (t) => {
  const errors = [];
  const failing = {
    listDialog: () => {
      throw new Error('connect ECONNREFUSED /var/lib/secret-socket');
    },
    getByToolCallId: async () => {
      throw new ToolResultError('corrupt_store', '/srv/results/dialogs/x/call.json is no longer a valid ToolResult');
    },
    meta: () => undefined,
  };
  const handler = createToolResultsHandler(failing, { public: true, onError: (e, request) => errors.push([e.message, new URL(request.url).pathname]) });
  const origin = await serve(t, toNodeListener(handler));
  for (const p of ['/api/dialogs/d/tool-results', '/api/dialogs/d/tool-results/c']) {
    const r = await fetch(`${origin}${p}`);
    assert.equal(r.status, 500);
    const text = await r.text();
    assert.doesNotMatch(text, /secret|srv|ECONNREFUSED|corrupt|at /);
    assert.equal(JSON.parse(text).code, 'internal_error');
  }
  assert.equal(errors.length, 2);
  assert.match(errors[0][0], /ECONNREFUSED/);
  assert.equal(errors[1][1], '/api/dialogs/d/tool-results/c');

  const throwing = createToolResultsHandler(new ResultStore(), {
    authorize: () => {
      throw new Error('token service down');
    },
    onError: () => {},
  });
  const r = await throwing(new Request('http://x/api/dialogs/d/tool-results'));
  assert.equal(r.status, 500);
  assert.doesNotMatch(await r.text(), /token service/);
});

test("without onError, a 500 is logged with the code it answered: internal_error, or the store's own code", async (t) => {
  const logged = [];
  t.mock.method(console, 'error', (...args) => logged.push(args));
  let down = true;
  const failing = {
    listDialog: () => {
      if (down) throw new Error('connect ECONNREFUSED');
      return Object.assign([], { skipped: [{ execution_id: 'e1', tool_call_id: 'c', code: 'key_unavailable' }] });
    },
    getByToolCallId: async () => {
      throw new ToolResultError('key_unavailable', 'the result of execution e1 is encrypted with key k9, which was not given');
    },
    meta: () => undefined,
  };
  const handler = createToolResultsHandler(failing, { public: true });
  assert.equal((await handler(new Request('http://x/api/dialogs/d/tool-results'))).status, 500);
  down = false;
  const r = await handler(new Request('http://x/api/dialogs/d/tool-results/c'));
  assert.equal(r.status, 500);
  assert.equal((await r.json()).code, 'key_unavailable');
  assert.deepEqual(
    logged.map(([message, e]) => [message, e.message]),
    [
      ['toolresult/http: answered 500 (internal error)', 'connect ECONNREFUSED'],
      ['toolresult/http: answered 500 (key_unavailable)', 'the result of execution e1 is encrypted with key k9, which was not given'],
    ],
  );
});

test('paging holds while results are added and the cursor item is evicted', async () => {
  const store = new ResultStore();
  const put = (i) =>
    store.put(
      createSuccess({
        input: { tool_name: 'bash', parameters: { i }, tool_call_id: `call_${i}` },
        output: i,
        started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        completed_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      }),
      { dialogId: 'd' },
    );
  for (let i = 0; i < 10; i++) put(i);
  const handler = createToolResultsHandler(store, { public: true });
  const page = async (q) => (await handler(new Request(`http://x/api/dialogs/d/tool-results?${q}`))).json();
  const ids = (p) => p.items.map((m) => m.tool_call_id).join();
  const one = await page('limit=3');
  assert.equal(ids(one), 'call_9,call_8,call_7');
  put(10); // newer: lands before the cursor, never on a later page
  const two = await page(`limit=3&cursor=${one.next_cursor}`);
  assert.equal(ids(two), 'call_6,call_5,call_4');
  // The cursor names call_4; a store that no longer holds it (retention, another node) continues with what started before it.
  const without = new ResultStore();
  for (const m of store.listDialog('d')) if (m.tool_call_id !== 'call_4') without.put(store.getByToolCallId(m.tool_call_id), { dialogId: 'd' });
  const after = await (
    await createToolResultsHandler(without, { public: true })(new Request(`http://x/api/dialogs/d/tool-results?limit=3&cursor=${two.next_cursor}`))
  ).json();
  assert.equal(ids(after), 'call_3,call_2,call_1');
  const last = await page(`limit=3&cursor=${after.next_cursor}`);
  assert.equal(ids(last), 'call_0');
  assert.equal(last.next_cursor, null);
  // The Link header carries the next page.
  const r = await handler(new Request('http://x/api/dialogs/d/tool-results?limit=2&tool=bash'));
  const next = (await r.clone().json()).next_cursor;
  assert.equal(r.headers.get('link'), `</api/dialogs/d/tool-results?limit=2&tool=bash&cursor=${next}>; rel="next"`);
});

test('HEAD, Accept, limits, encoded ids, and the problem format', async () => {
  const store = await seeded(new ResultStore());
  const handler = createToolResultsHandler(store, { public: true, maxLimit: 10 });
  const call = (p, init) => handler(new Request(`http://x${p}`, init));
  const get = await call('/api/dialogs/dialog_a/tool-results/call_1');
  const head = await call('/api/dialogs/dialog_a/tool-results/call_1', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('etag'), get.headers.get('etag'));
  assert.equal(await head.text(), '');
  assert.equal((await call('/api/dialogs/dialog%5Fa/tool-results/call%5F1')).status, 200, 'percent-encoded ids');
  for (const accept of ['application/json', 'application/*', '*/*', 'text/html, application/json;q=0.5', 'application/problem+json, */*;q=0.1']) {
    assert.equal((await call('/api/dialogs/dialog_a/tool-results', { headers: { accept } })).status, 200, accept);
  }
  for (const accept of ['text/html', 'application/json;q=0', 'application/xml, */*;q=0']) {
    assert.equal((await call('/api/dialogs/dialog_a/tool-results', { headers: { accept } })).status, 406, accept);
  }
  assert.equal((await call('/api/dialogs/dialog_a/tool-results?limit=10')).status, 200);
  const tooMany = await call('/api/dialogs/dialog_a/tool-results?limit=11');
  assert.deepEqual(await tooMany.json(), {
    type: 'about:blank',
    title: 'Bad Request',
    status: 400,
    detail: 'limit must be an integer from 1 to 10',
    code: 'invalid_query',
  });
  assert.equal((await call('/api/dialogs/dialog_a/tool-results?limit=2&limit=3')).status, 400);
  assert.equal((await call(`/api/dialogs/${'a'.repeat(201)}/tool-results`)).status, 400, 'longer than the stores allow');
  assert.equal((await call('/api/dialogs/%E0%A4%A/tool-results')).status, 400, 'bad percent-encoding');
  const del = await call('/api/dialogs/dialog_a/tool-results/call_1', { method: 'DELETE' });
  assert.equal(del.status, 405);
  assert.equal(del.headers.get('allow'), 'GET, HEAD');
  assert.equal((await call('/api/dialogs/dialog_a/tool-results/call_1/extra')).status, 404);
  assert.equal(get.headers.get('cache-control'), 'private, no-cache');
});

test('basePath; Express mounting, with unknown paths passed on to the next middleware', async (t) => {
  const store = await seeded(new ResultStore());
  const custom = createToolResultsHandler(store, { public: true, basePath: '/v1/results/' });
  assert.equal((await custom(new Request('http://x/v1/results/dialogs/dialog_a/tool-results'))).status, 200);
  assert.equal((await custom(new Request('http://x/api/dialogs/dialog_a/tool-results'))).status, 404);
  const rootMounted = createToolResultsHandler(store, { public: true, basePath: '' });
  assert.equal((await rootMounted(new Request('http://x/dialogs/dialog_a/tool-results'))).status, 200);

  const express = require('express');
  const app = express();
  app.use('/api', toNodeListener(createToolResultsHandler(store, { public: true })));
  app.get('/health', (_req, res) => res.send('ok'));
  app.use((_req, res) => res.status(418).send('teapot'));
  const origin = await serve(t, app);
  const listed = await fetch(`${origin}/api/dialogs/dialog_a/tool-results`);
  assert.equal(listed.status, 200);
  assert.equal((await listed.json()).items.length, 3);
  assert.equal(await (await fetch(`${origin}/health`)).text(), 'ok');
  assert.equal((await fetch(`${origin}/api/other`)).status, 418, 'not ours: on to the next middleware');
});

test('options are checked when the handler is made', () => {
  const store = new ResultStore();
  for (const [options, path] of [
    [{ authorize: () => true, public: true }, '/public'],
    [{ basePath: 'api' }, '/basePath'],
    [{ basePath: 42 }, '/basePath'],
    [{ basePath: '/api?x' }, '/basePath'],
    [{ authorize: 'yes' }, '/authorize'],
    [{ maxLimit: 0 }, '/maxLimit'],
    [{ defaultLimit: 20, maxLimit: 10 }, '/defaultLimit'],
  ]) {
    assert.throws(
      () => createToolResultsHandler(store, options),
      (e) => e instanceof ToolResultError && e.code === 'invalid_options' && e.issues[0].path === path,
      JSON.stringify(options),
    );
  }
  assert.throws(
    () => createToolResultsHandler({}),
    (e) => e.code === 'invalid_options',
  );
});

test('records the store cannot read: listings say which they left out, a read answers a typed problem, only in their own dialog', async () => {
  const { MemoryAuditLog } = require('toolresult/audit');
  const root = mkdtempSync(path.join(scratch, 'unreadable-'));
  const key = () => crypto.getRandomValues(new Uint8Array(32));
  const [k1, k2] = [key(), key()];
  const make = (id) => createSuccess({ input: { tool_name: 'cat', parameters: { path: `${id}.txt` }, tool_call_id: id }, output: `secret of ${id}` });
  const first = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  for (const id of ['call_1', 'call_2']) await first.put(make(id), { dialogId: 'alice' });
  const second = await FileResultStore.open(root, { encryption: { keys: { k2 }, current: 'k2' } });
  await second.put(make('call_3'), { dialogId: 'alice' });
  // call_2 moved into mallory's dialog: it fails to decrypt there.
  const dir = (d) => path.join(root, 'dialogs', d, 'tool_results');
  mkdirSync(dir('mallory'), { recursive: true });
  for (const suffix of ['.json', '.meta.json']) renameSync(path.join(dir('alice'), `call_2${suffix}`), path.join(dir('mallory'), `call_2${suffix}`));

  // The server has k1 only: call_3 (under k2) is key_unavailable, call_2 decryption_failed.
  const store = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  const errors = [];
  const audit = new MemoryAuditLog();
  const handler = createToolResultsHandler(store, { public: true, audit, onError: (e) => errors.push(e.code) });
  const get = async (p) => {
    const r = await handler(new Request(`http://x/api/dialogs/${p}`));
    return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
  };
  const execution = (id) => store.openReport.skipped.find((r) => r.tool_call_id === id).execution_id;

  const alice = await get('alice/tool-results');
  assert.equal(alice.status, 200);
  assert.deepEqual(JSON.parse(alice.text), {
    dialog_id: 'alice',
    items: [store.index.meta(store.getByToolCallId('call_1').metadata.execution_id)],
    next_cursor: null,
    skipped: [{ execution_id: execution('call_3'), tool_call_id: 'call_3', code: 'key_unavailable' }],
  });
  const mallory = JSON.parse((await get('mallory/tool-results')).text);
  assert.deepEqual(mallory.items, []);
  assert.deepEqual(mallory.skipped, [{ execution_id: execution('call_2'), tool_call_id: 'call_2', code: 'decryption_failed' }]);
  assert.deepEqual(JSON.parse((await get('bob/tool-results')).text).skipped, [], 'on every page, empty when none');

  for (const [p, code] of [
    ['alice/tool-results/call_3', 'key_unavailable'],
    ['mallory/tool-results/call_2', 'decryption_failed'],
  ]) {
    const r = await get(p);
    assert.equal(r.status, 500, p);
    assert.equal(r.type, 'application/problem+json');
    const body = JSON.parse(r.text);
    assert.equal(body.code, code);
    assert.equal(body.title, 'Internal Server Error');
    assert.doesNotMatch(r.text, /k1|k2|secret|\.json|dialogs\//, 'no key id, no content, no file');
  }
  assert.deepEqual(errors, ['key_unavailable', 'decryption_failed'], 'onError is told');
  // Another dialog's unreadable record is not found here, as a readable one is not.
  assert.equal((await get('bob/tool-results/call_3')).status, 404);
  assert.equal((await get('alice/tool-results/call_2')).status, 404, 'moved away from alice');
  assert.equal((await get('alice/tool-results/call_1')).status, 200);
  const actions = [];
  for await (const e of audit.entries()) actions.push(`${e.action} ${e.dialog_id}${e.tool_call_id ? ` ${e.tool_call_id}` : ''}`);
  assert.deepEqual(actions, ['listed alice', 'listed mallory', 'listed bob', 'read alice call_1'], 'nothing unread is recorded as read');
});
