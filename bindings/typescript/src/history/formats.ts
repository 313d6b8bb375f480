// The message shapes prepareHistory reads and writes (README "prepareHistory
// for any framework's messages"): one walker per framework finds the tool
// results in a message, gives each as what the Rust core bounds (an output
// or MCP-like content blocks) and puts a new payload or a reference back in
// the framework's own shape, leaving every other field as it was.
//
// Shapes, as documented by each framework (INTERFACES.md, their types):
// - toolresult: bare ToolResults or references, or `{ ..., content: ToolResult }`;
// - ai-sdk: ModelMessage[]; `tool-result` parts of `role: 'tool'` (and
//   provider-executed ones in `role: 'assistant'`) messages, output `text`,
//   `json`, `error-text`, `error-json` or `content` (AI SDK 6 and 7);
// - langchain: ToolMessage instances, their plain-object form `{ type: 'tool',
//   content, tool_call_id }`, the stored form `{ type: 'tool', data }` and the
//   serialized form `{ lc: 1, type: 'constructor', id: [..., 'ToolMessage'],
//   kwargs }` (read structurally, so nothing here imports LangChain; tested
//   with @langchain/core's own classes, toJSON/load and stored messages);
// - openai-responses: `function_call_output` / `custom_tool_call_output` input items;
// - openai-chat: `{ role: 'tool', tool_call_id, content }` messages;
// - anthropic: `tool_result` blocks in `role: 'user'` messages.
import { ToolResultError } from '../errors.js';
import type { ToolResult, ToolResultReference } from '../generated/types.js';

/** The message shapes prepareHistory reads. */
export type HistoryFormat = 'toolresult' | 'ai-sdk' | 'langchain' | 'openai-responses' | 'openai-chat' | 'anthropic';

export const HISTORY_FORMATS: readonly HistoryFormat[] = ['toolresult', 'ai-sdk', 'langchain', 'openai-responses', 'openai-chat', 'anthropic'];

/** A content block as the Rust core reads it (MCP-like: text, media with base64 `data`, or other). */
export type Block = { type: string; [k: string]: unknown };

/** What a model is shown of one tool result, in the core's terms. */
export interface Payload {
  output?: unknown;
  content?: Block[];
}

/** One tool result inside a message. */
export interface Site {
  id: string;
  toolName?: string;
  isError: boolean;
  /** The part as it is (the message itself when the message is the result). */
  part: unknown;
  /** What the model is shown now. */
  payload: Payload;
  /** A reference message already in place (toolresult's own shape; references inside a result's output are checked by prepareHistory). */
  reference?: ToolResultReference;
  /** The whole ToolResult, when the format holds one. */
  full?: ToolResult;
  /** The part with a new payload; `asText`: a JSON output became text (spotlight). */
  withPayload(payload: Payload, asText: boolean): unknown;
  /** The part holding a reference: the object, or `text` (its spotlighted JSON) when given. */
  withReference(ref: ToolResultReference, text?: string): unknown;
}

/** The tool results of one message, and how to rebuild it from new parts. */
export interface MessageSites {
  sites: Site[];
  rebuild(parts: readonly unknown[]): unknown;
}

/** One framework's message shape. */
export interface Walker {
  format: HistoryFormat;
  /** A message the model wrote (a new turn starts at the first one after a tool result). */
  isAssistant(message: unknown): boolean;
  /** The tool calls a model message announces: [tool_call_id, tool name, arguments]. */
  calls(message: unknown): Call[];
  /** The tool results in a message. */
  read(message: unknown): MessageSites | undefined;
}

type Obj = Record<string, unknown>;

/** A tool call a model message announces: its id, tool name and arguments (an object, or JSON text of one). */
export type Call = [id: string, name: string, args: unknown];
const isObj = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

export function isToolResultValue(x: unknown): x is ToolResult {
  const r = x as ToolResult;
  return isObj(r) && typeof r.input?.tool_name === 'string' && typeof r.metadata?.execution_id === 'string' && 'schema_version' in r;
}

export function isReferenceValue(x: unknown): x is ToolResultReference {
  const r = x as ToolResultReference;
  return isObj(r) && isObj(r.result_ref) && typeof r.result_ref.tool_call_id === 'string' && r.result_ref.storage_type === 'tool_results';
}

