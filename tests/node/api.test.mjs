// The package API: parse/validate contracts, builders, status info, options,
// and bad input that must come back as typed issues (never a crash).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { brief, readFixture, toolresult } from './helpers.mjs';

const {
  ToolResultError,
  createFailure,
  createSuccess,
  defaultOptions,
  parseAgentResult,
  parseToolResult,
  statusInfo,
  validateAgentResult,
  validateToolResult,
} = toolresult;

const agentText = readFixture('agent/valid-success.json').toString('utf8');
const agent = () => JSON.parse(agentText);
const toolText = readFixture('tool/valid-success.json').toString('utf8');
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The module still works: a known-good input validates. */
function assertAlive() {
  assert.equal(validateAgentResult(agentText).ok, true, 'module stopped working');
}

function codeOf(result) {
  assert.equal(result.ok, false, 'expected issues');
  return result.issues.map((i) => i.code);
}

describe('parse', () => {
  test('returns the value for valid input', () => {
    assert.deepEqual(parseAgentResult(agentText), agent());
    assert.equal(parseToolResult(toolText).input.tool_name, 'read_file');
  });

  test('throws a ToolResultError that is a real Error with code and issues', () => {
    const bad = { ...agent(), success: false, status: 'failed' };
    let caught;
    try {
      parseAgentResult(bad);
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof ToolResultError);
    assert.ok(caught instanceof Error);
    assert.equal(caught.name, 'ToolResultError');
    assert.equal(caught.code, 'invalid_agent_result');
    assert.deepEqual(brief(caught.issues), ['/error missing_error']);
    assert.match(caught.message, /\/error: status `failed` requires/);
    assert.ok(caught.stack.includes('ToolResultError'));
    assert.throws(
      () => parseToolResult('{'),
      (e) => e.code === 'invalid_tool_result' && e.issues[0].code === 'invalid_json',
    );
  });
});

describe('createSuccess / createFailure', () => {
  test('stamps id, times and output size, and the result validates', () => {
    const output = { content: 'héllo wörld', lines: [1, 2, 3] };
    const before = Date.now();
    const r = createSuccess({ input: { tool_name: 'read_file', parameters: { path: 'a.txt' } }, output, duration_ms: 40 });
    const after = Date.now();
    assert.match(r.metadata.execution_id, UUID_V4);
    assert.equal(r.status, 'success');
    assert.equal(r.metadata.output_size, Buffer.byteLength(JSON.stringify(output)));
    assert.equal(r.metadata.duration_ms, 40);
    const completed = Date.parse(r.metadata.completed_at);
    assert.ok(completed >= before && completed <= after, 'completed_at is now');
    assert.equal(completed - Date.parse(r.metadata.started_at), 40);
    assert.equal(r.metadata.output_truncated, false);
    assert.deepEqual(r.output, output);
    assert.equal(validateToolResult(r).ok, true);
    const other = createSuccess({ input: { tool_name: 'read_file' } });
    assert.notEqual(other.metadata.execution_id, r.metadata.execution_id);
    assert.deepEqual(other.input.parameters, {});
  });

  test('accepts Date and epoch-millisecond times', () => {
    const r = createSuccess({
      input: { tool_name: 't' },
      started_at: new Date('2026-01-01T00:00:00Z'),
      completed_at: Date.parse('2026-01-01T00:00:01.500Z'),
    });
    assert.equal(r.metadata.started_at, '2026-01-01T00:00:00.000Z');
    assert.equal(r.metadata.duration_ms, 1500);
  });

  test('createFailure carries the error and validates', () => {
    const r = createFailure({
      input: { tool_name: 'read_file', parameters: { path: 'nope' }, tool_call_id: 'toolu_1' },
      status: 'permission_denied',
      error_code: 'PERMISSION_DENIED',
      error_message: 'not allowed',
      agent_id: '3e8b7a6f-5d4c-4b0a-8f4a-8d9e0f1a2b3c',
    });
    assert.equal(r.status, 'permission_denied');
    assert.equal(r.error_code, 'PERMISSION_DENIED');
    assert.equal(r.metadata.agent_id, '3e8b7a6f-5d4c-4b0a-8f4a-8d9e0f1a2b3c');
    assert.equal(r.output, undefined);
    assert.equal(validateToolResult(r).ok, true);
  });

  test('a bad spec throws invalid_spec with paths into the spec', () => {
    const cases = [
      [{ input: { tool_name: 't' }, status: 'success', error_code: 'X', error_message: 'm' }, '/status invalid_enum', createFailure],
      [{ input: { tool_name: 't' }, status: 'failed', error_code: 'bad code', error_message: 'm' }, '/error_code invalid_error_code', createFailure],
      [{ input: { tool_name: 't' }, status: 'failed' }, '/error_code missing_error', createFailure],
      [{ input: {} }, '/input/tool_name missing_field', createSuccess],
      [{ input: { tool_name: 't' }, batch_index: 1 }, '/batch_index batch_index_without_batch', createSuccess],
      [{ input: { tool_name: 't' }, output: { n: NaN } }, '/output/n non_finite_number', createSuccess],
      [{ input: { tool_name: 't' }, started_at: 'yesterday' }, '/started_at invalid_timestamp', createSuccess],
      [{ input: { tool_name: 't' }, bogus: 1 }, '/bogus unknown_field', createSuccess],
    ];
    for (const [spec, want, fn] of cases) {
      assert.throws(
        () => fn(spec),
        (e) => e instanceof ToolResultError && e.code === 'invalid_spec' && brief(e.issues).includes(want),
        want,
      );
    }
    assert.throws(
      () => createSuccess(null),
      (e) => e.code === 'invalid_spec',
    );
    assertAlive();
  });
});

