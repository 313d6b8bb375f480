// The `execute_tool {tool}` span around a tool's run, through each adapter
// inside its framework (MCP SDK v1 server and client in memory, AI SDK 7
// `generateText` with its mock model, LangChain `createAgent` with its fake
// model, OpenAI Agents `Runner` with its scripted model), recorded by the
// OpenTelemetry SDK's in-memory exporter. Each run has a tool that sleeps
// 30 ms (its arguments and output carry a secret) and one that throws.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Agent, Runner, setTracingDisabled, tool as agentTool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import * as ai from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { AIMessage, createAgent, fakeModel, HumanMessage, tool as lcTool } from 'langchain';
import { withToolResults } from 'toolresult/ai';
import { toolResultMiddleware } from 'toolresult/langchain';
import { registerMcpTool } from 'toolresult/mcp';
import { wrapAgentTool } from 'toolresult/openai-agents';
import * as z from 'zod';
import { githubToken, rng } from '../screen/corpus.mjs';

setTracingDisabled(true);

const token = githubToken(rng(35));
const SLOW = { description: 'sleeps 30 ms', args: { city: 'Paris', apiKey: token } };
const hrMs = ([s, ns]) => s * 1e3 + ns / 1e6;

/** What the tools saw of their own runs (by city), to compare with the spans. */
let runs;

async function slow({ city, apiKey }) {
  const run = { wallStart: Date.now(), start: performance.now() };
  await sleep(30);
  run.end = performance.now();
  runs.set(city, run);
  return { city, forecast: 'sunny', echoedKey: apiKey };
}

