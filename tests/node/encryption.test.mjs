// Encryption at rest (docs/guide/storage.md, "Encryption at rest") in the
// Node file store: the option checked up front, nothing the tool or its
// caller gave found on disk, round trips, a key not given or a wrong one, a
// flipped byte, ciphertext moved to another record, rotation and `rewrap`
// (also killed midway), clear records read and encrypted, and a store opened
// without the option. The IndexedDB, PostgreSQL and Redis cases are in
// idb-encryption.test.mjs, tests/postgres and tests/redis.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { defineStoreContract } from '../stores/contract.mjs';

const require = createRequire(import.meta.url);
const { FileResultStore, createFailure, createSuccess, ToolResultError } = require('toolresult/node');

const CANARY = 'canary-7f3a9c1e-do-not-store-in-clear';
const tmpRoot = () => fs.mkdtempSync(path.join(os.tmpdir(), 'toolresult-enc-'));
const key = () => webcrypto.getRandomValues(new Uint8Array(32));
const k1 = key();
const k2 = key();

/** A result carrying the canary in what the tool and its caller gave: parameters, output, side effects. */
const secretResult = (callId, tool = 'read_file') =>
  createSuccess({
    input: { tool_name: tool, parameters: { path: `/home/${CANARY}/${callId}.txt`, note: CANARY }, tool_call_id: callId },
    output: { content: `line one ${CANARY}\nline two\n`, lines: 2 },
    side_effects: [{ type: 'modified', resource: `/home/${CANARY}/notes`, timestamp: '2026-11-22T10:00:00Z', is_reversible: false }],
  });
const failedResult = (callId) =>
  createFailure({
    input: { tool_name: 'bash', parameters: { command: `cat ${CANARY}` }, tool_call_id: callId },
    status: 'failed',
    error_code: 'EXIT_1',
    error_message: `cat: ${CANARY}: No such file`,
  });

/** Every file under `dir`, as bytes. */
function allFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile())
    .sort()
    .map((f) => ({ file: f, bytes: fs.readFileSync(f) }));
}
const holdsCanary = (bytes) => bytes.includes(Buffer.from(CANARY)) || bytes.includes(Buffer.from(CANARY, 'utf16le'));
const resultFile = (root, dialog, callId) => path.join(root, 'dialogs', dialog, 'tool_results', `${callId}.json`);
const metaOf = (root, dialog, callId) => JSON.parse(fs.readFileSync(path.join(root, 'dialogs', dialog, 'tool_results', `${callId}.meta.json`), 'utf8'));
const envelopeOf = (root, dialog, callId) => JSON.parse(fs.readFileSync(resultFile(root, dialog, callId), 'utf8'));
const isCode =
  (code, also = () => true) =>
  (e) =>
    e instanceof ToolResultError && e.code === code && also(e);

// The behaviour every store shares (tests/stores/contract.mjs), encrypted.
defineStoreContract('FileResultStore with encryption', {
  open: (options) => FileResultStore.open(tmpRoot(), { ...options, encryption: { keys: { k1 }, current: 'k1' } }),
  close: async (store) => fs.rmSync(store.root, { recursive: true, force: true }),
  runs: 10,
});

test('the option is checked before anything is read or written: typed invalid_options with a path', async () => {
  const root = tmpRoot();
  const hmac = await webcrypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const aes128 = await webcrypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, false, ['encrypt', 'decrypt']);
  const decryptOnly = await webcrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['decrypt']);
  const cases = [
    [null, '/encryption'],
    [{ keys: {}, current: 'k1' }, '/encryption/keys'],
    [{ keys: { k1 }, current: 'k9' }, '/encryption/current'],
    [{ keys: { k1 } }, '/encryption/current'],
    [{ keys: { k1: new Uint8Array(16) }, current: 'k1' }, '/encryption/keys/k1'],
    [{ keys: { k1: 'secret' }, current: 'k1' }, '/encryption/keys/k1'],
    [{ keys: { k1: hmac }, current: 'k1' }, '/encryption/keys/k1'],
    [{ keys: { k1: aes128 }, current: 'k1' }, '/encryption/keys/k1'],
    [{ keys: { k1: decryptOnly }, current: 'k1' }, '/encryption/keys/k1'],
    [{ keys: { 'a/b': k1 }, current: 'a/b' }, '/encryption/keys/a~1b'],
    [{ keys: { k1 }, current: 'k1', currentKey: 'k1' }, '/encryption/currentKey'],
  ];
  for (const [encryption, at] of cases) {
    await assert.rejects(
      FileResultStore.open(root, { encryption }),
      isCode('invalid_options', (e) => e.issues.some((i) => i.path === at)),
      `${JSON.stringify(at)} for ${String(encryption && Object.keys(encryption))}`,
    );
  }
  assert.deepEqual(fs.readdirSync(root), [], 'nothing was created');
  // A decrypt-only key is fine when it is not the current one.
  const store = await FileResultStore.open(root, { encryption: { keys: { old: decryptOnly, k1 }, current: 'k1' } });
  assert.equal(store.openReport.loaded, 0);
});

