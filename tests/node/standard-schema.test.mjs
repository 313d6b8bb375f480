// A compiled schema is a Standard Schema v1 and a Standard JSON Schema v1
// (`'~standard'`), checked by the spec's own rules and then inside the
// frameworks that take it: the AI SDK 7 (`asSchema`, `tool({ inputSchema })`
// through generateText with its mock model), the AI SDK 6 (`asSchema`), the
// MCP SDK v2 (`registerTool({ inputSchema, outputSchema })`) and OpenAI
// Agents (`tool({ parameters })` run by its Runner with its ScriptedModel).
// Runs against the Node and browser builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Agent, Runner, tool as agentsTool, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { McpServer } from '@modelcontextprotocol/server';
import { asSchema, generateText, InvalidToolInputError, stepCountIs, TypeValidationError, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { asSchema as asSchema6 } from 'ai-v6';
import { toolresult } from './helpers.mjs';

const { compileSchema, ToolResultError } = toolresult;

const city = { type: 'object', properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', minimum: 1 } }, required: ['city'] };
const throwsCode = (f, code, check = () => true) => assert.throws(f, (e) => e instanceof ToolResultError && e.code === code && check(e));

test('~standard: version 1, vendor toolresult, a synchronous validate giving { value } or { issues } with keys and indices', () => {
  const s = compileSchema({
    type: 'object',
    properties: {
      rows: { type: 'array', items: { type: 'number' } },
      'a/b': { type: 'string' },
      'm~n': { type: 'string' },
      byId: { type: 'object', additionalProperties: { type: 'number' } },
    },
  });
  const std = s['~standard'];
  assert.equal(std.version, 1);
  assert.equal(std.vendor, 'toolresult');
  assert.equal(typeof std.validate, 'function');
  const value = { rows: [1, 2] };
  const ok = std.validate(value);
  assert.ok(!(ok instanceof Promise), 'synchronous (OpenAI Agents refuses a Promise)');
  assert.equal(ok.value, value, 'the value itself');
  assert.equal(ok.issues, undefined);
  const bad = std.validate({ rows: [1, 'x'], 'a/b': 1, 'm~n': 2, byId: { 0: 'zero' } });
  assert.ok(!('value' in bad), 'a failure has no value (the AI SDK tells them apart by `"value" in result`)');
  const paths = bad.issues.map((i) => i.path).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  // JSON Pointer segments unescaped (~1 -> /, ~0 -> ~), array indices as numbers, numeric object keys as strings.
  assert.deepEqual(paths, [['a/b'], ['byId', '0'], ['m~n'], ['rows', 1]]);
  for (const i of bad.issues) assert.equal(typeof i.message, 'string');
  assert.deepEqual(compileSchema({ type: 'string' })['~standard'].validate(1).issues[0].path, [], 'the root is the empty path');
});

test('~standard.validate: a value that is not JSON data is an issue, never a throw', () => {
  const std = compileSchema(city)['~standard'];
  const cyclic = { city: 'Oslo' };
  cyclic.self = cyclic;
  for (const [value, path] of [
    [undefined, []],
    [{ city: 'Oslo', days: Number.NaN }, ['days']],
    [{ city: 'Oslo', days: 10n }, ['days']],
    [{ city: () => 'Oslo' }, ['city']],
    [cyclic, ['self']],
  ]) {
    const r = std.validate(value);
    assert.ok(Array.isArray(r.issues) && r.issues.length >= 1, String(value));
    assert.deepEqual(r.issues[0].path, path);
    assert.ok(r.issues[0].message.length > 0);
  }
});

test('~standard.jsonSchema: the schema itself for its own dialect, a fresh copy each time; input and output agree', () => {
  const s = compileSchema(city);
  const a = s['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  assert.deepEqual(a, city);
  a.properties.city.type = 'number';
  assert.deepEqual(s['~standard'].jsonSchema.output({ target: 'draft-2020-12' }), city, 'a caller that mutates its copy changes nothing');
  const d7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }], additionalItems: false };
  assert.deepEqual(compileSchema(d7)['~standard'].jsonSchema.input({ target: 'draft-07' }), d7);
  const d19 = { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { a: ['b'] } };
  assert.deepEqual(compileSchema(d19)['~standard'].jsonSchema.input({ target: 'draft-2019-09' }), d19);
  assert.deepEqual(compileSchema(true)['~standard'].jsonSchema.input({ target: 'draft-07' }), {});
  assert.deepEqual(compileSchema(false)['~standard'].jsonSchema.input({ target: 'draft-2020-12' }), { not: {} });
});