/** A reference given as its JSON text. */
export function referenceInText(text: unknown): ToolResultReference | undefined {
  if (typeof text !== 'string' || !text.startsWith('{') || !text.includes('"result_ref"')) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return isReferenceValue(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

// ------------------------------------------------------------ content parts

/** How one framework's content parts map to core blocks and back. */
interface PartCodec {
  /** The text of a text-like part. */
  text(part: Obj): string | undefined;
  /** The same part with new text. */
  setText(part: Obj, text: string): Obj;
  /** A new text part (a media placeholder or a marker). */
  makeText(text: string): Obj;
  /** Base64 media of a part. */
  media(part: Obj): { type: string; data: string; mimeType?: string } | undefined;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*);base64,([\s\S]*)$/;

function dataUrl(url: unknown): { data: string; mimeType?: string } | undefined {
  const m = typeof url === 'string' ? DATA_URL.exec(url) : null;
  return m ? { data: m[3], mimeType: m[1] || undefined } : undefined;
}

/** A part the core keeps as it is, as JSON (binary data left out: it is not shown as text). */
function opaque(part: Obj): Block {
  const type = str(part.type) ?? 'unknown';
  const safe: Obj = {};
  for (const [k, v] of Object.entries(part)) {
    if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) continue;
    if (isObj(v) && Object.values(v).some((w) => w instanceof ArrayBuffer || ArrayBuffer.isView(w))) continue;
    safe[k] = v;
  }
  try {
    return { ...(JSON.parse(JSON.stringify(safe)) as Obj), type };
  } catch {
    return { type };
  }
}

function toBlocks(parts: readonly unknown[], codec: PartCodec): Block[] {
  return parts.map((p) => {
    if (!isObj(p)) return { type: 'unknown' };
    const text = codec.text(p);
    if (text !== undefined) return { type: 'text', text };
    const media = codec.media(p);
    if (media) return media.mimeType === undefined ? { type: media.type, data: media.data } : { type: media.type, data: media.data, mimeType: media.mimeType };
    return opaque(p);
  });
}

function fromBlocks(parts: readonly unknown[], before: readonly Block[], after: readonly Block[], codec: PartCodec): unknown[] {
  return after.map((block, i) => {
    const part = parts[i];
    if (i >= parts.length || !isObj(part)) return block.type === 'text' ? codec.makeText(String(block.text ?? '')) : block;
    if (JSON.stringify(block) === JSON.stringify(before[i])) return part;
    if (block.type === 'text') {
      const text = String(block.text ?? '');
      return codec.text(part) !== undefined ? codec.setText(part, text) : codec.makeText(text);
    }
    return part;
  });
}

/** Reads a string-or-parts content and writes it back in kind. */
function textOrParts(content: unknown, codec: PartCodec): { payload: Payload; write: (p: Payload) => unknown } | undefined {
  if (typeof content === 'string' || content === undefined || content === null) {
    return { payload: { output: typeof content === 'string' ? content : '' }, write: (p) => outputText(p) };
  }
  if (!Array.isArray(content)) return undefined;
  const blocks = toBlocks(content, codec);
  return {
    payload: { content: blocks },
    write: (p) => (p.content ? fromBlocks(content, blocks, p.content, codec) : outputText(p)),
  };
}

/** An output for formats whose results are text: a string as itself, else its JSON. */
function outputText(p: Payload): string {
  if (p.content) return p.content.map((b) => (b.type === 'text' ? String(b.text ?? '') : '')).join('\n');
  if (typeof p.output === 'string') return p.output;
  return p.output === undefined || p.output === null ? '' : JSON.stringify(p.output);
}

const textCodec = (textType: string): PartCodec => ({
  text: (p) => (p.type === textType && typeof p.text === 'string' ? p.text : undefined),
  setText: (p, text) => ({ ...p, text }),
  makeText: (text) => ({ type: textType, text }),
  media: () => undefined,
});

// ------------------------------------------------------------ toolresult

const toolresultWalker: Walker = {
  format: 'toolresult',
  isAssistant: (m) => isObj(m) && m.role === 'assistant',
  calls: () => [],
  read(m) {
    const site = (item: unknown): Site | undefined => {
      if (isReferenceValue(item)) {
        return {
          id: item.result_ref.tool_call_id,
          toolName: item.tool_name,
          isError: item.status !== 'success',
          part: item,
          payload: { output: JSON.stringify(item) },
          reference: item,
          withPayload: () => item,
          withReference: (ref) => ref,
        };
      }
      if (!isToolResultValue(item)) return undefined;
      const payload: Payload = {};
      if (item.output !== undefined && item.output !== null) payload.output = item.output;
      if (Array.isArray(item.content) && item.content.length > 0) payload.content = item.content as Block[];
      return {
        id: item.input.tool_call_id ?? item.metadata.execution_id,
        toolName: item.input.tool_name,
        isError: item.status !== 'success',
        part: item,
        payload,
        full: item,
        withPayload: (p) => {
          const next: ToolResult = { ...item };
          if ('output' in p) next.output = p.output;
          if (p.content) next.content = p.content;
          return next;
        },
        withReference: (ref) => ref,
      };
    };
    const direct = site(m);
    if (direct) return { sites: [direct], rebuild: (parts) => parts[0] };
    if (!isObj(m)) return undefined;
    const inner = site(m.content);
    if (inner) return { sites: [inner], rebuild: (parts) => ({ ...m, content: parts[0] }) };
    return undefined;
  },
};

// ------------------------------------------------------------ AI SDK

const aiCodec: PartCodec = {
  text: (p) => {
    if (p.type === 'text' && typeof p.text === 'string') return p.text;
    if (p.type === 'file' && isObj(p.data) && p.data.type === 'text' && typeof p.data.text === 'string') return p.data.text;
    return undefined;
  },
  setText: (p, text) => (p.type === 'file' && isObj(p.data) ? { ...p, data: { ...p.data, text } } : { ...p, text }),
  makeText: (text) => ({ type: 'text', text }),
  media: (p) => {
    const mime = str(p.mediaType);
    const kind = mime?.startsWith('image') ? 'image' : mime?.startsWith('audio') ? 'audio' : 'file';
    if (p.type === 'file' && isObj(p.data) && p.data.type === 'data' && typeof p.data.data === 'string')
      return { type: kind, data: p.data.data, mimeType: mime };
    if ((p.type === 'file-data' || p.type === 'image-data' || p.type === 'media') && typeof p.data === 'string')
      return { type: kind, data: p.data, mimeType: mime };
    return undefined;
  },
};

function aiSite(part: Obj): Site | undefined {
  const out = part.output;
  if (part.type !== 'tool-result' || typeof part.toolCallId !== 'string' || !isObj(out)) return undefined;
  const type = out.type;
  const extra: Obj = isObj(out.providerOptions) ? { providerOptions: out.providerOptions } : {};
  const withOutput = (output: Obj) => ({ ...part, output: { ...output, ...extra } });
  const base = { id: part.toolCallId, toolName: str(part.toolName), isError: type === 'error-text' || type === 'error-json', part };
  const withReference = (ref: ToolResultReference, text?: string) =>
    withOutput(text === undefined ? { type: 'json', value: ref } : { type: 'text', value: text });
  if (type === 'text' || type === 'error-text') {
    return {
      ...base,
      payload: { output: String(out.value ?? '') },
      withPayload: (p) => withOutput({ type, value: outputText(p) }),
      withReference,
    };
  }
  if (type === 'json' || type === 'error-json') {
    return {
      ...base,
      payload: { output: out.value ?? null },
      withPayload: (p, asText) =>
        asText ? withOutput({ type: type === 'json' ? 'text' : 'error-text', value: outputText(p) }) : withOutput({ type, value: p.output ?? null }),
      withReference,
    };
  }
  if (type === 'content' && Array.isArray(out.value)) {
    const parts = out.value as unknown[];
    const blocks = toBlocks(parts, aiCodec);
    return {
      ...base,
      payload: { content: blocks },
      withPayload: (p) => withOutput(p.content ? { type, value: fromBlocks(parts, blocks, p.content, aiCodec) } : { type: 'text', value: outputText(p) }),
      withReference,
    };
  }
  return undefined; // execution-denied and unknown kinds: not a result to bound
}

const aiWalker: Walker = {
  format: 'ai-sdk',
  isAssistant: (m) => isObj(m) && m.role === 'assistant',
  calls: (m) =>
    isObj(m) && Array.isArray(m.content)
      ? (m.content as unknown[])
          .filter((p): p is Obj => isObj(p) && p.type === 'tool-call' && typeof p.toolCallId === 'string' && typeof p.toolName === 'string')
          .map((p): Call => [p.toolCallId as string, p.toolName as string, p.input])
      : [],
  read(m) {
    if (!isObj(m) || (m.role !== 'tool' && m.role !== 'assistant') || !Array.isArray(m.content)) return undefined;
    return partsIn(m, m.content as unknown[], aiSite);
  },
};

/** The result sites among a message's content parts; the rebuild puts the new parts in their places. */
function partsIn(m: Obj, content: readonly unknown[], siteOf: (part: Obj) => Site | undefined): MessageSites | undefined {
  const at: number[] = [];
  const sites: Site[] = [];
  content.forEach((p, i) => {
    const s = isObj(p) ? siteOf(p) : undefined;
    if (s) {
      at.push(i);
      sites.push(s);
    }
  });
  if (sites.length === 0) return undefined;
  return {
    sites,
    rebuild: (parts) => {
      const next = [...content];
      at.forEach((i, k) => {
        next[i] = parts[k];
      });
      return { ...m, content: next };
    },
  };
}

// ------------------------------------------------------------ Anthropic

const anthropicCodec: PartCodec = {
  text: (p) => {
    if (p.type === 'text' && typeof p.text === 'string') return p.text;
    if (p.type === 'document' && isObj(p.source) && p.source.type === 'text' && typeof p.source.data === 'string') return p.source.data;
    return undefined;
  },
  setText: (p, text) => (p.type === 'document' && isObj(p.source) ? { ...p, source: { ...p.source, data: text } } : { ...p, text }),
  makeText: (text) => ({ type: 'text', text }),
  media: (p) =>
    (p.type === 'image' || p.type === 'document') && isObj(p.source) && p.source.type === 'base64' && typeof p.source.data === 'string'
      ? { type: p.type, data: p.source.data, mimeType: str(p.source.media_type) }
      : undefined,
};

function anthropicSite(part: Obj): Site | undefined {
  if (part.type !== 'tool_result' || typeof part.tool_use_id !== 'string') return undefined;
  const read = textOrParts(part.content, anthropicCodec);
  if (!read) return undefined;
  return {
    id: part.tool_use_id,
    isError: part.is_error === true,
    part,
    payload: read.payload,
    withPayload: (p) => ({ ...part, content: read.write(p) }),
    withReference: (ref, text) => ({ ...part, content: text ?? JSON.stringify(ref) }),
  };
}

const anthropicWalker: Walker = {
  format: 'anthropic',
  isAssistant: (m) => isObj(m) && m.role === 'assistant',
  calls: (m) =>
    isObj(m) && Array.isArray(m.content)
      ? (m.content as unknown[])
          .filter(
            (p): p is Obj => isObj(p) && (p.type === 'tool_use' || p.type === 'server_tool_use') && typeof p.id === 'string' && typeof p.name === 'string',
          )
          .map((p): Call => [p.id as string, p.name as string, p.input])
      : [],
  read(m) {
    if (!isObj(m) || m.role !== 'user' || !Array.isArray(m.content)) return undefined;
    return partsIn(m, m.content as unknown[], anthropicSite);
  },
};

// ------------------------------------------------------------ OpenAI Chat Completions

const chatCodec = textCodec('text');

const chatWalker: Walker = {
  format: 'openai-chat',
  isAssistant: (m) => isObj(m) && m.role === 'assistant',
  calls: (m) =>
    isObj(m) && Array.isArray(m.tool_calls)
      ? (m.tool_calls as unknown[])
          .filter((c): c is Obj => isObj(c) && typeof c.id === 'string' && isObj(c.function) && typeof c.function.name === 'string')
          .map((c): Call => [c.id as string, (c.function as Obj).name as string, (c.function as Obj).arguments])
      : [],
  read(m) {
    if (!isObj(m) || m.role !== 'tool' || typeof m.tool_call_id !== 'string') return undefined;
    const read = textOrParts(m.content, chatCodec);
    if (!read) return undefined;
    const site: Site = {
      id: m.tool_call_id,
      toolName: str(m.name),
      isError: false,
      part: m,
      payload: read.payload,
      withPayload: (p) => ({ ...m, content: read.write(p) }),
      withReference: (ref, text) => ({ ...m, content: text ?? JSON.stringify(ref) }),
    };
    return { sites: [site], rebuild: (parts) => parts[0] };
  },
};

// ------------------------------------------------------------ OpenAI Responses

const responsesCodec: PartCodec = {
  text: (p) => (p.type === 'input_text' && typeof p.text === 'string' ? p.text : undefined),
  setText: (p, text) => ({ ...p, text }),
  makeText: (text) => ({ type: 'input_text', text }),
  media: (p) => {
    if (p.type === 'input_image') {
      const d = dataUrl(p.image_url);
      return d ? { type: 'image', data: d.data, mimeType: d.mimeType } : undefined;
    }
    if (p.type === 'input_file' && typeof p.file_data === 'string') {
      const d = dataUrl(p.file_data);
      return d ? { type: 'file', data: d.data, mimeType: d.mimeType } : { type: 'file', data: p.file_data };
    }
    return undefined;
  },
};

const RESPONSES_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);
const RESPONSES_CALLS = new Set(['function_call', 'custom_tool_call']);

