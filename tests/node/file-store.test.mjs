// The Node file store (toolresult/node): the layout of docs/spec.md §11, atomic writes,
// reload on open, quarantine of corrupt and foreign files, and a writer
// process killed mid-stream.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { defineStoreContract } from '../stores/contract.mjs';

const require = createRequire(import.meta.url);
const { FileResultStore, createSuccess, ToolResultError, sha256Hex } = require('toolresult/node');

const tmpRoot = () => fs.mkdtempSync(path.join(os.tmpdir(), 'toolresult-store-'));
const result = (callId, output, tool = 'read_file') =>
  createSuccess({ input: { tool_name: tool, parameters: { path: `${callId}.txt` }, tool_call_id: callId }, output });

// The behaviour every store shares (tests/stores/contract.mjs), on disk; then
// what only the file store does.
defineStoreContract('FileResultStore', {
  open: async (options) => FileResultStore.open(tmpRoot(), options),
  close: async (store) => fs.rmSync(store.root, { recursive: true, force: true }),
  runs: 25,
});

function listFiles(dir) {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => fs.statSync(path.join(dir, f)).isFile())
        .sort()
    : [];
}

test('layout, durability across reopen, idempotence and conflicts', () => {
  const root = tmpRoot();
  const store = FileResultStore.open(root);
  assert.deepEqual(store.openReport, { loaded: 0, quarantined: [], removedTemp: [], repaired: [] });
  const a = result('call_a', 'line 1\nline 2\n');
  const report = store.put(a, { dialogId: 'dialog_1' });
  assert.equal(report.stored, true);
  assert.equal(report.meta.summary, 'Read file: call_a.txt (2 lines)');
  store.put(result('call_b', { x: 1 }, 'grep'), { dialogId: 'dialog_1' });
  assert.deepEqual(listFiles(root), [
    'dialogs/dialog_1/tool_results/call_a.json',
    'dialogs/dialog_1/tool_results/call_a.meta.json',
    'dialogs/dialog_1/tool_results/call_b.json',
    'dialogs/dialog_1/tool_results/call_b.meta.json',
  ]);
  const onDisk = JSON.parse(fs.readFileSync(path.join(root, 'dialogs/dialog_1/tool_results/call_a.meta.json'), 'utf8'));
  assert.equal(onDisk.sha256, sha256Hex(fs.readFileSync(path.join(root, 'dialogs/dialog_1/tool_results/call_a.json'))));
  assert.equal(onDisk.tool_call_id, 'call_a');

  const repeat = store.put(a, { dialogId: 'dialog_1' });
  assert.equal(repeat.stored, false, 'same result again: no-op');
  assert.equal(repeat.meta.execution_id, a.metadata.execution_id);
  assert.deepEqual(store.get(a.metadata.execution_id), a, 'get(executionId) as every store');
  assert.deepEqual(store.get('dialog_1', 'call_a'), a, 'get(dialogId, toolCallId) reads the file');
  assert.throws(
    () => store.put({ ...a, output: 'different' }, { dialogId: 'dialog_1' }),
    (e) => e instanceof ToolResultError && e.code === 'store_conflict',
  );
  assert.throws(
    () => store.put(result('../../etc/passwd', 1), { dialogId: 'd' }),
    (e) => e.code === 'invalid_id',
  );
  assert.throws(
    () => store.put(a, { dialogId: '..' }),
    (e) => e.code === 'invalid_id',
  );
  assert.throws(
    () => store.put({ nope: 1 }, { dialogId: 'd' }),
    (e) => e.code === 'invalid_tool_result',
  );

  const again = FileResultStore.open(root);
  assert.equal(again.openReport.loaded, 2);
  assert.deepEqual(again.get('dialog_1', 'call_a'), a);
  assert.deepEqual(again.getByToolCallId('call_a'), a);
  assert.deepEqual(again.getByExecutionId(a.metadata.execution_id), a);
  assert.deepEqual(
    again
      .listDialog('dialog_1')
      .map((m) => m.tool_call_id)
      .sort(),
    ['call_a', 'call_b'],
  );
  assert.deepEqual(
    again.history('grep').map((r) => r.input.tool_call_id),
    ['call_b'],
  );
  assert.equal(again.get('dialog_1', 'call_zz'), undefined);
});