test('nothing the tool or its caller gave is on disk; every read round-trips; the meta files hold only clear fields', async () => {
  const root = tmpRoot();
  const encryption = { keys: { k1 }, current: 'k1' };
  const store = await FileResultStore.open(root, { encryption });
  const results = [secretResult('call_a'), secretResult('call_b', 'grep'), failedResult('call_c')];
  for (const r of results) {
    const report = await store.put(r, { dialogId: 'dialog_1', summary: `summary ${CANARY}` });
    assert.equal(report.stored, true);
  }
  assert.equal((await store.put(results[0], { dialogId: 'dialog_1' })).stored, false, 'a repeat is recognised by its result');
  await assert.rejects(store.put({ ...results[0], output: 'changed' }, { dialogId: 'dialog_1' }), isCode('store_conflict'));

  const files = allFiles(root);
  assert.equal(files.length, 6);
  for (const { file, bytes } of files) assert.equal(holdsCanary(bytes), false, `${file} holds the canary`);
  const meta = metaOf(root, 'dialog_1', 'call_a');
  assert.deepEqual(Object.keys(meta).sort(), [
    'dialog_id',
    'execution_id',
    'key_id',
    'output_truncated',
    'sha256',
    'size_bytes',
    'started_at',
    'status',
    'stored_bytes',
    'tool_call_id',
    'tool_name',
  ]);
  assert.equal(meta.key_id, 'k1');
  const envelope = envelopeOf(root, 'dialog_1', 'call_a');
  assert.deepEqual(Object.keys(envelope), ['sealed', 'key_id', 'execution_id', 'tool_name', 'nonce', 'ciphertext']);
  assert.equal(envelope.sealed, 'aes-256-gcm');
  assert.equal(Buffer.from(envelope.nonce, 'base64').length, 12, 'a 96-bit nonce');
  assert.notEqual(envelopeOf(root, 'dialog_1', 'call_b').nonce, envelope.nonce, 'a fresh nonce per record');

  // The same reads as a clear store's, in this process and after reopening.
  const clear = FileResultStore.open(tmpRoot());
  for (const r of results) clear.put(r, { dialogId: 'dialog_1' });
  const reopened = await FileResultStore.open(root, { encryption });
  assert.deepEqual(reopened.openReport, { loaded: 3, quarantined: [], removedTemp: [], repaired: [], skipped: [] });
  for (const s of [store, reopened]) {
    for (const r of results) {
      assert.deepEqual(s.get(r.metadata.execution_id), r);
      assert.deepEqual(s.getByToolCallId(r.input.tool_call_id), r);
      assert.deepEqual(s.get('dialog_1', r.input.tool_call_id), r, 'get(dialogId, toolCallId) answers from the index');
    }
    assert.equal(s.get('other_dialog', 'call_a'), undefined);
    assert.deepEqual(s.history('read_file'), clear.history('read_file'));
    const listed = s.listDialog('dialog_1');
    assert.deepEqual(
      listed.map((m) => m.preview),
      clear.listDialog('dialog_1').map((m) => m.preview),
    );
    assert.deepEqual(listed.skipped, []);
    assert.deepEqual(Object.keys(listed), ['0', '1', '2'], '`skipped` is not enumerable');
    assert.equal(JSON.stringify(listed), JSON.stringify([...listed]));
  }
});