const responsesWalker: Walker = {
  format: 'openai-responses',
  isAssistant: (m) =>
    isObj(m) &&
    (m.role === 'assistant' ||
      m.type === 'reasoning' ||
      (typeof m.type === 'string' && m.type.endsWith('_call') && !RESPONSES_OUTPUTS.has(m.type)) ||
      RESPONSES_CALLS.has(String(m.type))),
  calls: (m) =>
    isObj(m) && RESPONSES_CALLS.has(String(m.type)) && typeof m.call_id === 'string' && typeof m.name === 'string'
      ? [[m.call_id, m.name, m.arguments ?? m.input]]
      : [],
  read(m) {
    if (!isObj(m) || !RESPONSES_OUTPUTS.has(String(m.type)) || typeof m.call_id !== 'string') return undefined;
    const read = textOrParts(m.output, responsesCodec);
    if (!read) return undefined;
    const site: Site = {
      id: m.call_id,
      isError: false,
      part: m,
      payload: read.payload,
      withPayload: (p) => ({ ...m, output: read.write(p) }),
      withReference: (ref, text) => ({ ...m, output: text ?? JSON.stringify(ref) }),
    };
    return { sites: [site], rebuild: (parts) => parts[0] };
  },
};

// ------------------------------------------------------------ LangChain

