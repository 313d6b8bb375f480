// What the page does with pasted text, written once for the main thread and
// the worker: split JSON / JSONL into documents, recognise each document's
// shape, turn it into a ToolResult or AgentResult with the package's own
// validation, normalization and conversions, and locate every issue in the
// source text. Takes the package (the main entry and toolresult/convert, as
// one object) as an argument so both threads share it. Legacy and foreign
// shapes need the agent module: until it is loaded, their analysis throws
// not_initialized, for the caller to `await loadAgentModule()` and retry.

/** Inputs larger than this are analysed without sending the value back to the page. */
export const LARGE_INPUT = 2 * 1024 * 1024;

/** Names of the shapes the page recognises, as shown to the user. */
export const SHAPES = {
  'tool-result': 'ToolResult',
  'agent-result': 'AgentResult',
  'task-result': 'legacy TaskResult',
  'agent-message': 'AgentMessage',
  mcp: 'MCP CallToolResult',
  anthropic: 'Anthropic tool_result',
  openai: 'OpenAI tool output',
  'vercel-part': 'Vercel AI SDK tool part',
  'vercel-message': 'Vercel AI SDK tool message',
  unknown: 'unknown shape',
};

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The shape of a parsed document (a best guess; validation has the last word). */
export function detectShape(v) {
  if (!isObject(v)) return 'unknown';
  if ('schema_version' in v || ('metadata' in v && 'input' in v)) return 'tool-result';
  if (v.type === 'tool_result' && 'tool_use_id' in v) return 'anthropic';
  if (v.type === 'function_call_output' || (v.role === 'tool' && typeof v.tool_call_id === 'string')) return 'openai';
  if (v.role === 'tool' && Array.isArray(v.content)) return 'vercel-message';
  if (typeof v.type === 'string' && v.type.startsWith('tool-') && 'toolCallId' in v) return 'vercel-part';
  if ('payload' in v && 'agent_id' in v) return 'agent-message';
  if ('version' in v && 'agent_id' in v) return 'agent-result';
  if ('task_id' in v && 'status' in v && !('version' in v)) return 'task-result';
  if (Array.isArray(v.content) || 'structuredContent' in v || 'isError' in v) return 'mcp';
  if ('agent_id' in v || 'task_id' in v) return 'agent-result';
  return 'unknown';
}

/**
 * Splits text into documents: one JSON document, or JSON Lines (every
 * non-empty line a document) when the whole does not parse and its first
 * line does. Each has its text and where it starts in the whole.
 */
export function splitDocuments(text) {
  const whole = { text, offset: 0, line: 1 };
  try {
    JSON.parse(text);
    return [whole];
  } catch {
    // fall through: maybe JSON Lines
  }
  const lines = [];
  let offset = 0;
  let line = 1;
  for (const part of text.split('\n')) {
    if (part.trim() !== '') lines.push({ text: part, offset, line });
    offset += part.length + 1;
    line++;
  }
  if (lines.length < 2) return [whole];
  try {
    JSON.parse(lines[0].text);
  } catch {
    return [whole];
  }
  return lines;
}

/** `line L column C` in a parse error message, as an offset into `text`. */
function syntaxLocation(text, message) {
  const m = /line (\d+) column (\d+)/.exec(message);
  if (!m) return undefined;
  const line = Number(m[1]);
  const column = Number(m[2]);
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) break;
    offset = nl + 1;
  }
  offset = Math.min(text.length, offset + Math.max(0, column - 1));
  return { offset, end: Math.min(text.length, offset + 1), line, column, found: false, pointer: '' };
}

/** Issues with their place in `doc` (offsets in the whole text). */
function located(t, doc, issues, inSource) {
  return issues.map((issue) => {
    let loc;
    if (inSource) {
      loc = issue.code === 'invalid_json' ? syntaxLocation(doc.text, issue.message) : undefined;
      loc ??= t.locate(doc.text, issue.path);
      loc = { ...loc, offset: loc.offset + doc.offset, end: loc.end + doc.offset, line: loc.line + doc.line - 1 };
    }
    return { ...issue, loc };
  });
}

