// Migration, normalization and conversions through the built package (Node or
// browser build): the shared fixtures in tests/fixtures/convert (valid, edge,
// invalid), round trips, and the MCP objects we produce checked against the
// shipped MCP JSON Schemas.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { fixturesDir, toolresult } from './helpers.mjs';

const t = toolresult;
const dir = path.join(fixturesDir, 'convert');
const read = (f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
const cases = read('cases.json');
const mcpDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'conformance', 'mcp-schema');
const REVISIONS = ['2025-11-25', '2026-07-28'];
const mcpShape = Object.fromEntries(
  REVISIONS.map((rev) => {
    const base = `https://modelcontextprotocol.io/schema/${rev}`;
    const documents = { [base]: JSON.parse(readFileSync(path.join(mcpDir, `${rev}.schema.json`), 'utf8')) };
    return [rev, t.compileSchema({ $ref: `${base}#/$defs/CallToolResult` }, { documents })];
  }),
);
const mcpDef = (rev, def) => {
  const base = `https://modelcontextprotocol.io/schema/${rev}`;
  const documents = { [base]: JSON.parse(readFileSync(path.join(mcpDir, `${rev}.schema.json`), 'utf8')) };
  return t.compileSchema({ $ref: `${base}#/$defs/${def}` }, { documents });
};

function run(c, input = read(c.file)) {
  switch (c.from) {
    case 'auto':
      return t.normalizeAgentResult(input, c.context);
    case 'task-result':
      return t.migrateTaskResult(input, c.context);
    case 'agent-message':
      return t.normalizeAgentResult(input, c.context);
    default: {
      const from = { mcp: t.fromMcpCallToolResult, anthropic: t.fromAnthropicToolResult, openai: t.fromOpenAIToolOutput, vercel: t.fromVercelToolPart }[c.from];
      const context = { ...c.context, ...(c.revision && { revision: c.revision }), ...(c.as && { as: c.as }) };
      try {
        return { ok: true, value: from(input, context) };
      } catch (e) {
        if (!(e instanceof t.ToolResultError)) throw e;
        return { ok: false, issues: e.issues, error: e };
      }
    }
  }
}

for (const c of cases) {
  test(`fixture ${c.file} (${c.from}) → ${c.expect}`, () => {
    const r = run(c);
    if (c.expect !== 'ok') {
      assert.equal(r.ok, false, JSON.stringify(r.value));
      assert.equal(r.issues[0].code, c.expect, JSON.stringify(r.issues));
      assert.equal(r.issues[0].path, c.path);
      if (r.error) assert.equal(r.error.code, 'invalid_input');
      return;
    }
    assert.equal(r.ok, true, JSON.stringify(r.issues));
    const agent = ['auto', 'task-result', 'agent-message'].includes(c.from);
    const verdict = agent ? t.validateAgentResult(r.value) : t.validateToolResult(r.value);
    assert.equal(verdict.ok, true, JSON.stringify(verdict.issues));
    assert.equal(r.value.status, c.status);
    if (agent) {
      assert.equal(r.value.success, c.success);
      for (const ch of r.changes) assert.ok(ch.path === '' || ch.path.startsWith('/'), ch.path);
    }
  });
}

test('migration drops nothing: errors, next_stage, unknown fields and metrics, wrapper fields all have a home', () => {
  const ctx = { agent_id: 'a1', agent_type: 'scaffold', action: 'build', timestamp: '2026-11-22T10:00:00Z' };
  const failure = t.migrateTaskResult(read('task-result-failure.json'), ctx);
  assert.deepEqual(failure.value.error, {
    code: 'TASK_FAILED',
    message: 'npm install failed; exit code 1',
    details: { errors: ['npm install failed', 'exit code 1'] },
    retryable: false,
  });
  const partial = t.migrateTaskResult(read('task-result-partial.json'), ctx);
  assert.match(partial.value.warnings[0], /partial/);
  assert.deepEqual(partial.value.warnings.slice(1), ['2 e2e tests failed']);
  assert.deepEqual(partial.value.result, { passed: 8, failed: 2, _legacy: { next_stage: 'integration' } });
  assert.ok(partial.changes.some((c) => c.path === '/status' && c.kind === 'derived'));
  const extra = t.migrateTaskResult(read('task-result-extra-fields.json'), ctx);
  assert.deepEqual(extra.value.result._legacy, { metrics: { cache_hits: 4 }, next_stage: 'deploy', priority: 'high' });
  assert.deepEqual(extra.value.metrics, { duration_ms: 10 });
  const message = t.normalizeAgentResult(read('agent-message-task-result.json'), { agent_type: 'scaffold', action: 'build' });
  assert.equal(message.source, 'agent_message');
  assert.equal(message.value.agent_id, 'scaffold-agent-1', 'agent_id from the wrapper');
  assert.equal(message.value.timestamp, '2026-11-22T10:00:00.000Z', 'timestamp from the wrapper');
  assert.deepEqual(Object.keys(message.value.result._legacy.message).sort(), ['id', 'stage', 'trace_id', 'workflow_id']);
  const noTime = t.migrateTaskResult(read('task-result-success.json'), { agent_id: 'a', agent_type: 'scaffold', action: 'x' });
  assert.ok(Date.now() - Date.parse(noTime.value.timestamp) < 60_000);
  assert.ok(noTime.changes.some((c) => c.path === '/timestamp' && /time of normalization/.test(c.message)));
  // JSON text works as well as values.
  assert.deepEqual(t.migrateTaskResult(JSON.stringify(read('task-result-failure.json')), ctx).value, failure.value);
  const unsupported = t.normalizeAgentResult({ ...read('../agent/valid-success.json'), version: '2.0.0' });
  assert.match(unsupported.issues[0].message, /supported versions: 1\.0\.0/);
});

