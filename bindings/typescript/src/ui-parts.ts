// UI message tool parts (AI SDK 6 and 7's `UIMessage` tool parts) to and
// from ToolResults: the shape `<tool-result-view>` and `renderDom` take, and
// what `toolresult/ai` and `toolresult/react` export. Core code: no framework
// is imported, the shapes are written out structurally.
import { createFailure, createSuccess, validateToolResult } from './api.js';
import { ToolResultError, quoteText } from './errors.js';
import type { Issue, ToolResult } from './generated/types.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The metadata prefix under which an AI SDK part's own fields are carried. */
export const AI_SDK_META = 'ai-sdk/';
const META = AI_SDK_META;

const optionsError = (path: string, message: string) => new ToolResultError('invalid_options', message, [{ path, code: 'invalid_options', message }]);

export interface Call {
  toolName: string;
  toolCallId: string;
  input: unknown;
}

/** The call as a ToolInput, and the meta that keeps an input that is not an object. */
export function callSpec(call: Call): {
  input: { tool_name: string; tool_call_id: string; parameters: Record<string, unknown> };
  meta?: Record<string, unknown>;
} {
  const input = { tool_name: call.toolName, tool_call_id: call.toolCallId, parameters: isObject(call.input) ? call.input : {} };
  return call.input === undefined || isObject(call.input) ? { input } : { input, meta: { [`${META}input`]: call.input } };
}

export function looksLikeToolResult(value: unknown): value is Record<string, unknown> {
  return isObject(value) && 'schema_version' in value && isObject(value.metadata) && isObject(value.input) && typeof value.status === 'string';
}

/** The states of a UI message tool part (AI SDK 6 and 7). */
export type UIToolState =
  | 'input-streaming'
  | 'input-available'
  | 'approval-requested'
  | 'approval-responded'
  | 'output-available'
  | 'output-error'
  | 'output-denied';

/** Every state of an AI SDK 7 UIMessage tool part, in lifecycle order. */
export const UI_TOOL_STATES: readonly UIToolState[] = [
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
  'output-available',
  'output-error',
  'output-denied',
];

/** The `approval` of a UI tool part. */
export interface UIToolApproval {
  id: string;
  approved?: boolean;
  reason?: string;
  requestReason?: string;
  isAutomatic?: boolean;
  descriptor?: unknown;
  signature?: string;
  inputSchemaInput?: unknown;
}

