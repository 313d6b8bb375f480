// The adversarial corpus: inputs built to crash, hang or fool a validator.
// Each case names its input and the typed outcome it must get: `ok` (valid,
// and unchanged) or the issue `code` expected first. After each case the
// runner validates a good input, to show the module is still alive.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const goodAgentText = readFileSync(path.join(fixtures, 'agent/valid-success.json'), 'utf8');
export const goodToolText = readFileSync(path.join(fixtures, 'tool/valid-success.json'), 'utf8');
const agent = () => JSON.parse(goodAgentText);
const withResult = (result) => ({ ...agent(), result });
const textWithResult = (resultText) => goodAgentText.replace(/"result": \{[^}]*\}/, `"result": ${resultText}`);

function nested(depth, leaf = {}) {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { d: v };
  return v;
}

/** Keys that are special to JS objects, at every level of the envelope. */
const SPECIAL_KEYS = ['__proto__', 'constructor', 'prototype'];
function specialKeysText() {
  const obj = (inner) => `{${SPECIAL_KEYS.map((k) => `"${k}": ${inner}`).join(', ')}}`;
  return textWithResult(obj(obj(obj('{"polluted": true}'))));
}

export const cases = [
  // --- size and depth
  { name: 'JSON text nested 100,000 deep', input: () => '['.repeat(100_000) + ']'.repeat(100_000), expect: 'too_deep' },
  { name: 'unclosed nesting 100,000 deep', input: () => '{"a":'.repeat(100_000), expect: 'too_deep' },
  { name: 'JS object nested 10,000 deep', input: () => withResult(nested(10_000)), expect: 'too_deep' },
  {
    name: 'JS array nested 10,000 deep',
    input: () => {
      let v = [];
      for (let i = 0; i < 10_000; i++) v = [v];
      return withResult({ v });
    },
    expect: 'too_deep',
  },
  // Depth counts the envelope (1) and `result` (2): 126 arrays reach 128.
  { name: 'nesting at exactly maxDepth is fine', input: () => textWithResult(`{"a": ${'['.repeat(126)}${']'.repeat(126)}}`), expect: 'ok' },
  { name: 'nesting one past maxDepth', input: () => textWithResult(`{"a": ${'['.repeat(127)}${']'.repeat(127)}}`), expect: 'too_deep' },
  {
    name: 'cyclic JS object',
    input: () => {
      const r = { a: { b: {} } };
      r.a.b.back = r;
      return withResult(r);
    },
    expect: 'cyclic_value',
  },
  {
    name: 'cyclic JS array',
    input: () => {
      const a = [1];
      a.push(a);
      return withResult({ a });
    },
    expect: 'cyclic_value',
  },
  { name: '100 MB string', input: () => 'x'.repeat(100 * 1024 * 1024), expect: 'too_large' },
  { name: '100 MB string value inside a JS object', input: () => withResult({ s: 'x'.repeat(100 * 1024 * 1024) }), expect: 'too_large' },
  { name: 'input over a lowered maxBytes', input: () => goodAgentText, options: { maxBytes: 64 }, expect: 'too_large' },
  { name: 'Uint8Array over maxBytes', input: () => new Uint8Array(70 * 1024 * 1024), expect: 'too_large' },
  { name: '1,000,000-element array in the payload', input: () => textWithResult(`{"items": [${new Array(1_000_000).fill('0').join(',')}]}`), expect: 'ok' },
  { name: '1,000,000-element JS array in the payload', input: () => withResult({ items: new Array(1_000_000).fill(1) }), expect: 'ok' },
  { name: '1 MB key', input: () => withResult({ ['k'.repeat(1024 * 1024)]: 1 }), expect: 'ok' },
  {
    name: '100,000 unknown fields',
    input: () => Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`f${i}`, i])),
    expect: 'unknown_field',
    check: (r) => r.issues.length === 101 && r.issues[100].code === 'too_many_issues',
  },
  {
    name: 'object with 50,000 keys, one duplicated (text)',
    input: () => textWithResult(`{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(',')},"k49":1}`),
    expect: 'duplicate_key',
  },

  // Found by the `envelope` fuzz target: a capped report must list the first
  // issues in document order, whichever internal path produced it.
  {
    name: 'legacy TaskResult with maxIssues 3',
    input: () => readFileSync(path.join(fixtures, 'agent/invalid-legacy-task-result.json'), 'utf8'),
    options: { maxIssues: 3 },
    expect: 'invalid_enum',
    check: (r) => r.issues.map((i) => `${i.path} ${i.code}`).join(',') === '/status invalid_enum,/output unknown_field,/errors unknown_field, too_many_issues',
  },
  {
    // The repeated key is the input problem, found before the issue that would fill the report.
    name: 'a repeated unknown key where the report fills up, with maxIssues 3',
    input: () => '{"input":{},"status":"success","tool_metadata":{},"metadata":{},"metadata":{}}',
    options: { maxIssues: 3 },
    expect: 'duplicate_key',
    check: (r) => r.issues.length === 1 && r.issues[0].path === '/metadata',
  },
  {
    // `01` is refused as text before its value is checked against the field's rule.
    name: 'a number with a leading zero after an issue, with maxIssues 1',
    input: () => '{"a":1,"task_id":01}',
    options: { maxIssues: 1 },
    expect: 'invalid_json',
    check: (r) => r.issues.length === 1 && r.issues[0].path === '/task_id',
  },

  // --- keys special to JavaScript
  {
    name: '__proto__/constructor/prototype at every level (text)',
    input: specialKeysText,
    expect: 'ok',
    check: (r) =>
      Object.getPrototypeOf(r.value.result) === Object.prototype &&
      Object.hasOwn(r.value.result, '__proto__') &&
      Object.hasOwn(r.value.result.__proto__, '__proto__') &&
      {}.polluted === undefined,
  },
  {
    name: '__proto__ keys as a JS value (from JSON.parse)',
    input: () => JSON.parse(specialKeysText()),
    expect: 'ok',
    check: (r) => Object.hasOwn(r.value.result.constructor, 'prototype') && Object.getPrototypeOf(r.value) === Object.prototype,
  },
  {
    name: '__proto__ at the top level is an unknown field',
    input: () => goodAgentText.replace('{', '{"__proto__": {"x": 1},'),
    expect: 'unknown_field',
    check: (r) => r.issues[0].path === '/__proto__',
  },
  {
    name: 'keys with / and ~ are escaped in paths',
    input: () => ({ ...agent(), 'a/b~c': 1 }),
    expect: 'unknown_field',
    check: (r) => r.issues[0].path === '/a~1b~0c',
  },

  // --- text encoding
  { name: 'lone high surrogate in a JS string', input: () => withResult({ s: 'a\uD83D' }), expect: 'lone_surrogate' },
  { name: 'lone low surrogate in JSON text', input: () => textWithResult('{"s": "\uDC00"}'), expect: 'lone_surrogate' },
  { name: 'escaped lone surrogate in JSON text', input: () => textWithResult('{"s": "\\ud800"}'), expect: 'lone_surrogate' },
  { name: 'surrogate pair is fine', input: () => textWithResult('{"s": "😀 \\ud83d\\ude00"}'), expect: 'ok', check: (r) => r.value.result.s === '😀 😀' },
  {
    name: 'invalid UTF-8 in a Uint8Array',
    input: () => {
      const b = Buffer.from(textWithResult('{"s": "XX"}'));
      b[b.indexOf('XX')] = 0xc3;
      b[b.indexOf('X')] = 0x28;
      return new Uint8Array(b);
    },
    expect: 'invalid_utf8',
  },
  {
    name: 'invalid UTF-8 in a Buffer',
    input: () => Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    expect: 'invalid_utf8',
  },
  { name: 'overlong UTF-8 encoding', input: () => Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]), expect: 'invalid_utf8' },
  { name: 'BOM before the JSON text', input: () => `\uFEFF${goodAgentText}`, expect: 'invalid_json' },
  { name: 'BOM in bytes', input: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(goodAgentText)]), expect: 'invalid_json' },
  { name: 'empty input', input: () => '', expect: 'invalid_json' },
  { name: 'whitespace-only input', input: () => ' \t\r\n ', expect: 'invalid_json' },
  { name: 'trailing garbage', input: () => `${goodAgentText}}`, expect: 'invalid_json' },
  { name: 'two JSON documents', input: () => goodAgentText + goodAgentText, expect: 'invalid_json' },
  { name: 'raw control character in a string', input: () => textWithResult('{"s": "a\u0001b"}'), expect: 'invalid_json' },
  { name: 'escaped NUL in a string is fine', input: () => textWithResult('{"s": "a\\u0000b"}'), expect: 'ok', check: (r) => r.value.result.s === 'a\u0000b' },
  {
    name: 'U+2028 and U+2029 in strings are fine',
    input: () => withResult({ s: '\u2028\u2029' }),
    expect: 'ok',
    check: (r) => r.value.result.s === '\u2028\u2029',
  },
  { name: 'single-quoted JSON', input: () => "{'task_id': 't'}", expect: 'invalid_json' },
  { name: 'comments in JSON', input: () => `// hi\n${goodAgentText}`, expect: 'invalid_json' },

  // --- numbers
  { name: 'NaN in a JS value', input: () => withResult({ n: NaN }), expect: 'non_finite_number' },
  { name: '+Infinity in a JS value', input: () => withResult({ n: Infinity }), expect: 'non_finite_number' },
  {
    name: '-Infinity in metrics',
    input: () => ({ ...agent(), metrics: { duration_ms: -Infinity } }),
    expect: 'non_finite_number',
    check: (r) => r.issues[0].path === '/metrics/duration_ms',
  },
  { name: 'NaN literal in JSON text', input: () => textWithResult('{"n": NaN}'), expect: 'invalid_json' },
  { name: '-0 in a JS value is kept', input: () => withResult({ z: -0 }), expect: 'ok', check: (r) => Object.is(r.value.result.z, -0) },
  { name: '-0 in JSON text is kept', input: () => textWithResult('{"z": -0}'), expect: 'ok', check: (r) => Object.is(r.value.result.z, -0) },
  {
    name: 'integer above 2^53 in JSON text',
    input: () => textWithResult('{"id": 9007199254740993}'),
    expect: 'unsafe_integer',
    check: (r) => r.issues[0].path === '/result/id',
  },
  { name: 'integer below -2^53 in JSON text', input: () => textWithResult('{"id": -9007199254740993}'), expect: 'unsafe_integer' },
  { name: '2^60 as a JS number', input: () => withResult({ id: 2 ** 60 }), expect: 'unsafe_integer' },
  { name: 'MAX_SAFE_INTEGER is fine', input: () => withResult({ id: Number.MAX_SAFE_INTEGER }), expect: 'ok' },
  { name: 'BigInt', input: () => withResult({ id: 10n }), expect: 'unsupported_value' },
  { name: '1e400', input: () => textWithResult('{"n": 1e400}'), expect: 'number_out_of_range' },
  { name: '-1e400', input: () => textWithResult('{"n": -1e400}'), expect: 'number_out_of_range' },
  { name: '1e-400 underflows to 0, which is representable', input: () => textWithResult('{"n": 1e-400}'), expect: 'ok' },
  {
    name: 'duplicate top-level key',
    input: () => goodAgentText.replace('{', '{"status": "failed",'),
    expect: 'duplicate_key',
    check: (r) => r.issues[0].path === '/status',
  },
  {
    name: 'duplicate nested key',
    input: () => textWithResult('{"a": {"x": 1, "x": 1}}'),
    expect: 'duplicate_key',
    check: (r) => r.issues[0].path === '/result/a/x',
  },

  // --- live JS objects
  {
    name: 'getter runs exactly once',
    input: () => {
      const state = { reads: 0 };
      const result = {
        get g() {
          state.reads++;
          return state.reads;
        },
      };
      return { value: withResult(result), state };
    },
    unwrap: true,
    expect: 'ok',
    check: (r, input) => input.state.reads === 1 && r.value.result.g === 1,
  },
  {
    name: 'getter that throws',
    input: () =>
      withResult({
        get boom() {
          throw new Error('no');
        },
      }),
    expect: 'unsupported_value',
    check: (r) => r.issues[0].path === '/result/boom',
  },
  { name: 'Proxy over a plain object', input: () => withResult(new Proxy({ a: 1 }, {})), expect: 'ok', check: (r) => r.value.result.a === 1 },
  {
    name: 'Proxy whose traps throw',
    input: () =>
      withResult(
        new Proxy(
          {},
          {
            ownKeys() {
              throw new Error('trap');
            },
          },
        ),
      ),
    expect: 'unsupported_value',
  },
  {
    name: 'revoked Proxy',
    input: () => {
      const p = Proxy.revocable({}, {});
      p.revoke();
      return withResult(p.proxy);
    },
    expect: 'unsupported_value',
  },
  { name: 'Date', input: () => withResult({ when: new Date(0) }), expect: 'unsupported_value' },
  { name: 'Map', input: () => withResult({ m: new Map([['a', 1]]) }), expect: 'unsupported_value' },
  { name: 'Set', input: () => withResult({ s: new Set([1]) }), expect: 'unsupported_value' },
  { name: 'function', input: () => withResult({ f: () => 1 }), expect: 'unsupported_value' },
  {
    name: 'class instance',
    input: () =>
      withResult({
        c: new (class Point {
          x = 1;
        })(),
      }),
    expect: 'unsupported_value',
  },
  { name: 'boxed string', input: () => withResult({ s: new String('x') }), expect: 'unsupported_value' },
  { name: 'typed array value', input: () => withResult({ bytes: new Uint8Array(2) }), expect: 'unsupported_value' },
  { name: 'symbol value', input: () => withResult({ s: Symbol('x') }), expect: 'unsupported_value' },
  { name: 'undefined as the whole input', input: () => undefined, expect: 'unsupported_value' },
  { name: 'sparse array', input: () => withResult({ a: [1, , 3] }), expect: 'unsupported_value' },
  {
    name: 'Object.create(null) is plain data',
    input: () => withResult(Object.assign(Object.create(null), { a: 1 })),
    expect: 'ok',
    check: (r) => Object.getPrototypeOf(r.value.result) === Object.prototype,
  },
  { name: 'frozen objects are fine', input: () => Object.freeze(withResult(Object.freeze({ a: 1 }))), expect: 'ok' },
  { name: 'a number is not an envelope', input: () => 42, expect: 'invalid_type', check: (r) => r.issues[0].path === '' },
  { name: 'null is not an envelope', input: () => null, expect: 'invalid_type' },
  { name: 'an array is not an envelope', input: () => [agent()], expect: 'invalid_type' },
  { name: 'a ToolResult where an AgentResult is expected', input: () => goodToolText, expect: 'unknown_field' },

  // --- options
  { name: 'maxDepth: Infinity', input: () => goodAgentText, options: { maxDepth: Infinity }, throws: 'invalid_options' },
  { name: 'maxBytes: -1', input: () => goodAgentText, options: { maxBytes: -1 }, throws: 'invalid_options' },
  { name: 'maxIssues: NaN', input: () => goodAgentText, options: { maxIssues: NaN }, throws: 'invalid_options' },
  {
    name: 'options with a getter that throws',
    input: () => goodAgentText,
    options: {
      get maxDepth() {
        throw new Error('x');
      },
    },
    throws: 'invalid_options',
  },
];