async function boom() {
  throw new Error('kaboom');
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/**
 * Each adapter in its framework: `run(spanOptions, onResult)` makes the calls
 * `slow` (id s1) and `boom` (id b1) and reports every ToolResult.
 */
const adapters = [
  {
    label: 'toolresult/mcp (MCP SDK v1 McpServer + Client)',
    ids: { slow: 'mcp-slow', boom: 'mcp-boom' },
    errorType: 'TOOL_EXCEPTION',
    async run(spanOptions, onResult) {
      const server = new McpServer({ name: 'spans', version: '1.0.0' });
      const options = { ...spanOptions, onResult, toolCallId: (args) => (args.city ? 'mcp-slow' : 'mcp-boom') };
      registerMcpTool(
        server,
        'slow',
        { description: SLOW.description, inputSchema: { city: z.string(), apiKey: z.string() } },
        async (args) => ({ content: [{ type: 'text', text: JSON.stringify(await slow(args)) }] }),
        options,
      );
      registerMcpTool(server, 'boom', { description: 'throws', inputSchema: {} }, boom, options);
      const client = new Client({ name: 'spans-client', version: '1.0.0' });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await Promise.all([server.connect(b), client.connect(a)]);
      try {
        assert.equal((await client.callTool({ name: 'slow', arguments: SLOW.args })).isError, undefined);
        assert.equal((await client.callTool({ name: 'boom', arguments: {} })).isError, true);
      } finally {
        await client.close();
        await server.close();
      }
    },
  },
  {
    label: 'toolresult/ai (AI SDK 7 generateText)',
    ids: { slow: 's1', boom: 'b1' },
    errorType: 'TOOL_ERROR',
    async run(spanOptions, onResult) {
      const tools = withToolResults(
        {
          slow: ai.tool({
            description: SLOW.description,
            inputSchema: ai.jsonSchema({ type: 'object', properties: { city: { type: 'string' }, apiKey: { type: 'string' } } }),
            execute: slow,
          }),
          boom: ai.tool({ description: 'throws', inputSchema: ai.jsonSchema({ type: 'object' }), execute: boom }),
        },
        { ...spanOptions, onResult },
      );
      const model = new MockLanguageModelV4({
        doGenerate: [
          {
            content: [
              { type: 'tool-call', toolCallId: 's1', toolName: 'slow', input: JSON.stringify(SLOW.args) },
              { type: 'tool-call', toolCallId: 'b1', toolName: 'boom', input: '{}' },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
          { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
        ],
      });
      const result = await ai.generateText({ model, tools, prompt: 'go', stopWhen: ai.stepCountIs(3) });
      assert.equal(result.text, 'done');
    },
  },
  {
    label: 'toolresult/langchain (createAgent)',
    ids: { slow: 's1', boom: 'b1' },
    errorType: 'TOOL_ERROR',
    async run(spanOptions, onResult) {
      const tools = [
        lcTool(slow, { name: 'slow', description: SLOW.description, schema: z.object({ city: z.string(), apiKey: z.string() }) }),
        lcTool(boom, { name: 'boom', description: 'throws', schema: z.object({}) }),
      ];
      const model = fakeModel()
        .respondWithTools([
          { id: 's1', name: 'slow', args: SLOW.args },
          { id: 'b1', name: 'boom', args: {} },
        ])
        .respond(new AIMessage('done'));
      const agent = createAgent({ model, tools, middleware: [toolResultMiddleware({ ...spanOptions, onResult })] });
      const out = await agent.invoke({ messages: [new HumanMessage('go')] });
      assert.equal(out.messages.at(-1).content, 'done');
    },
  },
  {
    label: 'toolresult/openai-agents (Runner + wrapAgentTool)',
    ids: { slow: 's1', boom: 'b1' },
    errorType: 'TOOL_ERROR',
    async run(spanOptions, onResult) {
      const options = { ...spanOptions, onResult };
      const tools = [
        wrapAgentTool(
          agentTool({ name: 'slow', description: SLOW.description, parameters: z.object({ city: z.string(), apiKey: z.string() }), execute: slow }),
          options,
        ),
        wrapAgentTool(agentTool({ name: 'boom', description: 'throws', parameters: z.object({}), errorFunction: null, execute: boom }), options),
      ];
      const model = new ScriptedModel([
        [functionCall('slow', SLOW.args, { callId: 's1' }), functionCall('boom', {}, { callId: 'b1' })],
        [assistantMessage('done')],
      ]);
      const result = await new Runner().run(new Agent({ name: 'spans', model, tools }), 'go');
      assert.equal(result.finalOutput, 'done');
    },
  },
];

/** Runs one adapter with a fresh tracer; the finished spans by tool name, and the ToolResults by tool name. */
async function traced(adapter, spanOptions) {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('toolresult-spans-test');
  runs = new Map();
  const results = {};
  await adapter.run({ tracer, ...spanOptions }, (result) => {
    results[result.input.tool_name] = result;
  });
  const spans = exporter.getFinishedSpans();
  assert.deepEqual(spans.map((s) => s.name).sort(), ['execute_tool boom', 'execute_tool slow'], adapter.label);
  return { spans: Object.fromEntries(spans.map((s) => [s.attributes['gen_ai.tool.name'], s])), results };
}

for (const adapter of adapters) {
  test(`${adapter.label}: one execute_tool span per tool run — INTERNAL, around the run, GenAI attributes, error.type on failure, no arguments or result unless asked`, async () => {
    const { spans, results } = await traced(adapter, {});
    for (const [name, span] of Object.entries(spans)) {
      assert.equal(span.kind, SpanKind.INTERNAL, name);
      assert.equal(span.attributes['gen_ai.operation.name'], 'execute_tool');
      assert.equal(span.attributes['gen_ai.tool.type'], 'function');
      assert.equal(span.attributes['gen_ai.tool.call.id'], adapter.ids[name]);
      assert.equal(span.attributes['gen_ai.tool.call.id'], results[name].input.tool_call_id);
      // Ended with the ToolResult built: the span names it.
      assert.equal(span.attributes['toolresult.execution_id'], results[name].metadata.execution_id);
      assert.equal(span.attributes['toolresult.status'], results[name].status);
      assert.equal(span.attributes['gen_ai.tool.call.arguments'], undefined, 'arguments only when asked');
      assert.equal(span.attributes['gen_ai.tool.call.result'], undefined, 'the result only when asked');
    }
    assert.equal(spans.slow.attributes['gen_ai.tool.description'], SLOW.description);
    assert.equal(spans.boom.attributes['gen_ai.tool.description'], 'throws');

    // The span is around the tool's run: started before it, at least as long as it.
    const run = runs.get('Paris');
    assert.ok(run, 'the slow tool ran');
    assert.ok(hrMs(spans.slow.startTime) <= run.wallStart, `span start ${hrMs(spans.slow.startTime)} <= tool start ${run.wallStart}`);
    assert.ok(run.end - run.start >= 29, `the tool slept (${run.end - run.start} ms)`);
    assert.ok(hrMs(spans.slow.duration) >= run.end - run.start, `span ${hrMs(spans.slow.duration)} ms covers the tool's ${run.end - run.start} ms`);
    assert.ok(hrMs(spans.slow.endTime) >= run.wallStart + (run.end - run.start) - 1);

    // Success and failure.
    assert.equal(spans.slow.status.code, SpanStatusCode.OK);
    assert.equal(spans.slow.attributes['error.type'], undefined);
    assert.equal(spans.boom.status.code, SpanStatusCode.ERROR);
    assert.equal(spans.boom.attributes['error.type'], adapter.errorType);
    assert.equal(results.boom.error_code, adapter.errorType);
    assert.match(spans.boom.status.message, /kaboom/);
  });

  test(`${adapter.label}: traceArguments / traceResult record the call's arguments and result, secrets redacted`, async () => {
    const { spans } = await traced(adapter, { traceArguments: true, traceResult: true });
    const args = spans.slow.attributes['gen_ai.tool.call.arguments'];
    const result = spans.slow.attributes['gen_ai.tool.call.result'];
    assert.equal(typeof args, 'string');
    assert.equal(typeof result, 'string');
    assert.equal(JSON.parse(args).city, 'Paris');
    assert.match(result, /sunny/);
    for (const text of [args, result]) {
      assert.ok(!text.includes(token), `no secret in ${text}`);
      assert.match(text, /\[REDACTED:/);
    }
    assert.match(spans.boom.attributes['gen_ai.tool.call.result'], /kaboom/);
  });
}
