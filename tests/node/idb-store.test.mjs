// The IndexedDB store (toolresult/web) under Node with fake-indexeddb: the
// shared store contract, plus what only a durable store has — a reload keeps
// results, order, summaries and retention; a corrupt record is quarantined.
// In Chromium's real IndexedDB, the web demo's history flows use it (tests/browser/).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IDBFactory } from 'fake-indexeddb';
import { build, toolresult } from './helpers.mjs';
import { defineStoreContract, make } from '../stores/contract.mjs';

if (build !== 'web') {
  test('IndexedDB store: runs against the browser build (TOOLRESULT_BUILD=web)', { skip: 'toolresult/web only' }, () => {});
} else {
  const { openIndexedDbStore, IndexedDbResultStore, ToolResultError } = toolresult;
  let n = 0;
  const factory = new IDBFactory();
  defineStoreContract('IndexedDbResultStore', {
    open: (options) => openIndexedDbStore(`contract-${++n}`, { ...options, indexedDB: factory }),
    close: async (store) => store.close(),
    runs: 15,
  });

  test('a reopened store has every result, in order, with its summary and dialog; retention applies on open', async () => {
    const indexedDB = new IDBFactory();
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const now = () => clock;
    const first = await openIndexedDbStore('reload', { indexedDB, now });
    const results = [];
    for (let i = 0; i < 4; i++) {
      const r = make('read_file', { path: `f${i}` }, `line\n`.repeat(i + 1), { started: i });
      results.push(r);
      await first.put(r, { dialogId: i % 2 ? 'odd' : 'even', summary: i === 3 ? 'custom summary' : undefined });
      clock += 1000;
    }
    const before = first.listDialog('even').concat(first.listDialog('odd'));
    const metrics = first.metrics();
    first.close();
    await assert.rejects(first.put(make('t', {}, 1), {}), (e) => e instanceof ToolResultError && e.code === 'store_closed');

    const second = await openIndexedDbStore('reload', { indexedDB, now });
    assert.deepEqual(second.openReport, { loaded: 4, quarantined: [] });
    assert.deepEqual(second.listDialog('even').concat(second.listDialog('odd')), before, 'same metadata, stored times and summaries');
    assert.equal(second.meta(results[3].metadata.execution_id).summary, 'custom summary');
    assert.deepEqual(second.get(results[2].metadata.execution_id), results[2]);
    assert.deepEqual(
      second.history('read_file').map((r) => r.input.parameters.path),
      ['f3', 'f2', 'f1', 'f0'],
    );
    assert.equal(second.metrics().current_bytes, metrics.current_bytes);
    assert.equal((await second.put(results[0], { dialogId: 'even' })).stored, false, 'still idempotent after a reload');
    await assert.rejects(second.put({ ...results[0], output: 'changed' }, {}), (e) => e.code === 'store_conflict');
    second.close();

    // Age counts from started_at (10:00:00 + i): opened at 10:01:00 with 58.5 s, the first two go.
    clock = Date.parse('2026-11-22T10:01:00Z');
    const third = await openIndexedDbStore('reload', { indexedDB, now, retention: { maxAgeMs: 58_500 } });
    assert.equal(third.size, 2);
    assert.deepEqual(
      third.history('read_file').map((r) => r.input.parameters.path),
      ['f3', 'f2'],
    );
    assert.equal(third.metrics().evicted, 2);
    assert.deepEqual(await third.prune(), []);
    third.close();
    const fourth = await openIndexedDbStore('reload', { indexedDB, now });
    assert.equal(fourth.size, 2, 'evicted records were deleted from IndexedDB');
    fourth.close();
  });

  test('a record that no longer validates is quarantined with the reason, the rest load', async () => {
    const indexedDB = new IDBFactory();
    const store = await openIndexedDbStore('corrupt', { indexedDB });
    const good = make('t', {}, 'ok');
    const bad = make('t', {}, 'will be damaged');
    await store.put(good, {});
    await store.put(bad, {});
    store.close();
    // Damage one record behind the store's back.
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open('corrupt');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    await new Promise((resolve, reject) => {
      const tx = db.transaction('results', 'readwrite');
      const req = tx.objectStore('results').openCursor();
      req.onsuccess = () => {
        const c = req.result;
        if (!c) return;
        if (c.value.execution_id === bad.metadata.execution_id) c.update({ ...c.value, json: '{"metadata": ' });
        c.continue();
      };
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    const reopened = await IndexedDbResultStore.open('corrupt', { indexedDB });
    assert.equal(reopened.openReport.loaded, 1);
    assert.equal(reopened.openReport.quarantined.length, 1);
    assert.match(reopened.openReport.quarantined[0].reason, /not a valid ToolResult: .*\[invalid_json\]/);
    assert.deepEqual(reopened.get(good.metadata.execution_id), good);
    assert.equal(reopened.get(bad.metadata.execution_id), undefined);
    reopened.close();
    const again = await IndexedDbResultStore.open('corrupt', { indexedDB });
    assert.deepEqual(again.openReport, { loaded: 1, quarantined: [] }, 'the damaged record left the results store');
    again.close();
  });

  test('bad arguments are typed errors', async () => {
    await assert.rejects(openIndexedDbStore('', { indexedDB: new IDBFactory() }), (e) => e.code === 'invalid_options');
    await assert.rejects(IndexedDbResultStore.open('x', { indexedDB: undefined }), (e) => e.code === 'missing_dependency');
    const store = await openIndexedDbStore('args', { indexedDB: new IDBFactory() });
    await assert.rejects(store.put({ status: 'success' }), (e) => e.code === 'invalid_tool_result' && e.issues.length > 0);
    assert.equal(store.size, 0);
    store.close();
  });
}