test('a key not given: get says key_unavailable naming the key; lists say what they skipped; nothing is moved or deleted', async () => {
  const root = tmpRoot();
  const first = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  const a = secretResult('call_a');
  const b = secretResult('call_b', 'grep');
  await first.put(a, { dialogId: 'd' });
  await first.put(b, { dialogId: 'e' });
  const before = allFiles(root);

  const store = await FileResultStore.open(root, { encryption: { keys: { k2 }, current: 'k2' } });
  const skipped = [
    { execution_id: a.metadata.execution_id, tool_call_id: 'call_a', key_id: 'k1', code: 'key_unavailable' },
    { execution_id: b.metadata.execution_id, tool_call_id: 'call_b', key_id: 'k1', code: 'key_unavailable' },
  ];
  assert.deepEqual(store.openReport, { loaded: 0, quarantined: [], removedTemp: [], repaired: [], skipped });
  assert.throws(
    () => store.get(a.metadata.execution_id),
    isCode('key_unavailable', (e) => e.message.includes('"k1"')),
  );
  assert.throws(() => store.getByToolCallId('call_b'), isCode('key_unavailable'));
  assert.throws(() => store.meta(a.metadata.execution_id), isCode('key_unavailable'));
  const history = store.history('read_file');
  assert.deepEqual([...history], []);
  assert.deepEqual(history.skipped, [skipped[0]]);
  assert.deepEqual(store.listDialog('e').skipped, [skipped[1]]);
  assert.deepEqual(store.listDialog('nobody').skipped, []);
  // The same ids again: the store cannot tell whether it is the same result, so it writes nothing.
  await assert.rejects(store.put(a, { dialogId: 'd' }), isCode('key_unavailable'));
  // A key with the right id and the wrong bytes: decryption_failed.
  const wrong = await FileResultStore.open(root, { encryption: { keys: { k1: k2 }, current: 'k1' } });
  assert.deepEqual(
    wrong.openReport.skipped.map((r) => r.code),
    ['decryption_failed', 'decryption_failed'],
  );
  assert.throws(() => wrong.get(b.metadata.execution_id), isCode('decryption_failed'));
  assert.deepEqual(allFiles(root), before, 'every file as it was');
  // And the right key reads them all.
  const right = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  assert.deepEqual(right.get(a.metadata.execution_id), a);
});

test('a flipped byte fails that record only; ciphertext moved to another record fails to decrypt', async () => {
  const root = tmpRoot();
  const encryption = { keys: { k1 }, current: 'k1' };
  const store = await FileResultStore.open(root, { encryption });
  const results = ['call_a', 'call_b', 'call_c', 'call_d'].map((id) => secretResult(id));
  for (const r of results) await store.put(r, { dialogId: 'd' });

  // One bit of call_b's ciphertext.
  const b = envelopeOf(root, 'd', 'call_b');
  const bytes = Buffer.from(b.ciphertext, 'base64');
  bytes[7] ^= 1;
  fs.writeFileSync(resultFile(root, 'd', 'call_b'), JSON.stringify({ ...b, ciphertext: bytes.toString('base64') }));
  // call_a's nonce and ciphertext under call_c's execution id.
  const a = envelopeOf(root, 'd', 'call_a');
  const c = envelopeOf(root, 'd', 'call_c');
  fs.writeFileSync(resultFile(root, 'd', 'call_c'), JSON.stringify({ ...c, nonce: a.nonce, ciphertext: a.ciphertext }));
  // call_d's file named as call_a's execution (the execution id is the associated data).
  const d = envelopeOf(root, 'd', 'call_d');
  fs.writeFileSync(resultFile(root, 'd', 'call_d'), JSON.stringify({ ...d, execution_id: results[0].metadata.execution_id }));

  const reopened = await FileResultStore.open(root, { encryption });
  assert.deepEqual(
    reopened.openReport.skipped.map((r) => [r.execution_id, r.code]),
    [
      [results[1].metadata.execution_id, 'decryption_failed'],
      [results[2].metadata.execution_id, 'decryption_failed'],
      [results[0].metadata.execution_id, 'decryption_failed'],
    ],
  );
  assert.deepEqual(reopened.openReport.quarantined, []);
  assert.equal(reopened.openReport.loaded, 1);
  assert.deepEqual(reopened.get(results[0].metadata.execution_id), results[0], 'call_a is whole');
  assert.throws(() => reopened.get(results[1].metadata.execution_id), isCode('decryption_failed'));
  assert.throws(() => reopened.get(results[2].metadata.execution_id), isCode('decryption_failed'));
  assert.equal(reopened.history('read_file').length, 1);
  // call_d's envelope claims call_a's execution id: it never hides the record read.
  assert.deepEqual(
    reopened.history('read_file').skipped.map((r) => r.execution_id),
    [results[1].metadata.execution_id, results[2].metadata.execution_id],
  );
});

