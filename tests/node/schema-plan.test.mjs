// The schema plan (docs/internals/schema-plan.md): values given as JS values are judged
// by a plan the engine compiled, evaluated in JS; values given as text always
// go through the engine. These tests prove the two agree (a property test
// over random schemas and values), that what is not JSON is still refused,
// and that patterns keep their bounded time through the plan. The JSON Schema
// Test Suite runs through both paths in tests/conformance/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { toolresult } from './helpers.mjs';

const { compileSchema, ToolResultError } = toolresult;

/** What a path answers: a verdict and its issues, or the error it threw. */
function outcome(f) {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof ToolResultError)) throw e;
    return { threw: e.code, issues: e.issues.map((i) => `${i.path} ${i.code}`) };
  }
}

const keys = ['a', 'b', 'c', 'ab', '__proto__'];
const strings = [
  '',
  'a',
  'ab',
  'abc',
  'A1',
  'x-y',
  'aaa',
  '2026-11-26',
  '2026-11-26T10:00:00Z',
  '2026-02-30T10:00:00Z',
  '10:00:00Z',
  'a@b.co',
  'not an email',
  'https://x.y/z?q=1#f',
  'http://[::1]:80/',
  '//no-scheme',
  '0b5e4d3c-2a19-4f7e-9c1d-000000000001',
  '0b5e4d3c2a194f7e9c1d000000000001',
  '192.168.0.1',
  '256.1.1.1',
  'example.com',
  '😀😀',
  'é',
  'e\u0301',
  'a\nb',
];
const str = fc.oneof(fc.constantFrom(...strings), fc.string({ maxLength: 5 }), fc.string({ unit: 'grapheme', maxLength: 3 }));
const num = fc.oneof(
  fc.integer({ min: -12, max: 12 }),
  fc.constantFrom(0.5, 1.5, -2.5, 3, 1e-7, 2.0000000001, 0.30000000000000004, 1e21, 4.0, 9007199254740991),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    num,
    str,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...keys), tie('value'), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o))),
  ),
}));

const patterns = ['^a', 'b$', '^[a-z]+$', '^[a-z][a-z0-9-]*$', '\\d', '^.$', '\\p{L}', 'é', '^(a|ab)+$', '(?<=a)b', '^\\w+$'];
const formats = [
  'date',
  'date-time',
  'time',
  'email',
  'uri',
  'uri-reference',
  'uuid',
  'ipv4',
  'ipv6',
  'hostname',
  'regex',
  'duration',
  'json-pointer',
  'no-such-format',
];
const small = fc.integer({ min: 0, max: 4 });
const limit = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(0.5, -1.5, 2.25, 1e-7));