test('~standard.jsonSchema: another dialect only when every keyword means the same there; otherwise a typed throw naming each keyword', () => {
  // What most tool schemas are: the same in draft-07, 2019-09 and 2020-12.
  assert.deepEqual(compileSchema(city)['~standard'].jsonSchema.input({ target: 'draft-07' }), city);
  const declared = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...city };
  assert.deepEqual(compileSchema(declared)['~standard'].jsonSchema.input({ target: 'draft-07' }), {
    ...declared,
    $schema: 'http://json-schema.org/draft-07/schema#',
  });
  assert.deepEqual(compileSchema(city, { defaultDialect: 'draft-07' })['~standard'].jsonSchema.input({ target: 'draft-2020-12' }), city);

  const tuple = compileSchema({
    type: 'object',
    properties: { pair: { prefixItems: [{ type: 'string' }] }, deps: { $defs: { x: { dependentRequired: { a: ['b'] } } } } },
  });
  throwsCode(
    () => tuple['~standard'].jsonSchema.input({ target: 'draft-07' }),
    'unsupported_value',
    (e) =>
      JSON.stringify(e.issues.map((i) => [i.path, i.code])) ===
      JSON.stringify([
        ['/properties/pair/prefixItems', 'unsupported_value'],
        ['/properties/deps/$defs/x/dependentRequired', 'unsupported_value'],
      ]),
  );
  // draft-07's tuple `items` and a `$ref` with keywords beside it mean something else in 2020-12.
  const d7 = compileSchema({
    $schema: 'http://json-schema.org/draft-07/schema#',
    definitions: { n: { type: 'number' } },
    properties: { t: { items: [{ type: 'string' }] }, r: { $ref: '#/definitions/n', maximum: 3 } },
  });
  throwsCode(
    () => d7['~standard'].jsonSchema.output({ target: 'draft-2020-12' }),
    'unsupported_value',
    (e) => e.issues.map((i) => i.path).join(' ') === '/properties/t/items /properties/r/$ref',
  );
  // Targets it cannot answer, and a schema that needs documents it does not carry.
  throwsCode(
    () => compileSchema(city)['~standard'].jsonSchema.input({ target: 'openapi-3.0' }),
    'invalid_options',
    (e) => e.issues[0].path === '/target' && /draft-2020-12/.test(e.message),
  );
  throwsCode(() => compileSchema(city)['~standard'].jsonSchema.input({}), 'invalid_options');
  const withDocs = compileSchema({ $ref: 'https://example.com/item.json' }, { documents: { 'https://example.com/item.json': { type: 'string' } } });
  assert.equal(withDocs['~standard'].validate('x').value, 'x', 'it still validates');
  throwsCode(
    () => withDocs['~standard'].jsonSchema.input({ target: 'draft-2020-12' }),
    'unsupported_value',
    (e) => /documents/.test(e.issues[0].message),
  );
});

test('AI SDK 7 and 6: asSchema(compileSchema(js)) gives the JSON Schema and validates with the engine', async () => {
  for (const [name, as] of [
    ['ai 7', asSchema],
    ['ai 6', asSchema6],
  ]) {
    const schema = as(compileSchema(city));
    // The AI SDK asks for draft-07 and closes objects itself.
    assert.deepEqual(await schema.jsonSchema, { ...city, additionalProperties: false }, name);
    assert.deepEqual(await schema.validate({ city: 'Oslo' }), { success: true, value: { city: 'Oslo' } }, name);
    const bad = await schema.validate({ city: 'O', days: 0 });
    assert.equal(bad.success, false, name);
    assert.ok(TypeValidationError.isInstance(bad.error), name);
    assert.deepEqual(bad.error.cause.map((i) => i.path).sort(), [['city'], ['days']], name);
  }
});

