// One schema for every producer (docs/spec.md §14): migration of the
// legacy TaskResult, normalization of whatever an orchestrator receives, and
// conversions to and from MCP, Anthropic, OpenAI and the Vercel AI SDK. The
// mappings live in Rust (crates/toolresult/src/{migrate,convert}.rs), in the
// core module (docs/internals/modules.md).
import { ToolResultError, type Outcome, quoteText } from './errors.js';
import type { AgentResult, Change, Issue, SourceShape, ToolResult } from './generated/types.js';
import { agentModule } from './runtime.js';
import { INPUT_LIMITS, toWireText } from './wire.js';

export type NormalizeResult = { ok: true; value: AgentResult; changes: Change[]; source: SourceShape } | { ok: false; issues: Issue[] };

/** What the legacy shapes lack. `timestamp` defaults to now (and says so in `changes`). */
export interface MigrationContext {
  agent_id?: string;
  agent_type?: string;
  action?: string;
  timestamp?: string;
}

/** What a converted ToolResult needs that the source may lack. */
export interface CallContext {
  tool_name?: string;
  arguments?: Record<string, unknown>;
  tool_call_id?: string;
  started_at?: string;
  completed_at?: string;
}

function text(value: unknown): { text: string } | { issues: Issue[] } {
  if (typeof value === 'string') return { text: value };
  const w = toWireText(value, INPUT_LIMITS);
  return w.issues ? { issues: w.issues } : { text: w.text };
}

function contextText(ctx: object | undefined, what: string): string {
  if (ctx === undefined) return '';
  if (ctx === null || typeof ctx !== 'object') throw new ToolResultError('invalid_options', `${what} must be an object`);
  const w = toWireText(ctx, { maxBytes: 1 << 20, maxDepth: 16 });
  if (w.issues) throw new ToolResultError('invalid_options', `invalid ${what}`, w.issues);
  return w.text;
}

function normalizeWith(input: unknown, context: MigrationContext | undefined, mode: string): NormalizeResult {
  const t = text(input);
  if ('issues' in t) return { ok: false, issues: t.issues };
  const ctx = { ...(context ?? {}), now: new Date().toISOString() };
  const out = JSON.parse(agentModule.call((w) => w.normalize_agent_result(t.text, contextText(ctx, 'the context'), mode))) as Outcome<{
    value: AgentResult;
    changes: Change[];
    source: SourceShape;
  }>;
  if (!out.ok) return out;
  return { ok: true, value: out.value.value, changes: out.value.changes, source: out.value.source };
}

/**
 * The legacy `TaskResult` → AgentResult v1: `output` becomes `result`,
 * `success` is derived, `errors` become `error` (failure) or `warnings`
 * (success, partial), `partial` becomes a success with a warning, and fields
 * with no home are kept in `result._legacy`. `context` supplies agent_id,
 * agent_type, action and timestamp.
 */
export function migrateTaskResult(legacy: unknown, context: MigrationContext): NormalizeResult {
  return normalizeWith(legacy, context, 'task-result');
}

/**
 * Whatever an orchestrator receives — an AgentResult v1, a legacy TaskResult,
 * or the AgentMessage wrapper around either, as JSON text or a value —
 * as an AgentResult v1 that passes `validateAgentResult`, with every change
 * listed; or the issues when the shape is ambiguous or invalid.
 */
export function normalizeAgentResult(input: unknown, context?: MigrationContext): NormalizeResult {
  return normalizeWith(input, context, 'auto');
}

/** The caller's options are wrong (an unknown revision or part shape), not the input. */
const badOptions = (issues: Issue[]) => issues.some((i) => i.code === 'unsupported_version' || i.code === 'invalid_options');

function from(kind: string, input: unknown, ctx: CallContext | undefined, variant = ''): ToolResult {
  const t = text(input);
  if ('issues' in t) throw new ToolResultError('invalid_input', `the ${kind} input is not JSON data`, t.issues);
  const out = JSON.parse(
    agentModule.call((w) => w.tool_result_from(kind, t.text, contextText(ctx, 'the context'), variant, Date.now())),
  ) as Outcome<ToolResult>;
  if (!out.ok) {
    const code = badOptions(out.issues) ? 'invalid_options' : 'invalid_input';
    throw new ToolResultError(code, code === 'invalid_options' ? `invalid ${kind} conversion options` : `not a convertible ${kind} result`, out.issues);
  }
  return out.value;
}