test('rotation: new writes use current, every key given reads, rewrap moves all under current, then the old key can go', async () => {
  const root = tmpRoot();
  const old = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  const early = ['e1', 'e2', 'e3'].map((id) => secretResult(id));
  for (const r of early) await old.put(r, { dialogId: 'd' });

  const both = await FileResultStore.open(root, { encryption: { keys: { k1, k2 }, current: 'k2' } });
  const late = ['l1', 'l2'].map((id) => secretResult(id));
  for (const r of late) await both.put(r, { dialogId: 'd' });
  assert.deepEqual(
    ['e1', 'e2', 'e3', 'l1', 'l2'].map((id) => metaOf(root, 'd', id).key_id),
    ['k1', 'k1', 'k1', 'k2', 'k2'],
  );
  for (const r of [...early, ...late]) assert.deepEqual(both.get(r.metadata.execution_id), r);

  const told = [];
  assert.equal(await both.rewrap({ onRewrapped: (r) => told.push(r) }), 3);
  assert.deepEqual(
    told.map((r) => r.from),
    ['k1', 'k1', 'k1'],
  );
  for (const id of ['e1', 'e2', 'e3', 'l1', 'l2']) {
    assert.equal(metaOf(root, 'd', id).key_id, 'k2');
    assert.equal(envelopeOf(root, 'd', id).key_id, 'k2');
  }
  assert.equal(await both.rewrap(), 0, 'nothing left to do');
  for (const { bytes } of allFiles(root)) assert.equal(holdsCanary(bytes), false);

  const only = await FileResultStore.open(root, { encryption: { keys: { k2 }, current: 'k2' } });
  assert.deepEqual(only.openReport.skipped, []);
  assert.equal(only.openReport.loaded, 5);
  assert.deepEqual(only.openReport.repaired, []);
  for (const r of [...early, ...late]) assert.deepEqual(only.get(r.metadata.execution_id), r);
});

test('rewrap names the records it could not read, after re-encrypting the rest', async () => {
  const root = tmpRoot();
  const a = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  const lost = secretResult('lost');
  await a.put(lost, { dialogId: 'd' });
  const b = await FileResultStore.open(root, { encryption: { keys: { k2 }, current: 'k2' } });
  const k3 = key();
  const kept = secretResult('kept');
  await b.put(kept, { dialogId: 'd' });
  const c = await FileResultStore.open(root, { encryption: { keys: { k2, k3 }, current: 'k3' } });
  await assert.rejects(
    c.rewrap(),
    isCode('key_unavailable', (e) => /rewrapped 1 records; 1 could not be read/.test(e.message) && e.issues[0].path === `/${lost.metadata.execution_id}`),
  );
  assert.equal(envelopeOf(root, 'd', 'kept').key_id, 'k3');
  assert.equal(envelopeOf(root, 'd', 'lost').key_id, 'k1', 'left as it was');
  await assert.rejects(
    FileResultStore.open(tmpRoot()).rewrap(),
    isCode('invalid_options', (e) => e.issues[0].path === '/encryption'),
    'rewrap needs encryption',
  );
});

test('clear records written before encryption was turned on are read, and rewrap encrypts them', async () => {
  const root = tmpRoot();
  const clear = FileResultStore.open(root);
  const results = ['c1', 'c2'].map((id) => secretResult(id));
  for (const r of results) clear.put(r, { dialogId: 'd' });
  assert.ok(
    allFiles(root).some(({ bytes }) => holdsCanary(bytes)),
    'in the clear so far',
  );

  const store = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  assert.equal(store.openReport.loaded, 2);
  for (const r of results) assert.deepEqual(store.get(r.metadata.execution_id), r);
  const added = secretResult('c3');
  await store.put(added, { dialogId: 'd' });
  assert.equal(await store.rewrap(), 2);
  for (const { file, bytes } of allFiles(root)) assert.equal(holdsCanary(bytes), false, file);
  const again = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  assert.equal(again.openReport.loaded, 3);
  for (const r of [...results, added]) assert.deepEqual(again.get(r.metadata.execution_id), r);
});