test('corrupt, foreign and half-finished files are reported and quarantined, never loaded or lost', () => {
  const root = tmpRoot();
  const store = FileResultStore.open(root);
  store.put(result('good', 'ok'), { dialogId: 'd' });
  store.put(result('meta_gone', 'ok'), { dialogId: 'd' });
  store.put(result('meta_bad', 'ok'), { dialogId: 'd' });
  const dir = path.join(root, 'dialogs/d/tool_results');
  fs.writeFileSync(path.join(dir, 'broken.json'), '{"input": {"tool_name": "x"'); // truncated JSON
  fs.writeFileSync(path.join(dir, 'renamed.json'), fs.readFileSync(path.join(dir, 'good.json'))); // holds call "good"
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello');
  fs.writeFileSync(path.join(dir, 'orphan.meta.json'), '{}');
  fs.writeFileSync(path.join(dir, '.x.json.123.abcd.tmp'), '{"half');
  fs.rmSync(path.join(dir, 'meta_gone.meta.json'));
  fs.writeFileSync(path.join(dir, 'meta_bad.meta.json'), '{"sha256": "0"}');
  fs.writeFileSync(path.join(root, 'dialogs', 'stray-file'), 'x');

  const reopened = FileResultStore.open(root);
  const r = reopened.openReport;
  assert.equal(r.loaded, 3);
  const reasons = Object.fromEntries(r.quarantined.map((q) => [path.basename(q.file), q.reason]));
  assert.match(reasons['broken.json'], /not a valid ToolResult/);
  assert.match(reasons['renamed.json'], /foreign file: it holds tool_call_id good/);
  assert.match(reasons['notes.txt'], /not a result file/);
  assert.match(reasons['orphan.meta.json'], /without its result file/);
  assert.match(reasons['meta_bad.meta.json'], /does not match/);
  assert.match(reasons['stray-file'], /not a dialog folder/);
  assert.deepEqual(
    r.removedTemp.map((f) => path.basename(f)),
    ['.x.json.123.abcd.tmp'],
  );
  assert.deepEqual(r.repaired.map((f) => path.basename(f)).sort(), ['meta_bad.meta.json', 'meta_gone.meta.json']);
  for (const q of r.quarantined) assert.ok(fs.existsSync(q.movedTo), 'quarantined files are kept, not deleted');
  assert.deepEqual(listFiles(dir), ['good.json', 'good.meta.json', 'meta_bad.json', 'meta_bad.meta.json', 'meta_gone.json', 'meta_gone.meta.json']);
  // A third open finds a clean store.
  assert.deepEqual(FileResultStore.open(root).openReport.quarantined, []);
});

test('retention removes files with the index, and events fire', () => {
  const root = tmpRoot();
  const store = FileResultStore.open(root, { retention: { maxCount: 2 } });
  const evicted = [];
  store.on('evicted', (e) => evicted.push(e.detail.tool_call_id));
  for (const id of ['r1', 'r2', 'r3']) store.put(result(id, id), { dialogId: 'd' });
  assert.deepEqual(evicted, ['r1']);
  assert.deepEqual(listFiles(path.join(root, 'dialogs/d/tool_results')), ['r2.json', 'r2.meta.json', 'r3.json', 'r3.meta.json']);
  assert.equal(store.metrics().evicted, 1);
});

test('a writer killed mid-stream: every acknowledged result is readable, nothing half-written is visible', async () => {
  const root = tmpRoot();
  const script = path.join(root, 'writer.cjs');
  fs.writeFileSync(
    script,
    `const { FileResultStore, createSuccess, sha256Hex } = require(${JSON.stringify(require.resolve('toolresult/node'))});
const store = FileResultStore.open(process.argv[2]);
const chunk = 'x'.repeat(1024) + '\\n';
for (let i = 0; ; i++) {
  const output = chunk.repeat(3000 + (i % 5) * 1000) + i;
  const r = createSuccess({ input: { tool_name: 'bash', parameters: { command: 'run ' + i }, tool_call_id: 'call_' + i }, output });
  store.put(r, { dialogId: 'crash' });
  process.stdout.write('ACK call_' + i + ' ' + sha256Hex(output) + '\\n');
}`,
  );
  const data = path.join(root, 'data');
  for (let round = 0; round < 6; round++) {
    const acked = new Map();
    const child = spawn(process.execPath, [script, data], { stdio: ['ignore', 'pipe', 'inherit'] });
    const dir = path.join(data, 'dialogs/crash/tool_results');
    // Even rounds kill the moment a temp file appears (a write in flight);
    // odd rounds kill after a random pause.
    const midWrite = round % 2 === 0;
    const want = 3 + (round % 3);
    let watcher;
    const kill = () => child.kill('SIGKILL');
    let buffer = '';
    await new Promise((resolve) => {
      child.stdout.on('data', (chunk) => {
        buffer += chunk;
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const [, id, sha] = buffer.slice(0, nl).split(' ');
          buffer = buffer.slice(nl + 1);
          acked.set(id, sha);
          if (acked.size !== want) continue;
          if (midWrite) {
            watcher = fs.watch(dir, (_event, name) => {
              if (String(name).endsWith('.tmp')) kill();
            });
            setTimeout(kill, 5000); // in case no write is seen
          } else {
            setTimeout(kill, Math.random() * 40);
          }
        }
      });
      child.on('exit', resolve);
    });
    watcher?.close();
    assert.ok(acked.size >= 3, `round ${round}: the writer acknowledged ${acked.size}`);
    const store = FileResultStore.open(data);
    assert.deepEqual(store.openReport.quarantined, [], 'nothing corrupt was visible');
    const { removedTemp, repaired, loaded } = store.openReport;
    console.log(
      `crash round ${round} (${midWrite ? 'killed when a temp file appeared' : 'killed at a random time'}): ${acked.size} acknowledged, ${loaded} loaded, ${removedTemp.length} interrupted temp files removed, ${repaired.length} metas rewritten`,
    );
    assert.ok(loaded >= acked.size && loaded <= acked.size + 1, 'at most the one unacknowledged write landed');
    for (const [id, sha] of acked) {
      const r = store.get('crash', id);
      assert.ok(r, `acknowledged ${id} is readable`);
      assert.equal(sha256Hex(r.output), sha, `${id} is complete`);
    }
    assert.ok(
      listFiles(dir).every((f) => !f.endsWith('.tmp')),
      'no temp file is left visible',
    );
    for (const f of listFiles(dir).filter((f) => !f.endsWith('.meta.json'))) {
      assert.ok(store.get('crash', f.slice(0, -5)), `${f} is a whole, valid result`);
    }
    // Clear for the next round's ids.
    fs.rmSync(data, { recursive: true, force: true });
  }
});