const langchainCodec: PartCodec = {
  text: (p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : undefined),
  setText: (p, text) => ({ ...p, text }),
  makeText: (text) => ({ type: 'text', text }),
  media: (p) => {
    const mime = str(p.mimeType) ?? str(p.mime_type);
    if (typeof p.data === 'string' && p.type !== 'text') return { type: str(p.type) ?? 'file', data: p.data, mimeType: mime };
    if (p.type === 'image_url') {
      const d = dataUrl(isObj(p.image_url) ? p.image_url.url : p.image_url);
      return d ? { type: 'image', data: d.data, mimeType: d.mimeType } : undefined;
    }
    return undefined;
  },
};

/** The `type` of LangChain's message kinds (`BaseMessage.type`, `StoredMessage.type`). */
const LC_KINDS = new Set(['human', 'ai', 'system', 'developer', 'tool', 'function', 'generic', 'chat', 'remove']);

type LcShape = 'serialized' | 'stored' | 'instance' | 'plain';

/** A LangChain message's kind ('tool', 'ai', …), its fields, and which of its shapes it is. */
function lcMessage(m: unknown): { kind: string; fields: Obj; shape: LcShape } | undefined {
  if (!isObj(m)) return undefined;
  if (m.lc === 1 && m.type === 'constructor' && Array.isArray(m.id) && isObj(m.kwargs)) {
    const name = String(m.id[m.id.length - 1] ?? '');
    const kind = name.startsWith('ToolMessage')
      ? 'tool'
      : name.startsWith('AIMessage')
        ? 'ai'
        : name.startsWith('HumanMessage')
          ? 'human'
          : name.startsWith('SystemMessage')
            ? 'system'
            : name;
    return { kind, fields: m.kwargs, shape: 'serialized' };
  }
  const getType = (m as { _getType?: unknown; getType?: unknown })._getType ?? (m as { getType?: unknown }).getType;
  const proto = Object.getPrototypeOf(m);
  if (proto !== Object.prototype && proto !== null) {
    const kind = typeof m.type === 'string' ? m.type : typeof getType === 'function' ? String((getType as () => unknown).call(m)) : undefined;
    return kind === undefined ? undefined : { kind, fields: m, shape: 'instance' };
  }
  if (typeof m.type !== 'string' || !LC_KINDS.has(m.type) || 'role' in m) return undefined;
  if (isObj(m.data)) return { kind: m.type, fields: m.data, shape: 'stored' };
  if ('content' in m || 'tool_call_id' in m) return { kind: m.type, fields: m, shape: 'plain' };
  return undefined;
}

