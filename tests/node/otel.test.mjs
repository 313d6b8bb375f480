// toolresult/otel against the OpenTelemetry SDK's in-memory exporters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { toOtelAttributes, instrumentStore } from 'toolresult/otel';
import { FileResultStore } from 'toolresult/node';
import { ResultStore, ToolRegistry, createFailure, createSuccess, truncateOutput } from 'toolresult';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ok = createSuccess({
  input: { tool_name: 'read_file', parameters: { path: 'a.txt' }, tool_call_id: 'call_1' },
  output: 'hello\n',
  started_at: '2026-11-22T10:00:00Z',
  completed_at: '2026-11-22T10:00:01.5Z',
});
const failed = createFailure({
  input: { tool_name: 'bash', tool_call_id: 'call_2' },
  status: 'permission_denied',
  error_code: 'EACCES',
  error_message: 'no',
  started_at: '2026-11-22T10:00:02Z',
  completed_at: '2026-11-22T10:00:02Z',
});

test('toOtelAttributes: GenAI tool-execution attributes, then toolresult.*', () => {
  const a = toOtelAttributes(ok);
  assert.deepEqual(a, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'read_file',
    'gen_ai.tool.call.id': 'call_1',
    'toolresult.status': 'success',
    'toolresult.status.category': 'success',
    'toolresult.execution_id': ok.metadata.execution_id,
    'toolresult.output.size_bytes': 9,
    'toolresult.output.truncated': false,
    'toolresult.duration_ms': 1500,
    'toolresult.side_effects.count': 0,
    'toolresult.validation_issues.count': 0,
    'toolresult.schema_version': ok.schema_version,
  });
  const f = toOtelAttributes(failed);
  assert.equal(f['error.type'], 'EACCES');
  assert.equal(f['toolresult.status'], 'permission_denied');
  assert.notEqual(f['toolresult.status.category'], 'success');
  assert.equal('gen_ai.tool.call.id' in toOtelAttributes(createSuccess({ input: { tool_name: 'x' }, output: 1 })), false);
  assert.throws(
    () => toOtelAttributes({ status: 'success' }),
    (e) => e.code === 'invalid_tool_result',
  );
});

async function setup() {
  const spans = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }).getTracer('toolresult-test');
  const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 3_600_000 });
  const meter = new MeterProvider({ readers: [reader] }).getMeter('toolresult-test');
  const collected = async () => {
    await reader.forceFlush();
    const last = metrics.getMetrics().at(-1);
    const byName = {};
    for (const scope of last?.scopeMetrics ?? []) for (const m of scope.metrics) byName[m.descriptor.name] = m.dataPoints;
    return byName;
  };
  return { spans, tracer, meter, collected };
}

