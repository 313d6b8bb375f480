// The tamper-evident audit trail (docs/guide/storage.md, "Audit trail"):
// the memory and file logs chain and verify; every kind of tampering is
// found (a changed field, a deleted, inserted or moved entry, a cut tail
// against a signed checkpoint, a chain rebuilt from an earlier entry); a
// forged checkpoint is refused; a file log written by a process killed with
// SIGKILL keeps every acknowledged entry; the stores append `stored` and
// `evicted`, and the HTTP handler `read` and `listed` with the actor.
// (tests/node/audit.test.mjs is the dependency-advisory check, not this.)
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { IDBFactory } from 'fake-indexeddb';
import { createToolResultsHandler } from 'toolresult/http';
import { FileAuditLog, FileResultStore } from 'toolresult/node';
import { ResultStore, ToolResultError, createSuccess } from 'toolresult';
import { MemoryAuditLog, canonicalAuditEntry, verifyAuditLog } from 'toolresult/audit';

const require = createRequire(import.meta.url);
const scratch = fs.mkdtempSync(path.join(tmpdir(), 'toolresult-audit-log-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
const tmpDir = () => fs.mkdtempSync(path.join(scratch, `d${++dirs}-`));

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const keys = () => crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify']);
const collect = async (iterable) => {
  const out = [];
  for await (const e of iterable) out.push(e);
  return out;
};

/** Appends a varied run of records. */
async function fill(log, n = 8) {
  const actions = ['stored', 'read', 'listed', 'evicted', 'validation_failed', 'rejected', 'quarantined'];
  for (let i = 1; i <= n; i++) {
    const record = { action: actions[i % actions.length], execution_id: `exec-${i}`, dialog_id: 'dialog_1' };
    if (i % 2) record.tool_call_id = `call_${i}`;
    if (i % 3 === 0) record.actor = `user ${i} “quoted” ✓`;
    if (i % 4 === 0) record.sha256 = sha256(String(i));
    await log.append(record);
  }
}

/** An entry's hash as the docs define it, computed here without the package. */
function hashOf(entry) {
  const { hash: _drop, ...rest } = entry;
  const keysSorted = Object.keys(rest).sort();
  return sha256(`{${keysSorted.map((k) => `${JSON.stringify(k)}:${JSON.stringify(rest[k])}`).join(',')}}`);
}

/** Rewrites entries from index `from` on so that every link holds again (what an attacker who can rewrite everything does). */
function rechain(entries, from) {
  for (let i = from; i < entries.length; i++) {
    entries[i] = { ...entries[i], seq: i + 1, prev: i === 0 ? '0'.repeat(64) : entries[i - 1].hash };
    entries[i].hash = hashOf(entries[i]);
  }
  return entries;
}

test('the canonical form and the chain are what the docs say, so anyone can check them', async () => {
  let clock = Date.UTC(2025, 0, 2, 3, 4, 5, 678);
  const log = new MemoryAuditLog({ now: () => clock++ });
  await fill(log, 5);
  const entries = await collect(log.entries());
  assert.deepEqual(
    entries.map((e) => e.seq),
    [1, 2, 3, 4, 5],
  );
  assert.equal(entries[0].prev, '0'.repeat(64));
  assert.equal(entries[0].at, '2025-01-02T03:04:05.678Z');
  for (const [i, e] of entries.entries()) {
    assert.equal(e.hash, hashOf(e), `entry ${e.seq}: sha256 of the sorted-key JSON without hash`);
    assert.equal(
      canonicalAuditEntry(e),
      JSON.stringify(
        Object.fromEntries(
          Object.entries(e)
            .filter(([k]) => k !== 'hash')
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        ),
      ),
    );
    if (i) assert.equal(e.prev, entries[i - 1].hash);
  }
  assert.deepEqual(await log.head(), { seq: 5, hash: entries[4].hash });
  assert.deepEqual(await verifyAuditLog(log), { ok: true, count: 5, head: { seq: 5, hash: entries[4].hash } });
  assert.deepEqual(await verifyAuditLog([]), { ok: true, count: 0, head: null });
  // fromSeq reads the tail; entries handed out are copies.
  assert.deepEqual(
    (await collect(log.entries({ fromSeq: 4 }))).map((e) => e.seq),
    [4, 5],
  );
  entries[0].actor = 'someone else';
  assert.equal((await verifyAuditLog(log)).ok, true);
});

test('bad records and options are typed errors naming the field', async () => {
  const log = new MemoryAuditLog();
  const refused = async (record, path, code) => {
    await assert.rejects(
      log.append(record),
      (e) => e instanceof ToolResultError && e.code === 'invalid_audit_record' && e.issues[0].path === path && e.issues[0].code === code,
    );
  };
  await refused({ action: 'stored', executionId: 'x' }, '/executionId', 'unknown_field');
  await refused({ action: 'deleted' }, '/action', 'invalid_enum');
  await refused({ action: 'read', actor: 7 }, '/actor', 'invalid_type');
  await refused({ action: 'read', actor: '' }, '/actor', 'empty_string');
  await refused({ action: 'read', dialog_id: 'a\u0000b' }, '/dialog_id', 'unsupported_value');
  await refused({ action: 'read', dialog_id: 'a\ud800' }, '/dialog_id', 'lone_surrogate');
  await refused({ action: 'stored', sha256: 'ABC' }, '/sha256', 'invalid_sha256');
  assert.equal(await log.head(), null, 'nothing refused was appended');
  assert.throws(() => log.entries({ fromSeq: 0 }), { code: 'invalid_options' });
  assert.throws(() => new MemoryAuditLog({ clock: Date.now }), { code: 'invalid_options' });
  await assert.rejects(verifyAuditLog(log, { checkpoint: { seq: 1, hash: '0'.repeat(64), signature: '' } }), { code: 'invalid_options' });
  await assert.rejects(verifyAuditLog(42), { code: 'invalid_options' });
  const { privateKey } = await keys();
  await assert.rejects(log.checkpoint(privateKey), { code: 'not_found' });
  await assert.rejects(log.checkpoint('key'), { code: 'invalid_options' });
});

test('every kind of tampering is found, at the entry where the chain breaks', async () => {
  const log = new MemoryAuditLog();
  await fill(log, 8);
  const original = await collect(log.entries());
  const copy = () => original.map((e) => ({ ...e }));
  const broken = async (entries, at, reason) => {
    const v = await verifyAuditLog(entries);
    assert.equal(v.ok, false);
    assert.equal(v.at, at);
    assert.match(v.reason, reason);
  };

  const changed = copy();
  changed[3].actor = 'mallory';
  await broken(changed, 4, /entry 4 was changed/);

  const changedSeq = copy();
  changedSeq[5].dialog_id = 'dialog_2';
  await broken(changedSeq, 6, /changed/);

  const deleted = copy();
  deleted.splice(2, 1);
  await broken(deleted, 3, /expected seq 3, found seq 4/);

  const deletedFirst = copy().slice(1);
  await broken(deletedFirst, 1, /expected seq 1/);

  // An inserted entry well-formed and chained to the one before it: the one after it no longer follows.
  const inserted = copy();
  const forged = { seq: 4, at: inserted[2].at, action: 'read', actor: 'mallory', prev: inserted[2].hash };
  forged.hash = hashOf(forged);
  inserted.splice(3, 0, forged);
  await broken(inserted, 5, /expected seq 5, found seq 4/);

  // Inserted and renumbered after it (seq fixed, hashes recomputed for the renumbered ones).
  const renumbered = copy();
  renumbered.splice(3, 0, forged);
  for (let i = 4; i < renumbered.length; i++) {
    renumbered[i] = { ...renumbered[i], seq: i + 1 };
    renumbered[i].hash = hashOf(renumbered[i]);
  }
  await broken(renumbered, 5, /does not follow entry 4/);

  const swapped = copy();
  [swapped[4], swapped[5]] = [swapped[5], swapped[4]];
  await broken(swapped, 5, /expected seq 5, found seq 6/);

  const malformed = copy();
  malformed[6].seq = '7';
  await broken(malformed, 7, /has a seq that is a string/);

  const extraField = copy();
  extraField[1].note = 'added';
  await broken(extraField, 2, /unknown field `note`/);

  // Untouched, from an async iterable too.
  assert.deepEqual(await verifyAuditLog(log.entries()), { ok: true, count: 8, head: await log.head() });
});

test('a signed checkpoint finds a cut tail and a rebuilt chain; a forged one is refused', async () => {
  const log = new MemoryAuditLog();
  await fill(log, 6);
  const { privateKey, publicKey } = await keys();
  const checkpoint = await log.checkpoint(privateKey);
  assert.deepEqual({ seq: checkpoint.seq, hash: checkpoint.hash }, await log.head());
  assert.match(checkpoint.signature, /^[A-Za-z0-9+/]{86}==$/);
  // The signature is over the canonical {"hash","seq"}: check it with WebCrypto directly.
  const signed = new TextEncoder().encode(`{"hash":"${checkpoint.hash}","seq":${checkpoint.seq}}`);
  assert.ok(await crypto.subtle.verify('Ed25519', publicKey, Buffer.from(checkpoint.signature, 'base64'), signed));

  await fill(log, 2); // the log goes on after the checkpoint
  const entries = await collect(log.entries());
  assert.deepEqual(await verifyAuditLog(log, { checkpoint, publicKey }), { ok: true, count: 8, head: await log.head() });
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', publicKey));
  assert.equal((await verifyAuditLog(entries, { checkpoint, publicKey: raw })).ok, true, 'the raw 32-byte key works too');

  // A cut tail is a well-formed chain: only the checkpoint shows it.
  const cut = entries.slice(0, 4);
  assert.equal((await verifyAuditLog(cut)).ok, true);
  const v = await verifyAuditLog(cut, { checkpoint, publicKey });
  assert.deepEqual([v.ok, v.at], [false, 5]);
  assert.match(v.reason, /ends at seq 4.*checkpoint vouches for seq 6.*cut/);

  // A chain rewritten from entry 3 and re-linked to the end verifies by itself; the checkpoint catches it.
  const rebuilt = rechain(
    entries.map((e) => ({ ...e })),
    0,
  );
  rebuilt[2] = { ...rebuilt[2], actor: 'mallory' };
  rechain(rebuilt, 2);
  assert.equal((await verifyAuditLog(rebuilt)).ok, true);
  const caught = await verifyAuditLog(rebuilt, { checkpoint, publicKey });
  assert.deepEqual([caught.ok, caught.at], [false, 6]);
  assert.match(caught.reason, /not the one the checkpoint vouches for/);

  // Forged checkpoints: another key, an altered seq, an altered hash, a garbled signature.
  const other = await keys();
  const foreign = await log.checkpoint(other.privateKey);
  for (const forged of [foreign, { ...checkpoint, seq: 2 }, { ...checkpoint, hash: entries[1].hash }, { ...checkpoint, signature: 'not base64!' }]) {
    const r = await verifyAuditLog(log, { checkpoint: forged, publicKey });
    assert.equal(r.ok, false);
    assert.match(r.reason, /not signed by this key/);
  }
  // With the other key, its own checkpoint is fine.
  assert.equal((await verifyAuditLog(log, { checkpoint: foreign, publicKey: other.publicKey })).ok, true);
  await assert.rejects(verifyAuditLog(log, { checkpoint }), { code: 'invalid_options' });
  await assert.rejects(verifyAuditLog(log, { checkpoint, publicKey: privateKey }), { code: 'invalid_options' });
  await assert.rejects(verifyAuditLog(log, { checkpoint, publicKey: new Uint8Array(31) }), { code: 'invalid_options' });
});

test('the file log: JSON lines that survive a reopen; tampering with the file is found', async () => {
  const file = path.join(tmpDir(), 'audit', 'log.jsonl');
  let log = FileAuditLog.open(file);
  assert.deepEqual(log.openReport, { head: null, truncatedBytes: 0 });
  await fill(log, 6);
  const head = await log.head();
  log.close();
  await assert.rejects(log.append({ action: 'read' }), { code: 'store_closed' });

  const lines = fs.readFileSync(file, 'utf8').split('\n');
  assert.equal(lines.length, 7, 'six lines, each ending with a newline');
  assert.deepEqual(
    lines.slice(0, 6).map((l) => JSON.parse(l).seq),
    [1, 2, 3, 4, 5, 6],
  );

  log = FileAuditLog.open(file);
  assert.deepEqual(log.openReport, { head, truncatedBytes: 0 });
  const appended = await log.append({ action: 'read', actor: 'alice' });
  assert.deepEqual([appended.seq, appended.prev], [7, head.hash]);
  assert.deepEqual(await verifyAuditLog(log), { ok: true, count: 7, head: await log.head() });
  const { privateKey, publicKey } = await keys();
  const checkpoint = await log.checkpoint(privateKey);

  const edit = (f) => {
    const text = fs.readFileSync(file, 'utf8').split('\n');
    f(text);
    fs.writeFileSync(file, text.join('\n'));
  };
  const pristine = fs.readFileSync(file);
  const broken = async (at, reason, options) => {
    const v = await verifyAuditLog(log, options);
    assert.equal(v.ok, false, reason.source);
    assert.equal(v.at, at);
    assert.match(v.reason, reason);
    fs.writeFileSync(file, pristine);
    assert.equal((await verifyAuditLog(log)).ok, true);
  };
  edit((t) => {
    t[2] = t[2].replace('"dialog_1"', '"dialog_9"');
  });
  await broken(3, /entry 3 was changed/);
  edit((t) => t.splice(1, 1));
  await broken(2, /expected seq 2, found seq 3/);
  edit((t) => {
    [t[3], t[4]] = [t[4], t[3]];
  });
  await broken(4, /expected seq 4/);
  edit((t) => {
    t[3] = '{"this is": not json';
  });
  await broken(4, /line 4 of .* is not an audit entry: not JSON/);
  // The last two lines cut while the log is open: its head knows better.
  edit((t) => t.splice(5, 2));
  await broken(6, /entries end at seq 5, but its head is seq 7/);
  // The same cut seen by a reader without the head: only the checkpoint shows it.
  edit((t) => t.splice(5, 2));
  assert.equal((await verifyAuditLog(FileAuditLog.readEntries(file))).ok, true);
  const v = await verifyAuditLog(FileAuditLog.readEntries(file), { checkpoint, publicKey });
  assert.deepEqual([v.ok, v.at], [false, 6]);
  fs.writeFileSync(file, pristine);
  log.close();
});

test('the file log: a torn last line is cut away on open; a bad line before it is kept and reported; one writer per file', async () => {
  const dir = tmpDir();
  const file = path.join(dir, 'log.jsonl');
  let log = FileAuditLog.open(file);
  await fill(log, 4);
  const head = await log.head();
  assert.throws(() => FileAuditLog.open(file), { code: 'audit_log_locked' });
  log.close();

  // A write the process died in: part of a line, no newline.
  const partial = '{"seq":5,"at":"2025-01-01T00:00:00.000Z","action":"rea';
  fs.appendFileSync(file, partial);
  log = FileAuditLog.open(file);
  assert.deepEqual(log.openReport, { head, truncatedBytes: Buffer.byteLength(partial) });
  assert.equal((await log.append({ action: 'read' })).seq, 5);
  assert.deepEqual(await verifyAuditLog(log), { ok: true, count: 5, head: await log.head() });
  log.close();

  // A corrupt line in the middle is not dropped: open works (the head is the last line), verify reports it.
  const good = fs.readFileSync(file, 'utf8').split('\n');
  const bad = [...good];
  bad[1] = '\u0000\u0000\u0000';
  fs.writeFileSync(file, bad.join('\n'));
  log = FileAuditLog.open(file);
  assert.equal((await log.head()).seq, 5);
  const v = await verifyAuditLog(log);
  assert.deepEqual([v.ok, v.at], [false, 2]);
  assert.match(v.reason, /line 2 of/);
  assert.equal(fs.readFileSync(file, 'utf8').split('\n')[1], '\u0000\u0000\u0000', 'the bad line is still there');
  log.close();

  // A complete last line that is not an entry: the chain cannot go on from it.
  const badLast = [...good];
  badLast[4] = '{"seq":5}';
  fs.writeFileSync(file, badLast.join('\n'));
  assert.throws(
    () => FileAuditLog.open(file),
    (e) => e.code === 'corrupt_audit_log' && /last line/.test(e.message),
  );
  assert.ok(!fs.existsSync(`${file}.lock`), 'a failed open lets the lock go');

  // A lock left by a process that is gone is taken over; one held by a live process is refused.
  fs.writeFileSync(file, good.join('\n'));
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
  fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: Number(gone), host: require('node:os').hostname() }));
  log = FileAuditLog.open(file);
  assert.equal((await log.head()).seq, 5);
  log.close();
  fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.ppid, host: require('node:os').hostname() }));
  assert.throws(
    () => FileAuditLog.open(file),
    (e) => e.code === 'audit_log_locked' && e.message.includes(`process ${process.ppid}`),
  );
  fs.rmSync(`${file}.lock`);
});