const LC_FIELDS = ['content', 'tool_call_id', 'name', 'id', 'status', 'artifact', 'metadata', 'additional_kwargs', 'response_metadata'];

function lcWithContent(m: Obj, shape: LcShape, content: unknown): unknown {
  if (shape === 'serialized') return { ...m, kwargs: { ...(m.kwargs as Obj), content } };
  if (shape === 'stored') return { ...m, data: { ...(m.data as Obj), content } };
  if (shape === 'instance') {
    // A new message of the same class, from the documented constructor fields.
    const fields: Obj = {};
    for (const k of LC_FIELDS) if (m[k] !== undefined) fields[k] = m[k];
    fields.content = content;
    try {
      return new (m.constructor as new (f: Obj) => unknown)(fields);
    } catch {
      const copy = Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Obj, m, { content });
      if (isObj(m.lc_kwargs)) copy.lc_kwargs = { ...m.lc_kwargs, content };
      return copy;
    }
  }
  return { ...m, content };
}

const langchainWalker: Walker = {
  format: 'langchain',
  isAssistant: (m) => lcMessage(m)?.kind === 'ai',
  calls(m) {
    const lc = lcMessage(m);
    if (lc?.kind !== 'ai') return [];
    const out: Call[] = [];
    for (const c of Array.isArray(lc.fields.tool_calls) ? (lc.fields.tool_calls as unknown[]) : []) {
      if (isObj(c) && typeof c.id === 'string' && typeof c.name === 'string') out.push([c.id, c.name, c.args]);
    }
    const kw = lc.fields.additional_kwargs;
    for (const c of isObj(kw) && Array.isArray(kw.tool_calls) ? (kw.tool_calls as unknown[]) : []) {
      if (isObj(c) && typeof c.id === 'string' && isObj(c.function) && typeof c.function.name === 'string')
        out.push([c.id, c.function.name, c.function.arguments]);
    }
    return out;
  },
  read(m) {
    const lc = lcMessage(m);
    if (lc?.kind !== 'tool' || typeof lc.fields.tool_call_id !== 'string') return undefined;
    const read = textOrParts(lc.fields.content, langchainCodec);
    if (!read) return undefined;
    const msg = m as Obj;
    const site: Site = {
      id: lc.fields.tool_call_id,
      toolName: str(lc.fields.name),
      isError: lc.fields.status === 'error',
      part: m,
      payload: read.payload,
      withPayload: (p) => lcWithContent(msg, lc.shape, read.write(p)),
      withReference: (ref, text) => lcWithContent(msg, lc.shape, text ?? JSON.stringify(ref)),
    };
    return { sites: [site], rebuild: (parts) => parts[0] };
  },
};

