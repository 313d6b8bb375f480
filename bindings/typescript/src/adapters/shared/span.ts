// One OpenTelemetry span around a tool's run, for the framework adapters:
// `execute_tool {tool name}` (kind INTERNAL), started before the tool runs and
// ended when its ToolResult is built, with the GenAI semantic conventions'
// tool attributes. The caller hands in its tracer (`@opentelemetry/api`'s
// `Tracer`); nothing here imports OpenTelemetry, its shapes are structural.
import type { ToolResult } from '../../generated/types.js';
import { redactSecrets } from '../../screen.js';

// @opentelemetry/api's SpanKind.INTERNAL and SpanStatusCode values (stable since api 1.0).
const SPAN_KIND_INTERNAL = 0;
const SPAN_STATUS_OK = 1;
const SPAN_STATUS_ERROR = 2;

/** A span, as far as the helper uses one (`@opentelemetry/api`'s `Span` fits). */
export interface ToolSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: Date | number): void;
}

/** A tracer, as far as the helper uses one (`@opentelemetry/api`'s `Tracer` fits). */
export interface ToolTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, string | number | boolean>; startTime?: Date | number }): ToolSpan;
}

/** The span options every adapter takes. */
export interface ToolSpanOptions {
  /** Makes an `execute_tool {tool name}` span around each tool run (`trace.getTracer(...)` from `@opentelemetry/api`). */
  tracer?: ToolTracer;
  /** Record the call's arguments as `gen_ai.tool.call.arguments` (off by default: they may hold secrets; secrets the screen knows are redacted). */
  traceArguments?: boolean;
  /** Record what the tool returned as `gen_ai.tool.call.result` (off by default; a screened result is redacted first). */
  traceResult?: boolean;
}

/** What the span knows of the call before the tool runs. */
export interface ToolSpanCall {
  toolName: string;
  toolCallId?: string;
  /** `function` (default), `extension` or `datastore` (the GenAI conventions' `gen_ai.tool.type`). */
  toolType?: string;
  description?: string;
  arguments?: unknown;
}

/** A span that is running; `end` closes it with the ToolResult's outcome. */
export interface RunningToolSpan {
  end(result: ToolResult): void;
}

const NO_SPAN: RunningToolSpan = { end() {} };

function jsonAttribute(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/** The value with the secrets the screen knows redacted, as attribute text; `undefined` when it cannot be redacted (never the raw value). */
function redactedAttribute(value: unknown): string | undefined {
  try {
    return jsonAttribute(redactSecrets(value));
  } catch {
    // The screen module not loaded (browsers before `loadScreen()`), or a value that is not JSON data.
    return undefined;
  }
}

/**
 * Starts the `execute_tool {tool name}` span of one tool call (nothing when
 * no tracer is given). Attributes: `gen_ai.operation.name` (`execute_tool`),
 * `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.type`,
 * `gen_ai.tool.description` when known; at the end `error.type` (the
 * result's `error_code`, else its status) and status ERROR for a result that
 * did not succeed, `toolresult.status` and `toolresult.execution_id`; and,
 * when asked, `gen_ai.tool.call.arguments` / `gen_ai.tool.call.result`
 * (JSON text, the secrets the screen knows redacted; left out when they
 * cannot be redacted). A tracer that throws never breaks the tool call.
 */
export function startToolSpan(call: ToolSpanCall, options: ToolSpanOptions = {}): RunningToolSpan {
  const tracer = options.tracer;
  if (!tracer) return NO_SPAN;
  const attributes: Record<string, string> = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.toolName,
    'gen_ai.tool.type': call.toolType ?? 'function',
  };
  if (call.toolCallId) attributes['gen_ai.tool.call.id'] = call.toolCallId;
  if (call.description) attributes['gen_ai.tool.description'] = call.description;
  if (options.traceArguments && call.arguments !== undefined) {
    const text = redactedAttribute(call.arguments);
    if (text !== undefined) attributes['gen_ai.tool.call.arguments'] = text;
  }
  let span: ToolSpan;
  try {
    span = tracer.startSpan(`execute_tool ${call.toolName}`, { kind: SPAN_KIND_INTERNAL, attributes });
  } catch {
    return NO_SPAN;
  }
  let ended = false;
  return {
    end(result: ToolResult) {
      if (ended) return;
      ended = true;
      try {
        const failed = result.status !== 'success';
        if (!call.toolCallId && result.input.tool_call_id) span.setAttribute('gen_ai.tool.call.id', result.input.tool_call_id);
        span.setAttribute('toolresult.status', result.status);
        span.setAttribute('toolresult.execution_id', result.metadata.execution_id);
        if (failed) span.setAttribute('error.type', result.error_code ?? result.status);
        if (options.traceResult) {
          // A failure's message (a REJECT's reasons), else what the tool returned; redacted
          // whether or not it was screened: a span is not the place for a secret.
          const text = redactedAttribute(failed ? (result.error_message ?? result.status) : (result.content ?? result.output ?? ''));
          if (text !== undefined) span.setAttribute('gen_ai.tool.call.result', text);
        }
        span.setStatus(failed ? { code: SPAN_STATUS_ERROR, message: result.error_message ?? result.status } : { code: SPAN_STATUS_OK });
        span.end();
      } catch {
        // A tracer's failure is not the tool's.
      }
    },
  };
}