/** Random schemas over every keyword the plan carries, and a few it does not. */
function schemas(dialect) {
  return fc.letrec((tie) => {
    const sub = tie('schema');
    const list = fc.array(sub, { minLength: 1, maxLength: 3 });
    const keyed = (arb) => fc.dictionary(fc.constantFrom(...keys), arb, { maxKeys: 3 });
    const keywords = {
      type: fc.oneof(
        fc.constantFrom('null', 'boolean', 'object', 'array', 'number', 'string', 'integer'),
        fc.uniqueArray(fc.constantFrom('null', 'string', 'integer', 'number', 'object'), { minLength: 1, maxLength: 3 }),
      ),
      enum: fc.array(value, { minLength: 1, maxLength: 4 }),
      const: value,
      minLength: small,
      maxLength: small,
      pattern: fc.constantFrom(...patterns),
      format: fc.constantFrom(...formats),
      minimum: limit,
      maximum: limit,
      exclusiveMinimum: limit,
      exclusiveMaximum: limit,
      multipleOf: fc.constantFrom(1, 2, 3, 0.5, 0.1, 1e-7),
      required: fc.uniqueArray(fc.constantFrom(...keys), { maxLength: 3 }),
      properties: keyed(sub),
      patternProperties: fc.dictionary(fc.constantFrom('^a', 'b', '^_', '^(a+)+$', '^[a-c]+$'), sub, { maxKeys: 2 }),
      additionalProperties: sub,
      propertyNames: sub,
      minProperties: small,
      maxProperties: small,
      items: dialect === '2020-12' ? sub : fc.oneof(sub, fc.array(sub, { maxLength: 3 })),
      additionalItems: sub,
      prefixItems: fc.array(sub, { maxLength: 3 }),
      contains: sub,
      minContains: small,
      maxContains: small,
      minItems: small,
      maxItems: small,
      uniqueItems: fc.boolean(),
      allOf: list,
      anyOf: list,
      oneOf: list,
      not: sub,
      if: sub,
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      then: sub,
      else: sub,
      dependentRequired: keyed(fc.uniqueArray(fc.constantFrom(...keys), { maxLength: 2 })),
      dependentSchemas: keyed(sub),
      dependencies: keyed(fc.oneof(sub, fc.uniqueArray(fc.constantFrom(...keys), { maxLength: 2 }))),
      $ref: fc.constantFrom('#/$defs/d', '#/definitions/d', '#/$defs/missing~1x'),
      unevaluatedProperties: sub,
      title: fc.string(),
    };
    // Each schema object uses a few keywords, so that most values reach them.
    const object = fc
      .shuffledSubarray(Object.keys(keywords), { minLength: 0, maxLength: 4 })
      .chain((names) => fc.record(Object.fromEntries(names.map((n) => [n, keywords[n]]))));
    return { schema: fc.oneof({ depthSize: 'small', maxDepth: 3 }, fc.boolean(), object, object, object) };
  }).schema;
}

const URIS = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

test('plan: by value and by text give the same verdict and the same issues, on random schemas and values', () => {
  let compiled = 0;
  let planned = 0;
  let judged = 0;
  for (const dialect of Object.keys(URIS)) {
    const root = schemas(dialect).chain((s) =>
      schemas(dialect).map((d) => (typeof s === 'object' ? { $schema: URIS[dialect], $defs: { d }, definitions: { d }, ...s } : s)),
    );
    fc.assert(
      fc.property(root, fc.array(value, { minLength: 1, maxLength: 6 }), fc.constantFrom('assert', 'annotate'), (schemaValue, values, formats) => {
        let schema;
        try {
          schema = compileSchema(schemaValue, { formats });
        } catch (e) {
          assert.ok(e instanceof ToolResultError, String(e));
          return; // not a valid schema: nothing to compare
        }
        compiled++;
        if (schema.planCovered) planned++;
        for (const v of values) {
          const text = JSON.stringify(v);
          const byValue = outcome(() => ({ valid: schema.isValid(v), issues: schema.validate(v) }));
          const byText = outcome(() => ({ valid: schema.isValidJson(text), issues: schema.validateJson(text) }));
          assert.deepEqual(byValue, byText, `schema ${JSON.stringify(schemaValue)}\nvalue ${text}`);
          if (byValue.valid !== undefined) assert.equal(byValue.valid, byValue.issues.length === 0);
          if (schema.planCovered) judged++;
        }
        schema.free();
      }),
      { numRuns: 400 },
    );
  }
  // The generator must reach the plan, or this test proves nothing.
  assert.ok(compiled > 600, `only ${compiled} schemas compiled`);
  assert.ok(planned > compiled * 0.4, `only ${planned} of ${compiled} schemas had a plan`);
  assert.ok(judged > 1000, `only ${judged} values were judged by a plan`);
});

