// ResultStore (events, idempotence, conflicts, history, retention, metrics),
// summaries, references, prepareHistory and get_tool_result, through the built
// package (Node or browser build).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { toolresult } from './helpers.mjs';

const {
  ResultStore, ToolResultError, createSuccess, createFailure, summarize, registerSummarizer, toReference,
  prepareHistory, getToolResultTool, createGetToolResultHandler, compileSchema, ToolRegistry,
} = toolresult;

let n = 0;
const at = (s) => `2026-11-22T10:00:${String(s).padStart(2, '0')}Z`;
function make(tool, params, output, { started = 0, callId, status } = {}) {
  const input = { tool_name: tool, parameters: params, tool_call_id: callId ?? `call_${++n}` };
  const times = { started_at: at(started), completed_at: at(started) };
  return status
    ? createFailure({ input, output, status, error_code: status.toUpperCase(), error_message: 'it failed', ...times })
    : createSuccess({ input, output, ...times });
}

function collect(store) {
  const seen = [];
  for (const type of ['stored', 'validation_failed', 'truncated', 'evicted']) store.on(type, (e) => seen.push([type, e.detail]));
  return seen;
}

test('put is idempotent, never overwrites, and announces what it stored', () => {
  const store = new ResultStore();
  const seen = collect(store);
  const r = make('read_file', { path: 'a.txt' }, 'one\ntwo\n');
  const report = store.put(r, { dialog_id: 'd1' });
  assert.equal(report.stored, true);
  assert.equal(report.meta.summary, 'Read file: a.txt (2 lines)');
  assert.equal(store.put(r, { dialog_id: 'd1' }).stored, false);
  assert.deepEqual(seen.map(([t]) => t), ['stored'], 'the repeat is not announced');
  assert.deepEqual(store.get(r.metadata.execution_id), r);
  assert.deepEqual(store.getByToolCallId(r.input.tool_call_id), r);
  assert.equal(store.get('nope'), undefined);
  assert.throws(() => store.put({ ...r, output: 'changed' }), (e) => e instanceof ToolResultError && e.code === 'store_conflict' && e.issues[0].path === '/metadata/execution_id');
  assert.deepEqual(store.get(r.metadata.execution_id).output, 'one\ntwo\n', 'not overwritten');
  assert.throws(() => store.put({ status: 'success' }), (e) => e.code === 'invalid_tool_result');
  assert.equal(store.size, 1);
});

test('validation_failed, truncated and evicted events; unsubscribe works', () => {
  const store = new ResultStore({ retention: { maxCount: 2 } });
  const seen = collect(store);
  const registry = new ToolRegistry().register({ name: 'calc', output_schema: { type: 'number' } });
  const failed = registry.checkResult(make('calc', {}, 'NaN'));
  store.put(failed);
  const truncated = createSuccess({ input: { tool_name: 'big', tool_call_id: 'call_big' }, output: 'x', output_truncated: true });
  store.put(truncated);
  const off = store.on('stored', () => assert.fail('unsubscribed listener called'));
  off();
  const third = make('t', {}, 1);
  const report = store.put(third);
  assert.equal(report.evicted.length, 1);
  assert.equal(report.evicted[0].execution_id, failed.metadata.execution_id);
  assert.deepEqual(seen.map(([t]) => t), ['stored', 'validation_failed', 'stored', 'truncated', 'stored', 'evicted']);
  const vf = seen.find(([t]) => t === 'validation_failed')[1];
  assert.equal(vf.issues[0].code, 'type');
  assert.equal(seen.at(-1)[1].reason, 'max_count');
});

test('history: newest first, limit, status, since/until; bad queries are typed errors', () => {
  const store = new ResultStore();
  for (const s of [3, 1, 4, 2]) store.put(make('grep', { pattern: `p${s}` }, { matches: s }, { started: s }));
  store.put(make('grep', { pattern: 'x' }, undefined, { started: 5, status: 'timeout' }));
  store.put(make('bash', { command: 'ls' }, {}, { started: 9 }));
  const started = (list) => list.map((r) => r.metadata.started_at.slice(17, 19));
  assert.deepEqual(started(store.history('grep')), ['05', '04', '03', '02', '01']);
  assert.deepEqual(started(store.history('grep', { limit: 2 })), ['05', '04']);
  assert.deepEqual(started(store.history('grep', { status: 'success' })), ['04', '03', '02', '01']);
  assert.deepEqual(started(store.history('grep', { since: at(2), until: at(4) })), ['03', '02']);
  assert.deepEqual(store.history('nothing'), []);
  assert.throws(() => store.history('grep', { limit: 0 }), (e) => e.code === 'invalid_options');
  assert.throws(() => store.history('grep', { since: 'yesterday' }), (e) => e.code === 'invalid_options' && e.issues[0].path === '/since');
  assert.throws(() => store.history('grep', { status: 'bogus' }), (e) => e.code === 'invalid_options');
});