describe('statusInfo', () => {
  test('tool statuses keep their seed codes and categories', () => {
    const expected = {
      success: [0, 'success'],
      timeout: [1, 'termination'],
      cancelled: [2, 'termination'],
      requires_confirmation: [3, 'termination'],
      permission_denied: [10, 'authorization'],
      license_required: [11, 'authorization'],
      validation_error: [20, 'validation'],
      output_validation_failed: [21, 'validation'],
      failed: [30, 'execution'],
      tool_not_found: [31, 'execution'],
      rate_limited: [32, 'execution'],
      sandbox_error: [40, 'sandbox'],
      security_violation: [41, 'sandbox'],
      resource_limit_exceeded: [42, 'sandbox'],
    };
    for (const [name, [code, category]] of Object.entries(expected)) {
      const info = statusInfo(name);
      assert.equal(info.code, code, name);
      assert.equal(info.category, category, name);
      assert.equal(info.success, name === 'success', name);
    }
    assert.equal(statusInfo('rate_limited').retryable, true);
    assert.equal(statusInfo('permission_denied').retryable, false);
    assert.equal(statusInfo('requires_confirmation').terminal, false);
  });

  test('agent statuses, and unknown names', () => {
    assert.deepEqual(statusInfo('running', 'agent'), { code: null, category: 'in_progress', success: false, terminal: false, retryable: false });
    assert.equal(statusInfo('queued').category, 'in_progress');
    assert.equal(statusInfo('failed', 'agent').code, 30);
    assert.throws(
      () => statusInfo('running', 'tool'),
      (e) => e.code === 'unknown_status',
    );
    assert.throws(
      () => statusInfo('exploded'),
      (e) => e instanceof ToolResultError && e.code === 'unknown_status',
    );
  });
});

describe('options', () => {
  test('agent types: strict by default, widened on request', () => {
    const research = { ...agent(), agent_type: 'research' };
    assert.deepEqual(codeOf(validateAgentResult(research)), ['invalid_enum']);
    assert.equal(validateAgentResult(research, { allowUnknownAgentTypes: true }).ok, true);
    assert.equal(validateAgentResult(research, { extraAgentTypes: ['research'] }).ok, true);
    assert.equal(validateAgentResult(research, { extraAgentTypes: ['other'] }).ok, false);
  });

  test('maxIssues caps the report and says so', () => {
    const r = validateAgentResult({ a: 1, b: 2, c: 3, d: 4, e: 5 }, { maxIssues: 3 });
    assert.equal(r.issues.length, 4);
    assert.equal(r.issues[3].code, 'too_many_issues');
  });

  test('maxDepth and maxBytes apply to every input form', () => {
    const deep = { ...agent(), result: { a: { b: { c: {} } } } };
    assert.deepEqual(brief(validateAgentResult(deep, { maxDepth: 3 }).issues), ['/result/a/b too_deep']);
    assert.deepEqual(brief(validateAgentResult(JSON.stringify(deep), { maxDepth: 3 }).issues), ['/result/a/b too_deep']);
    assert.deepEqual(codeOf(validateAgentResult(agentText, { maxBytes: 100 })), ['too_large']);
    assert.deepEqual(codeOf(validateAgentResult(Buffer.from(agentText), { maxBytes: 100 })), ['too_large']);
    assert.deepEqual(codeOf(validateAgentResult(agent(), { maxBytes: 100 })), ['too_large']);
  });

  test('bad options throw invalid_options', () => {
    for (const bad of [{ maxDepth: 0 }, { maxDepth: 1000 }, { maxIssues: 0 }, { nope: true }, { maxBytes: 'big' }, { durationToleranceMs: -1 }]) {
      assert.throws(
        () => validateAgentResult(agentText, bad),
        (e) => e instanceof ToolResultError && e.code === 'invalid_options',
        JSON.stringify(bad),
      );
    }
    assertAlive();
  });

  test('defaults are documented values', () => {
    const d = defaultOptions();
    assert.equal(d.maxBytes, 64 * 1024 * 1024);
    assert.equal(d.maxDepth, 128);
    assert.equal(d.maxIssues, 100);
    d.extraAgentTypes.push('x');
    assert.deepEqual(defaultOptions().extraAgentTypes, [], 'callers cannot change the defaults');
  });
});