test('a store opened without encryption over encrypted records refuses with encryption_required and moves nothing', async () => {
  const root = tmpRoot();
  const store = await FileResultStore.open(root, { encryption: { keys: { k1 }, current: 'k1' } });
  await store.put(secretResult('call_a'), { dialogId: 'd' });
  const before = allFiles(root);
  assert.throws(
    () => FileResultStore.open(root),
    isCode('encryption_required', (e) => e.message.includes('"k1"')),
  );
  assert.deepEqual(allFiles(root), before);
  assert.equal(fs.existsSync(path.join(root, 'quarantine')), false);
});

test('WebCrypto keys work as raw ones do; writes wait for each other', async () => {
  const root = tmpRoot();
  const cryptoKey = await webcrypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const encryption = { keys: { web: cryptoKey }, current: 'web' };
  const store = await FileResultStore.open(root, { encryption });
  const r = secretResult('call_a');
  // The same result three times at once: one write, two repeats, never a conflict.
  const reports = await Promise.all([0, 1, 2].map(() => store.put(r, { dialogId: 'd' })));
  assert.deepEqual(
    reports.map((x) => x.stored),
    [true, false, false],
  );
  const again = await FileResultStore.open(root, { encryption });
  assert.deepEqual(again.get(r.metadata.execution_id), r);

  // Raw keys are copied when the option is checked: the caller may wipe its buffer.
  const raw = Buffer.from(k1);
  const wiped = await FileResultStore.open(tmpRoot(), { encryption: { keys: { k1: raw }, current: 'k1' } });
  raw.fill(0);
  await wiped.put(r, { dialogId: 'd' });
  const read = await FileResultStore.open(wiped.root, { encryption: { keys: { k1 }, current: 'k1' } });
  assert.deepEqual(read.get(r.metadata.execution_id), r);
});

test('rewrap killed midway (SIGKILL): every record stays readable with the keys given, and a second rewrap finishes', async () => {
  const root = tmpRoot();
  const data = path.join(root, 'data');
  const count = 240;
  const writer = await FileResultStore.open(data, { encryption: { keys: { k1 }, current: 'k1' } });
  const results = [];
  for (let i = 0; i < count; i++) {
    const r = secretResult(`call_${i}`);
    results.push(r);
    await writer.put(r, { dialogId: `d${i % 3}` });
  }
  const script = path.join(root, 'rewrap.cjs');
  fs.writeFileSync(
    script,
    `const { FileResultStore } = require(${JSON.stringify(require.resolve('toolresult/node'))});
const hex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
(async () => {
  const store = await FileResultStore.open(process.argv[2], { encryption: { keys: { k1: hex(process.argv[3]), k2: hex(process.argv[4]) }, current: 'k2' } });
  await store.rewrap({ onRewrapped: (r) => process.stdout.write('REWRAPPED ' + r.execution_id + '\\n') });
  process.stdout.write('DONE\\n');
})();`,
  );
  const child = spawn(process.execPath, [script, data, Buffer.from(k1).toString('hex'), Buffer.from(k2).toString('hex')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let lines = 0;
  let done = false;
  await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      for (const line of String(chunk).split('\n')) {
        if (line.startsWith('REWRAPPED ')) lines++;
        if (line === 'DONE') done = true;
      }
      if (lines >= 20) child.kill('SIGKILL');
    });
    child.on('exit', resolve);
  });
  assert.equal(done, false, 'killed before it finished');
  assert.ok(lines >= 20);

  const keyOnDisk = () => results.map((r, i) => envelopeOf(data, `d${i % 3}`, r.input.tool_call_id).key_id);
  const under = keyOnDisk();
  const moved = under.filter((k) => k === 'k2').length;
  assert.ok(moved >= 20 && moved < count, `${moved} of ${count} under k2 after the kill`);
  const both = await FileResultStore.open(data, { encryption: { keys: { k1, k2 }, current: 'k2' } });
  assert.deepEqual(both.openReport.skipped, []);
  assert.deepEqual(both.openReport.quarantined, []);
  assert.equal(both.openReport.loaded, count);
  for (const r of results) assert.deepEqual(both.get(r.metadata.execution_id), r);
  assert.equal(await both.rewrap(), count - moved);
  assert.ok(keyOnDisk().every((k) => k === 'k2'));
  const only = await FileResultStore.open(data, { encryption: { keys: { k2 }, current: 'k2' } });
  assert.equal(only.openReport.loaded, count);
  assert.deepEqual(only.openReport.skipped, []);
  for (const r of results) assert.deepEqual(only.get(r.metadata.execution_id), r);
});