test('AI SDK 7: tool({ inputSchema: compileSchema(js) }) validates the model input in generateText; only valid input runs', async () => {
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const model = new MockLanguageModelV4({
    doGenerate: [
      {
        content: [
          { type: 'tool-call', toolCallId: 'bad', toolName: 'weather', input: JSON.stringify({ city: 7 }) },
          { type: 'tool-call', toolCallId: 'good', toolName: 'weather', input: JSON.stringify({ city: 'Oslo', days: 2 }) },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
    ],
  });
  const ran = [];
  const result = await generateText({
    model,
    prompt: 'Weather?',
    stopWhen: stepCountIs(3),
    tools: {
      weather: tool({
        description: 'weather',
        inputSchema: compileSchema(city),
        execute: async (input) => {
          ran.push(input);
          return { tempC: 21 };
        },
      }),
    },
  });
  assert.deepEqual(ran, [{ city: 'Oslo', days: 2 }]);
  const step = result.steps[0];
  // The refused call carries the SDK's InvalidToolInputError, caused by our issues.
  const call = step.content.find((c) => c.type === 'tool-call' && c.toolCallId === 'bad');
  assert.equal(call.invalid, true);
  assert.ok(InvalidToolInputError.isInstance(call.error));
  assert.deepEqual(
    call.error.cause.cause.map((i) => i.path),
    [['city']],
  );
  const error = step.content.find((c) => c.type === 'tool-error');
  assert.equal(error.toolCallId, 'bad');
  assert.match(String(error.error), /Invalid input for tool weather/);
  assert.deepEqual(
    step.toolResults.map((r) => [r.toolCallId, r.output]),
    [['good', { tempC: 21 }]],
  );
  // The model was offered the schema as the tool's parameters.
  const offered = model.doGenerateCalls[0].tools.find((x) => x.name === 'weather');
  assert.deepEqual(offered.inputSchema, { ...city, additionalProperties: false });
});

test('MCP SDK v2: registerTool takes compiled schemas as inputSchema and outputSchema; both are checked by the server', async () => {
  const out = { type: 'object', properties: { tempC: { type: 'number' } }, required: ['tempC'] };
  const server = new McpServer({ name: 'std', version: '1.0.0' });
  server.registerTool('weather', { inputSchema: compileSchema(city), outputSchema: compileSchema(out) }, async ({ city: c }) => {
    const structuredContent = c === 'Mars' ? { tempC: 'hot' } : { tempC: 21 };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  });
  const client = new Client({ name: 'c', version: '1.0.0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(b), client.connect(a)]);
  try {
    const listed = (await client.listTools()).tools[0];
    assert.deepEqual(listed.inputSchema, city);
    assert.deepEqual(listed.outputSchema, out);
    assert.deepEqual((await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).structuredContent, { tempC: 21 });
    const badInput = await client.callTool({ name: 'weather', arguments: { city: 'O' } });
    assert.equal(badInput.isError, true);
    assert.match(badInput.content[0].text, /Input validation error/);
    assert.match(badInput.content[0].text, /city/);
    const badOutput = await client.callTool({ name: 'weather', arguments: { city: 'Mars' } });
    assert.equal(badOutput.isError, true);
    assert.match(badOutput.content[0].text, /Output validation error: .*tempC/);
  } finally {
    await client.close();
    await server.close();
  }
});

test('OpenAI Agents: tool({ parameters: compileSchema(js) }) is offered as its JSON Schema; the Runner runs valid input and refuses invalid input', async () => {
  setTracingDisabled(true); // no trace export: nothing leaves the process
  const ran = [];
  const refused = [];
  const weather = agentsTool({
    name: 'weather',
    description: 'weather',
    parameters: compileSchema(city),
    execute: async (input) => {
      ran.push(input);
      return { tempC: 21 };
    },
    errorFunction: (_context, error) => {
      refused.push(error);
      return 'refused';
    },
  });
  // Strict by default: the SDK reads jsonSchema.input({ target: 'draft-2020-12' }) and makes the optional member nullable.
  assert.equal(weather.strict, true);
  assert.deepEqual(weather.parameters.properties.city, city.properties.city);
  assert.deepEqual(weather.parameters.properties.days.anyOf, [city.properties.days, { type: 'null' }]);
  assert.deepEqual(weather.parameters.required, ['city', 'days']);
  const model = new ScriptedModel([
    [
      functionCall('weather', { city: 7, days: null }, { callId: 'bad_type' }),
      functionCall('weather', { city: 'Oslo', days: null }, { callId: 'good' }),
      // Only the schema's own keywords refuse these (the SDK checks no JSON Schema itself).
      functionCall('weather', { city: 'Bergen', days: 0 }, { callId: 'bad_minimum' }),
      functionCall('weather', { city: 'O', days: 2 }, { callId: 'bad_length' }),
      functionCall('weather', { city: 'Tromsø', days: 3 }, { callId: 'good_days' }),
    ],
    [assistantMessage('done')],
  ]);
  const agent = new Agent({ name: 'forecaster', instructions: 'Answer with the weather.', model, tools: [weather] });
  const result = await new Runner({ tracingDisabled: true }).run(agent, 'Weather?');
  assert.equal(result.finalOutput, 'done');
  // The SDK drops the null it asked for in place of the optional member, then validates with ours.
  assert.deepEqual(ran, [{ city: 'Oslo' }, { city: 'Tromsø', days: 3 }]);
  assert.equal(refused.length, 3);
  for (const e of refused) assert.equal(e.name, 'InvalidToolInputError');
  const outputs = Object.fromEntries(result.newItems.filter((i) => i.type === 'tool_call_output_item').map((i) => [i.rawItem.callId, i.output]));
  assert.deepEqual(outputs, { bad_type: 'refused', good: { tempC: 21 }, bad_minimum: 'refused', bad_length: 'refused', good_days: { tempC: 21 } });
  // The model was offered the schema, and was told what happened to each call.
  const offered = model.calls[0].request.tools.find((x) => x.name === 'weather');
  assert.deepEqual(offered.parameters, weather.parameters);
  const told = model.calls[1].request.input.filter((i) => i.type === 'function_call_result').map((i) => [i.callId, i.output.text]);
  assert.deepEqual(told, [
    ['bad_type', 'refused'],
    ['good', '{"tempC":21}'],
    ['bad_minimum', 'refused'],
    ['bad_length', 'refused'],
    ['good_days', '{"tempC":21}'],
  ]);
  model.assertComplete();
});
