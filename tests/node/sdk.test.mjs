// The conversions checked by the real clients, not only by fixtures: what we
// produce is parsed with the SDKs' own schemas (MCP TypeScript SDK
// `CallToolResultSchema`, AI SDK `toolModelMessageSchema`), and tool results
// travel through a real MCP server and client in one process.
//
// The MCP TypeScript SDK speaks 2025-11-25 (its CallToolResultSchema takes
// object structuredContent only), so 2026-07-28 results are checked against
// the shipped JSON Schema in convert.test.mjs instead.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { modelMessageSchema, toolModelMessageSchema } from 'ai';
// AI SDK 6 (the `ai-v6` alias): its tool-message schema still takes the `media` content part that 7 removed.
import * as ai6 from 'ai-v6';
import { modelMessageSchema as modelMessageSchemaV6, toolModelMessageSchema as toolModelMessageSchemaV6 } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import * as ai7 from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { fixturesDir, toolresult as t } from './helpers.mjs';

const read = (f) => JSON.parse(readFileSync(path.join(fixturesDir, 'convert', f), 'utf8'));

const results = () => [
  t.createSuccess({ input: { tool_name: 'weather', tool_call_id: 'c1', parameters: { city: 'Paris' } }, output: { temperature: 21 } }),
  t.createSuccess({ input: { tool_name: 'echo', tool_call_id: 'c2' }, output: 'hello' }),
  t.createSuccess({ input: { tool_name: 'list', tool_call_id: 'c3' }, output: [1, 2] }),
  t.createSuccess({ input: { tool_name: 'noop', tool_call_id: 'c4' } }),
  t.createFailure({ input: { tool_name: 'weather', tool_call_id: 'c5' }, status: 'failed', error_code: 'NOT_FOUND', error_message: 'City not found' }),
  t.createFailure({ input: { tool_name: 'rm', tool_call_id: 'c6' }, status: 'timeout', error_code: 'TIMEOUT', error_message: 'took 30 s' }),
  t.fromMcpCallToolResult(read('mcp-all-blocks.json'), { tool_name: 'report', tool_call_id: 'c7' }),
  t.fromVercelToolPart(read('vercel-message-denied.json')),
  t.fromVercelToolPart(read('vercel-message-error-json.json')),
];

test("AI SDK: every tool-message part we write is accepted by the SDK's toolModelMessageSchema, failures included", () => {
  const all = results();
  const message = t.toVercelToolMessage(all);
  const parsed = toolModelMessageSchema.safeParse(message);
  assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
  assert.equal(modelMessageSchema.safeParse(message).success, true);
  // The SDK keeps every field we wrote (nothing stripped as unknown).
  assert.deepEqual(parsed.data, message);
  const outputTypes = message.content.map((p) => p.output.type);
  assert.deepEqual(outputTypes, ['json', 'text', 'json', 'text', 'error-text', 'error-text', 'content', 'execution-denied', 'error-json']);
  // ...and every message fixture is one the SDK takes, then reads back to the same part.
  for (const f of [
    'vercel-message-json.json',
    'vercel-message-text.json',
    'vercel-message-content.json',
    'vercel-message-error-text.json',
    'vercel-message-error-json.json',
    'vercel-message-denied.json',
    'vercel-message-provider-options.json',
  ]) {
    const one = toolModelMessageSchema.safeParse({ role: 'tool', content: [read(f)] });
    assert.equal(one.success, true, `${f}: ${JSON.stringify(one.error?.issues)}`);
    assert.equal(toolModelMessageSchemaV6.safeParse({ role: 'tool', content: [read(f)] }).success, true, `${f} (AI SDK 6)`);
  }
  // The legacy `media` part is AI SDK 6's (7 removed it); fromVercelToolPart still reads it.
  const media = { role: 'tool', content: [read('vercel-message-media-legacy.json')] };
  assert.equal(toolModelMessageSchemaV6.safeParse(media).success, true, 'AI SDK 6 takes media parts');
  assert.equal(toolModelMessageSchema.safeParse(media).success, false, 'AI SDK 7 has no media part');
  // What the issue reported: the step-content tool-error part is not a tool-message part.
  const stepError = t.toVercelToolPart(all[4], { as: 'step-content' });
  assert.equal(stepError.type, 'tool-error');
  assert.equal(toolModelMessageSchema.safeParse({ role: 'tool', content: [stepError] }).success, false);
});