test('property: normalize is idempotent and its output always validates', () => {
  const ctx = { agent_id: 'a1', agent_type: 'validation', action: 'check', timestamp: '2026-11-22T10:00:00Z' };
  const taskResult = fc.record(
    {
      task_id: fc.uuid(),
      workflow_id: fc.uuid(),
      status: fc.constantFrom('success', 'failure', 'partial'),
      // JSON values JS holds exactly (no -0, no integers beyond 2^53).
      output: fc.dictionary(
        fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '_legacy' && k !== '__proto__'),
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 })),
      ),
      errors: fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
      metrics: fc.record({ duration_ms: fc.nat(), tokens_used: fc.nat() }, { requiredKeys: ['duration_ms'] }),
      next_stage: fc.string({ maxLength: 10 }),
    },
    { requiredKeys: ['task_id', 'workflow_id', 'status', 'output'] },
  );
  fc.assert(
    fc.property(taskResult, (tr) => {
      const once = t.normalizeAgentResult(JSON.parse(JSON.stringify(tr)), ctx);
      assert.equal(once.ok, true, JSON.stringify(once.issues));
      assert.equal(t.validateAgentResult(once.value).ok, true);
      const twice = t.normalizeAgentResult(once.value, ctx);
      assert.equal(twice.ok, true);
      assert.deepEqual(twice.value, once.value);
      assert.deepEqual(twice.changes, []);
    }),
    { numRuns: 150 },
  );
});

const withoutFalseIsError = (m) => {
  const { isError, ...rest } = m;
  return isError === false ? rest : m;
};

test('MCP: CallToolResult → ToolResult → CallToolResult is lossless, and what we write is valid MCP', () => {
  for (const c of cases.filter((c) => c.from === 'mcp' && c.expect === 'ok')) {
    const mcp = read(c.file);
    const rev = c.revision ?? '2025-11-25';
    const tr = t.fromMcpCallToolResult(mcp, { ...c.context, revision: rev });
    if ('structuredContent' in mcp) assert.deepEqual(tr.output, mcp.structuredContent, `${c.file}: structuredContent is the output`);
    const back = t.toMcpCallToolResult(tr, { revision: rev });
    assert.deepEqual(back, withoutFalseIsError(mcp), c.file);
    assert.deepEqual(mcpShape[rev].validate(back), [], `${c.file} is a valid ${rev} CallToolResult`);
  }
  const structured = t.fromMcpCallToolResult(read('mcp-structured.json'), { tool_name: 'w' });
  assert.deepEqual(structured.output, { temperature: 21, conditions: 'sunny' }, 'structuredContent is the output');
  assert.deepEqual(structured.meta, { 'io.example/trace': 'abc' });
  const error = t.fromMcpCallToolResult(read('mcp-error.json'), { tool_name: 'w' });
  assert.equal(error.status, 'failed');
  assert.equal(error.error_message, 'City not found: Atlantis');
});

