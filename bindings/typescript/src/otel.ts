// `toolresult/otel`: tool results as OpenTelemetry spans and metrics, named
// after the GenAI semantic conventions for tool execution (span
// `execute_tool {gen_ai.tool.name}`, `gen_ai.operation.name` = `execute_tool`,
// `gen_ai.tool.name`, `gen_ai.tool.call.id`, `error.type`), plus our own
// `toolresult.*` attributes. `@opentelemetry/api` is a peer dependency used
// for types only: the caller hands in its tracer and meter.
import type { Attributes, Counter, Histogram, Meter, Tracer } from '@opentelemetry/api';
// The entry installs the wasm modules: this entry may be the first one loaded.
import './index.js';
import { statusInfo } from './api.js';
import { ToolResultError, unwrapOutcome } from './errors.js';
import type { Eviction, PutReport, StoreEntry, ToolResult } from './generated/types.js';
import { agentModule } from './runtime.js';
import { toolResultJson } from './wire.js';

// Values of @opentelemetry/api's SpanKind.INTERNAL and SpanStatusCode (stable
// since api 1.0), so this entry does not load the API at run time.
const SPAN_KIND_INTERNAL = 0;
const SPAN_STATUS_OK = 1;
const SPAN_STATUS_ERROR = 2;

/** An attribute value OpenTelemetry accepts. */
export type OtelAttributes = Record<string, string | number | boolean>;

/** The output's size as the stores count it (compact JSON bytes); checks the result on the way. */
function outputSize(result: ToolResult): number {
  const json = agentModule.call((w) => w.store_entry(toolResultJson(result), '', '-'));
  return unwrapOutcome<StoreEntry>(json, 'invalid_tool_result', 'invalid ToolResult').meta.size_bytes;
}

/**
 * The span attributes of a tool result: the GenAI conventions' tool-execution
 * attributes, then `toolresult.*` (status, category, execution id, output
 * size and truncation, duration, side effects, validation issues).
 * `error.type` is set only for results that did not succeed: the result's
 * `error_code`, or its status.
 */
export function toOtelAttributes(result: ToolResult): OtelAttributes {
  return attributesOf(result, outputSize(result));
}

/** The attributes of a result already checked, whose output size is known (a store reported it). */
function attributesOf(result: ToolResult, sizeBytes: number): OtelAttributes {
  const a: OtelAttributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': result.input.tool_name,
  };
  if (result.input.tool_call_id) a['gen_ai.tool.call.id'] = result.input.tool_call_id;
  if (result.status !== 'success') a['error.type'] = result.error_code ?? result.status;
  a['toolresult.status'] = result.status;
  a['toolresult.status.category'] = statusInfo(result.status).category;
  a['toolresult.execution_id'] = result.metadata.execution_id;
  a['toolresult.output.size_bytes'] = sizeBytes;
  a['toolresult.output.truncated'] = result.metadata.output_truncated ?? false;
  if (typeof result.metadata.duration_ms === 'number') a['toolresult.duration_ms'] = result.metadata.duration_ms;
  a['toolresult.side_effects.count'] = result.side_effects?.length ?? 0;
  a['toolresult.validation_issues.count'] = result.validation_issues?.length ?? 0;
  a['toolresult.schema_version'] = result.schema_version;
  return a;
}

/** A store `instrumentStore` can wrap: any of ResultStore, FileResultStore, PostgresResultStore. */
export interface InstrumentableStore {
  put(result: ToolResult | string, options: { dialogId: string; summary?: string }): unknown;
  on(type: 'evicted', listener: (event: Event & { detail: Eviction }) => void): () => void;
}

/** What `instrumentStore` records with. Either may be left out. */
export interface Instruments {
  tracer?: Tracer;
  meter?: Meter;
}