test('the file log: a writer killed with SIGKILL mid-run loses no acknowledged entry', async () => {
  const dir = tmpDir();
  const file = path.join(dir, 'log.jsonl');
  const script = path.join(dir, 'writer.cjs');
  fs.writeFileSync(
    script,
    `const { FileAuditLog } = require(${JSON.stringify(require.resolve('toolresult/node'))});
const log = FileAuditLog.open(process.argv[2]);
(async () => {
  for (let i = 0; ; i++) {
    const entry = await log.append({ action: 'stored', execution_id: 'exec-' + process.pid + '-' + i, actor: 'writer' });
    process.stdout.write('ACK ' + entry.seq + ' ' + entry.hash + '\\n');
  }
})();`,
  );
  const acked = new Map();
  for (let round = 0; round < 4; round++) {
    const before = acked.size;
    const child = spawn(process.execPath, [script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    // Killed after a different number of acknowledgements each round, while it keeps appending.
    const want = before + 40 + round * 25;
    let buffer = '';
    await new Promise((resolve) => {
      child.stdout.on('data', (chunk) => {
        buffer += chunk;
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const [, seq, hash] = buffer.slice(0, nl).split(' ');
          buffer = buffer.slice(nl + 1);
          acked.set(Number(seq), hash);
          if (acked.size === want) child.kill('SIGKILL');
        }
      });
      child.on('exit', resolve);
    });
    assert.ok(acked.size >= want, `round ${round}: ${acked.size} acknowledged`);
    const log = FileAuditLog.open(file);
    const entries = await collect(log.entries());
    const bySeq = new Map(entries.map((e) => [e.seq, e.hash]));
    for (const [seq, hash] of acked) assert.equal(bySeq.get(seq), hash, `round ${round}: acknowledged entry ${seq} is there, unchanged`);
    assert.deepEqual(await verifyAuditLog(log), { ok: true, count: entries.length, head: await log.head() });
    // The chain goes on from where the killed writer stopped.
    const next = await log.append({ action: 'read', actor: 'after the crash' });
    assert.equal(next.seq, entries.length + 1);
    acked.set(next.seq, next.hash);
    assert.equal((await verifyAuditLog(log)).ok, true);
    console.log(`crash round ${round}: ${acked.size} acknowledged, ${entries.length} on disk, ${log.openReport.truncatedBytes} torn bytes cut`);
    log.close();
  }
});

const result = (id, extra = {}) => createSuccess({ input: { tool_name: 'ls', parameters: { path: id }, tool_call_id: id }, output: [`${id}.txt`], ...extra });

test('ResultStore with audit: stored and evicted entries, in order; a retry appends nothing', async () => {
  const log = new MemoryAuditLog();
  let now = Date.parse('2025-06-01T00:00:00Z');
  const store = new ResultStore({ audit: log, retention: { maxCount: 2 }, now: () => now });
  const results = ['r1', 'r2', 'r3'].map((id) => result(id));
  for (const r of results) store.put(r, { dialogId: 'd1' });
  store.put(results[2], { dialogId: 'd1' }); // a retry
  const brief = async () => (await collect(log.entries())).map((e) => `${e.seq} ${e.action} ${e.tool_call_id} ${e.dialog_id ?? '-'}`);
  assert.deepEqual(await brief(), ['1 stored r1 d1', '2 stored r2 d1', '3 stored r3 d1', '4 evicted r1 d1']);
  const entries = await collect(log.entries());
  assert.deepEqual(
    entries.map((e) => e.execution_id),
    [...results.map((r) => r.metadata.execution_id), results[0].metadata.execution_id],
  );
  assert.equal(entries[0].sha256, undefined, 'the memory store keeps no sha256');

  const aging = new ResultStore({ audit: log, retention: { maxAgeMs: 1000 }, now: () => now });
  aging.put(result('r4', { started_at: now }));
  now += 5000;
  assert.equal(aging.prune().length, 1);
  assert.deepEqual((await brief()).slice(4), ['5 stored r4 -', '6 evicted r4 -']);
  assert.equal((await verifyAuditLog(log)).ok, true);
});

test('stores refuse an audit option they cannot keep, and a failed append says the result is stored', async () => {
  const asyncOnly = { append: async () => ({}), entries: () => [], head: async () => null, checkpoint: async () => ({}) };
  assert.throws(
    () => new ResultStore({ audit: asyncOnly }),
    (e) => e.code === 'invalid_options' && e.issues[0].path === '/audit',
  );
  assert.throws(
    () => FileResultStore.open(tmpDir(), { audit: asyncOnly }),
    (e) => e.code === 'invalid_options' && e.issues[0].path === '/audit',
  );
  assert.throws(() => new ResultStore({ audit: {} }), { code: 'invalid_options' });

  const failing = new MemoryAuditLog();
  failing.appendSync = () => {
    throw new ToolResultError('storage_error', 'disk full');
  };
  const store = new ResultStore({ audit: failing });
  assert.throws(
    () => store.put(result('r1'), { dialogId: 'd1' }),
    (e) =>
      e.code === 'audit_failed' &&
      /the result is stored, but its audit entry could not be appended: disk full/.test(e.message) &&
      e.cause.code === 'storage_error',
  );
  assert.ok(store.getByToolCallId('r1'), 'the result is stored: nothing is lost');

  // Ids the log cannot hold refuse the put before anything is stored.
  const strict = new ResultStore({ audit: new MemoryAuditLog() });
  assert.throws(() => strict.put(result('r2'), { dialogId: 'd'.repeat(5000) }), { code: 'invalid_audit_record' });
  assert.equal(strict.getByToolCallId('r2'), undefined);
});

test('FileResultStore with a FileAuditLog: stored (with the result file sha256) and evicted; reopening appends nothing', async () => {
  const root = tmpDir();
  const file = path.join(root, 'audit.jsonl');
  let log = FileAuditLog.open(file);
  let store = FileResultStore.open(path.join(root, 'results'), { audit: log, retention: { maxCount: 2 } });
  for (const id of ['r1', 'r2', 'r3']) store.put(result(id), { dialogId: 'd1' });
  const entries = await collect(log.entries());
  assert.deepEqual(
    entries.map((e) => `${e.action} ${e.tool_call_id}`),
    ['stored r1', 'stored r2', 'stored r3', 'evicted r1'],
  );
  const meta = JSON.parse(fs.readFileSync(path.join(root, 'results/dialogs/d1/tool_results/r3.meta.json'), 'utf8'));
  assert.equal(entries[2].sha256, meta.sha256);
  assert.equal(entries[2].sha256, sha256(fs.readFileSync(path.join(root, 'results/dialogs/d1/tool_results/r3.json'))));
  log.close();

  log = FileAuditLog.open(file);
  store = FileResultStore.open(path.join(root, 'results'), { audit: log, retention: { maxCount: 2 } });
  assert.equal(store.size, 2);
  assert.equal((await log.head()).seq, 4, 'results reloaded on open are not stored again');
  store.put(result('r4'), { dialogId: 'd2' });
  assert.deepEqual(
    (await collect(log.entries({ fromSeq: 5 }))).map((e) => `${e.action} ${e.tool_call_id} ${e.dialog_id}`),
    ['stored r4 d2', 'evicted r2 d1'],
  );
  assert.deepEqual(await verifyAuditLog(log), { ok: true, count: 6, head: await log.head() });
  log.close();
});

test('a store that quarantines on open appends quarantined, one entry per result, with the ids its place gives', async () => {
  const root = tmpDir();
  let store = FileResultStore.open(path.join(root, 'results'));
  for (const id of ['r1', 'r2']) store.put(result(id), { dialogId: 'd1' });
  // r2's result file no longer holds a ToolResult: it and its meta file move to quarantine/.
  fs.writeFileSync(path.join(root, 'results/dialogs/d1/tool_results/r2.json'), '{"not":"a result"}');
  fs.writeFileSync(path.join(root, 'results/dialogs/d1/tool_results/stray.txt'), 'not a result file');
  const log = new MemoryAuditLog();
  store = FileResultStore.open(path.join(root, 'results'), { audit: log });
  assert.equal(store.size, 1);
  assert.equal(store.openReport.quarantined.length, 3, 'the result file, its meta file and the stray file');
  assert.deepEqual((await collect(log.entries())).map((e) => `${e.action} ${e.dialog_id} ${e.tool_call_id}`).sort(), [
    'quarantined d1 r2',
    'quarantined d1 stray.txt',
  ]);
  assert.equal((await verifyAuditLog(log)).ok, true);

  // The IndexedDB store: a record that no longer validates moves to its quarantine store.
  const factory = new IDBFactory();
  const { openIndexedDbStore } = require('toolresult/web');
  const idb = await openIndexedDbStore('quarantine', { indexedDB: factory });
  const r3 = result('r3');
  await idb.put(r3, { dialogId: 'd2' });
  idb.close();
  const db = await new Promise((resolve, reject) => {
    const open = factory.open('quarantine');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const tx = db.transaction('results', 'readwrite');
  const results = tx.objectStore('results');
  await new Promise((resolve, reject) => {
    const all = results.getAll();
    all.onsuccess = () => {
      for (const record of all.result) results.put({ ...record, json: '{"broken":true}' });
      tx.oncomplete = resolve;
    };
    all.onerror = () => reject(all.error);
  });
  db.close();
  const idbLog = new MemoryAuditLog();
  const reopened = await openIndexedDbStore('quarantine', { indexedDB: factory, audit: idbLog });
  assert.equal(reopened.openReport.quarantined.length, 1);
  assert.deepEqual(
    (await collect(idbLog.entries())).map((e) => `${e.action} ${e.dialog_id} ${e.execution_id}`),
    [`quarantined d2 ${r3.metadata.execution_id}`],
  );
  reopened.close();
});

test('the IndexedDB store appends through an asynchronous log', async () => {
  const log = new MemoryAuditLog();
  const { openIndexedDbStore } = require('toolresult/web');
  const store = await openIndexedDbStore('audit', { indexedDB: new IDBFactory(), audit: log, retention: { maxCount: 1 } });
  await store.put(result('r1'), { dialogId: 'd1' });
  await store.put(result('r2'), { dialogId: 'd1' });
  assert.deepEqual(
    (await collect(log.entries())).map((e) => `${e.action} ${e.tool_call_id}`),
    ['stored r1', 'stored r2', 'evicted r1'],
  );
  store.close();
});

test('the HTTP handler appends read and listed with the actor authorize returned', async () => {
  const store = new ResultStore();
  const r = result('call_1');
  store.put(r, { dialogId: 'dialog_1' });
  const log = new MemoryAuditLog();
  const handler = createToolResultsHandler(store, {
    audit: log,
    authorize: (request) => {
      const who = request.headers.get('authorization');
      if (who === 'Bearer alice') return { actor: 'alice' };
      if (who === 'Bearer service') return true;
      if (who === 'Bearer broken') return { actor: 42 };
      return { status: 401 };
    },
    onError: () => {},
  });
  const base = 'http://x/api/dialogs/dialog_1/tool-results';
  const get = (url, who, headers = {}) => handler(new Request(url, { headers: { authorization: `Bearer ${who}`, ...headers } }));

  const list = await get(base, 'alice');
  assert.equal(list.status, 200);
  const one = await get(`${base}/call_1`, 'alice');
  assert.equal(one.status, 200);
  const etag = one.headers.get('etag');
  assert.equal((await get(`${base}/call_1`, 'service', { 'if-none-match': etag })).status, 304);
  assert.equal((await get(`${base}/call_9`, 'alice')).status, 404);
  assert.equal((await get(base, 'nobody')).status, 401);
  assert.equal((await get(base, 'broken')).status, 500);

  const entries = await collect(log.entries());
  assert.deepEqual(
    entries.map((e) => ({ ...e, seq: undefined, at: undefined, prev: undefined, hash: undefined })),
    [
      { action: 'listed', dialog_id: 'dialog_1', actor: 'alice', seq: undefined, at: undefined, prev: undefined, hash: undefined },
      {
        action: 'read',
        execution_id: r.metadata.execution_id,
        tool_call_id: 'call_1',
        dialog_id: 'dialog_1',
        actor: 'alice',
        sha256: etag.slice(1, -1),
        seq: undefined,
        at: undefined,
        prev: undefined,
        hash: undefined,
      },
      {
        action: 'read',
        execution_id: r.metadata.execution_id,
        tool_call_id: 'call_1',
        dialog_id: 'dialog_1',
        sha256: etag.slice(1, -1),
        seq: undefined,
        at: undefined,
        prev: undefined,
        hash: undefined,
      },
    ],
    'a listing, a read by alice, a revalidation with no actor named; nothing for the 404, the 401 or the 500',
  );

  // A log that fails: nothing is served unrecorded.
  const failing = new MemoryAuditLog();
  failing.append = async () => {
    throw new Error('log unavailable');
  };
  const errors = [];
  const strict = createToolResultsHandler(store, { public: true, audit: failing, onError: (e) => errors.push(e) });
  const refused = await strict(new Request(`${base}/call_1`));
  assert.equal(refused.status, 500);
  assert.equal((await refused.json()).code, 'internal_error');
  assert.equal(errors[0].code, 'audit_failed');
  assert.throws(() => createToolResultsHandler(store, { public: true, audit: 'log' }), { code: 'invalid_options' });
});
