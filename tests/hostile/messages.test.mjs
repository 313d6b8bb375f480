// Issue #44: a message quotes at most a short excerpt of a value (200
// characters, `MESSAGE_QUOTE_CHARS`), with its length, however large the value
// (docs/spec.md §15): compileSchema, ToolRegistry, the wire validators,
// McpSchemaValidator's errorMessage and the errors the TypeScript layer builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, toolresult } from '../node/helpers.mjs';

const { compileSchema, ToolRegistry, ToolResultError, validateToolResult, validateAgentResult, statusInfo, spotlight } = toolresult;

/** A bound every message must keep: the quotes plus the message's own words. */
const BOUND = 1_000;
const BIG = 3_000_000;
const big = 'a'.repeat(BIG);
const image = { type: 'image', mimeType: 'image/png', data: 'iVBO'.repeat(BIG / 4) };
const hugeKey = { [big]: 1 };

const assertShort = (message, what) => assert.ok(message.length <= BOUND, `${what}: a message of ${message.length} chars`);
const names = (message, what) => assert.match(message, / \(3,0\d\d,\d{3} chars( of JSON)?\)/, `${what}: ${message.slice(0, 300)}`);

function checkIssues(issues, what) {
  assert.ok(issues.length > 0, `${what}: no issue`);
  for (const i of issues) assertShort(i.message, what);
}

test('compileSchema(s).validate(v): a huge value failing each keyword is quoted briefly, with its length', () => {
  for (const schema of [
    { maxLength: 10 },
    { enum: ['x', 'y'] },
    { pattern: '^b' },
    { type: 'number' },
    { format: 'email' },
    { not: { type: 'string' } },
    { anyOf: [{ type: 'number' }, { maxLength: 3 }] },
  ]) {
    const issues = compileSchema(schema).validate(big);
    checkIssues(issues, JSON.stringify(schema));
    names(issues[0].message, JSON.stringify(schema));
  }
  // The const and enum entries of a schema are values too.
  const constIssues = compileSchema({ const: big }).validate('x');
  checkIssues(constIssues, 'const');
  names(constIssues[0].message, 'const');

  // An anyOf failure over an image block: its base64 is not repeated.
  const blocks = {
    type: 'array',
    items: {
      anyOf: [
        { type: 'object', properties: { type: { const: 'text' } }, required: ['type', 'text'] },
        { type: 'object', properties: { type: { const: 'image' }, data: { maxLength: 1000 } }, required: ['type', 'data'] },
      ],
    },
  };
  const issues = compileSchema(blocks).validate([image]);
  checkIssues(issues, 'anyOf over an image block');
  names(issues[0].message, 'anyOf over an image block');
  // Keys: a 3 MB one and 100,000 of them.
  checkIssues(compileSchema({ unevaluatedProperties: false }).validate(hugeKey), 'a huge key');
  const many = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
  const manyIssues = compileSchema({ properties: { a: {} }, additionalProperties: false }).validate(many);
  checkIssues(manyIssues, 'many keys');
  assert.match(manyIssues[0].message, /and 99,?\d+ more/);
  // validateJson (text in) says the same.
  checkIssues(compileSchema({ maxLength: 10 }).validateJson(JSON.stringify(big)), 'validateJson');
});

test('ToolRegistry: validateOutput / validateInput issues and checkResult error_message stay short', () => {
  const registry = new ToolRegistry();
  registry.register({
    name: 'shot',
    input_schema: { type: 'object', properties: { q: { maxLength: 10 } } },
    output_schema: {
      type: 'object',
      properties: { content: { type: 'array', items: { anyOf: [{ required: ['text'] }, { properties: { data: { maxLength: 100 } } }] } } },
      additionalProperties: { type: 'string' },
    },
  });
  const output = { content: [image], ...{ [big]: 1 } };
  const report = registry.validateOutput('shot', output);
  assert.equal(report.ok, false);
  checkIssues(report.issues, 'validateOutput');
  checkIssues(registry.validateInput('shot', { q: big }).issues, 'validateInput');
  const result = registry.checkResult({
    input: { tool_name: 'shot', parameters: {} },
    output,
    status: 'success',
    metadata: {
      execution_id: '0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f',
      started_at: '2026-11-22T10:00:00Z',
      completed_at: '2026-11-22T10:00:01Z',
      duration_ms: 1000,
    },
    schema_version: '1.0.0',
  });
  assert.equal(result.status, 'output_validation_failed');
  assert.ok(result.error_message.length <= 3 * BOUND, `error_message of ${result.error_message.length} chars`);
  // The path of the 3 MB key is whole in the issue, cut in the message.
  assert.ok(result.validation_issues.some((i) => i.path.length > BIG));
  assert.match(result.error_message, /chars left out/);
  // An unknown tool named by a huge string.
  assert.throws(
    () => registry.validateOutput(big, {}),
    (e) => e instanceof ToolResultError && e.code === 'unknown_tool' && e.message.length <= BOUND,
  );
});

