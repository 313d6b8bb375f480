// Options the stores and audit logs do not take are refused, never ignored:
// a misspelt `encryption` would otherwise open a store that writes clear
// text. Each refusal is `invalid_options` with one issue per unknown key at
// its JSON Pointer, before anything is created on disk. The IndexedDB and
// PostgreSQL stores' cases are in idb-encryption.test.mjs and
// tests/postgres/encryption.test.mjs.
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const { FileAuditLog, FileResultStore, ResultStore, ToolResultError, createSuccess } = require('toolresult/node');
const { MemoryAuditLog } = require('toolresult/audit');

const tmpRoot = () => fs.mkdtempSync(path.join(os.tmpdir(), 'toolresult-options-'));
const k1 = webcrypto.getRandomValues(new Uint8Array(32));
/** `invalid_options` whose issues are exactly at `paths`, and whose message names `hint` (when given). */
const refused = (paths, hint) => (e) =>
  e instanceof ToolResultError &&
  e.code === 'invalid_options' &&
  JSON.stringify(e.issues.map((i) => i.path).sort()) === JSON.stringify([...paths].sort()) &&
  e.issues.every((i) => i.code === 'invalid_options') &&
  (hint === undefined || e.message.includes(hint));

test('FileResultStore.open refuses a misspelt option instead of opening a store that writes clear text', async () => {
  const root = tmpRoot();
  // The misspelling the option exists to catch: without the check, this store wrote the secret in clear.
  assert.throws(() => FileResultStore.open(root, { encrypton: { keys: { k1 }, current: 'k1' } }), refused(['/encrypton'], 'did you mean encryption?'));
  assert.throws(() => FileResultStore.open(root, { retention: { maxCount: 1 }, retension: {}, scren: 'reject' }), refused(['/retension', '/scren']));
  assert.throws(() => FileResultStore.open(root, { screen_options: {} }), refused(['/screen_options'], 'did you mean screenOptions?'));
  assert.throws(() => FileResultStore.open(root, { 'a/b': 1 }), refused(['/a~1b']));
  assert.throws(() => FileResultStore.open(root, null), refused(['']));
  assert.throws(() => FileResultStore.open(root, [1]), refused(['']));
  // With `encryption` the answer is a promise: the refusal is its rejection.
  await assert.rejects(FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' }, audits: [] }), refused(['/audits']));
  assert.deepEqual(fs.readdirSync(root), [], 'nothing was created');

  // Every option it documents is taken.
  const store = FileResultStore.open(root, { retention: { maxCount: 5 }, now: Date.now, audit: new MemoryAuditLog(), screen: 'off', screenOptions: {} });
  assert.equal(store.openReport.loaded, 0);
  const encrypted = await FileResultStore.open(tmpRoot(), { encryption: { keys: { k1 }, current: 'k1' }, retention: { maxCount: 5 } });
  await encrypted.put(createSuccess({ input: { tool_name: 'ls', parameters: {}, tool_call_id: 'call_1' }, output: [] }), { dialogId: 'd' });
  assert.equal(encrypted.size, 1);
  await assert.rejects(encrypted.rewrap({ onRewraped: () => {} }), refused(['/onRewraped'], 'did you mean onRewrapped?'));
});

test('new ResultStore, new MemoryAuditLog and FileAuditLog.open refuse unknown options and options that are not an object', () => {
  assert.throws(() => new ResultStore({ retenion: { maxCount: 1 } }), refused(['/retenion'], 'did you mean retention?'));
  assert.throws(() => new ResultStore({ encryption: {} }), refused(['/encryption']), 'the in-memory store does not encrypt');
  assert.throws(() => new ResultStore(null), refused(['']));
  assert.equal(new ResultStore({ retention: { maxCount: 1 }, now: Date.now, screen: 'off' }).size, 0);

  assert.throws(() => new MemoryAuditLog({ clock: Date.now }), refused(['/clock']));
  for (const bad of [null, [], 'now', 42, () => 1]) assert.throws(() => new MemoryAuditLog(bad), refused(['']), String(bad));
  assert.equal(new MemoryAuditLog({ now: Date.now }).size, 0);

  const file = path.join(tmpRoot(), 'audit.log');
  assert.throws(() => FileAuditLog.open(file, { nw: Date.now }), refused(['/nw'], 'did you mean now?'));
  assert.throws(() => FileAuditLog.open(file, []), refused(['']));
  assert.equal(fs.existsSync(file), false, 'nothing was created');
});

test('rewrap on a store opened without encryption: invalid_options at /encryption', async () => {
  const store = FileResultStore.open(tmpRoot());
  await assert.rejects(store.rewrap(), refused(['/encryption'], 'encryption'));
});

test('a store without encryption reading a file encrypted since it opened: encryption_required, never corrupt_store', async () => {
  const root = tmpRoot();
  const clear = FileResultStore.open(root);
  const r = createSuccess({ input: { tool_name: 'cat', parameters: { path: '.env' }, tool_call_id: 'call_1' }, output: 'API_KEY=sk-1' });
  clear.put(r, { dialogId: 'd' });
  assert.deepEqual(clear.get('d', 'call_1'), r);
  // Another process turns encryption on and rewraps the store this one still has open.
  const encrypted = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  assert.equal(await encrypted.rewrap(), 1);
  assert.throws(
    () => clear.get('d', 'call_1'),
    (e) => e instanceof ToolResultError && e.code === 'encryption_required' && e.message.includes('"k1"'),
  );
});

test('put, toReference, prepareHistory, the HTTP handler and the Redis bus refuse options they do not read', async () => {
  const { toReference, prepareHistory } = require('toolresult');
  const { createToolResultsHandler } = require('toolresult/http');
  const { AgentResultStream, publishAgentResult, subscribeAgentResults } = require('toolresult/redis');
  const store = new ResultStore();
  const result = createSuccess({ input: { tool_name: 'read_file', parameters: {}, tool_call_id: 'call_o' }, output: 'ok' });
  assert.throws(() => store.put(result, { dialogId: 'd', sumary: 'x' }), refused(['/sumary'], 'did you mean summary?'));
  assert.equal(store.getByToolCallId('call_o'), undefined, 'nothing stored');
  assert.throws(() => toReference(result, { dialogId: 'd', previewChar: 10 }), refused(['/previewChar'], 'did you mean previewChars?'));
  // A misspelt budget would otherwise return the history uncut.
  assert.throws(() => prepareHistory([], { maxToolToken: 10 }), refused(['/maxToolToken'], 'did you mean maxToolTokens?'));
  assert.throws(() => createToolResultsHandler(store, { basepath: '/x' }), refused(['/basepath'], 'did you mean basePath?'));
  const client = { sendCommand: async () => null, publish: async () => 0 };
  assert.throws(() => new AgentResultStream(client, { maxlen: 10 }), refused(['/maxlen'], 'did you mean maxLen?'));
  const stream = new AgentResultStream(client);
  await assert.rejects(
    stream.consume(async () => {}, { group: 'g', consumer: 'c', idle: 5 }),
    refused(['/idle']),
  );
  await assert.rejects(publishAgentResult(client, 'ch', '{}', { wrapp: true }), refused(['/wrapp'], 'did you mean wrap?'));
  await assert.rejects(
    subscribeAgentResults({ subscribe: async () => {} }, 'ch', () => {}, { onInvalidd: () => {} }),
    refused(['/onInvalidd']),
  );
});