test('MCP SDK: every CallToolResult we write for 2025-11-25 parses with CallToolResultSchema, unchanged', () => {
  for (const r of results()) {
    const mcp = t.toMcpCallToolResult(r, { revision: '2025-11-25' });
    const parsed = CallToolResultSchema.safeParse(mcp);
    assert.equal(parsed.success, true, `${JSON.stringify(mcp)}: ${JSON.stringify(parsed.error?.issues)}`);
    assert.deepEqual(parsed.data, mcp);
  }
  for (const f of ['mcp-text.json', 'mcp-structured.json', 'mcp-error.json', 'mcp-all-blocks.json']) {
    const tr = t.fromMcpCallToolResult(read(f), { tool_name: 'x' });
    assert.equal(CallToolResultSchema.safeParse(t.toMcpCallToolResult(tr)).success, true, f);
  }
});

test('MCP SDK: tool results from a real server reach a real client and survive fromMcpCallToolResult → ToolResult → toMcpCallToolResult', async () => {
  const server = new McpServer({ name: 'toolresult-test', version: '1.0.0' });
  server.registerTool(
    'get_weather',
    { description: 'Weather', inputSchema: { city: z.string() }, outputSchema: { temperature: z.number(), city: z.string() } },
    async ({ city }) => {
      const structuredContent = { temperature: 21.5, city };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  server.registerTool('fail', { description: 'Always fails', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'disk full' }],
    isError: true,
  }));
  server.registerTool('screenshot', { description: 'Text and an image', inputSchema: {} }, async () => ({
    content: [
      { type: 'text', text: 'here it is' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'resource_link', name: 'shot.png', uri: 'file:///tmp/shot.png', mimeType: 'image/png' },
    ],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'toolresult-client', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  try {
    const tools = new t.ToolRegistry();
    for (const tool of (await client.listTools()).tools) tools.register(tool);
    for (const [name, args, status] of [
      ['get_weather', { city: 'Paris' }, 'success'],
      ['fail', {}, 'failed'],
      ['screenshot', {}, 'success'],
    ]) {
      const received = await client.callTool({ name, arguments: args });
      assert.deepEqual(tools.validateMcpResult(name, received), { ok: true, issues: [] }, name);
      const tr = t.fromMcpCallToolResult(received, { tool_name: name, arguments: args, tool_call_id: `call_${name}` });
      assert.equal(t.validateToolResult(tr).ok, true);
      assert.equal(tr.status, status, name);
      const back = t.toMcpCallToolResult(tr);
      const { isError = false, ...rest } = received;
      assert.deepEqual(back, isError ? received : rest, `${name}: the round trip is lossless`);
      assert.equal(CallToolResultSchema.safeParse(back).success, true);
      // ...and the same result, converted for the AI SDK, is a message part it takes.
      assert.equal(toolModelMessageSchema.safeParse(t.toVercelToolMessage([tr])).success, true, name);
    }
    tools.free();
  } finally {
    await client.close();
    await server.close();
  }
});

// AI SDK content parts: what toVercelToolPart writes for each major, checked
// by that major's own schemas and given to its model through `toModelOutput`.
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
/** Without the `originalUrl` of URL file data, which the SDK's schema does not keep (its type does). */
const withoutOriginalUrl = (message) => JSON.parse(JSON.stringify(message, (k, v) => (k === 'originalUrl' ? undefined : v)));

test("AI SDK 7 and 6: every content part we write is accepted by that major's toolModelMessageSchema and modelMessageSchema, unchanged", () => {
  const all = t.fromMcpCallToolResult(read('mcp-all-blocks.json'), { tool_name: 'report', tool_call_id: 'c7' });
  for (const [sdk, files, toolSchema, modelSchema] of [
    [7, AI_SDK_7_PARTS, toolModelMessageSchema, modelMessageSchema],
    [6, AI_SDK_6_PARTS, toolModelMessageSchemaV6, modelMessageSchemaV6],
  ]) {
    const converted = [...files.map((f) => t.fromVercelToolPart(read(f))), all, ...results()];
    const message = t.toVercelToolMessage(converted, { sdk });
    const parsed = toolSchema.safeParse(message);
    assert.equal(parsed.success, true, `AI SDK ${sdk}: ${JSON.stringify(parsed.error?.issues)}`);
    assert.equal(modelSchema.safeParse(message).success, true, `AI SDK ${sdk}`);
    assert.deepEqual(JSON.parse(JSON.stringify(parsed.data)), withoutOriginalUrl(message), `AI SDK ${sdk}: nothing stripped`);
    // ...and each fixture is a part of its major as it stands.
    for (const f of files) {
      const part = t.toVercelToolPart(t.fromVercelToolPart(read(f)), { sdk });
      const one = toolSchema.safeParse({ role: 'tool', content: [part] });
      assert.equal(one.success, true, `${f} (AI SDK ${sdk}): ${JSON.stringify(one.error?.issues)}`);
    }
  }
  // A URL file part is taken only with a URL object, which toVercelToolPart gives.
  const json = read('vercel7-message-file-url.json');
  assert.equal(toolModelMessageSchema.safeParse({ role: 'tool', content: [json] }).success, false, 'the URL as a string');
  // AI SDK 7's file parts are not AI SDK 6's.
  const v7 = t.toVercelToolPart(t.fromVercelToolPart(read('vercel7-message-file-data.json')));
  assert.equal(toolModelMessageSchemaV6.safeParse({ role: 'tool', content: [v7] }).success, false);
});

for (const [sdk, ai, Mock, files] of [
  [7, ai7, MockLanguageModelV4, AI_SDK_7_PARTS],
  [6, ai6, MockLanguageModelV3, ['vercel-message-custom.json', 'vercel-message-content.json', 'vercel7-message-file-data.json']],
]) {
  test(`AI SDK ${sdk}: the model receives every content part toModelOutput returns from toVercelToolPart`, async () => {
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    for (const f of files) {
      const output = t.toVercelToolPart(t.fromVercelToolPart(read(f)), { sdk }).output;
      const model = new Mock({
        // URL parts are passed on, not downloaded.
        supportedUrls: { '*/*': [/^https:\/\//, /^s3:/] },
        doGenerate: [
          {
            content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'files', input: '{}' }],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
          { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
        ],
      });
      const tools = {
        files: ai.tool({ inputSchema: ai.jsonSchema({ type: 'object', properties: {} }), execute: async () => 'ok', toModelOutput: () => output }),
      };
      const result = await ai.generateText({ model, tools, prompt: 'go', stopWhen: ai.stepCountIs(3) });
      assert.equal(result.text, 'done', f);
      const received = model.doGenerateCalls[1].prompt.find((m) => m.role === 'tool').content[0].output;
      assert.equal(received.type, 'content', f);
      assert.equal(received.value.length, output.value.length, f);
      // AI SDK 7 hands providers text, file and custom parts only.
      if (sdk === 7) for (const p of received.value) assert.ok(['text', 'file', 'custom'].includes(p.type), `${f}: ${p.type}`);
    }
  });
}

// OpenAI and Anthropic: their SDKs ship TypeScript types, no runtime schemas,
// so what we write (and the fixtures we read) is type-checked against
// `ResponseInputItem.FunctionCallOutput`, `ChatCompletionToolMessageParam`
// and `ToolResultBlockParam` with the TypeScript compiler: each value is an
// object literal assigned to the SDK type, so unknown fields are errors too.
const OPENAI_ITEMS = [
  'openai-function-call-output.json',
  'openai-output-image.json',
  'openai-output-file.json',
  'openai-output-edge.json',
  'openai-output-text-parts.json',
];
const ANTHROPIC_BLOCKS = [
  'anthropic-text.json',
  'anthropic-blocks.json',
  'anthropic-error.json',
  'anthropic-document-pdf.json',
  'anthropic-document-text-url.json',
  'anthropic-search-result.json',
  'anthropic-document-edge.json',
];
const SDK_TYPES = {
  fco: 'OpenAI.Responses.ResponseInputItem.FunctionCallOutput',
  chat: 'OpenAI.Chat.Completions.ChatCompletionToolMessageParam',
  anthropic: 'Anthropic.Messages.ToolResultBlockParam',
};

/** The TypeScript errors of each value as its SDK type (`[kind, value]`): one list per value. */
async function sdkTypeErrors(values) {
  const { default: ts } = await import('typescript');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const files = new Map(
    values.map(([kind, value], i) => [
      path.join(here, `__sdk_check_${i}.mts`),
      `import type OpenAI from 'openai';\nimport type Anthropic from '@anthropic-ai/sdk';\nexport const value: ${SDK_TYPES[kind]} = ${JSON.stringify(value)};\n`,
    ]),
  );
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, ...rest) =>
    files.has(name) ? ts.createSourceFile(name, files.get(name), ts.ScriptTarget.ES2022, true) : getSourceFile.call(host, name, ...rest);
  host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
  host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
  const program = ts.createProgram([...files.keys()], options, host);
  const all = ts.getPreEmitDiagnostics(program);
  return [...files.keys()].map((name) => all.filter((d) => d.file?.fileName === name).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')));
}

/** Every ToolResult the conversions make from the fixtures of every source, with a call id. */
function everySource() {
  const ctx = (tool_call_id) => ({ tool_name: 'x', tool_call_id });
  return [
    ...results(),
    ...OPENAI_ITEMS.map((f) => t.fromOpenAIToolOutput(read(f), ctx('call_1'))),
    t.fromOpenAIToolOutput(read('openai-chat-text-parts.json'), ctx('call_1')),
    ...ANTHROPIC_BLOCKS.map((f) => t.fromAnthropicToolResult(read(f), ctx('toolu_1'))),
    ...AI_SDK_7_PARTS.map((f) => t.fromVercelToolPart(read(f))),
    t.fromVercelToolPart(read('vercel-message-media-legacy.json')),
    ...['mcp-text.json', 'mcp-structured.json', 'mcp-error.json', 'mcp-all-blocks.json'].map((f) => t.fromMcpCallToolResult(read(f), ctx('call_m'))),
  ];
}

test("OpenAI and Anthropic SDKs: every item, message and block we write (and every valid fixture) has the SDK's type; the invalid fixtures do not", async () => {
  const written = everySource().flatMap((tr) => [
    ['fco', t.toOpenAIFunctionCallOutput(tr)],
    ['fco', t.toOpenAIFunctionCallOutput(tr, { multimodal: false })],
    ['chat', t.toOpenAIChatToolMessage(tr)],
    ['anthropic', t.toAnthropicToolResult(tr)],
  ]);
  // The outputs hold every kind of part and block, not only text.
  const kinds = new Set(
    written.flatMap(([, v]) => (Array.isArray(v.output) ? v.output.map((p) => p.type) : Array.isArray(v.content) ? v.content.map((b) => b.type) : [])),
  );
  for (const k of ['input_text', 'input_image', 'input_file', 'text', 'image', 'document', 'search_result']) assert.ok(kinds.has(k), k);
  const files = [
    ...OPENAI_ITEMS.map((f) => [f, 'fco']),
    ['openai-chat-tool.json', 'chat'],
    ['openai-chat-text-parts.json', 'chat'],
    ...ANTHROPIC_BLOCKS.map((f) => [f, 'anthropic']),
  ];
  // Invalid fixtures the SDK's types refuse too; two are beyond a type: an
  // image with both a URL and a file id, a file with no source (every source
  // field is optional in the SDK's type; the API takes exactly one).
  const invalid = [
    ['invalid-openai-part-type.json', 'fco'],
    ['invalid-openai-image-detail.json', 'fco'],
    ['invalid-openai-part-field.json', 'fco'],
    ['invalid-openai-output-type.json', 'fco'],
    ['invalid-openai-chat-image-part.json', 'chat'],
    ['invalid-anthropic-document-media-type.json', 'anthropic'],
    ['invalid-anthropic-document-source-type.json', 'anthropic'],
    ['invalid-anthropic-document-title.json', 'anthropic'],
    ['invalid-anthropic-search-result-content.json', 'anthropic'],
    ['invalid-anthropic-search-result-source.json', 'anthropic'],
  ];
  const beyondTypes = [
    ['invalid-openai-image-two-sources.json', 'fco'],
    ['invalid-openai-file-no-source.json', 'fco'],
  ];
  const values = [...written, ...[...files, ...invalid, ...beyondTypes].map(([f, kind]) => [kind, read(f)])];
  const errors = await sdkTypeErrors(values);
  for (const [i, e] of errors.slice(0, written.length).entries()) assert.deepEqual(e, [], `written ${JSON.stringify(written[i][1]).slice(0, 300)}`);
  const rest = errors.slice(written.length);
  for (const [i, [f]] of files.entries()) assert.deepEqual(rest[i], [], f);
  for (const [i, [f]] of invalid.entries()) assert.ok(rest[files.length + i].length > 0, `${f}: the SDK's type refuses it`);
  for (const [i, [f]] of beyondTypes.entries()) {
    assert.deepEqual(rest[files.length + invalid.length + i], [], `${f}: the SDK's type takes it`);
    assert.throws(
      () => t.fromOpenAIToolOutput(read(f), { tool_name: 'x' }),
      (e) => e.code === 'invalid_input',
      `${f}: we refuse it`,
    );
  }
  // A type check that cannot fail checks nothing: a wrong part is an error.
  const [wrong] = await sdkTypeErrors([['fco', { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 1 }] }]]);
  assert.ok(wrong.length > 0);
});