const CONTEXT = { tool_name: 'pasted_tool' };
// What a legacy TaskResult lacks; the page cannot know it, so it says so in the changes.
const AGENT_CONTEXT = { agent_id: 'pasted-agent', agent_type: 'integration', action: 'pasted' };

/**
 * One document: its shape, the ToolResult or AgentResult it is (or becomes),
 * what conversion changed, and every issue located in the source.
 * `source` forces a conversion (`mcp`, `anthropic`, …) with its `context`.
 */
export function analyzeDocument(t, doc, { source, context } = {}) {
  const out = {
    offset: doc.offset,
    line: doc.line,
    length: doc.text.length,
    shape: 'unknown',
    kind: 'tool',
    ok: false,
    issues: [],
    changes: [],
    value: undefined,
    converted: false,
  };
  let parsed;
  try {
    parsed = JSON.parse(doc.text);
  } catch {
    const v = t.validateToolResult(doc.text);
    out.issues = located(t, doc, v.ok ? [] : v.issues, true);
    return out;
  }
  const shape = source ?? detectShape(parsed);
  out.shape = shape;
  try {
    switch (shape) {
      case 'agent-result':
      case 'auto': {
        out.kind = 'agent';
        if (shape === 'auto') {
          const n = t.normalizeAgentResult(doc.text, context ?? AGENT_CONTEXT);
          out.shape = n.ok ? n.source : 'unknown';
          if (!n.ok) return { ...out, issues: located(t, doc, n.issues, true) };
          return { ...out, ok: true, value: n.value, changes: n.changes, converted: n.changes.length > 0 };
        }
        const v = t.validateAgentResult(doc.text);
        return { ...out, ok: v.ok, value: v.ok ? v.value : parsed, issues: v.ok ? [] : located(t, doc, v.issues, true) };
      }
      case 'task-result':
      case 'agent-message': {
        out.kind = 'agent';
        const n =
          shape === 'task-result' ? t.migrateTaskResult(doc.text, context ?? AGENT_CONTEXT) : t.normalizeAgentResult(doc.text, context ?? AGENT_CONTEXT);
        if (!n.ok) return { ...out, value: parsed, issues: located(t, doc, n.issues, true) };
        return { ...out, ok: true, value: n.value, changes: n.changes, converted: true };
      }
      case 'mcp':
        return converted(out, t.fromMcpCallToolResult(parsed, context ?? CONTEXT));
      case 'anthropic':
        return converted(out, t.fromAnthropicToolResult(parsed, context ?? CONTEXT));
      case 'openai':
        return converted(out, t.fromOpenAIToolOutput(parsed, context ?? CONTEXT));
      case 'vercel':
      case 'vercel-part':
        return converted(out, t.fromVercelToolPart(parsed, context));
      case 'vercel-message': {
        const results = t.fromVercelToolMessage(parsed, context);
        return converted(out, results[0], results.length);
      }
      default: {
        const v = t.validateToolResult(doc.text);
        return { ...out, ok: v.ok, value: v.ok ? v.value : parsed, issues: v.ok ? [] : located(t, doc, v.issues, true) };
      }
    }
  } catch (e) {
    if (!(e instanceof t.ToolResultError) || e.code === 'not_initialized') throw e;
    const issues = e.issues.length ? e.issues : [{ path: '', code: e.code, message: e.message }];
    return { ...out, value: parsed, issues: located(t, doc, issues, true) };
  }
}

function converted(out, value, count = 1) {
  const changes = [`converted from ${SHAPES[out.shape] ?? out.shape}${count > 1 ? ` (first of ${count} results)` : ''}`];
  return { ...out, ok: true, value, changes, converted: true };
}

/** Every document of `text`, analysed; values of large inputs are left out. */
export function analyzeText(t, text) {
  const started = performance.now();
  const docs = splitDocuments(text).map((doc) => analyzeDocument(t, doc));
  const large = text.length > LARGE_INPUT;
  if (large) for (const d of docs) d.value = undefined;
  return { docs, large, length: text.length, sha256: t.sha256Hex(text), ms: performance.now() - started };
}