/** A UI message tool part (`tool-<name>` or `dynamic-tool`), as `UIMessage.parts` holds it. */
export interface UIToolPart {
  type: string;
  toolCallId: string;
  state: UIToolState;
  toolName?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  preliminary?: boolean;
  approval?: UIToolApproval;
  title?: string;
  toolMetadata?: Record<string, unknown>;
  providerExecuted?: boolean;
  callProviderMetadata?: Record<string, unknown>;
  resultProviderMetadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The options of `toUIToolPart`. */
export interface ToUIToolPartOptions {
  /** The state to write. Default: from the result (see `toUIToolPart`). */
  state?: UIToolState;
  /** `result` (default): an available output is the ToolResult, as wrapped tools stream it; `output`: the tool's own output. */
  output?: 'result' | 'output';
  /** A `dynamic-tool` part (default: as the result was read, else a `tool-<name>` part). */
  dynamic?: boolean;
  /** Mark an available output as a streamed partial one. */
  preliminary?: boolean;
  /** The approval (required for `approval-responded` unless the result carries one). */
  approval?: UIToolApproval;
}

/** Part fields a ToolResult has no field for; kept in `meta` under `ai-sdk/<field>`. */
const PART_CARRIED = ['title', 'toolMetadata', 'providerExecuted', 'callProviderMetadata', 'resultProviderMetadata'] as const;
/** The meta keys `toUIToolPart` turns into part fields. */
const CARRIED_KEYS = new Set([...PART_CARRIED, 'dynamic', 'approval', 'preliminary', 'input'].map((f) => `ai-sdk/${f}`));
/** Which states a carried field may appear in (the SDK's UI message schema). */
const RESULT_METADATA_STATES: readonly UIToolState[] = ['output-available', 'output-error'];

/** The message of a denied call (`execution-denied` without a reason). */
export const DENIED_MESSAGE = 'the tool call was denied (execution-denied)';
const AWAITING = 'the tool call awaits approval';

const partError = (path: string, message: string, code: Issue['code'] = 'invalid_type') =>
  new ToolResultError('invalid_input', `not a UI message tool part: ${message}`, [{ path, code, message }]);

function approvalFields(a: Record<string, unknown>, keep: readonly string[]): UIToolApproval {
  const out: Record<string, unknown> = {};
  for (const k of keep) if (a[k] !== undefined) out[k] = a[k];
  return out as unknown as UIToolApproval;
}
const REQUEST_FIELDS = ['id', 'descriptor', 'requestReason', 'isAutomatic', 'signature', 'inputSchemaInput'] as const;
const RESPONSE_FIELDS = [...REQUEST_FIELDS, 'approved', 'reason'] as const;

/**
 * A ToolResult as a UI message tool part that the SDK's `validateUIMessages`
 * accepts (ai 6 and 7). The state, unless `options.state` names one: a
 * success is `output-available`; `requires_confirmation` is
 * `approval-requested`; a denied call (`permission_denied`,
 * `EXECUTION_DENIED`) is `output-denied`; any other failure is `output-error`
 * with its message as `errorText`. An available output is the ToolResult
 * itself (what a `withToolResults` tool streams), or with `output: 'output'`
 * the tool's own output. The call (`toolCallId`, `input`) comes from the
 * result's `input`; the part's other fields from what `fromUIToolPart` kept
 * in `meta`. The `input-*` and `approval-*` states are written from the
 * result's call.
 */
export function toUIToolPart(result: ToolResult, options: ToUIToolPartOptions = {}): UIToolPart {
  if (options === null || typeof options !== 'object') throw optionsError('', 'toUIToolPart(result, options): options must be an object');
  const checked = validateToolResult(result);
  if (!checked.ok) throw new ToolResultError('invalid_tool_result', 'toUIToolPart takes a ToolResult', checked.issues);
  const r = checked.value;
  const meta = r.meta ?? {};
  const state = options.state ?? defaultState(r);
  if (!UI_TOOL_STATES.includes(state)) throw optionsError('/state', `state must be one of ${UI_TOOL_STATES.join(', ')}, got ${quoteText(state)}`);
  if (options.output !== undefined && options.output !== 'result' && options.output !== 'output')
    throw optionsError('/output', "output must be 'result' or 'output'");
  const name = r.input.tool_name;
  const dynamic = options.dynamic ?? meta[`${META}dynamic`] === true;
  const part: UIToolPart = dynamic
    ? { type: 'dynamic-tool', toolName: name, toolCallId: callId(r), state }
    : { type: `tool-${name}`, toolCallId: callId(r), state };
  for (const field of PART_CARRIED) {
    const value = meta[`${META}${field}`];
    if (value === undefined) continue;
    if (field === 'resultProviderMetadata' && !RESULT_METADATA_STATES.includes(state)) continue;
    (part as Record<string, unknown>)[field] = value;
  }
  const input = `${META}input` in meta ? meta[`${META}input`] : r.input.parameters;
  const kept = isObject(meta[`${META}approval`]) ? (meta[`${META}approval`] as Record<string, unknown>) : undefined;
  const given = options.approval as Record<string, unknown> | undefined;
  if (given !== undefined && (!isObject(given) || typeof given.id !== 'string'))
    throw optionsError('/approval', 'approval must be { id, approved?, reason?, … }');
  const approval = given ?? kept;
  const id = callId(r);
  switch (state) {
    case 'input-streaming':
      if (input !== undefined) part.input = input;
      break;
    case 'input-available':
      part.input = input;
      break;
    case 'approval-requested': {
      part.input = input;
      const a = approvalFields(approval ?? { id: `approval-${id}` }, REQUEST_FIELDS);
      if (a.requestReason === undefined && r.status === 'requires_confirmation' && r.error_message && r.error_message !== AWAITING)
        a.requestReason = r.error_message;
      part.approval = a;
      break;
    }
    case 'approval-responded': {
      part.input = input;
      const approved = typeof approval?.approved === 'boolean' ? approval.approved : undefined;
      if (approved === undefined) throw optionsError('/approval/approved', 'state approval-responded needs approval { id, approved }');
      part.approval = approvalFields(approval ?? {}, RESPONSE_FIELDS);
      break;
    }
    case 'output-available': {
      part.input = input;
      part.output = options.output === 'output' ? (r.output ?? null) : withoutCarried(r);
      if (options.preliminary ?? meta[`${META}preliminary`] === true) part.preliminary = true;
      if (approval?.approved === true) part.approval = approvalFields(approval, RESPONSE_FIELDS);
      break;
    }
    case 'output-error':
      if (input !== undefined) part.input = input;
      part.errorText = r.error_message || `the tool call ended with status ${r.status}`;
      if (approval?.approved === true) part.approval = approvalFields(approval, RESPONSE_FIELDS);
      break;
    case 'output-denied': {
      part.input = input;
      const a = approvalFields(approval ?? { id: `approval-${id}` }, RESPONSE_FIELDS);
      a.approved = false;
      if (a.reason === undefined && r.error_message && r.error_message !== DENIED_MESSAGE && r.status !== 'success') a.reason = r.error_message;
      part.approval = a;
      break;
    }
  }
  return part;
}

function callId(r: ToolResult): string {
  return r.input.tool_call_id || r.metadata.execution_id;
}

function defaultState(r: ToolResult): UIToolState {
  if (r.status === 'success') return 'output-available';
  if (r.status === 'requires_confirmation') return 'approval-requested';
  if (r.status === 'permission_denied' && r.error_code === 'EXECUTION_DENIED') return 'output-denied';
  return 'output-error';
}

/** The result without the meta keys that became part fields (so a part read back gives the same part). */
function withoutCarried(r: ToolResult): ToolResult {
  if (!r.meta) return r;
  const meta = Object.fromEntries(Object.entries(r.meta).filter(([k]) => !CARRIED_KEYS.has(k)));
  const { meta: _, ...rest } = r;
  return Object.keys(meta).length > 0 ? { ...rest, meta } : rest;
}

/**
 * A UI message tool part (`tool-<name>` or `dynamic-tool`, any state) as a
 * ToolResult, or `undefined` while the call has no result yet
 * (`input-streaming`, `input-available`, `approval-responded`).
 * `output-available`: the ToolResult it holds (what a `withToolResults` tool
 * streams), else a success with the part's output; `output-error`: a
 * `failed` result (`TOOL_ERROR`) with `errorText` as its message;
 * `output-denied`: `permission_denied` (`EXECUTION_DENIED`, the approval's
 * reason); `approval-requested`: `requires_confirmation`
 * (`APPROVAL_REQUESTED`). The part's fields a ToolResult has no place for
 * (title, provider metadata, approval, `preliminary`, a dynamic tool) are
 * kept in `meta` under `ai-sdk/…`, so `toUIToolPart` gives the part back.
 * A malformed part is a `ToolResultError` (`invalid_input`) naming the field.
 */
export function fromUIToolPart(part: unknown): ToolResult | undefined {
  if (!isObject(part)) throw partError('', 'a tool part is an object', 'invalid_type');
  const type = part.type;
  if (typeof type !== 'string' || !(type === 'dynamic-tool' || (type.startsWith('tool-') && type.length > 5))) {
    throw partError('/type', 'type must be "tool-<name>" or "dynamic-tool"', 'invalid_enum');
  }
  const toolName = type === 'dynamic-tool' ? part.toolName : type.slice(5);
  if (typeof toolName !== 'string' || toolName === '') throw partError('/toolName', 'a dynamic-tool part names its tool in toolName');
  if (typeof part.toolCallId !== 'string' || part.toolCallId === '') throw partError('/toolCallId', 'toolCallId must be a non-empty string');
  const state = part.state as UIToolState;
  if (!UI_TOOL_STATES.includes(state)) throw partError('/state', `state must be one of ${UI_TOOL_STATES.join(', ')}`, 'invalid_enum');
  if (state === 'input-streaming' || state === 'input-available' || state === 'approval-responded') return undefined;

  const meta: Record<string, unknown> = {};
  for (const field of PART_CARRIED) if (part[field] !== undefined) meta[`${META}${field}`] = part[field];
  if (type === 'dynamic-tool') meta[`${META}dynamic`] = true;
  const approval = part.approval;
  if (approval !== undefined) {
    if (!isObject(approval) || typeof approval.id !== 'string') throw partError('/approval/id', 'approval must be an object with a string id');
    meta[`${META}approval`] = approval;
  } else if (state === 'approval-requested' || state === 'output-denied') {
    throw partError('/approval', `a part in state ${state} has an approval`, 'missing_field');
  }
  if (part.preliminary === true) {
    if (state !== 'output-available') throw partError('/preliminary', 'only an available output is preliminary');
    meta[`${META}preliminary`] = true;
  }
  const call = callSpec({ toolName, toolCallId: part.toolCallId, input: part.input });
  Object.assign(meta, call.meta);
  const withMeta = Object.keys(meta).length > 0 ? { meta } : {};
  const wrap = <R>(f: () => R): R => {
    try {
      return f();
    } catch (e) {
      if (e instanceof ToolResultError) throw new ToolResultError('invalid_input', `cannot read this tool part: ${e.message.split('\n')[0]}`, rebase(e.issues));
      throw e;
    }
  };
  switch (state) {
    case 'output-available': {
      if (looksLikeToolResult(part.output)) {
        const checked = validateToolResult(part.output);
        if (!checked.ok)
          throw new ToolResultError('invalid_input', 'the output looks like a ToolResult and is not a valid one', prefix(checked.issues, '/output'));
        const r = checked.value;
        return Object.keys(meta).length > 0 ? { ...r, meta: { ...(r.meta ?? {}), ...meta } } : r;
      }
      return wrap(() => createSuccess({ input: call.input, ...(part.output === undefined ? {} : { output: part.output }), ...withMeta }));
    }
    case 'output-error': {
      if (typeof part.errorText !== 'string') throw partError('/errorText', 'an output-error part has errorText (a string)', 'missing_field');
      const message = part.errorText || 'the tool failed';
      return wrap(() => createFailure({ input: call.input, status: 'failed', error_code: 'TOOL_ERROR', error_message: message, ...withMeta }));
    }
    case 'output-denied': {
      const reason = (approval as Record<string, unknown>).reason;
      const message = typeof reason === 'string' && reason !== '' ? reason : DENIED_MESSAGE;
      return wrap(() => createFailure({ input: call.input, status: 'permission_denied', error_code: 'EXECUTION_DENIED', error_message: message, ...withMeta }));
    }
    default: {
      // approval-requested
      const requestReason = (approval as Record<string, unknown>).requestReason;
      const message = typeof requestReason === 'string' && requestReason !== '' ? requestReason : AWAITING;
      return wrap(() =>
        createFailure({ input: call.input, status: 'requires_confirmation', error_code: 'APPROVAL_REQUESTED', error_message: message, ...withMeta }),
      );
    }
  }
}

const prefix = (issues: Issue[], at: string): Issue[] => issues.map((i) => ({ ...i, path: `${at}${i.path}` }));

/** Issues of a built spec, as paths into the part (`/output/…`, `/input/…`). */
function rebase(issues: Issue[]): Issue[] {
  return issues.map((i) => ({ ...i, path: i.path.replace(/^\/input\/parameters/, '/input').replace(/^\/meta\/ai-sdk~1(\w+)/, '/$1') }));
}
