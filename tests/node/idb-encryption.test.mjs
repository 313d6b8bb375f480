// Encryption at rest in the IndexedDB store (toolresult/web) under Node with
// fake-indexeddb (docs/guide/storage.md, "Encryption at rest"): nothing the
// tool or its caller gave in any raw record, round trips, a key not given or
// a wrong one, a flipped byte, ciphertext moved to another record, rotation
// and `rewrap`, clear records read and encrypted, a store opened without the
// option. Runs against the browser build (TOOLRESULT_BUILD=web).
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { test } from 'node:test';
import { IDBFactory } from 'fake-indexeddb';
import { build, toolresult } from './helpers.mjs';
import { defineStoreContract } from '../stores/contract.mjs';

const CANARY = 'canary-52be04d7-do-not-store-in-clear';

if (build !== 'web') {
  test('IndexedDB encryption: runs against the browser build (TOOLRESULT_BUILD=web)', { skip: 'toolresult/web only' }, () => {});
} else {
  const { openIndexedDbStore, createSuccess, ToolResultError } = toolresult;
  const key = () => webcrypto.getRandomValues(new Uint8Array(32));
  const k1 = key();
  const k2 = key();
  let n = 0;
  const secret = (tool = 'read_file') => {
    const callId = `call_${++n}`;
    return createSuccess({
      input: { tool_name: tool, parameters: { path: `/srv/${CANARY}/${callId}` }, tool_call_id: callId },
      output: `${CANARY} is the secret\nsecond line\n`,
    });
  };
  const isCode = (code) => (e) => e instanceof ToolResultError && e.code === code;

  // The behaviour every store shares (tests/stores/contract.mjs), encrypted.
  const contractFactory = new IDBFactory();
  defineStoreContract('IndexedDbResultStore with encryption', {
    open: (options) => openIndexedDbStore(`contract-enc-${++n}`, { ...options, indexedDB: contractFactory, encryption: { keys: { k1 }, current: 'k1' } }),
    close: async (store) => store.close(),
    runs: 8,
  });

  function rawDb(indexedDB, name) {
    return new Promise((resolve, reject) => {
      const r = indexedDB.open(name);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  }
  /** Every record of the `results` object store, as IndexedDB holds it. */
  async function rawRecords(indexedDB, name) {
    const db = await rawDb(indexedDB, name);
    const records = await new Promise((resolve, reject) => {
      const r = db.transaction('results').objectStore('results').getAll();
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    db.close();
    return records;
  }
  /** Rewrites records behind the store's back. */
  async function rewrite(indexedDB, name, change) {
    const db = await rawDb(indexedDB, name);
    await new Promise((resolve, reject) => {
      const tx = db.transaction('results', 'readwrite');
      const req = tx.objectStore('results').openCursor();
      req.onsuccess = () => {
        const c = req.result;
        if (!c) return;
        const next = change(c.value);
        if (next) c.update(next);
        c.continue();
      };
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }
  /** Whether any string or byte array anywhere in a record holds the canary. */
  const holdsCanary = (value) => {
    if (typeof value === 'string') return value.includes(CANARY);
    if (value instanceof Uint8Array) return Buffer.from(value).includes(Buffer.from(CANARY));
    if (value && typeof value === 'object') return Object.values(value).some(holdsCanary);
    return false;
  };

  test('no raw record holds what the tool or its caller gave; reads round-trip, summaries included', async () => {
    const indexedDB = new IDBFactory();
    const encryption = { keys: { k1 }, current: 'k1' };
    const store = await openIndexedDbStore('secret', { indexedDB, encryption });
    const results = [secret(), secret('grep'), secret()];
    for (const r of results) await store.put(r, { dialogId: 'd', summary: `custom ${CANARY}` });
    assert.equal((await store.put(results[0], { dialogId: 'd' })).stored, false);
    store.close();
    const raw = await rawRecords(indexedDB, 'secret');
    assert.equal(raw.length, 3);
    for (const record of raw) {
      assert.equal(holdsCanary(record), false, JSON.stringify(Object.keys(record)));
      assert.equal(record.key_id, 'k1');
      assert.equal(record.json, undefined);
      assert.equal(record.summary, undefined);
      assert.ok(record.sealed instanceof Uint8Array && record.sealed.length > 12 + 16);
    }
    const reopened = await openIndexedDbStore('secret', { indexedDB, encryption });
    assert.deepEqual(reopened.openReport, { loaded: 3, quarantined: [], skipped: [] });
    for (const r of results) assert.deepEqual(reopened.get(r.metadata.execution_id), r);
    assert.equal(reopened.meta(results[1].metadata.execution_id).summary, `custom ${CANARY}`);
    assert.equal(reopened.history('read_file').length, 2);
    reopened.close();
  });

  test('a key not given, a wrong key, a flipped byte, a moved record: that record only, typed, left as it is', async () => {
    const indexedDB = new IDBFactory();
    const store = await openIndexedDbStore('faults', { indexedDB, encryption: { keys: { k1 }, current: 'k1' } });
    const results = [secret(), secret(), secret(), secret()];
    for (const r of results) await store.put(r, { dialogId: 'd' });
    store.close();

    const without = await openIndexedDbStore('faults', { indexedDB, encryption: { keys: { k2 }, current: 'k2' } });
    assert.deepEqual(
      without.openReport.skipped.map((r) => [r.key_id, r.code]),
      results.map(() => ['k1', 'key_unavailable']),
    );
    assert.throws(
      () => without.get(results[0].metadata.execution_id),
      (e) => isCode('key_unavailable')(e) && e.message.includes('"k1"'),
    );
    assert.equal(without.listDialog('d').skipped.length, 4);
    assert.equal(without.history('read_file').skipped.length, 4);
    without.close();
    const wrong = await openIndexedDbStore('faults', { indexedDB, encryption: { keys: { k1: k2 }, current: 'k1' } });
    assert.ok(wrong.openReport.skipped.every((r) => r.code === 'decryption_failed'));
    wrong.close();
    assert.equal((await rawRecords(indexedDB, 'faults')).length, 4, 'nothing was deleted or quarantined');

    const [a, b, c] = results.map((r) => r.metadata.execution_id);
    const raw = await rawRecords(indexedDB, 'faults');
    const sealedOf = (id) => raw.find((r) => r.execution_id === id).sealed;
    await rewrite(indexedDB, 'faults', (record) => {
      if (record.execution_id === b) {
        const flipped = new Uint8Array(record.sealed);
        flipped[20] ^= 1;
        return { ...record, sealed: flipped };
      }
      if (record.execution_id === c) return { ...record, sealed: sealedOf(a) };
      return undefined;
    });
    const reopened = await openIndexedDbStore('faults', { indexedDB, encryption: { keys: { k1 }, current: 'k1' } });
    assert.deepEqual(
      reopened.openReport.skipped.map((r) => [r.execution_id, r.code]),
      [
        [b, 'decryption_failed'],
        [c, 'decryption_failed'],
      ],
    );
    assert.deepEqual(reopened.openReport.quarantined, []);
    assert.deepEqual(reopened.get(a), results[0]);
    assert.deepEqual(reopened.get(results[3].metadata.execution_id), results[3]);
    assert.throws(() => reopened.get(b), isCode('decryption_failed'));
    assert.throws(() => reopened.getByToolCallId(results[2].input.tool_call_id), isCode('decryption_failed'));
    reopened.close();
  });

  test('rotation and rewrap; clear records read and encrypted; without the option: encryption_required', async () => {
    const indexedDB = new IDBFactory();
    const clear = await openIndexedDbStore('rotate', { indexedDB });
    const first = secret();
    await clear.put(first, { dialogId: 'd' });
    clear.close();
    const one = await openIndexedDbStore('rotate', { indexedDB, encryption: { keys: { k1 }, current: 'k1' } });
    assert.deepEqual(one.get(first.metadata.execution_id), first, 'a clear record is read');
    const second = secret();
    await one.put(second, { dialogId: 'd' });
    one.close();
    const both = await openIndexedDbStore('rotate', { indexedDB, encryption: { keys: { k1, k2 }, current: 'k2' } });
    const third = secret();
    await both.put(third, { dialogId: 'd' });
    assert.deepEqual(
      (await rawRecords(indexedDB, 'rotate')).map((r) => r.key_id),
      [undefined, 'k1', 'k2'],
    );
    const told = [];
    assert.equal(await both.rewrap({ onRewrapped: (r) => told.push(r.from) }), 2);
    assert.deepEqual(told, [null, 'k1']);
    assert.equal(await both.rewrap(), 0);
    both.close();
    const raw = await rawRecords(indexedDB, 'rotate');
    assert.deepEqual(
      raw.map((r) => r.key_id),
      ['k2', 'k2', 'k2'],
    );
    for (const record of raw) assert.equal(holdsCanary(record), false);
    const only = await openIndexedDbStore('rotate', { indexedDB, encryption: { keys: { k2 }, current: 'k2' } });
    assert.deepEqual(only.openReport, { loaded: 3, quarantined: [], skipped: [] });
    for (const r of [first, second, third]) assert.deepEqual(only.get(r.metadata.execution_id), r);
    only.close();
    await assert.rejects(openIndexedDbStore('rotate', { indexedDB }), (e) => isCode('encryption_required')(e) && e.message.includes('"k2"'));
    assert.equal((await rawRecords(indexedDB, 'rotate')).length, 3, 'nothing moved');
    await assert.rejects(openIndexedDbStore('rotate', { indexedDB, encryption: { keys: {}, current: 'k2' } }), (e) =>
      e.issues.some((i) => i.path === '/encryption/keys'),
    );
  });

  test('a rewrap stopped midway (the tab closed) leaves every record readable; the next rewrap finishes', async () => {
    const indexedDB = new IDBFactory();
    const old = await openIndexedDbStore('stopped', { indexedDB, encryption: { keys: { k1 }, current: 'k1' } });
    const results = Array.from({ length: 6 }, () => secret());
    for (const r of results) await old.put(r, { dialogId: 'd' });
    old.close();
    // Each record is re-encrypted in a transaction of its own: stopping between two (here, an
    // exception from the callback after the second) is what a page closed mid-rewrap leaves.
    const both = await openIndexedDbStore('stopped', { indexedDB, encryption: { keys: { k1, k2 }, current: 'k2' } });
    let seen = 0;
    await assert.rejects(
      both.rewrap({
        onRewrapped: () => {
          if (++seen === 2) throw new Error('the page went away');
        },
      }),
      /the page went away/,
    );
    both.close();
    assert.deepEqual(
      (await rawRecords(indexedDB, 'stopped')).map((r) => r.key_id),
      ['k2', 'k2', 'k1', 'k1', 'k1', 'k1'],
    );
    const again = await openIndexedDbStore('stopped', { indexedDB, encryption: { keys: { k1, k2 }, current: 'k2' } });
    for (const r of results) assert.deepEqual(again.get(r.metadata.execution_id), r, 'readable after the stop');
    assert.equal(await again.rewrap(), 4);
    again.close();
    const only = await openIndexedDbStore('stopped', { indexedDB, encryption: { keys: { k2 }, current: 'k2' } });
    assert.deepEqual(only.openReport, { loaded: 6, quarantined: [], skipped: [] });
    for (const r of results) assert.deepEqual(only.get(r.metadata.execution_id), r);
    only.close();
  });

  test('a record given another dialog, or another tool name, fails for that record only and is never listed there', async () => {
    const indexedDB = new IDBFactory();
    const encryption = { keys: { k1 }, current: 'k1' };
    const store = await openIndexedDbStore('moved', { indexedDB, encryption });
    const [a, b, c] = [secret(), secret(), secret()];
    for (const r of [a, b, c]) await store.put(r, { dialogId: 'alice' });
    store.close();
    await rewrite(indexedDB, 'moved', (record) => {
      if (record.execution_id === a.metadata.execution_id) return { ...record, dialog_id: 'mallory' };
      if (record.execution_id === b.metadata.execution_id) return { ...record, tool_name: 'grep' };
      return undefined;
    });
    const reopened = await openIndexedDbStore('moved', { indexedDB, encryption });
    assert.deepEqual(
      reopened.openReport.skipped,
      [a, b].map((r) => ({ execution_id: r.metadata.execution_id, tool_call_id: r.input.tool_call_id, key_id: 'k1', code: 'decryption_failed' })),
    );
    assert.deepEqual(reopened.openReport.quarantined, [], 'left as it is');
    const mallory = reopened.listDialog('mallory');
    assert.deepEqual([...mallory], []);
    assert.deepEqual(
      mallory.skipped.map((r) => r.tool_call_id),
      [a.input.tool_call_id],
    );
    assert.throws(() => reopened.getByToolCallId(a.input.tool_call_id), isCode('decryption_failed'));
    assert.throws(
      () => reopened.get(b.metadata.execution_id),
      (e) => isCode('decryption_failed')(e) && /tool_name/.test(e.message),
    );
    assert.deepEqual(
      reopened.listDialog('alice').map((m) => m.execution_id),
      [c.metadata.execution_id],
    );
    reopened.close();
    assert.equal((await rawRecords(indexedDB, 'moved')).length, 3, 'nothing deleted');
  });

  test('unknown options are refused before the database is opened; rewrap without encryption names /encryption', async () => {
    const indexedDB = new IDBFactory();
    const refused = (at, hint) => (e) => isCode('invalid_options')(e) && e.issues.length === 1 && e.issues[0].path === at && e.message.includes(hint);
    await assert.rejects(openIndexedDbStore('opts', { indexedDB, encrypton: { keys: { k1 }, current: 'k1' } }), refused('/encrypton', 'encrypton'));
    await assert.rejects(openIndexedDbStore('opts', { indexedDB, indexedDb: indexedDB }), refused('/indexedDb', 'indexedDb'));
    await assert.rejects(openIndexedDbStore('opts', null), refused('', 'options object'));
    assert.deepEqual(await indexedDB.databases(), [], 'no database was created');
    const clear = await openIndexedDbStore('opts', { indexedDB, retention: { maxCount: 3 }, now: Date.now, screen: 'off' });
    await assert.rejects(clear.rewrap(), refused('/encryption', 'encryption'));
    clear.close();
  });
}