test('plan: values with parts that are not JSON data get the verdict the engine gives them, wherever those parts sit', () => {
  // The evaluator vets a value while it judges it; a part that is not plain
  // JSON data (NaN, -0, undefined, a Date, an unsafe integer, a lone
  // surrogate, BigInt) must still send the value to the engine, whether the
  // walk reaches it before or after a failure. The reference is the same
  // schema with a keyword the plan does not carry (unevaluatedProperties:
  // true, which never fails), so every value goes to the engine.
  const odd = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, undefined, new Date(0), 2 ** 60, 'a\uD800', 10n, [undefined]);
  const { loose } = fc.letrec((tie) => ({
    loose: fc.oneof(
      { depthSize: 'small' },
      value,
      odd,
      fc.array(tie('loose'), { maxLength: 4 }),
      fc.array(fc.tuple(fc.constantFrom(...keys), tie('loose')), { maxLength: 4 }).map((entries) => {
        const o = {};
        for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        return o;
      }),
    ),
  }));
  // Whether a value holds a part the text path refuses or rewrites.
  const notData = (v) =>
    typeof v === 'object' && v !== null && !(v instanceof Date)
      ? Object.values(v).some(notData) || (Array.isArray(v) && v.includes(undefined))
      : !(typeof v === 'string'
          ? v.isWellFormed()
          : typeof v === 'boolean' || v === null || Number.isSafeInteger(v)
            ? !Object.is(v, -0)
            : Number.isFinite(v) && !Number.isInteger(v));
  let planned = 0;
  let odds = 0;
  for (const dialect of ['2020-12', '2019-09']) {
    const root = schemas(dialect).chain((s) => schemas(dialect).map((d) => (typeof s === 'object' ? { $schema: URIS[dialect], $defs: { d }, ...s } : s)));
    fc.assert(
      fc.property(root, fc.array(loose, { minLength: 1, maxLength: 6 }), (schemaValue, values) => {
        let schema;
        let reference;
        try {
          schema = compileSchema(schemaValue);
          const unplanned =
            typeof schemaValue === 'object' ? { unevaluatedProperties: true, ...schemaValue } : { allOf: [schemaValue], unevaluatedProperties: true };
          reference = compileSchema(unplanned);
        } catch (e) {
          assert.ok(e instanceof ToolResultError, String(e));
          return;
        }
        assert.equal(reference.planCovered, false);
        if (schema.planCovered) planned++;
        for (const v of values) {
          if (notData(v)) odds++;
          assert.deepEqual(
            outcome(() => schema.isValid(v)),
            outcome(() => reference.isValid(v)),
            `schema ${JSON.stringify(schemaValue)}\nvalue ${String(v)}`,
          );
        }
        schema.free();
        reference.free();
      }),
      { numRuns: 300 },
    );
  }
  assert.ok(planned > 200, `only ${planned} schemas had a plan`);
  assert.ok(odds > 300, `only ${odds} values held a part that is not JSON data`);
});

test('plan: recursive schemas through $ref, and a reference loop falls back to the engine', () => {
  const tree = compileSchema({
    $defs: { node: { type: 'object', required: ['v'], properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    $ref: '#/$defs/node',
  });
  assert.equal(tree.planCovered, true);
  const deep = { v: 1, kids: [{ v: 2, kids: [{ v: 3 }, { v: 4, kids: [] }] }] };
  assert.equal(tree.isValid(deep), true);
  deep.kids[0].kids[1].v = 'x';
  assert.equal(tree.isValid(deep), false);
  assert.deepEqual(
    tree.validate(deep).map((i) => i.path),
    ['/kids/0/kids/1/v'],
  );
  const loop = compileSchema({ $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } }, properties: { x: { $ref: '#/$defs/a' } } });
  assert.equal(loop.planCovered, false);
});