test('a record moved or copied into another dialog fails to decrypt there and is never served to it', async () => {
  const root = tmpRoot();
  const encryption = { keys: { k1 }, current: 'k1' };
  const store = await FileResultStore.open(root, { encryption });
  const [one, two, three] = ['call_1', 'call_2', 'call_3'].map((id) => secretResult(id));
  for (const r of [one, two, three]) await store.put(r, { dialogId: 'alice' });
  const dir = (dialog) => path.join(root, 'dialogs', dialog, 'tool_results');
  fs.mkdirSync(dir('mallory'), { recursive: true });
  // call_1 moved to mallory (both files), call_2 copied there (alice keeps hers).
  for (const suffix of ['.json', '.meta.json']) fs.renameSync(path.join(dir('alice'), `call_1${suffix}`), path.join(dir('mallory'), `call_1${suffix}`));
  for (const suffix of ['.json', '.meta.json']) fs.copyFileSync(path.join(dir('alice'), `call_2${suffix}`), path.join(dir('mallory'), `call_2${suffix}`));

  const reopened = await FileResultStore.open(root, { encryption });
  assert.deepEqual(
    reopened.openReport.skipped,
    ['call_1', 'call_2'].map((id, i) => ({ execution_id: [one, two][i].metadata.execution_id, tool_call_id: id, key_id: 'k1', code: 'decryption_failed' })),
  );
  assert.equal(reopened.openReport.loaded, 2, "alice's call_2 and call_3");
  assert.throws(() => reopened.get('mallory', 'call_1'), isCode('decryption_failed'));
  assert.throws(() => reopened.get(one.metadata.execution_id), isCode('decryption_failed'));
  assert.equal(reopened.get('mallory', 'call_2'), undefined, "the copy is not mallory's");
  assert.equal(reopened.get('alice', 'call_1'), undefined, "mallory's unreadable record is not alice's either");
  assert.deepEqual(reopened.get('alice', 'call_2'), two, "alice's own is whole");
  const listed = reopened.listDialog('mallory');
  assert.deepEqual([...listed], []);
  assert.deepEqual(
    listed.skipped.map((r) => [r.tool_call_id, r.code]),
    [['call_1', 'decryption_failed']],
  );
  assert.deepEqual(
    reopened.listDialog('alice').map((m) => m.tool_call_id),
    ['call_2', 'call_3'],
  );
  for (const { bytes } of allFiles(root)) assert.equal(holdsCanary(bytes), false);
});

test("clear fields that say otherwise than the decrypted result: the envelope's tool name refuses the record, the meta file is written again", async () => {
  const root = tmpRoot();
  const encryption = { keys: { k1 }, current: 'k1' };
  const store = await FileResultStore.open(root, { encryption });
  const a = secretResult('call_a');
  const b = secretResult('call_b');
  for (const r of [a, b]) await store.put(r, { dialogId: 'd' });
  // call_a filed under another tool (so `history('grep')` would find it); call_b's meta file claims it failed.
  fs.writeFileSync(resultFile(root, 'd', 'call_a'), JSON.stringify({ ...envelopeOf(root, 'd', 'call_a'), tool_name: 'grep' }));
  const metaFile = path.join(root, 'dialogs', 'd', 'tool_results', 'call_b.meta.json');
  const meta = metaOf(root, 'd', 'call_b');
  fs.writeFileSync(metaFile, JSON.stringify({ ...meta, status: 'failed' }));

  const reopened = await FileResultStore.open(root, { encryption });
  assert.deepEqual(reopened.openReport.skipped, [{ execution_id: a.metadata.execution_id, tool_call_id: 'call_a', key_id: 'k1', code: 'decryption_failed' }]);
  assert.throws(
    () => reopened.get(a.metadata.execution_id),
    isCode('decryption_failed', (e) => /tool_name/.test(e.message)),
  );
  assert.deepEqual(
    reopened.history('grep').skipped.map((r) => r.tool_call_id),
    ['call_a'],
  );
  assert.deepEqual(reopened.get(b.metadata.execution_id), b);
  assert.deepEqual(reopened.openReport.repaired, [metaFile]);
  assert.deepEqual(metaOf(root, 'd', 'call_b'), meta, 'the meta file says what the result says again');
  assert.deepEqual(reopened.openReport.quarantined, []);
});