test('MCP: ToolResults built here become valid CallToolResults in both revisions; structured output is mirrored as text', () => {
  const results = [
    t.createSuccess({ input: { tool_name: 'w', tool_call_id: 'c1' }, output: { temperature: 21, tags: ['a'] } }),
    t.createSuccess({ input: { tool_name: 'w', tool_call_id: 'c2' }, output: 'plain text' }),
    t.createSuccess({ input: { tool_name: 'w' } }),
    t.createFailure({ input: { tool_name: 'w' }, status: 'timeout', error_code: 'TIMEOUT', error_message: 'took 30 s' }),
    t.createSuccess({ input: { tool_name: 'w' }, output: [1, 2, 3] }),
  ];
  for (const rev of REVISIONS) {
    for (const r of results) {
      const mcp = t.toMcpCallToolResult(r, { revision: rev });
      assert.deepEqual(mcpShape[rev].validate(mcp), [], `${rev}: ${JSON.stringify(mcp)}`);
    }
  }
  const [obj, text, empty, failed, array] = results.map((r) => t.toMcpCallToolResult(r));
  assert.deepEqual(obj.structuredContent, { temperature: 21, tags: ['a'] });
  assert.deepEqual(obj.content, [{ type: 'text', text: '{"temperature":21,"tags":["a"]}' }]);
  assert.deepEqual(text, { content: [{ type: 'text', text: 'plain text' }] });
  assert.deepEqual(empty, { content: [] });
  assert.deepEqual(failed, { content: [{ type: 'text', text: 'took 30 s' }], isError: true });
  assert.equal(array.structuredContent, undefined, 'structuredContent is an object in MCP 2025-11-25');
  assert.deepEqual(array.content, [{ type: 'text', text: '[1,2,3]' }], 'the array is in the text mirror');
  assert.deepEqual(t.toMcpCallToolResult(results[4], { revision: '2026-07-28' }).structuredContent, [1, 2, 3], '2026-07-28: any JSON value');
  assert.deepEqual(t.toMcpCallToolResult(results[1], { revision: '2026-07-28' }).structuredContent, 'plain text');
  assert.equal(t.toMcpCallToolResult(results[0], { revision: '2026-07-28' }).resultType, 'complete');
  assert.throws(
    () => t.toMcpCallToolResult(results[0], { revision: '1999-01-01' }),
    (e) => e.code === 'invalid_options' && /2025-11-25, 2026-07-28/.test(e.message),
  );
  assert.throws(
    () => t.toMcpCallToolResult({ status: 'success' }),
    (e) => e.code === 'invalid_tool_result',
  );
});