test('plan: values that are not JSON data are refused as before (invalid_value, with a path)', () => {
  const schema = compileSchema({ type: 'object', properties: { a: {} } });
  assert.equal(schema.planCovered, true);
  const cyclic = { a: {} };
  cyclic.a.self = cyclic;
  const refused = [
    [{ a: Number.NaN }, '/a', 'non_finite_number'],
    [{ a: [1, undefined] }, '/a/1', 'unsupported_value'],
    [{ a: new Date(0) }, '/a', 'unsupported_value'],
    [{ a: 10n }, '/a', 'unsupported_value'],
    [{ a: () => 1 }, '/a', 'unsupported_value'],
    [cyclic, '/a/self', 'cyclic_value'],
    [
      {
        get a() {
          throw new Error('boom');
        },
      },
      '/a',
      'unsupported_value',
    ],
  ];
  for (const [v, path, code] of refused) {
    for (const f of [() => schema.isValid(v), () => schema.validate(v)]) {
      assert.throws(f, (e) => e instanceof ToolResultError && e.code === 'invalid_value' && e.issues[0].path === path && e.issues[0].code === code);
    }
  }
  // What the engine's parser refuses in the text is refused in the value too.
  for (const v of [{ a: 'x\uD800' }, { a: 2 ** 60 }]) {
    assert.throws(
      () => schema.isValid(v),
      (e) => e instanceof ToolResultError && e.code === 'invalid_value',
    );
  }
  // Undefined members are left out, as JSON.stringify leaves them out.
  assert.equal(compileSchema({ required: ['a'] }).isValid({ a: undefined }), false);
  assert.equal(compileSchema({ maxProperties: 0 }).isValid({ a: undefined }), true);
  // And the module keeps working.
  assert.equal(schema.isValid({ a: 1 }), true);
});

test('plan: a catastrophic pattern still ends (bounded backtracking in the engine) wherever it sits', () => {
  const hostile = `${'a'.repeat(40)}!`;
  for (const schemaValue of [
    { pattern: '^(a+)+$' },
    { anyOf: [{ pattern: '^(a+)+$' }, { type: 'number' }] },
    { not: { pattern: '^(a|a)*$' } },
    { propertyNames: { pattern: '^(a+)+$' } },
    { patternProperties: { '^(a+)+$': { type: 'string' } }, additionalProperties: false },
    { items: { pattern: '^(?=(a+)+)(a+)+$' } },
  ]) {
    const schema = compileSchema(schemaValue);
    assert.equal(schema.planCovered, true, JSON.stringify(schemaValue));
    for (const v of [hostile, { [hostile]: 'x' }, [hostile]]) {
      const text = JSON.stringify(v);
      assert.equal(schema.isValid(v), schema.isValidJson(text), `${JSON.stringify(schemaValue)} on ${text}`);
      assert.deepEqual(schema.validate(v), schema.validateJson(text));
    }
  }
});

test('plan: a getter that validates another value while being read does not mix the two evaluations', () => {
  const schema = compileSchema({ type: 'object', properties: { a: { type: 'string', pattern: '^x' }, b: { type: 'string', format: 'email' } } });
  const inner = { a: 'no', b: 'x@y.co' };
  const seen = [];
  const outer = {
    get a() {
      seen.push(schema.isValid(inner));
      return 'xa';
    },
    b: 'a@b.co',
  };
  assert.equal(schema.isValid(outer), true);
  assert.ok(seen.length >= 1 && seen.every((v) => v === false));
});

