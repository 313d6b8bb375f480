// Property tests (fast-check) through the npm package: whatever the builders
// produce validates, serialize → parse is the identity, the string and value
// paths agree, and no input of any shape makes validation throw.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { toolresult } from './helpers.mjs';

const { createFailure, createSuccess, parseAgentResult, parseToolResult, validateAgentResult, validateToolResult } = toolresult;

const RUNS = { numRuns: 300 };
const FAILURES = [
  'failed',
  'timeout',
  'cancelled',
  'requires_confirmation',
  'sandbox_error',
  'permission_denied',
  'validation_error',
  'tool_not_found',
  'license_required',
  'output_validation_failed',
  'rate_limited',
  'security_violation',
  'resource_limit_exceeded',
];
// JSON values JavaScript holds exactly: no unsafe integers, no -0 (JSON.stringify would drop its sign).
const json = fc
  .jsonValue({ maxDepth: 4 })
  .map((v) => JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'number' && !Number.isSafeInteger(x) && Number.isInteger(x) ? 0 : x))));
const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);
const errorCode = fc.stringMatching(/^[A-Z][A-Z0-9]{0,6}(_[A-Z0-9]{1,6}){0,3}$/);
const uuid = fc.uuid();
// fast-check builds some objects without a prototype; results are plain JSON data.
const plain = (v) => JSON.parse(JSON.stringify(v));

test('createSuccess: every result validates and keeps the output exactly', () => {
  fc.assert(
    fc.property(
      toolName,
      fc.dictionary(fc.string(), json, { maxKeys: 4 }),
      json,
      fc.nat(100000),
      fc.option(uuid, { nil: undefined }),
      (tool_name, parameters, output, duration_ms, agent_id) => {
        const r = createSuccess({ input: { tool_name, parameters }, output, duration_ms, agent_id });
        const v = validateToolResult(r);
        assert.equal(v.ok, true, JSON.stringify(v.issues));
        if (output === null) assert.equal(r.output, undefined);
        else assert.deepEqual(r.output, plain(output));
        assert.deepEqual(r.input.parameters, plain(parameters));
        assert.equal(r.metadata.duration_ms, duration_ms);
        assert.equal(Date.parse(r.metadata.completed_at) - Date.parse(r.metadata.started_at), duration_ms);
      },
    ),
    RUNS,
  );
});

test('createFailure: every failure status with a SCREAMING_SNAKE_CASE code validates', () => {
  fc.assert(
    fc.property(toolName, fc.constantFrom(...FAILURES), errorCode, fc.string({ minLength: 1 }), (tool_name, status, error_code, error_message) => {
      const r = createFailure({ input: { tool_name }, status, error_code, error_message });
      assert.equal(validateToolResult(r).ok, true);
      assert.equal(r.status, status);
    }),
    RUNS,
  );
});

const agentResult = fc
  .record({
    task_id: fc.string({ minLength: 1 }),
    workflow_id: fc.string({ minLength: 1 }),
    agent_id: fc.string({ minLength: 1 }),
    agent_type: fc.constantFrom('scaffold', 'validation', 'e2e', 'integration', 'deployment'),
    status: fc.constantFrom('pending', 'queued', 'running', 'success', 'failed', 'timeout', 'cancelled'),
    action: fc.string({ minLength: 1 }),
    result: fc.dictionary(fc.string(), json, { maxKeys: 5 }),
    metrics: fc.record(
      { duration_ms: fc.double({ min: 0, max: 1e9, noNaN: true }).map((d) => (Object.is(d, -0) ? 0 : d)), tokens_used: fc.nat() },
      { requiredKeys: ['duration_ms'] },
    ),
    warnings: fc.option(fc.array(fc.string(), { maxLength: 3 }), { nil: undefined }),
    timestamp: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  })
  .map((a) => {
    const out = { ...a, success: a.status === 'success', version: '1.0.0' };
    if (a.status === 'failed') out.error = { code: 'E', message: 'failed' };
    if (out.warnings === undefined) delete out.warnings;
    return out;
  });

test('AgentResult: generated valid results validate; serialize → parse is the identity', () => {
  fc.assert(
    fc.property(agentResult, (a) => {
      const text = JSON.stringify(a);
      const expected = plain(a);
      assert.deepEqual(parseAgentResult(text), expected);
      assert.deepEqual(parseAgentResult(a), expected);
      assert.deepEqual(parseAgentResult(JSON.stringify(parseAgentResult(text))), expected);
    }),
    RUNS,
  );
});

test('ToolResult: serialize → parse is the identity for built results', () => {
  fc.assert(
    fc.property(toolName, json, (tool_name, output) => {
      const r = createSuccess({ input: { tool_name }, output });
      assert.deepEqual(parseToolResult(JSON.stringify(r)), r);
    }),
    RUNS,
  );
});

// (A top-level JS string is read as JSON text, not as a string value.)
test('the string, bytes and value paths give the same issues for any JSON value', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        json.filter((v) => typeof v !== 'string'),
        agentResult.chain((a) => fc.record({ key: fc.constantFrom(...Object.keys(a)), value: json }).map(({ key, value }) => ({ ...a, [key]: value }))),
      ),
      (v) => {
        const text = JSON.stringify(v);
        for (const validate of [validateAgentResult, validateToolResult]) {
          const fromText = validate(text);
          const fromBytes = validate(new TextEncoder().encode(text));
          const fromValue = validate(v);
          assert.equal(fromText.ok, fromValue.ok);
          assert.deepEqual(fromText.ok ? [] : fromText.issues, fromValue.ok ? [] : fromValue.issues);
          assert.deepEqual(fromText.ok ? [] : fromText.issues, fromBytes.ok ? [] : fromBytes.issues);
        }
      },
    ),
    RUNS,
  );
});

// The value path writes JS values as JSON text itself (one read per property,
// nothing changed silently); \`value\` is JSON.parse of exactly that text. Any
// Unicode in keys and strings, short ones (quoted directly) and long ones
// (through JSON.stringify), must come back as it went in. (Numbers are ones
// JavaScript holds exactly: integers beyond 2^53 are refused on purpose.)
test('any plain JSON value with any Unicode strings crosses the value path unchanged', () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.string({ unit: 'binary', minLength: 60, maxLength: 200 }),
    fc.constantFrom('"', '\\', '\u0000\u001f\u007f', '\u2028\ud83d\ude00'),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0) && (!Number.isInteger(n) || Number.isSafeInteger(n))),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(text, tie('node'), { maxKeys: 4 }),
    ),
  })).node;
  const base = JSON.parse(readFileSync(new URL('../fixtures/agent/valid-success.json', import.meta.url), 'utf8'));
  fc.assert(
    fc.property(value, (result) => {
      const r = validateAgentResult({ ...base, result: { value: result } });
      assert.equal(r.ok, true, JSON.stringify(r.issues));
      assert.deepEqual(r.value.result.value, plain(result));
    }),
    RUNS,
  );
});

test('no string, however malformed, makes validation throw', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'grapheme' }),
        fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
      ),
      (s) => {
        for (const validate of [validateAgentResult, validateToolResult]) {
          const r = validate(s);
          assert.equal(typeof r.ok, 'boolean');
          if (!r.ok) assert.ok(r.issues.length > 0 && r.issues.every((i) => typeof i.code === 'string' && typeof i.path === 'string'));
        }
      },
    ),
    { numRuns: 1000 },
  );
});

test('no byte sequence makes validation throw', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      const r = validateToolResult(bytes);
      assert.equal(typeof r.ok, 'boolean');
    }),
    { numRuns: 1000 },
  );
});