test('retention by count, bytes and age; listDialog gives metadata only, in order', () => {
  let now = Date.parse(at(0));
  const store = new ResultStore({ retention: { maxAgeMs: 10_000, maxBytes: 4000 }, now: () => now });
  const evicted = [];
  store.on('evicted', (e) => evicted.push(e.detail));
  for (let i = 0; i < 5; i++) store.put(make('t', { i }, 'y'.repeat(900), { started: i }), { dialog_id: 'dlg' });
  assert.ok(store.metrics().current_bytes <= 4000);
  assert.ok(evicted.length >= 1 && evicted.every((e) => e.reason === 'max_bytes'));
  const listed = store.listDialog('dlg');
  assert.equal(listed.length, 5 - evicted.length);
  assert.ok(listed.every((m) => m.dialog_id === 'dlg' && !('output' in m) && m.size_bytes === 902));
  now += 60_000;
  const aged = store.prune();
  assert.equal(aged.length, listed.length);
  assert.ok(aged.every((e) => e.reason === 'max_age'));
  assert.equal(store.size, 0);
  assert.equal(evicted.length, 5, 'every eviction was announced');
  assert.throws(() => new ResultStore({ retention: { maxCount: -1 } }), (e) => e.code === 'invalid_options');
  assert.throws(() => new ResultStore({ retention: { keepForever: true } }), (e) => e.code === 'invalid_options' && /keepForever/.test(e.message));
});

test('metrics: seed 000 counters and the output-size histogram', () => {
  const store = new ResultStore();
  store.put(make('t', {}, 'x'.repeat(5000)));
  store.put(make('t', {}, 1, { status: 'validation_error' }));
  store.put(createSuccess({ input: { tool_name: 'w' }, output: 1, side_effects: [{ type: 'created', resource: 'a', timestamp: at(0) }, { type: 'deleted', resource: 'b', timestamp: at(0) }] }));
  const m = store.metrics();
  assert.equal(m.stored, 3);
  assert.deepEqual(m.by_status, { success: 2, validation_error: 1 });
  assert.equal(m.validation_failures, 1);
  assert.equal(m.side_effects, 2);
  assert.equal(m.output_size.reduce((a, b) => a + b.count, 0), 3);
  assert.deepEqual(m.output_size.map((b) => b.le), [1024, 10240, 102400, 1048576, 10485760, null]);
  assert.equal(m.output_size[1].count, 1);
});

test('summaries use each tool\'s argument names; registerSummarizer overrides by pattern', () => {
  assert.equal(summarize(make('read_file', { target_file: 'src/main.py' }, { content: 'a\n'.repeat(342) })), 'Read file: src/main.py (342 lines)');
  assert.equal(summarize(make('grep', { pattern: 'TODO', path: 'src' }, { matches: 12, files: 4 })), "grep 'TODO' in src: 12 matches in 4 files");
  assert.equal(summarize(make('bash', { command: 'make test' }, { exit_code: 0, stdout: 'ok\n'.repeat(120) })), 'bash `make test`: exit 0, 120 lines');
  assert.equal(summarize(make('list_dir', { path: 'src' }, { entries: ['a', 'b'] })), 'Listed src: 2 entries');
  assert.match(summarize(make('translate', { text: 'hola' }, 'hello')), /^translate\(text=hola\): 7 bytes$/);
  assert.equal(summarize(make('read_file', { path: 'x' }, undefined, { status: 'permission_denied' })), 'Read file: x: permission_denied (PERMISSION_DENIED)');
  const off = registerSummarizer('jira_*', (r) => `Jira ${r.input.parameters.key}`);
  const offRe = registerSummarizer(/^sql$/, () => 'SQL query');
  assert.equal(summarize(make('jira_get', { key: 'AB-1' }, {})), 'Jira AB-1');
  assert.equal(summarize(make('sql', {}, {})), 'SQL query');
  off();
  offRe();
  assert.match(summarize(make('jira_get', { key: 'AB-1' }, {})), /^jira_get\(key=AB-1\)/);
  const offBad = registerSummarizer('bad', () => 42);
  assert.throws(() => summarize(make('bad', {}, 1)), (e) => e.code === 'invalid_summary');
  offBad();
  assert.throws(() => registerSummarizer('', () => ''), (e) => e.code === 'invalid_options');
});