// ------------------------------------------------------------ detection

export const WALKERS: Readonly<Record<HistoryFormat, Walker>> = {
  toolresult: toolresultWalker,
  'ai-sdk': aiWalker,
  langchain: langchainWalker,
  'openai-responses': responsesWalker,
  'openai-chat': chatWalker,
  anthropic: anthropicWalker,
};

function formatOf(m: unknown): HistoryFormat | undefined {
  if (!isObj(m)) return undefined;
  if (isToolResultValue(m) || isReferenceValue(m) || isToolResultValue(m.content) || isReferenceValue(m.content)) return 'toolresult';
  if (lcMessage(m)) return 'langchain';
  if (typeof m.type === 'string' && (RESPONSES_OUTPUTS.has(m.type) || RESPONSES_CALLS.has(m.type))) return 'openai-responses';
  const parts = Array.isArray(m.content) ? (m.content as unknown[]).filter(isObj) : [];
  if (parts.some((p) => p.type === 'tool-result' || p.type === 'tool-call')) return 'ai-sdk';
  if (parts.some((p) => p.type === 'tool_result' || p.type === 'tool_use')) return 'anthropic';
  if ((m.role === 'tool' && typeof m.tool_call_id === 'string') || (m.role === 'assistant' && Array.isArray(m.tool_calls))) return 'openai-chat';
  return undefined;
}

/**
 * The shape of a message list: the first message that only one framework
 * writes decides (a toolresult ToolResult or reference, a LangChain
 * message, a Responses `function_call[_output]` item, AI SDK `tool-call` /
 * `tool-result` parts, Anthropic `tool_use` / `tool_result` blocks, an
 * OpenAI Chat tool message or `tool_calls`); `'toolresult'` when none does.
 */
export function detectHistoryFormat(messages: readonly unknown[]): HistoryFormat {
  if (!Array.isArray(messages)) throw new ToolResultError('invalid_input', 'prepareHistory takes an array of messages');
  for (const m of messages) {
    const f = formatOf(m);
    if (f) return f;
  }
  return 'toolresult';
}