test('validateToolResult / validateAgentResult: huge strings in the envelope are quoted briefly', () => {
  const tool = {
    input: { tool_name: 'read_file', parameters: {} },
    status: 'failed',
    error_message: 'File not found',
    error_code: 'FILE_NOT_FOUND',
    metadata: {
      execution_id: '1c6f5e4d-3b2a-4f8e-8d2e-6b7c8d9e0f1a',
      started_at: '2026-11-22T10:00:00Z',
      completed_at: '2026-11-22T10:00:01Z',
      duration_ms: 1000,
    },
    schema_version: '1.0.0',
  };
  for (const [what, value] of [
    ['status', { ...tool, status: big }],
    ['error_code', { ...tool, error_code: big }],
    ['started_at', { ...tool, metadata: { ...tool.metadata, started_at: big } }],
    ['an unknown field', { ...tool, ...hugeKey }],
  ]) {
    for (const input of [value, JSON.stringify(value)]) {
      const out = validateToolResult(input);
      assert.equal(out.ok, false, what);
      checkIssues(out.issues, what);
      names(out.issues.map((i) => i.message).join(' '), what);
    }
  }
  const agent = {
    task_id: 't',
    agent_id: 'a',
    agent_type: big,
    success: true,
    status: 'completed',
    action: 'x',
    result: {},
    timestamp: '2026-11-22T10:15:30Z',
    version: '1.0.0',
  };
  const out = validateAgentResult(agent);
  assert.equal(out.ok, false);
  checkIssues(out.issues, 'agent_type');
});

test('errors the TypeScript layer builds quote huge values briefly', () => {
  const short = (f, what) =>
    assert.throws(f, (e) => {
      assert.ok(e instanceof ToolResultError, what);
      assertShort(e.message, what);
      for (const i of e.issues) assertShort(i.message, what);
      return true;
    });
  short(() => statusInfo(big), 'statusInfo');
  short(() => spotlight('text', { mode: big }), 'spotlight mode');
  // A ToolResultError lists its issues' paths: a 3 MB key's path is cut there.
  short(() => toolresult.createSuccess({ input: { tool_name: 't' }, ...hugeKey }), 'createSuccess');
  // A getter that throws a 3 MB message.
  const hostile = {
    get output() {
      throw new Error(big);
    },
  };
  const read = validateToolResult(hostile);
  assert.equal(read.ok, false);
  checkIssues(read.issues, 'a getter throwing');
});

test('McpSchemaValidator: errorMessage stays short for multi-MB values', { skip: build !== 'node' && 'toolresult/mcp is the Node build' }, async () => {
  const { McpSchemaValidator } = await import('toolresult/mcp');
  const validator = new McpSchemaValidator();
  const check = (schema, value, what) => {
    const out = validator.getValidator(schema)(value);
    assert.equal(out.valid, false, what);
    assertShort(out.errorMessage, what);
    return out.errorMessage;
  };
  names(check({ type: 'string', maxLength: 10 }, big, 'maxLength'), 'maxLength');
  names(
    check(
      {
        type: 'object',
        properties: { content: { type: 'array', items: { anyOf: [{ required: ['text'] }, { properties: { data: { maxLength: 100 } } }] } } },
      },
      { content: [image] },
      'an image block',
    ),
    'an image block',
  );
  // A 3 MB key in the pointer of an issue.
  check({ additionalProperties: { type: 'string' } }, hugeKey, 'a huge key');
  // A schema that does not compile, with onInvalidSchema: 'reject'.
  const rejecting = new McpSchemaValidator({ onInvalidSchema: 'reject' });
  const out = rejecting.getValidator({ type: big })('x');
  assert.equal(out.valid, false);
  assertShort(out.errorMessage, 'a schema that does not compile');
});