test('instrumentStore: a span per stored result and the metrics, for the in-memory store', async () => {
  const { spans, tracer, meter, collected } = await setup();
  const store = new ResultStore({ retention: { maxCount: 2 } });
  const off = instrumentStore(store, { tracer, meter });
  store.put(ok);
  store.put(ok);
  store.put(failed);
  assert.throws(
    () => store.put({ ...ok, output: 'changed' }),
    (e) => e.code === 'store_conflict',
  );
  assert.throws(
    () => store.put({ nope: true }),
    (e) => e.code === 'invalid_tool_result',
  );
  const registry = new ToolRegistry().register({ name: 'calc', output_schema: { type: 'number' } });
  store.put(registry.checkResult(createSuccess({ input: { tool_name: 'calc', tool_call_id: 'call_3' }, output: 'NaN' })));

  const finished = spans.getFinishedSpans();
  assert.deepEqual(
    finished.map((s) => s.name),
    ['execute_tool read_file', 'execute_tool bash', 'execute_tool calc'],
  );
  const [read, bash] = finished;
  assert.equal(read.kind, 0, 'SpanKind.INTERNAL');
  assert.equal(read.status.code, 1, 'OK');
  assert.equal(bash.status.code, 2, 'ERROR');
  assert.equal(bash.status.message, 'no');
  assert.equal(bash.attributes['error.type'], 'EACCES');
  assert.deepEqual(read.startTime, [Date.parse(ok.metadata.started_at) / 1000, 0]);
  assert.deepEqual(read.endTime, [Date.parse(ok.metadata.started_at) / 1000 + 1, 500_000_000]);

  const m = await collected();
  const sum = (points) => points.reduce((a, p) => a + (typeof p.value === 'number' ? p.value : p.value.count), 0);
  assert.equal(sum(m['toolresult.results']), 3);
  assert.deepEqual(m['toolresult.results'].map((p) => p.attributes['toolresult.status']).sort(), ['output_validation_failed', 'permission_denied', 'success']);
  assert.equal(sum(m['toolresult.output.size']), 3);
  assert.equal(m['toolresult.output.size'].find((p) => p.attributes['gen_ai.tool.name'] === 'read_file').value.sum, 9);
  assert.equal(sum(m['toolresult.validation_failures']), 1);
  assert.deepEqual(m['toolresult.rejections'].map((p) => [p.attributes['error.type'], p.value]).sort(), [
    ['invalid_tool_result', 1],
    ['store_conflict', 1],
  ]);
  assert.deepEqual(
    m['toolresult.evictions'].map((p) => [p.attributes['toolresult.eviction.reason'], p.value]),
    [['max_count', 1]],
  );
  assert.equal(m['gen_ai.execute_tool.duration'].find((p) => p.attributes['gen_ai.tool.name'] === 'read_file').value.sum, 1.5);

  off();
  store.put(createSuccess({ input: { tool_name: 'after' }, output: 1 }));
  assert.equal(spans.getFinishedSpans().length, 3, 'removed instrumentation records nothing');
});

test('instrumentStore works on the file store (JSON text input too)', async () => {
  const { spans, tracer } = await setup();
  const root = mkdtempSync(path.join(tmpdir(), 'toolresult-otel-'));
  try {
    const store = FileResultStore.open(root);
    instrumentStore(store, { tracer });
    store.put(JSON.stringify(ok), { dialogId: 'd' });
    assert.deepEqual(
      spans.getFinishedSpans().map((s) => s.attributes['toolresult.execution_id']),
      [ok.metadata.execution_id],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('instrumentStore: truncated outputs and side effects, counted as the store counts them', async () => {
  const { meter, collected } = await setup();
  const store = new ResultStore();
  instrumentStore(store, { meter });
  const sideEffect = (resource) => ({ type: 'modified', resource, timestamp: '2026-11-22T10:00:00Z' });
  const cut = truncateOutput('x'.repeat(5000), { maxBytes: 1000 });
  assert.equal(cut.output_truncated, true);
  const truncated = createSuccess({ input: { tool_name: 'bash', tool_call_id: 'call_t' }, output: cut.output, output_truncated: true });
  const edits = createSuccess({
    input: { tool_name: 'edit', tool_call_id: 'call_e' },
    output: 'ok',
    side_effects: [sideEffect('a.txt'), sideEffect('b.txt'), sideEffect('c.txt')],
  });
  const more = createSuccess({ input: { tool_name: 'edit', tool_call_id: 'call_m' }, output: 'ok', side_effects: [sideEffect('d.txt')] });
  for (const r of [truncated, edits, more, ok]) store.put(r);
  store.put(edits); // a repeat records nothing

  const m = await collected();
  const sum = (points) => (points ?? []).reduce((a, p) => a + p.value, 0);
  assert.equal(sum(m['toolresult.truncations']), 1);
  assert.equal(sum(m['toolresult.side_effects']), 4);
  assert.deepEqual(
    m['toolresult.side_effects'].map((p) => [p.attributes['gen_ai.tool.name'], p.value]),
    [['edit', 4]],
  );
  assert.equal(m['toolresult.truncations'][0].attributes['gen_ai.tool.name'], 'bash');
  // The same counts as the store's own metrics.
  assert.equal(store.metrics().truncated, 1);
  assert.equal(store.metrics().side_effects, 4);
});