function to<T>(kind: string, result: ToolResult | string, variant = ''): T {
  const t = text(result);
  if ('issues' in t) throw new ToolResultError('invalid_tool_result', 'the result is not JSON data', t.issues);
  const out = JSON.parse(agentModule.call((w) => w.tool_result_to(kind, t.text, variant))) as Outcome<T>;
  if (!out.ok) {
    const code = badOptions(out.issues) ? 'invalid_options' : 'invalid_tool_result';
    throw new ToolResultError(code, `cannot convert to ${kind}`, out.issues);
  }
  return out.value;
}

/** The MCP revisions conversions read and write. */
export type McpRevision = '2025-11-25' | '2026-07-28';

/**
 * An MCP `CallToolResult` as a ToolResult: structuredContent → output (any
 * JSON value; `null` kept as `output: null`), content → content, _meta → meta,
 * isError → failed. Without `revision` it accepts what either revision allows;
 * with `revision: '2025-11-25'` a structuredContent that is not an object is
 * refused. `input_required` results and 2025-11-25 `CreateTaskResult`s are not
 * finished calls and are refused with an issue saying so.
 */
export function fromMcpCallToolResult(mcp: unknown, context: CallContext & { tool_name: string; revision?: McpRevision }): ToolResult {
  const { revision, ...ctx } = context ?? ({} as CallContext & { tool_name: string; revision?: McpRevision });
  return from('mcp', mcp, ctx, revision ?? '');
}

/**
 * A ToolResult as an MCP `CallToolResult` (`revision` 2025-11-25 by default).
 * 2026-07-28 adds `resultType: "complete"` and writes any output as
 * structuredContent; 2025-11-25 writes only object outputs there. Without
 * content blocks the output is mirrored as one TextContent block.
 */
export function toMcpCallToolResult(result: ToolResult | string, options: { revision?: McpRevision } = {}): Record<string, unknown> {
  return to('mcp', result, options.revision ?? '');
}

/**
 * An Anthropic `tool_result` block (tool_use_id, content, is_error). Text and
 * images are blocks; embedded PDFs and blocks read from Anthropic documents
 * are `document` blocks (base64 PDF, plain text, URL; title, context,
 * citations and cache_control kept in the block's `_meta`); search results
 * and documents with `content` or `file` sources are written back whole;
 * anything else is a text note.
 */
export function toAnthropicToolResult(result: ToolResult | string): Record<string, unknown> {
  return to('anthropic', result);
}

/**
 * An Anthropic `tool_result` block as a ToolResult (`tool_name` from the
 * context). `document` blocks become MCP blocks (a base64 PDF or plain text
 * an embedded `resource`, a URL a `resource_link`); `search_result` blocks
 * and documents with `content` or `file` sources are kept whole as
 * `anthropic/search-result` and `anthropic/document` blocks, which
 * `toMcpCallToolResult` refuses.
 */
export function fromAnthropicToolResult(block: unknown, context: CallContext & { tool_name: string }): ToolResult {
  return from('anthropic', block, context);
}

/** Cache breakpoint of an OpenAI output part, as read. */
type OpenAICacheBreakpoint = { mode: 'explicit'; ttl?: '30m' | '12h' } | null;

/**
 * A part of an OpenAI Responses `function_call_output` list output (the
 * `openai` package's `ResponseFunctionCallOutputItem`).
 */
export type OpenAIOutputPart =
  | { type: 'input_text'; text: string; prompt_cache_breakpoint?: OpenAICacheBreakpoint }
  | {
      type: 'input_image';
      image_url?: string;
      file_id?: string;
      detail?: 'low' | 'high' | 'auto' | 'original' | null;
      prompt_cache_breakpoint?: OpenAICacheBreakpoint;
    }
  | {
      type: 'input_file';
      file_data?: string;
      file_id?: string;
      file_url?: string;
      filename?: string | null;
      detail?: 'low' | 'high' | 'auto';
      prompt_cache_breakpoint?: OpenAICacheBreakpoint;
    };