test('Anthropic: tool_result blocks both ways; binary the API cannot hold becomes a note, never inlined', () => {
  for (const f of ['anthropic-text.json', 'anthropic-blocks.json', 'anthropic-error.json']) {
    const block = read(f);
    const tr = t.fromAnthropicToolResult(block, { tool_name: 'x' });
    assert.deepEqual(t.toAnthropicToolResult(tr), block, f);
  }
  const all = t.fromMcpCallToolResult(read('mcp-all-blocks.json'), { tool_name: 'report', tool_call_id: 'toolu_9' });
  const block = t.toAnthropicToolResult(all);
  assert.equal(block.tool_use_id, 'toolu_9');
  const kinds = block.content.map((b) => b.type);
  assert.deepEqual(kinds, ['text', 'image', 'text', 'text', 'text', 'text']);
  assert.equal(block.content[1].source.media_type, 'image/png');
  assert.match(block.content[2].text, /^\[audio omitted: audio\/wav/);
  assert.ok(!JSON.stringify(block).includes('UklGRiQ'), 'audio data is not inlined');
  assert.match(block.content[3].text, /report\.pdf <file:\/\/\/project\/report\.pdf>/);
  assert.equal(block.content[4].text, '# Notes\n- one');
  assert.match(block.content[5].text, /resource omitted: application\/octet-stream/);
  const structured = t.createSuccess({ input: { tool_name: 'w', tool_call_id: 'toolu_1' }, output: { b: 1, a: [2] } });
  assert.deepEqual(t.toAnthropicToolResult(structured), { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"b":1,"a":[2]}' });
  assert.throws(
    () => t.toAnthropicToolResult(t.createSuccess({ input: { tool_name: 'w' } })),
    (e) => e.issues[0].path === '/input/tool_call_id',
  );
});

test('OpenAI: function_call_output and Chat tool messages both ways', () => {
  const fco = read('openai-function-call-output.json');
  const tr = t.fromOpenAIToolOutput(fco, { tool_name: 'get_weather' });
  assert.equal(tr.input.tool_call_id, 'call_abc123');
  assert.equal(tr.output, '{"temperature":21}');
  assert.deepEqual(t.toOpenAIFunctionCallOutput(tr), fco);
  const chat = read('openai-chat-tool.json');
  assert.deepEqual(t.toOpenAIChatToolMessage(t.fromOpenAIToolOutput(chat, { tool_name: 'get_weather' })), chat);
  const failed = t.createFailure({
    input: { tool_name: 'w', tool_call_id: 'call_f' },
    status: 'permission_denied',
    error_code: 'EACCES',
    error_message: 'no access',
  });
  assert.deepEqual(t.toOpenAIChatToolMessage(failed), { role: 'tool', tool_call_id: 'call_f', content: 'Error [EACCES]: no access' });
  const withImage = t.fromMcpCallToolResult(
    {
      content: [
        { type: 'text', text: 'see' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
    },
    { tool_name: 's', tool_call_id: 'call_i' },
  );
  // A result with an image is a list of parts; text-only results stay strings.
  assert.deepEqual(t.toOpenAIFunctionCallOutput(withImage).output, [
    { type: 'input_text', text: 'see' },
    { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
  ]);
  const out = t.toOpenAIFunctionCallOutput(withImage, { multimodal: false }).output;
  assert.match(out, /^see\n\[image omitted: image\/png/);
  assert.match(t.toOpenAIChatToolMessage(withImage).content, /^see\n\[image omitted: image\/png/, 'Chat tool messages take text only');
});

test('MCP: every fixture for a difference between the revisions is what the shipped schemas say it is', () => {
  // [file, $def, valid in 2025-11-25, valid in 2026-07-28]
  const expectations = [
    ['mcp-text.json', 'CallToolResult', true, false],
    ['mcp-2026.json', 'CallToolResult', true, true],
    ['mcp-2026-structured-array.json', 'CallToolResult', false, true],
    ['mcp-2026-structured-string.json', 'CallToolResult', false, true],
    ['mcp-2026-structured-number.json', 'CallToolResult', false, true],
    ['mcp-2026-structured-boolean.json', 'CallToolResult', false, true],
    ['mcp-2026-structured-null.json', 'CallToolResult', false, true],
    ['mcp-2026-server-info-meta.json', 'CallToolResult', true, true],
    ['mcp-2026-block-meta.json', 'CallToolResult', true, true],
    ['invalid-mcp-2026-input-required.json', 'InputRequiredResult', null, true],
    ['invalid-mcp-2025-create-task-result.json', 'CreateTaskResult', true, null],
    ['mcp-tool-2025-execution.json', 'Tool', true, true],
    ['mcp-tool-2026-array-output.json', 'Tool', false, true],
  ];
  for (const [file, def, v2025, v2026] of expectations) {
    for (const [rev, expected] of [
      ['2025-11-25', v2025],
      ['2026-07-28', v2026],
    ]) {
      if (expected === null) continue; // the revision has no such definition
      assert.equal(mcpDef(rev, def).validate(read(file)).length === 0, expected, `${file} as ${rev} ${def}`);
    }
  }
  // What each difference does in conversion.
  const ctx = { tool_name: 'list_users' };
  const array = read('mcp-2026-structured-array.json');
  assert.deepEqual(t.fromMcpCallToolResult(array, ctx).output, array.structuredContent, 'any value without a revision');
  assert.throws(
    () => t.fromMcpCallToolResult(array, { ...ctx, revision: '2025-11-25' }),
    (e) => e.issues[0].path === '/structuredContent' && /2025-11-25/.test(e.issues[0].message),
  );
  assert.throws(
    () => t.fromMcpCallToolResult(read('invalid-mcp-2026-input-required.json'), ctx),
    (e) => /input_required/.test(e.issues[0].message),
  );
  assert.throws(
    () => t.fromMcpCallToolResult(read('invalid-mcp-2025-create-task-result.json'), ctx),
    (e) => /CreateTaskResult/.test(e.issues[0].message),
  );
  assert.equal(t.fromMcpCallToolResult(read('mcp-text.json'), { ...ctx, revision: '2026-07-28' }).status, 'success', 'no resultType reads as complete');
  assert.throws(
    () => t.fromMcpCallToolResult(read('mcp-text.json'), { ...ctx, revision: '2030-01-01' }),
    (e) => e.code === 'invalid_options',
  );
  const meta = t.fromMcpCallToolResult(read('mcp-2026-server-info-meta.json'), ctx).meta;
  assert.deepEqual(meta['io.modelcontextprotocol/serverInfo'], { name: 'weather-server', version: '2.1.0' });
  // Tool definitions of either revision register; fields we do not interpret are kept.
  const tools = new t.ToolRegistry();
  tools.register(read('mcp-tool-2025-execution.json')).register(read('mcp-tool-2026-array-output.json'));
  assert.deepEqual(tools.get('render_video').execution, { taskSupport: 'optional' });
  assert.deepEqual(tools.validateMcpResult('list_users', array), { ok: true, issues: [] });
  const bad = tools.validateMcpResult('list_users', { ...array, structuredContent: [{ id: 'x' }] });
  assert.deepEqual(
    bad.issues.map((i) => i.path),
    ['/0', '/0/id'],
  );
  tools.free();
});

test('Vercel AI SDK: tool-message parts and step-content parts both ways', () => {
  const message = [
    'vercel-message-json.json',
    'vercel-message-text.json',
    'vercel-message-content.json',
    'vercel-message-error-text.json',
    'vercel-message-error-json.json',
    'vercel-message-denied.json',
    'vercel-message-provider-options.json',
  ];
  for (const f of message) {
    const part = read(f);
    const tr = t.fromVercelToolPart(part);
    assert.equal(tr.input.tool_name, part.toolName);
    assert.deepEqual(t.toVercelToolPart(tr), part, f);
  }
  for (const f of ['vercel-step-result.json', 'vercel-step-error.json']) {
    const part = read(f);
    const tr = t.fromVercelToolPart(part);
    assert.deepEqual(tr.input.parameters, part.input);
    assert.deepEqual(t.toVercelToolPart(tr, { as: 'step-content' }), part, f);
  }
  const failed = t.fromVercelToolPart(read('vercel-step-error.json'));
  assert.deepEqual(t.toVercelToolPart(failed), {
    type: 'tool-result',
    toolCallId: 'call_s2',
    toolName: 'weather',
    output: { type: 'error-text', value: 'City not found' },
  });
  const denied = t.fromVercelToolPart(read('vercel-message-denied.json'));
  assert.equal(denied.status, 'permission_denied');
  assert.equal(denied.error_code, 'EXECUTION_DENIED');
  const text = t.createSuccess({ input: { tool_name: 'echo', tool_call_id: 'c', parameters: { s: 'hi' } }, output: 'hi' });
  assert.deepEqual(t.toVercelToolPart(text).output, { type: 'text', value: 'hi' });
  const msg = t.toVercelToolMessage([text, failed]);
  assert.equal(msg.role, 'tool');
  assert.deepEqual(
    t.fromVercelToolMessage(msg).map((r) => r.status),
    ['success', 'failed'],
  );
  assert.throws(
    () => t.toVercelToolPart(text, { as: 'ui' }),
    (e) => e.code === 'invalid_options',
  );
  assert.throws(
    () => t.fromVercelToolMessage({ role: 'user', content: [] }),
    (e) => e.code === 'invalid_input',
  );
});

// AI SDK content parts (docs/guide/conversions.md "AI SDK content parts"): the fixtures of each
// major's `content` parts, read and written again for that major.
const AI_SDK_7_PARTS = [
  'vercel7-message-file-data.json',
  'vercel7-message-file-url.json',
  'vercel7-message-file-reference.json',
  'vercel7-message-file-text.json',
  'vercel7-message-reference-legacy.json',
  'vercel-message-custom.json',
  'vercel-message-file-legacy.json',
  'vercel-message-content.json',
];
const AI_SDK_6_PARTS = ['vercel-message-custom.json', 'vercel-message-file-legacy.json', 'vercel-message-content.json', 'vercel-message-media-legacy.json'];
/** A part as JSON (a `URL` as its href): what the fixtures hold. */
const asJson = (v) => JSON.parse(JSON.stringify(v));

test('Vercel AI SDK content parts: file (data, url, reference, text), custom and the deprecated kinds round-trip for their major', () => {
  for (const [sdk, files] of [
    [7, AI_SDK_7_PARTS],
    [6, AI_SDK_6_PARTS],
  ]) {
    for (const f of files) {
      const part = read(f);
      const tr = t.fromVercelToolPart(part);
      assert.equal(t.validateToolResult(tr).ok, true, f);
      const back = t.toVercelToolPart(tr, { sdk });
      assert.deepEqual(asJson(back), part, `${f} (AI SDK ${sdk})`);
      if (sdk === 7) assert.deepEqual(asJson(t.toVercelToolPart(tr)), part, `${f}: AI SDK 7 is the default`);
    }
  }
  // A file part's URL is a URL object, as the SDK's schema requires.
  const urls = t.toVercelToolPart(t.fromVercelToolPart(read('vercel7-message-file-url.json')));
  for (const p of urls.output.value) assert.ok(p.data.url instanceof URL);
  assert.equal(urls.output.value[2].data.url.href, 's3://bucket/a%20b.txt');
  assert.equal(urls.output.value[2].data.originalUrl, 's3://bucket/a b.txt');
  // The blocks: MCP's where MCP has one, the part's type and fields in _meta.
  const blocks = t.fromVercelToolPart(read('vercel7-message-file-data.json')).content;
  assert.deepEqual(
    blocks.map((b) => b.type),
    ['text', 'image', 'audio', 'resource', 'image'],
  );
  assert.deepEqual(blocks[3], {
    type: 'resource',
    resource: { uri: 'ai-sdk:inline', mimeType: 'application/pdf', blob: 'JVBERi0xLjcKJeLjz9M=' },
    _meta: { 'ai-sdk/type': 'file', 'ai-sdk/filename': 'report.pdf', 'ai-sdk/providerOptions': { anthropic: { cacheControl: { type: 'ephemeral' } } } },
  });
  const reference = t.fromVercelToolPart(read('vercel7-message-file-reference.json')).content[0];
  assert.equal(reference.type, 'ai-sdk/file-reference');
  assert.deepEqual(reference.reference, { openai: 'file-abc123', anthropic: 'file_011CNha8iCJcU1wXNR6q4V8w' });
  assert.deepEqual(t.fromVercelToolPart(read('vercel-message-custom.json')).content[1], {
    type: 'ai-sdk/custom',
    _meta: {
      'ai-sdk/type': 'custom',
      'ai-sdk/providerOptions': read('vercel-message-custom.json').output.value[1].providerOptions,
    },
  });
});

test('Vercel AI SDK content parts: URL objects and bytes are read as the JSON the fixtures hold', () => {
  const bytes = Uint8Array.from(Buffer.from('JVBERi0xLjcKJeLjz9M=', 'base64'));
  const fixture = read('vercel7-message-file-data.json');
  const live = structuredClone(fixture);
  live.output.value[3].data.data = bytes; // Uint8Array
  live.output.value[1].data.data = Buffer.from('iVBORw0KGgo=', 'base64'); // Buffer
  live.output.value[2].data.data = Uint8Array.from(Buffer.from('UklGRiQAAABXQVZF', 'base64')).buffer; // ArrayBuffer
  const before = JSON.stringify(live);
  const buffer = live.output.value[1].data.data;
  const fromLive = t.fromVercelToolPart(live);
  assert.deepEqual(fromLive.content, t.fromVercelToolPart(fixture).content);
  assert.equal(JSON.stringify(live), before, "the caller's part is not changed");
  assert.equal(live.output.value[1].data.data, buffer);
  for (const n of [0, 1, 2, 3, 4, 5, 255]) {
    const raw = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
    const part = {
      type: 'tool-result',
      toolCallId: 'c',
      toolName: 't',
      output: { type: 'content', value: [{ type: 'file', data: { type: 'data', data: raw }, mediaType: 'application/octet-stream' }] },
    };
    assert.equal(t.fromVercelToolPart(part).content[0].resource.blob, Buffer.from(raw).toString('base64'), `${n} bytes`);
  }
  const urls = read('vercel7-message-file-url.json');
  const withUrl = structuredClone(urls);
  withUrl.output.value[0].data.url = new URL(urls.output.value[0].data.url);
  assert.deepEqual(t.fromVercelToolPart(withUrl).content, t.fromVercelToolPart(urls).content);
  // ...through a tool message too.
  assert.deepEqual(t.fromVercelToolMessage({ role: 'tool', content: [withUrl] })[0].content, t.fromVercelToolPart(urls).content);
});

test('Vercel AI SDK content parts: AI SDK 6 gets its nearest part for what only 7 has; MCP blocks become each major’s parts', () => {
  const to6 = (f) => t.toVercelToolPart(t.fromVercelToolPart(read(f)), { sdk: 6 }).output.value.map((p) => p.type);
  assert.deepEqual(to6('vercel7-message-file-data.json'), ['text', 'image-data', 'file-data', 'file-data', 'image-data']);
  assert.deepEqual(to6('vercel7-message-file-url.json'), ['file-url', 'file-url', 'file-url']);
  assert.deepEqual(to6('vercel7-message-file-reference.json'), ['file-id', 'file-id']);
  assert.deepEqual(to6('vercel7-message-reference-legacy.json'), ['file-id', 'image-file-id']);
  assert.deepEqual(to6('vercel7-message-file-text.json'), ['text']);
  const media = t.fromVercelToolPart(read('vercel-message-media-legacy.json'));
  assert.deepEqual(t.toVercelToolPart(media).output.value, [{ type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' }]);
  const all = t.fromMcpCallToolResult(read('mcp-all-blocks.json'), { tool_name: 'report', tool_call_id: 'c' });
  const kinds = (sdk) => t.toVercelToolPart(all, { sdk }).output.value.map((p) => p.type);
  assert.deepEqual(kinds(7), ['text', 'file', 'file', 'text', 'text', 'text']);
  assert.deepEqual(kinds(6), ['text', 'image-data', 'file-data', 'text', 'text', 'text']);
  assert.throws(
    () => t.toVercelToolPart(all, { sdk: 5 }),
    (e) => e.code === 'invalid_options' && e.issues[0].path === '/sdk' && /6, 7/.test(e.issues[0].message),
  );
  // A URL the AI SDK cannot hold is refused, naming the block.
  const bad = t.createSuccess({
    input: { tool_name: 't', tool_call_id: 'c' },
    content: [{ type: 'resource_link', uri: 'http://', name: 'x', mimeType: 'text/plain', _meta: { 'ai-sdk/type': 'file' } }],
  });
  assert.throws(
    () => t.toVercelToolPart(bad),
    (e) => e.code === 'invalid_tool_result' && e.issues[0].path === '/content/0/uri',
  );
  assert.equal(t.toVercelToolPart(bad, { sdk: 6 }).output.value[0].url, 'http://', 'AI SDK 6 takes the URL as a string');
});

test('MCP: what AI SDK parts become is valid MCP; provider references and custom parts are refused with the block named', () => {
  for (const f of ['vercel7-message-file-data.json', 'vercel7-message-file-url.json', 'vercel7-message-file-text.json', 'vercel-message-content.json']) {
    const tr = t.fromVercelToolPart(read(f));
    for (const rev of REVISIONS) {
      const mcp = t.toMcpCallToolResult(tr, { revision: rev });
      assert.deepEqual(mcpShape[rev].validate(mcp), [], `${f} as ${rev}`);
      assert.deepEqual(mcp.content, tr.content);
      // ...and back from MCP, the same part.
      const again = t.fromMcpCallToolResult(mcp, { tool_name: tr.input.tool_name, tool_call_id: tr.input.tool_call_id });
      assert.deepEqual(asJson(t.toVercelToolPart(again)), read(f), `${f}: AI SDK → ToolResult → MCP → ToolResult → AI SDK`);
    }
  }
  for (const [f, index] of [
    ['vercel7-message-file-reference.json', 0],
    ['vercel7-message-reference-legacy.json', 0],
    ['vercel-message-file-legacy.json', 2],
    ['vercel-message-custom.json', 1],
  ]) {
    const tr = t.fromVercelToolPart(read(f));
    assert.throws(
      () => t.toMcpCallToolResult(tr),
      (e) =>
        e.code === 'invalid_tool_result' &&
        e.issues[0].code === 'unsupported_value' &&
        e.issues[0].path === `/content/${index}/type` &&
        /no MCP content block/.test(e.issues[0].message),
      f,
    );
  }
});

// OpenAI function_call_output parts and Anthropic documents and search
// results (docs/guide/conversions.md "OpenAI output parts", "Anthropic documents and search
// results"): the fixtures read and written again, and what other sources'
// blocks become.
const OPENAI_OUTPUT_PARTS = ['openai-output-image.json', 'openai-output-file.json', 'openai-output-edge.json', 'openai-output-text-parts.json'];
const ANTHROPIC_DOCUMENTS = ['anthropic-document-pdf.json', 'anthropic-document-text-url.json', 'anthropic-search-result.json', 'anthropic-document-edge.json'];
const withCallId = (tr, id) => ({ ...tr, input: { ...tr.input, tool_call_id: id } });

test('OpenAI output parts: input_text, input_image and input_file round-trip; text-only results stay strings unless asked', () => {
  for (const f of OPENAI_OUTPUT_PARTS) {
    const item = read(f);
    const tr = t.fromOpenAIToolOutput(item, { tool_name: 'render_report' });
    assert.equal(t.validateToolResult(tr).ok, true, f);
    assert.equal(tr.output, undefined, `${f}: parts are content`);
    const { id, status, ...request } = item;
    assert.deepEqual(t.toOpenAIFunctionCallOutput(tr), request, f);
    assert.equal(typeof t.toOpenAIFunctionCallOutput(tr, { multimodal: false }).output, 'string', f);
    assert.equal(typeof t.toOpenAIChatToolMessage(tr).content, 'string', f);
  }
  const image = t.fromOpenAIToolOutput(read('openai-output-image.json'), { tool_name: 'r' });
  assert.deepEqual(image.content[1], {
    type: 'image',
    data: 'iVBORw0KGgo=',
    mimeType: 'image/png',
    _meta: { 'openai/type': 'input_image', 'openai/detail': 'high' },
  });
  assert.deepEqual(image.content[3], {
    type: 'ai-sdk/file-reference',
    reference: { openai: 'file-img123' },
    _meta: { 'openai/type': 'input_image', 'openai/detail': 'low' },
  });
  const file = t.fromOpenAIToolOutput(read('openai-output-file.json'), { tool_name: 'r' });
  assert.deepEqual(file.content[1].resource, { uri: 'openai:inline', mimeType: 'application/pdf', blob: 'JVBERi0xLjcKJeLjz9M=' });
  // Text-only: strings, as before.
  const plain = t.fromOpenAIToolOutput(read('openai-function-call-output.json'), { tool_name: 'w' });
  assert.equal(t.toOpenAIFunctionCallOutput(plain).output, '{"temperature":21}');
  const mcpText = t.fromMcpCallToolResult(read('mcp-text.json'), { tool_name: 'w', tool_call_id: 'c' });
  assert.equal(typeof t.toOpenAIFunctionCallOutput(mcpText).output, 'string');
  assert.throws(
    () => t.toOpenAIFunctionCallOutput(image, { multimodal: 'yes' }),
    (e) => e.code === 'invalid_options',
  );
});

test('OpenAI output parts: other sources give the parts OpenAI can hold; MCP refuses file ids, keeps the rest', () => {
  const parts = (tr) => t.toOpenAIFunctionCallOutput(withCallId(tr, 'c')).output;
  const all = t.fromMcpCallToolResult(read('mcp-all-blocks.json'), { tool_name: 'r' });
  assert.deepEqual(
    parts(all).map((p) => p.type),
    ['input_text', 'input_image', 'input_text', 'input_text', 'input_text', 'input_text'],
  );
  assert.ok(!JSON.stringify(parts(all)).includes('UklGRiQ'), 'audio is a note, never inlined');
  const reference = parts(t.fromVercelToolPart(read('vercel7-message-file-reference.json')));
  assert.deepEqual(reference[0], { type: 'input_file', file_id: 'file-abc123', filename: 'contract.pdf' });
  assert.equal(reference[1].type, 'input_text', 'a Google file is a note for OpenAI');
  const urls = parts(t.fromVercelToolPart(read('vercel7-message-file-url.json')));
  assert.deepEqual(urls[1], { type: 'input_image', image_url: 'https://example.com/img/cat.png' });
  const doc = parts(t.fromAnthropicToolResult(read('anthropic-document-pdf.json'), { tool_name: 'd' }));
  assert.deepEqual(doc[1], { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0xLjcKJeLjz9M=' });
  // MCP: every block with an MCP form is valid MCP and comes back the same part.
  for (const f of ['openai-output-edge.json', 'openai-output-text-parts.json']) {
    const tr = t.fromOpenAIToolOutput(read(f), { tool_name: 'r' });
    for (const rev of REVISIONS) {
      const mcp = t.toMcpCallToolResult(tr, { revision: rev });
      assert.deepEqual(mcpShape[rev].validate(mcp), [], `${f} as ${rev}`);
      const again = t.fromMcpCallToolResult(mcp, { tool_name: 'r', tool_call_id: 'call_m1' });
      assert.deepEqual(t.toOpenAIFunctionCallOutput(again).output, read(f).output, `${f} through MCP ${rev}`);
    }
  }
  for (const f of ['openai-output-image.json', 'openai-output-file.json']) {
    const tr = t.fromOpenAIToolOutput(read(f), { tool_name: 'r' });
    assert.throws(
      () => t.toMcpCallToolResult(tr),
      (e) =>
        e.code === 'invalid_tool_result' &&
        e.issues[0].code === 'unsupported_value' &&
        e.issues[0].path === '/content/3/type' &&
        /OpenAI file id/.test(e.issues[0].message),
      f,
    );
  }
});

test('OpenAI Chat tool messages take text parts only: joined when read, other parts refused', () => {
  const tr = t.fromOpenAIToolOutput(read('openai-chat-text-parts.json'), { tool_name: 'w' });
  assert.equal(tr.output, '21 degrees\nsunny');
  assert.deepEqual(t.toOpenAIChatToolMessage(tr), { role: 'tool', tool_call_id: 'call_c2', content: '21 degrees\nsunny' });
  assert.throws(
    () => t.fromOpenAIToolOutput(read('invalid-openai-chat-image-part.json'), { tool_name: 'w' }),
    (e) => e.code === 'invalid_input' && e.issues[0].path === '/content/1/type' && /text` parts only/.test(e.issues[0].message),
  );
});

test('Anthropic documents and search results: round trips, MCP blocks where MCP has a form, refused by MCP where not', () => {
  for (const f of ANTHROPIC_DOCUMENTS) {
    const block = read(f);
    const tr = t.fromAnthropicToolResult(block, { tool_name: 'read_documents' });
    assert.equal(t.validateToolResult(tr).ok, true, f);
    assert.deepEqual(t.toAnthropicToolResult(tr), block, f);
  }
  const pdf = t.fromAnthropicToolResult(read('anthropic-document-pdf.json'), { tool_name: 'd' });
  assert.deepEqual(pdf.content[1]._meta, {
    'anthropic/type': 'document',
    'anthropic/title': 'Contract 2026-114',
    'anthropic/context': 'Signed by both parties on 2026-11-02',
    'anthropic/citations': { enabled: true },
    'anthropic/cache_control': { type: 'ephemeral', ttl: '1h' },
  });
  for (const f of ['anthropic-document-pdf.json', 'anthropic-document-text-url.json']) {
    const tr = t.fromAnthropicToolResult(read(f), { tool_name: 'd' });
    for (const rev of REVISIONS) {
      const mcp = t.toMcpCallToolResult(tr, { revision: rev });
      assert.deepEqual(mcpShape[rev].validate(mcp), [], `${f} as ${rev}`);
      const again = t.fromMcpCallToolResult(mcp, { tool_name: 'd', tool_call_id: 'toolu_d1' });
      assert.deepEqual(t.toAnthropicToolResult(again), read(f), `${f} through MCP ${rev}`);
    }
  }
  for (const [f, kind] of [
    ['anthropic-search-result.json', 'anthropic/search-result'],
    ['anthropic-document-edge.json', 'anthropic/document'],
  ]) {
    const tr = t.fromAnthropicToolResult(read(f), { tool_name: 'd' });
    assert.throws(
      () => t.toMcpCallToolResult(tr),
      (e) => e.issues[0].code === 'unsupported_value' && e.issues[0].path === '/content/0/type' && e.issues[0].message.includes(kind),
      f,
    );
  }
  // Other sources' PDFs are documents; a search result is text elsewhere.
  const ai = t.toAnthropicToolResult(withCallId(t.fromVercelToolPart(read('vercel7-message-file-data.json')), 'toolu_1'));
  assert.deepEqual(ai.content[3], { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjcKJeLjz9M=' } });
  const search = t.fromAnthropicToolResult(read('anthropic-search-result.json'), { tool_name: 'd', tool_call_id: 'c' });
  assert.match(t.toOpenAIFunctionCallOutput(search).output, /^\[search result: Billing FAQ <https:\/\/docs\.example\.com\/billing>\]\nInvoices/);
  assert.match(t.toVercelToolPart(search).output.value[0].text, /^\[search result: Billing FAQ/);
});