test('plan: the evaluator generates no code (CSP without unsafe-eval)', () => {
  const source = readFileSync(new URL('../../bindings/typescript/dist/web/schema-plan.js', import.meta.url), 'utf8');
  assert.ok(source.includes('class SchemaPlan'));
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  assert.doesNotMatch(code, /\bnew Function\b|\beval\s*\(|\bFunction\s*\(/);
});

test("plan: patterns run as a JS RegExp give the engine's verdict on every string", () => {
  const atom = fc.constantFrom(
    'a',
    'b',
    '-',
    '\\/',
    '[a-c]',
    '[^/]',
    '\\d',
    '\\w',
    '\\D',
    'é',
    '😀',
    '(/[^/]+)',
    '(-[a-z]+)',
    '[0-9a-f]',
    '[^a-z]',
    '\\.',
    '(?:x[0-9]*)',
  );
  const quantifier = fc.constantFrom('', '', '?', '*', '+', '{2}', '{1,3}', '{0,}');
  const pattern = fc
    .array(fc.tuple(atom, quantifier), { minLength: 0, maxLength: 4 })
    .chain((items) =>
      fc.tuple(fc.constantFrom('^', '^', ''), fc.constantFrom('$', '$', '')).map(([a, z]) => `${a}${items.map(([x, q]) => x + q).join('')}${z}`),
    );
  const text = fc.array(fc.constantFrom('a', 'b', 'c', '-', '/', '0', '9', 'é', '😀', 'x', 'Z', '_', '.', 'f'), { maxLength: 8 }).map((cs) => cs.join(''));
  let inJs = 0;
  fc.assert(
    fc.property(pattern, fc.array(text, { minLength: 4, maxLength: 10 }), (p, strings) => {
      const schema = compileSchema({ type: 'string', pattern: p });
      if (JSON.parse(schema.planJson).nodes[0].patternJs !== undefined) inJs++;
      for (const s of strings) assert.equal(schema.isValid(s), schema.isValidJson(JSON.stringify(s)), `${p} on ${JSON.stringify(s)}`);
      schema.free();
    }),
    { numRuns: 1500 },
  );
  assert.ok(inJs > 300, `only ${inJs} patterns ran in JS`);
  // patternProperties keys take the same JS path when their pattern allows it.
  const keyed = JSON.parse(compileSchema({ patternProperties: { '^[a-z]+$': {}, '^(a+)+$': {} } }).planJson).nodes[0].patternProperties;
  assert.deepEqual(
    keyed.map((entry) => entry.length),
    [3, 2],
  );
});

test('plan: the plain forms the evaluator accepts for a format are all accepted by the engine', async () => {
  const { plainFormat } = await import(new URL('../../bindings/typescript/dist/web/schema-plan.js', import.meta.url).href);
  const pad = (n, w) => String(n).padStart(w, '0');
  const digits = (max) => fc.integer({ min: 0, max });
  const date = fc.tuple(digits(10000), digits(13), digits(32)).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
  const time = fc
    .tuple(
      digits(24),
      digits(60),
      digits(61),
      fc.constantFrom('', '.5', '.123456789', '.1234567890'),
      fc.constantFrom('Z', 'z', '+00:00', '-23:59', '+24:00', '+05:30', ''),
    )
    .map(([h, m, s, f, z]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${f}${z}`);
  const label = fc.stringMatching(/^[a-z0-9-]{0,66}$/);
  const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('.'));
  const hex = fc.stringMatching(/^[0-9a-fA-Fg-]{0,13}$/);
  const candidates = {
    date,
    time,
    'date-time': fc.tuple(date, fc.constantFrom('T', 't', ' '), time).map((p) => p.join('')),
    uuid: fc.oneof(
      fc.uuid(),
      fc.array(hex, { minLength: 5, maxLength: 5 }).map((p) => p.join('-')),
    ),
    ipv4: fc.oneof(
      fc.array(digits(300).map(String), { minLength: 4, maxLength: 4 }).map((p) => p.join('.')),
      fc
        .array(
          fc.oneof(
            digits(300).map(String),
            digits(99).map((n) => pad(n, 3)),
          ),
          { minLength: 3, maxLength: 5 },
        )
        .map((p) => p.join('.')),
    ),
    hostname: host,
    email: fc.oneof(
      fc.tuple(fc.stringMatching(/^[a-z0-9_+.%-]{0,66}$/), host).map(([l, h]) => `${l}@${h}`),
      fc.tuple(fc.stringMatching(/^[a-z0-9_+-]{1,8}(\.[a-z0-9]{1,4})?$/), fc.stringMatching(/^[a-z]{1,8}(\.[a-z]{1,8}){1,2}$/)).map(([l, h]) => `${l}@${h}`),
    ),
    uri: fc
      .tuple(
        fc.constantFrom('http', 'https', 'a+b', 'x.y-z', '1a'),
        host,
        fc.constantFrom('', ':80', ':0', ':65536', ':8080'),
        fc.stringMatching(/^[a-z0-9/?#%:@!$&'()*+,;=~._-]{0,12}$/),
      )
      .map(([s, h, p, rest]) => `${s}://${h}${p}${rest.startsWith('/') || rest.startsWith('?') || rest.startsWith('#') || rest === '' ? rest : `/${rest}`}`),
  };
  for (const dialect of ['2020-12', 'draft-07']) {
    for (const [name, arb] of Object.entries(candidates)) {
      const plain = plainFormat(name);
      assert.ok(plain, name);
      const engine = compileSchema({ format: name }, { defaultDialect: dialect });
      let accepted = 0;
      fc.assert(
        fc.property(arb, (s) => {
          if (!plain.test(s)) return;
          accepted++;
          assert.equal(engine.isValidJson(JSON.stringify(s)), true, `${name} ${JSON.stringify(s)} (${dialect})`);
        }),
        { numRuns: 3000 },
      );
      assert.ok(accepted > 100, `${name}: only ${accepted} candidates took the plain path`);
    }
  }
});

test('plan: ToolRegistry.validateOutput / validateInput by value agree with the engine, and follow re-registration', () => {
  const { ToolRegistry } = toolresult;
  const output = { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0 }, tag: { type: 'string', pattern: '^[a-z]+$' } } };
  const input = { type: 'object', properties: { q: { type: 'string', minLength: 2 } }, additionalProperties: false };
  const registry = new ToolRegistry().register({ name: 'count', inputSchema: input, outputSchema: output });
  const engineOut = compileSchema(output);
  const engineIn = compileSchema(input);
  fc.assert(
    fc.property(value, value, (out, params) => {
      const byEngine = (schema, v) => {
        const issues = schema.validateJson(JSON.stringify(v));
        return { ok: issues.length === 0, issues };
      };
      assert.deepEqual(
        outcome(() => registry.validateOutput('count', out)),
        outcome(() => byEngine(engineOut, out)),
      );
      assert.deepEqual(
        outcome(() => registry.validateInput('count', params)),
        outcome(() => byEngine(engineIn, params)),
      );
    }),
    { numRuns: 500 },
  );
  assert.deepEqual(registry.validateOutput('count', { n: 3, tag: 'ok' }), { ok: true, issues: [] });
  assert.equal(registry.validateOutput('count', { n: -1 }).issues[0].path, '/n');
  assert.equal(registry.validateOutput('count', undefined).issues[0].code, 'missing_output');
  // A changed schema replaces the plan with it.
  registry.register({ name: 'count', outputSchema: { type: 'object', required: ['m'] } });
  assert.equal(registry.validateOutput('count', { n: 3 }).ok, false);
  assert.equal(registry.validateOutput('count', { m: 1 }).ok, true);
  registry.unregister('count');
  assert.throws(
    () => registry.validateOutput('count', { m: 1 }),
    (e) => e instanceof ToolResultError && e.code === 'unknown_tool',
  );
});

test('plan: members are what the JSON text holds (non-enumerable properties are not members)', () => {
  const schema = compileSchema({ type: 'object', required: ['a'], properties: { b: { type: 'string' } }, dependentRequired: { c: ['a'] } });
  const hidden = (o, k, v) => Object.defineProperty(o, k, { value: v, enumerable: false });
  for (const v of [hidden({}, 'a', 1), hidden({ a: 1 }, 'b', 5), hidden({ c: 1 }, 'a', 1), hidden({ a: 1 }, 'c', 1)]) {
    const text = JSON.stringify(v);
    assert.equal(schema.isValid(v), schema.isValidJson(text), text);
    assert.deepEqual(schema.validate(v), schema.validateJson(text));
  }
  assert.equal(compileSchema({ const: { a: 1 } }).isValid(hidden({ a: 1 }, 'b', 2)), true);
});