describe('bad input never crashes and is never silently changed', () => {
  const wrap = (result) => ({ ...agent(), result });
  const cases = [
    ['NaN', wrap({ x: NaN }), '/result/x non_finite_number'],
    ['Infinity', wrap({ x: [-Infinity] }), '/result/x/0 non_finite_number'],
    ['BigInt', wrap({ x: 10n }), '/result/x unsupported_value'],
    ['undefined in an array', wrap({ x: [1, undefined] }), '/result/x/1 unsupported_value'],
    ['a function', wrap({ f() {} }), '/result/f unsupported_value'],
    ['a symbol', wrap({ s: Symbol('s') }), '/result/s unsupported_value'],
    ['a Date', wrap({ when: new Date(0) }), '/result/when unsupported_value'],
    ['a Map', wrap({ m: new Map() }), '/result/m unsupported_value'],
    ['a class instance', wrap({ c: new (class Point {})() }), '/result/c unsupported_value'],
    ['a lone surrogate in a string', wrap({ s: 'a\uD800' }), '/result/s lone_surrogate'],
    // The key itself has no UTF-8 form, so the issue points at its object.
    ['a lone surrogate in a key', wrap({ 'k\uDC00': 1 }), '/result lone_surrogate'],
  ];
  for (const [name, input, want] of cases) {
    test(name, () => {
      assert.deepEqual(brief(validateAgentResult(input).issues), [want]);
      assertAlive();
    });
  }

  test('a cycle', () => {
    const result = { a: {} };
    result.a.self = result;
    assert.deepEqual(brief(validateAgentResult(wrap(result)).issues), ['/result/a/self cyclic_value']);
    const shared = { n: 1 };
    assert.equal(validateAgentResult(wrap({ a: shared, b: shared })).ok, true, 'shared references are not cycles');
  });

  test('a cycle through an array, after deeper siblings; a getter that throws', () => {
    const inner = { list: [{ deep: { deeper: [1] } }, {}] };
    inner.list[1].back = inner;
    assert.deepEqual(brief(validateAgentResult(wrap({ a: { b: inner } })).issues), ['/result/a/b/list/1/back cyclic_value']);
    const getter = { first: { x: { y: [1, 2] } } };
    Object.defineProperty(getter, 'second', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const r = validateAgentResult(wrap(getter));
    assert.deepEqual(brief(r.issues), ['/result/second unsupported_value']);
    assert.match(r.issues[0].message, /boom/);
    // Enumerable properties added to Object.prototype are not the value's own.
    Object.prototype.polluted = 1;
    try {
      assert.deepEqual(validateAgentResult(wrap({ k: 1 })).value.result, { k: 1 });
    } finally {
      delete Object.prototype.polluted;
    }
  });

  test('10,000-deep JS object and 100,000-deep JSON text', () => {
    let deep = {};
    for (let i = 0; i < 10000; i++) deep = { d: deep };
    assert.deepEqual(codeOf(validateAgentResult(wrap(deep))), ['too_deep']);
    assert.deepEqual(codeOf(validateAgentResult('['.repeat(100000))), ['too_deep']);
    assertAlive();
  });

  test('text-level problems', () => {
    const cases = [
      ['', 'invalid_json'],
      [' \n\t ', 'invalid_json'],
      [`\uFEFF${agentText}`, 'invalid_json'],
      [`${agentText} x`, 'invalid_json'],
      [agentText.replace('"framework": "next"', '"framework": 1e400'), 'number_out_of_range'],
      [agentText.replace('"tokens_used": 1830', '"tokens_used": -9007199254740993'), 'unsafe_integer'],
      [agentText.replace('"framework": "next"', '"framework": NaN'), 'invalid_json'],
      ['"\uD800"', 'lone_surrogate'],
    ];
    for (const [text, code] of cases) {
      assert.deepEqual(codeOf(validateAgentResult(text)), [code], JSON.stringify(text.slice(0, 40)));
    }
    assert.deepEqual(codeOf(validateAgentResult(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]))), ['invalid_utf8']);
    assertAlive();
  });

  test('__proto__, constructor and prototype keys stay plain data', () => {
    const text = agentText.replace('"framework": "next"', '"__proto__": {"polluted": true}, "constructor": {"prototype": 1}');
    const r = validateAgentResult(text);
    assert.equal(r.ok, true);
    assert.equal(Object.getPrototypeOf(r.value.result), Object.prototype);
    assert.ok(Object.hasOwn(r.value.result, '__proto__'));
    // biome-ignore lint/suspicious/noProto: the result's own "__proto__" key, not the prototype
    assert.deepEqual(r.value.result.__proto__, { polluted: true });
    assert.equal({}.polluted, undefined);
    const again = validateAgentResult(r.value);
    assert.equal(again.ok, true);
    assert.ok(Object.hasOwn(again.value.result, '__proto__'), 'kept when given as a JS value too');
  });

  test('getters run once, -0 is kept, undefined properties are absent', () => {
    let reads = 0;
    const result = {
      get counted() {
        reads++;
        return 1;
      },
      zero: -0,
      gone: undefined,
    };
    const r = validateAgentResult(wrap(result));
    assert.equal(r.ok, true);
    assert.equal(reads, 1);
    assert.ok(Object.is(r.value.result.zero, -0));
    assert.ok(!('gone' in r.value.result));
  });
});