test('toReference: seed 003 reference with summary, whole-line preview and result_ref', () => {
  const content = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
  const r = make('read_file', { path: 'src/main.py' }, content, { callId: 'call_abc123' });
  const ref = toReference(r, { dialog_id: 'dialog_123' });
  assert.deepEqual(Object.keys(ref), ['tool_call_id', 'tool_name', 'status', 'metadata', 'result_ref']);
  assert.deepEqual(ref.result_ref, { storage_type: 'tool_results', dialog_id: 'dialog_123', tool_call_id: 'call_abc123' });
  assert.equal(ref.metadata.summary, 'Read file: src/main.py (200 lines)');
  assert.equal(ref.metadata.size_bytes, r.metadata.output_size);
  const [shown] = ref.metadata.truncated_preview.split('\n…');
  assert.ok(content.startsWith(shown) && shown.endsWith('\n') && shown.length <= 500);
  assert.match(ref.metadata.truncated_preview, /get_tool_result/);
  const small = toReference(make('t', {}, { a: 1 }), { dialog_id: 'd', previewChars: 100 });
  assert.equal(small.metadata.truncated_preview, 'a: 1', 'an object without main text previews one field a line, no JSON punctuation');
  assert.throws(() => toReference(r, {}), (e) => e.code === 'invalid_options');
});

test('prepareHistory swaps results for references and back; get_tool_result serves earlier results', () => {
  const store = new ResultStore();
  const a = make('read_file', { path: 'a' }, 'A line of text\n'.repeat(400), { callId: 'call_a' });
  const b = make('grep', { pattern: 'x' }, { matches: 1 }, { callId: 'call_b' });
  const messages = [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'call_a', content: a }, b];
  const prepared = prepareHistory(messages, { dialog_id: 'd', store });
  assert.deepEqual(prepared.referenced, ['call_a', 'call_b']);
  assert.deepEqual(prepared.messages[0], messages[0]);
  assert.equal(prepared.messages[1].role, 'tool');
  assert.equal(prepared.messages[1].content.result_ref.tool_call_id, 'call_a');
  assert.equal(prepared.messages[2].result_ref.tool_call_id, 'call_b');
  assert.equal(messages[1].content, a, 'the input list is not modified');
  assert.ok(JSON.stringify(prepared.messages).length < JSON.stringify(messages).length / 2);

  const some = prepareHistory(prepared.messages, { dialog_id: 'd', store, load: ['call_a', 'call_zzz'] });
  assert.deepEqual(some.loaded, ['call_a']);
  assert.deepEqual(some.messages[1].content, a);
  assert.equal(some.messages[2].result_ref.tool_call_id, 'call_b');
  const all = prepareHistory(prepared.messages, { dialog_id: 'd', store, load: true });
  assert.deepEqual(all.messages, messages);
  const lost = prepareHistory([{ ...prepared.messages[2], result_ref: { ...prepared.messages[2].result_ref, tool_call_id: 'gone' } }], { dialog_id: 'd', store, load: true });
  assert.deepEqual(lost.missing, ['gone']);

  assert.equal(getToolResultTool.name, 'get_tool_result');
  assert.match(getToolResultTool.description, /EARLIER/);
  assert.match(getToolResultTool.description, /Do NOT call it for a tool you have just executed/);
  const schema = compileSchema(getToolResultTool.input_schema);
  assert.equal(schema.isValid({ tool_call_id: 'call_a' }), true);
  assert.equal(schema.isValid({}), false);
  const handler = createGetToolResultHandler(store);
  assert.deepEqual(handler({ tool_call_id: 'call_a' }), { found: true, result: a });
  const miss = handler({ tool_call_id: 'call_new' });
  assert.equal(miss.found, false);
  assert.match(miss.message, /earlier in this conversation/);
  assert.equal(handler({}).found, false);
});

test('property: history is newest first and bounded; retention limits always hold', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 59 }), { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 8 }), (starts, limit, maxCount) => {
      const store = new ResultStore({ retention: { maxCount } });
      let evicted = 0;
      store.on('evicted', () => evicted++);
      for (const s of starts) {
        store.put(make('p', {}, s, { started: s }));
        assert.ok(store.size <= maxCount);
      }
      const h = store.history('p', { limit });
      assert.equal(h.length, Math.min(limit, maxCount, starts.length));
      for (let i = 1; i < h.length; i++) assert.ok(h[i - 1].metadata.started_at >= h[i].metadata.started_at);
      assert.equal(store.size + evicted, starts.length);
    }),
    { numRuns: 60 },
  );
});