/** An OpenAI Responses API `function_call_output` input item. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | OpenAIOutputPart[];
}

/** Options of `toOpenAIFunctionCallOutput`. */
export interface OpenAIFunctionCallOutputOptions {
  /**
   * `true` (the default): the output is a list of parts when the result
   * holds images or files OpenAI can take (or blocks read from OpenAI
   * parts), else one string. `false`: always one string, images and files
   * as notes (for models or gateways that take text outputs only).
   */
  multimodal?: boolean;
}

/**
 * An OpenAI Responses API `function_call_output` item. A text-only result
 * (or a failure) gives one string; a result with images or files gives
 * `input_text`, `input_image` (a data URL, a URL or a file id) and
 * `input_file` (data, a URL or a file id) parts, unless `multimodal: false`.
 * Blocks read from OpenAI parts become the same parts again.
 */
export function toOpenAIFunctionCallOutput(
  result: ToolResult | string,
  options: OpenAIFunctionCallOutputOptions & { multimodal: false },
): OpenAIFunctionCallOutput & { output: string };
export function toOpenAIFunctionCallOutput(result: ToolResult | string, options?: OpenAIFunctionCallOutputOptions): OpenAIFunctionCallOutput;
export function toOpenAIFunctionCallOutput(result: ToolResult | string, options: OpenAIFunctionCallOutputOptions = {}): OpenAIFunctionCallOutput {
  if (options.multimodal !== undefined && typeof options.multimodal !== 'boolean') {
    throw new ToolResultError('invalid_options', 'multimodal is a boolean');
  }
  return to('openai-function-call-output', result, options.multimodal === false ? 'text' : '');
}

/**
 * An OpenAI Chat Completions tool message (`{ role: "tool", tool_call_id,
 * content }`). Chat tool messages take text only: the content is one
 * string, images and files as notes.
 */
export function toOpenAIChatToolMessage(result: ToolResult | string): { role: 'tool'; tool_call_id: string; content: string } {
  return to('openai-chat', result);
}

/**
 * An OpenAI `function_call_output` or Chat tool message as a ToolResult
 * (always `success`: OpenAI has no error flag). A string output is the
 * output; output parts are content blocks (a base64 data URL an `image` or
 * embedded `resource`, another URL a `resource_link`, a file id an
 * `ai-sdk/file-reference` block with `{ openai: id }`); Chat `text` parts are
 * joined into the output, and other Chat parts are refused.
 */
export function fromOpenAIToolOutput(output: unknown, context: CallContext & { tool_name: string }): ToolResult {
  return from('openai', output, context);
}

/**
 * Where a Vercel AI SDK part goes: `tool-message` — a part of a
 * `{ role: 'tool' }` model message (`ToolResultPart`; what the model reads
 * back; failures are output `error-text` / `error-json`); `step-content` — a
 * part of a generation step's `content` (`tool-result` with `input` and the
 * raw output, or `tool-error`).
 */
export type VercelPartShape = 'tool-message' | 'step-content';

/**
 * The AI SDK major whose `content` part names `toVercelToolPart` writes: 7
 * (the default) writes `file` parts (tagged `data`, `url`, `reference` or
 * `text`); 6 writes `image-data`, `file-data`, `file-url`, `file-id`, … .
 * A block read from a part becomes that part again when the major has it.
 */
export type AiSdkMajor = 6 | 7;

/** Options of `toVercelToolPart`. */
export interface VercelPartOptions {
  /** The part shape (`tool-message` by default). */
  as?: VercelPartShape;
  /** The AI SDK major of the content parts (7 by default). */
  sdk?: AiSdkMajor;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: Uint8Array): string {
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i += 3) {
    const rest = bytes.length - i;
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out.push(
      BASE64[(n >> 18) & 63] ?? '',
      BASE64[(n >> 12) & 63] ?? '',
      rest > 1 ? (BASE64[(n >> 6) & 63] ?? '') : '=',
      rest > 2 ? (BASE64[n & 63] ?? '') : '=',
    );
  }
  return out.join('');
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object';

/** The `content` parts of a tool-message part's output, if it has them. */
function contentParts(part: unknown): unknown[] | undefined {
  if (!isObj(part) || !isObj(part.output) || part.output.type !== 'content' || !Array.isArray(part.output.value)) return undefined;
  return part.output.value;
}