/**
 * Records every result `store.put` stores as a span (`execute_tool <tool>`,
 * from `started_at` to `completed_at`, status ERROR when the tool failed) and
 * as metrics: `toolresult.results` (by status and tool), `toolresult.output.size`
 * (bytes), `gen_ai.execute_tool.duration` (seconds), `toolresult.validation_failures`,
 * `toolresult.truncations` (results stored with a truncated output),
 * `toolresult.side_effects` (side effects recorded), `toolresult.rejections`
 * (puts the store refused, by error code) and `toolresult.evictions` (by
 * reason): the store's counters of docs/spec.md §11 (docs/integrations/otel.md
 * maps them to the ToolResult specification's `tools.results.*`). A repeated
 * (idempotent) put records nothing. Returns the function that removes the
 * instrumentation.
 */
export function instrumentStore(store: InstrumentableStore, { tracer, meter }: Instruments): () => void {
  const m =
    meter &&
    ({
      results: meter.createCounter('toolresult.results', { description: 'Tool results stored, by status and tool' }),
      size: meter.createHistogram('toolresult.output.size', { description: 'Size of stored tool outputs (compact JSON)', unit: 'By' }),
      duration: meter.createHistogram('gen_ai.execute_tool.duration', { description: 'Duration of tool executions', unit: 's' }),
      validationFailures: meter.createCounter('toolresult.validation_failures', { description: 'Stored results whose input or output failed validation' }),
      truncations: meter.createCounter('toolresult.truncations', { description: 'Stored results whose output was truncated' }),
      sideEffects: meter.createCounter('toolresult.side_effects', { description: 'Side effects recorded with stored results' }),
      rejections: meter.createCounter('toolresult.rejections', { description: 'Results the store refused, by error code' }),
      evictions: meter.createCounter('toolresult.evictions', { description: 'Results removed by the retention policy, by reason' }),
    } satisfies Record<string, Counter | Histogram>);

  const record = (result: ToolResult, report: PutReport) => {
    if (!report?.stored) return;
    // The put validated the result and measured it: nothing is parsed again.
    const attributes = attributesOf(result, report.meta.size_bytes);
    const failed = result.status !== 'success';
    if (tracer) {
      const start = new Date(result.metadata.started_at);
      const end = result.metadata.completed_at ? new Date(result.metadata.completed_at) : start;
      const span = tracer.startSpan(`execute_tool ${result.input.tool_name}`, { kind: SPAN_KIND_INTERNAL, startTime: start, attributes });
      span.setStatus(failed ? { code: SPAN_STATUS_ERROR, message: result.error_message ?? result.status } : { code: SPAN_STATUS_OK });
      span.end(end);
    }
    if (m) {
      const low: Attributes = { 'gen_ai.tool.name': result.input.tool_name, 'toolresult.status': result.status };
      if (failed) low['error.type'] = attributes['error.type'];
      m.results.add(1, low);
      m.size.record(report.meta.size_bytes, low);
      if (typeof result.metadata.duration_ms === 'number') m.duration.record(result.metadata.duration_ms / 1000, low);
      if (result.status === 'output_validation_failed' || result.status === 'validation_error') m.validationFailures.add(1, low);
      // As the stores count them (metrics(): truncated, side_effects): from what was stored.
      if (report.meta.output_truncated) m.truncations.add(1, low);
      const sideEffects = result.side_effects?.length ?? 0;
      if (sideEffects > 0) m.sideEffects.add(sideEffects, low);
    }
  };
  const rejected = (e: unknown) => {
    if (m && e instanceof ToolResultError) m.rejections.add(1, { 'error.type': e.code });
  };

  const target = store as unknown as { put: (...args: unknown[]) => unknown };
  const original = target.put;
  target.put = function instrumentedPut(this: unknown, ...args: unknown[]) {
    let out: unknown;
    try {
      out = original.apply(this, args);
    } catch (e) {
      rejected(e);
      throw e;
    }
    const input = args[0];
    const value = () => (typeof input === 'string' ? (JSON.parse(input) as ToolResult) : (input as ToolResult));
    if (out instanceof Promise) {
      return out.then(
        (report: PutReport) => {
          record(value(), report);
          return report;
        },
        (e: unknown) => {
          rejected(e);
          throw e;
        },
      );
    }
    record(value(), out as PutReport);
    return out;
  };
  const offEvicted = store.on('evicted', (event) => m?.evictions.add(1, { 'toolresult.eviction.reason': event.detail.reason }));
  return () => {
    target.put = original;
    offEvicted();
  };
}