/**
 * An AI SDK 7 `file` part's data in its JSON form: a `URL` as its `href`,
 * bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`) as base64. The caller's part
 * is not changed.
 */
function fileDataAsJson(part: unknown): unknown {
  const parts = contentParts(part);
  if (!parts) return part;
  let changed = false;
  const value = parts.map((p) => {
    if (!isObj(p) || p.type !== 'file' || !isObj(p.data)) return p;
    const d = p.data;
    if (d.type === 'url' && d.url instanceof URL) {
      changed = true;
      return { ...p, data: { ...d, url: d.url.href } };
    }
    if (d.type === 'data' && (d.data instanceof Uint8Array || d.data instanceof ArrayBuffer)) {
      changed = true;
      return { ...p, data: { ...d, data: base64(d.data instanceof Uint8Array ? d.data : new Uint8Array(d.data)) } };
    }
    return p;
  });
  const p = part as Obj;
  return changed ? { ...p, output: { ...(p.output as Obj), value } } : part;
}

/** AI SDK 7 `file` parts with URL data hold a `URL`, as the SDK's schema requires. */
function withUrlObjects(part: Record<string, unknown>): Record<string, unknown> {
  contentParts(part)?.forEach((p, i) => {
    if (!isObj(p) || p.type !== 'file' || !isObj(p.data) || p.data.type !== 'url' || typeof p.data.url !== 'string') return;
    try {
      p.data.url = new URL(p.data.url);
    } catch {
      throw new ToolResultError('invalid_tool_result', 'cannot convert to vercel', [
        { path: `/content/${i}/uri`, code: 'invalid_type', message: `${quoteText(p.data.url, '`')} is not a URL the AI SDK can hold (new URL() refuses it)` },
      ]);
    }
  });
  return part;
}

/**
 * A Vercel AI SDK part of a tool message (`ToolResultPart`, the default) or
 * of a step's content (`{ as: 'step-content' }`). Content blocks become AI
 * SDK 7 parts (`{ sdk: 6 }`: AI SDK 6's); a `file` part with a URL holds a
 * `URL` object.
 */
export function toVercelToolPart(result: ToolResult | string, options: VercelPartOptions = {}): Record<string, unknown> {
  const variant = `${options.as ?? ''}${options.sdk === undefined ? '' : `@${options.sdk}`}`;
  const part = to<Record<string, unknown>>('vercel', result, variant);
  return options.as === 'step-content' ? part : withUrlObjects(part);
}

/**
 * A Vercel AI SDK part (either major) as a ToolResult. Without `as`, a part
 * with `input` (or a `tool-error`) is step content, else a tool-message part.
 * `file` data given as a `URL` or as bytes is read as its `href` or base64.
 */
export function fromVercelToolPart(part: unknown, context?: CallContext & { as?: VercelPartShape }): ToolResult {
  const { as, ...ctx } = context ?? {};
  return from('vercel', as === 'step-content' ? part : fileDataAsJson(part), ctx, as ?? '');
}

/** A Vercel AI SDK tool message (`{ role: 'tool', content }`, accepted by the SDK's `toolModelMessageSchema`) with one part per result. */
export function toVercelToolMessage(
  results: Array<ToolResult | string>,
  options: { sdk?: AiSdkMajor } = {},
): { role: 'tool'; content: Record<string, unknown>[] } {
  if (!Array.isArray(results)) throw new ToolResultError('invalid_input', 'toVercelToolMessage takes an array of results');
  return { role: 'tool', content: results.map((r) => toVercelToolPart(r, { sdk: options.sdk })) };
}

/** The `tool-result` parts of a Vercel AI SDK tool message as ToolResults (approval responses are skipped). */
export function fromVercelToolMessage(message: unknown, context?: CallContext): ToolResult[] {
  const m = message as { role?: unknown; content?: unknown } | null;
  if (m === null || typeof m !== 'object' || m.role !== 'tool' || !Array.isArray(m.content)) {
    throw new ToolResultError('invalid_input', "a tool message is { role: 'tool', content: [parts] }");
  }
  const parts = m.content as Array<{ type?: unknown }>;
  return parts.filter((p) => p?.type !== 'tool-approval-response').map((p) => fromVercelToolPart(p, { ...context, as: 'tool-message' }));
}
