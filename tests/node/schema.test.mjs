// compileSchema and ToolRegistry through the built package (Node or browser
// build): dialects, compile errors, references, bounded patterns, the
// registry's cache, the result flow of docs/spec.md §7 and MCP Tool / CallToolResult.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { toolresult } from './helpers.mjs';

const { compileSchema, ToolRegistry, ToolResultError, createSuccess, createFailure, validateToolResult } = toolresult;

const mcpDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'conformance', 'mcp-schema');
const MCP_REVISIONS = ['2025-11-25', '2026-07-28'];
const mcpSchema = (rev) => JSON.parse(readFileSync(path.join(mcpDir, `${rev}.schema.json`), 'utf8'));

const throwsCode = (f, code, check = () => true) => assert.throws(f, (e) => e instanceof ToolResultError && e instanceof Error && e.code === code && check(e));

test('compileSchema: isValid and validate agree; issues carry path, schema_path, keyword, code, message', () => {
  const schema = compileSchema({
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string', minLength: 2 }, tags: { type: 'array', items: { enum: ['a', 'b'] } } },
    required: ['name', 'id'],
    additionalProperties: false,
  });
  assert.equal(schema.isValid({ name: 'ok', id: 1 }), true);
  assert.deepEqual(schema.validate({ name: 'ok', id: 1 }), []);
  const value = { name: 'x', tags: ['a', 'c'], extra: true };
  assert.equal(schema.isValid(value), false);
  const issues = schema.validate(value);
  const byCode = Object.fromEntries(issues.map((i) => [i.code, i]));
  assert.deepEqual(Object.keys(byCode).sort(), ['additional_properties', 'enum', 'min_length', 'required']);
  assert.deepEqual(byCode.min_length, {
    path: '/name',
    schema_path: '/properties/name/minLength',
    keyword: 'minLength',
    code: 'min_length',
    message: byCode.min_length.message,
  });
  assert.match(byCode.min_length.message, /shorter than 2/);
  assert.equal(byCode.enum.path, '/tags/1');
  assert.equal(byCode.required.path, '');
  assert.match(byCode.required.message, /"id"/);
});

test('compileSchema: isValidJson / validateJson take JSON text (string or bytes) and agree with the value path', () => {
  const schema = compileSchema({ type: 'object', properties: { n: { type: 'integer', maximum: 5 }, s: { type: 'string' } }, required: ['n'] });
  for (const value of [{ n: 1 }, { n: 9 }, { s: 'x' }, { n: 2, s: 3 }, [], 'text', null, { n: 1.5, s: '\u00e9\ud83d\ude00' }]) {
    const text = JSON.stringify(value);
    assert.equal(schema.isValidJson(text), schema.isValid(value), text);
    assert.equal(schema.isValidJson(new TextEncoder().encode(text)), schema.isValid(value), text);
    assert.deepEqual(schema.validateJson(text), schema.validate(value), text);
  }
  // A JS string given to isValid is a JSON string value; to isValidJson it is JSON text.
  assert.equal(compileSchema({ type: 'string' }).isValid('{"n":1}'), true);
  assert.equal(compileSchema({ type: 'string' }).isValidJson('{"n":1}'), false);
  // Text the value path could never produce is refused, with the issue and its path.
  const refused = [
    ['{"n":1,"n":2}', 'duplicate_key', '/n'],
    ['{"n":9007199254740993}', 'unsafe_integer', '/n'],
    ['{"s":"\ud800"}', 'lone_surrogate', '/s'],
    ['{"s":"' + '\ud800' + '"}', 'lone_surrogate', '/s'],
    ['{"n":', 'invalid_json', '/n'],
    ['', 'invalid_json', ''],
  ];
  for (const [text, code, where] of refused) {
    for (const f of [() => schema.isValidJson(text), () => schema.validateJson(text)]) {
      throwsCode(f, 'invalid_value', (e) => e.issues[0].code === code && e.issues[0].path === where);
    }
  }
  throwsCode(
    () => schema.isValidJson(new Uint8Array([0x7b, 0xff, 0x7d])),
    'invalid_value',
    (e) => e.issues[0].code === 'invalid_utf8',
  );
  throwsCode(
    () => schema.isValidJson({ n: 1 }),
    'invalid_value',
    (e) => /JSON text/.test(e.issues[0].message),
  );
  // A lone surrogate in a JS value is the value's fault too, on either path.
  throwsCode(
    () => schema.isValid({ s: 'a\ud800' }),
    'invalid_value',
    (e) => e.issues[0].code === 'lone_surrogate' && e.issues[0].path === '/s',
  );
  // The engine is still fine after all that.
  assert.equal(schema.isValidJson('{"n":3}'), true);
});

test('compileSchema: maxIssues caps the list with a too_many_issues entry', () => {
  const schema = compileSchema({ type: 'array', items: { type: 'string' } }, { maxIssues: 3 });
  const issues = schema.validate([1, 2, 3, 4, 5]);
  assert.equal(issues.length, 4);
  assert.equal(issues[3].code, 'too_many_issues');
  assert.deepEqual(
    issues.slice(0, 3).map((i) => i.path),
    ['/0', '/1', '/2'],
  );
  throwsCode(() => compileSchema(true, { maxIssues: 0 }), 'invalid_options');
  throwsCode(
    () => compileSchema(true, { documents: {}, colour: 'red' }),
    'invalid_options',
    (e) => /colour/.test(e.message),
  );
});

test('dialects: $schema picks 2020-12, 2019-09 or draft-07; defaultDialect applies without it', () => {
  // `items` as an array is draft-07 tuple validation; 2020-12 uses prefixItems.
  const tuple = { items: [{ type: 'integer' }], additionalItems: false };
  const d7 = compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', ...tuple });
  assert.equal(d7.isValid([1]), true);
  assert.equal(d7.isValid([1, 2]), false);
  assert.equal(compileSchema(tuple, { defaultDialect: 'draft-07' }).isValid([1, 2]), false);
  // In 2020-12 an array-valued `items` is not a schema.
  throwsCode(
    () => compileSchema(tuple),
    'invalid_schema',
    (e) => e.issues[0].path === '/items',
  );
  const d2019 = compileSchema({ $schema: 'https://json-schema.org/draft/2019-09/schema', dependentRequired: { a: ['b'] } });
  assert.equal(d2019.isValid({ a: 1 }), false);
  const d2020 = compileSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', prefixItems: [{ type: 'string' }] });
  assert.equal(d2020.isValid([1]), false);
  assert.equal(d2020.isValid(['x', 1]), true);
});

test('compile errors: unknown dialect, invalid keyword values, non-schemas, with paths', () => {
  throwsCode(
    () => compileSchema({ $schema: 'https://example.com/my-dialect', type: 'string' }),
    'invalid_schema',
    (e) => e.issues[0].code === 'unknown_dialect' && e.issues[0].path === '/$schema' && /2020-12/.test(e.issues[0].message),
  );
  throwsCode(
    () => compileSchema({ properties: { a: { minLength: -1 } } }),
    'invalid_schema',
    (e) => e.issues[0].code === 'invalid_schema' && e.issues[0].path === '/properties/a/minLength',
  );
  throwsCode(
    () => compileSchema({ type: 'strin' }),
    'invalid_schema',
    (e) => e.issues[0].path === '/type',
  );
  throwsCode(
    () => compileSchema({ pattern: '(' }),
    'invalid_schema',
    (e) => e.issues[0].path === '/pattern',
  );
  throwsCode(
    () => compileSchema('{"type":"string"}'),
    'invalid_schema',
    (e) => /object or a boolean, got string/.test(e.message),
  );
  throwsCode(
    () => compileSchema({ $schema: 42 }),
    'invalid_schema',
    (e) => e.issues[0].path === '/$schema',
  );
  throwsCode(
    () => compileSchema({ const: undefined, enum: [() => 1] }),
    'invalid_schema',
    (e) => e.issues[0].code === 'unsupported_value',
  );
  // Boolean schemas are schemas.
  assert.equal(compileSchema(false).isValid(1), false);
  assert.equal(compileSchema(true).isValid(null), true);
});

test('references: local and registered documents resolve; anything else is refused by name, never fetched', () => {
  const local = compileSchema({ $defs: { n: { type: 'integer' } }, properties: { a: { $ref: '#/$defs/n' } } });
  assert.equal(local.isValid({ a: 1.5 }), false);
  for (const uri of ['https://example.com/schemas/item.json', 'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data']) {
    throwsCode(
      () => compileSchema({ $ref: uri }),
      'invalid_schema',
      (e) => e.issues[0].code === 'unresolvable_ref' && e.issues[0].message.includes(uri) && /never fetched/.test(e.issues[0].message),
    );
  }
  const documents = { 'https://example.com/schemas/item.json': { type: 'object', required: ['sku'] } };
  const withDoc = compileSchema({ type: 'array', items: { $ref: 'https://example.com/schemas/item.json' } }, { documents });
  assert.equal(withDoc.isValid([{ sku: 'a' }]), true);
  const issues = withDoc.validate([{ sku: 'a' }, {}]);
  assert.equal(issues.length, 1);
  assert.equal(issues[0].path, '/1');
  assert.equal(issues[0].code, 'required');
  assert.equal(issues[0].schema_path, '/items/$ref/required');
});

test('patterns run in bounded time: catastrophic backtracking is a pattern_too_complex issue', () => {
  const schema = compileSchema({ type: 'string', pattern: '^(a|a)*\\1c' });
  const issues = schema.validate('a'.repeat(40));
  assert.equal(issues.length, 1);
  assert.equal(issues[0].code, 'pattern_too_complex');
  assert.equal(issues[0].keyword, 'pattern');
  assert.match(issues[0].message, /backtracking/);
  assert.equal(schema.isValid('a'.repeat(40)), false);
  // The same pattern on a value it matches quickly is fine.
  assert.equal(schema.isValid('aac'), true);
  // Patterns without look-around or back-references are linear: no limit.
  assert.equal(compileSchema({ pattern: '^(a+)+$' }).isValid(`${'a'.repeat(5000)}b`), false);
});

test('formats are asserted by default and annotations with formats: "annotate"', () => {
  const schema = { type: 'object', properties: { at: { format: 'date-time' }, id: { format: 'uuid' }, mail: { format: 'email' } } };
  const bad = { at: 'yesterday', id: 'not-a-uuid', mail: 'nobody' };
  const issues = compileSchema(schema).validate(bad);
  assert.deepEqual(issues.map((i) => `${i.path} ${i.code}`).sort(), ['/at format', '/id format', '/mail format']);
  assert.equal(compileSchema(schema, { formats: 'annotate' }).isValid(bad), true);
  assert.equal(compileSchema(schema).isValid({ at: '2026-11-22T10:00:00Z', id: '0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f', mail: 'a@b.example' }), true);
});

test('values that are not JSON data are refused with a typed error; big exact integers are kept', () => {
  const schema = compileSchema({ type: 'number' });
  throwsCode(
    () => schema.validate(NaN),
    'invalid_value',
    (e) => e.issues[0].code === 'non_finite_number',
  );
  throwsCode(
    () => schema.isValid(10n),
    'invalid_value',
    (e) => e.issues[0].code === 'unsupported_value',
  );
  const cyclic = [];
  cyclic.push(cyclic);
  throwsCode(
    () => schema.validate(cyclic),
    'invalid_value',
    (e) => e.issues[0].code === 'cyclic_value',
  );
  // 2^53 is a JS number exactly; const compares it exactly.
  const big = compileSchema({ const: 9007199254740992 });
  assert.equal(big.isValid(9007199254740992), true);
  assert.equal(big.isValid(9007199254740990), false);
  // Deep schemas are refused at the depth limit, not a stack overflow.
  let deep = { type: 'string' };
  for (let i = 0; i < 200; i++) deep = { items: deep };
  throwsCode(
    () => compileSchema(deep),
    'invalid_schema',
    (e) => e.issues[0].code === 'too_deep',
  );
  assert.equal(schema.isValid(1), true, 'still works after errors');
});

const addTool = {
  name: 'add',
  description: 'Adds two numbers',
  input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  output_schema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false },
};

test('ToolRegistry: register, validateInput, validateOutput, names, get', () => {
  const registry = new ToolRegistry();
  registry.register(addTool);
  assert.deepEqual(registry.names(), ['add']);
  assert.equal(registry.has('add'), true);
  assert.equal(registry.get('add').description, 'Adds two numbers');
  assert.deepEqual(registry.validateInput('add', { a: 1, b: 2 }), { ok: true, issues: [] });
  const input = registry.validateInput('add', { a: 1, b: 'two' });
  assert.equal(input.ok, false);
  assert.deepEqual(
    input.issues.map((i) => `${i.path} ${i.code}`),
    ['/b type'],
  );
  assert.deepEqual(registry.validateOutput('add', { sum: 3 }), { ok: true, issues: [] });
  const output = registry.validateOutput('add', { sum: '3', carry: 0 });
  assert.deepEqual(output.issues.map((i) => `${i.path} ${i.code}`).sort(), [' additional_properties', '/sum type']);
  const missing = registry.validateOutput('add', undefined);
  assert.deepEqual(
    missing.issues.map((i) => i.code),
    ['missing_output'],
  );
  throwsCode(
    () => registry.validateOutput('nope', {}),
    'unknown_tool',
    (e) => /`nope`/.test(e.message),
  );
  // A value that is not JSON data is the value's fault, whatever the issue.
  throwsCode(
    () => registry.validateOutput('add', { s: 'a\ud800' }),
    'invalid_value',
    (e) => e.issues[0].code === 'lone_surrogate',
  );
  assert.equal(registry.unregister('add'), true);
  assert.equal(registry.has('add'), false);
  throwsCode(() => registry.validateInput('add', {}), 'unknown_tool');
});

test('ToolRegistry: the same schema is compiled once; a changed schema replaces it', () => {
  const registry = new ToolRegistry();
  registry.register(addTool);
  const first = registry.stats();
  assert.deepEqual(first, { tools: 1, schemas: 2, compiles: 2, cache_hits: 0 });
  registry.register(structuredClone(addTool));
  registry.register({ ...addTool, name: 'add2' });
  const again = registry.stats();
  assert.equal(again.compiles, 2, 'no new compiles for identical schemas');
  assert.equal(again.cache_hits, 4);
  assert.equal(again.tools, 2);
  registry.register({ ...addTool, output_schema: { type: 'object', required: ['total'] } });
  const changed = registry.stats();
  assert.equal(changed.compiles, 3);
  assert.equal(registry.validateOutput('add', { sum: 3 }).ok, false, 'the new schema is the one used');
  assert.equal(registry.validateOutput('add2', { sum: 3 }).ok, true, 'the other tool keeps the old one');
  registry.unregister('add2');
  assert.equal(registry.stats().schemas, 2, 'schemas no tool uses are dropped');
});

test('ToolRegistry: bad definitions and schemas are typed errors with paths into the definition', () => {
  const registry = new ToolRegistry();
  throwsCode(() => registry.register({ description: 'no name' }), 'invalid_definition');
  throwsCode(
    () => registry.register({ name: '' }),
    'invalid_definition',
    (e) => e.issues[0].path === '/name',
  );
  throwsCode(
    () => registry.register({ name: 7 }),
    'invalid_definition',
    (e) => e.issues[0].path === '/name',
  );
  throwsCode(() => registry.register(null), 'invalid_definition');
  throwsCode(
    () => registry.register({ name: 't', output_schema: { type: 'object', properties: { a: { type: 'nope' } } } }),
    'invalid_schema',
    (e) => e.issues[0].path === '/output_schema/properties/a/type',
  );
  throwsCode(
    () => registry.register({ name: 't', inputSchema: { $ref: 'https://example.com/x.json' } }),
    'invalid_schema',
    (e) => e.issues[0].path === '/input_schema' && e.issues[0].code === 'unresolvable_ref',
  );
  assert.deepEqual(registry.names(), [], 'nothing half-registered');
  throwsCode(() => new ToolRegistry({ maxIssues: -1 }), 'invalid_options');
});

test('checkResult: the result flow of docs/spec.md §7', () => {
  const registry = new ToolRegistry().register(addTool).register({ name: 'echo' });
  const good = createSuccess({ input: { tool_name: 'add', parameters: { a: 1, b: 2 } }, output: { sum: 3 } });
  assert.deepEqual(registry.checkResult(good), good, 'a valid result comes back unchanged');
  assert.deepEqual(registry.checkResult(JSON.stringify(good)), good, 'JSON text is accepted too');

  const bad = createSuccess({ input: { tool_name: 'add', parameters: { a: 1, b: 2 } }, output: { sum: 'three' } });
  const checked = registry.checkResult(bad);
  assert.equal(checked.status, 'output_validation_failed');
  assert.equal(checked.error_code, 'OUTPUT_VALIDATION_FAILED');
  assert.match(checked.error_message, /^Output validation failed: \/sum: /);
  assert.deepEqual(checked.output, { sum: 'three' }, 'the output is kept');
  assert.deepEqual(
    checked.validation_issues.map((i) => `${i.path} ${i.code}`),
    ['/sum type'],
  );
  assert.deepEqual(checked.metadata, bad.metadata);
  const verdict = validateToolResult(checked);
  assert.equal(verdict.ok, true, JSON.stringify(verdict.issues));

  const noOutput = createSuccess({ input: { tool_name: 'add', parameters: {} } });
  const noOutputChecked = registry.checkResult(noOutput);
  assert.equal(noOutputChecked.status, 'output_validation_failed');
  assert.equal(noOutputChecked.validation_issues[0].code, 'missing_output');

  const failed = createFailure({ input: { tool_name: 'add' }, status: 'timeout', error_code: 'TIMEOUT', error_message: 'took too long', output: { sum: 'x' } });
  assert.deepEqual(registry.checkResult(failed), failed, 'failed results are not output-validated');
  const echo = createSuccess({ input: { tool_name: 'echo' }, output: 'anything' });
  assert.deepEqual(registry.checkResult(echo), echo, 'no output schema, nothing to check');

  throwsCode(() => registry.checkResult(createSuccess({ input: { tool_name: 'other' }, output: 1 })), 'unknown_tool');
  throwsCode(
    () => registry.checkResult({ status: 'success' }),
    'invalid_tool_result',
    (e) => e.issues.some((i) => i.code === 'missing_field'),
  );
});

for (const rev of MCP_REVISIONS) {
  test(`MCP ${rev}: Tool definitions register; CallToolResult structuredContent is checked; isError results are not`, () => {
    const mcp = mcpSchema(rev);
    const base = `https://modelcontextprotocol.io/schema/${rev}`;
    const documents = { [base]: mcp };
    // The MCP JSON Schema itself, compiled by our engine, checks the shapes we use.
    const toolShape = compileSchema({ $ref: `${base}#/$defs/Tool` }, { documents });
    const resultShape = compileSchema({ $ref: `${base}#/$defs/CallToolResult` }, { documents });

    const weatherTool = {
      name: 'get_weather',
      title: 'Weather',
      description: 'Current weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      outputSchema: {
        type: 'object',
        properties: { temperature: { type: 'number' }, conditions: { type: 'string', enum: ['sunny', 'cloudy', 'rain'] } },
        required: ['temperature', 'conditions'],
      },
      annotations: { readOnlyHint: true },
    };
    assert.deepEqual(toolShape.validate(weatherTool), []);
    const registry = new ToolRegistry().register(weatherTool);
    assert.equal(registry.get('get_weather').output_schema.required.length, 2, 'MCP outputSchema becomes output_schema');
    assert.equal(registry.get('get_weather').title, 'Weather', 'other MCP fields are kept');

    const extra = rev === '2026-07-28' ? { resultType: 'complete' } : {};
    const ok = {
      content: [{ type: 'text', text: '{"temperature":21,"conditions":"sunny"}' }],
      structuredContent: { temperature: 21, conditions: 'sunny' },
      ...extra,
    };
    const wrong = { content: [{ type: 'text', text: 'hot' }], structuredContent: { temperature: 'hot' }, ...extra };
    const error = { content: [{ type: 'text', text: 'city not found' }], isError: true, ...extra };
    const unstructured = { content: [{ type: 'text', text: '21 degrees' }], ...extra };
    for (const r of [ok, wrong, error, unstructured]) assert.deepEqual(resultShape.validate(r), [], 'fixtures are MCP CallToolResults');

    assert.deepEqual(registry.validateMcpResult('get_weather', ok), { ok: true, issues: [] });
    const bad = registry.validateMcpResult('get_weather', wrong);
    assert.deepEqual(bad.issues.map((i) => `${i.path} ${i.code}`).sort(), [' required', '/temperature type']);
    assert.deepEqual(registry.validateMcpResult('get_weather', error), { ok: true, issues: [] }, 'isError results skip validation');
    assert.deepEqual(
      registry.validateMcpResult('get_weather', unstructured).issues.map((i) => i.code),
      ['missing_output'],
    );
    // An MCP shape error: the Tool schema rejects a tool without a name.
    assert.ok(toolShape.validate({ inputSchema: { type: 'object' } }).some((i) => i.code === 'required'));
  });
}

test('hostile schemas end in a verdict or a typed error, and the engine keeps working', () => {
  const value = { x: { x: { x: 1 } } };
  const compiles = {
    'self reference': { $ref: '#' },
    'reference cycle': { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
    'recursive properties': { $defs: { a: { properties: { x: { $ref: '#/$defs/a' } } } }, $ref: '#/$defs/a' },
    'dynamic reference loop': { $dynamicAnchor: 'n', $ref: '#', properties: { x: { $dynamicRef: '#n' } } },
    'huge limits': { maxLength: 1e300, minItems: 1e300, multipleOf: 1e-300 },
    'unknown format': { format: 'rainbow' },
    'nested repetition': { pattern: 'a{1000}{1000}{1000}' },
  };
  for (const [name, schema] of Object.entries(compiles)) {
    const compiled = compileSchema(schema);
    const issues = compiled.validate(value);
    assert.ok(Array.isArray(issues), name);
    assert.equal(compiled.isValid(value), issues.length === 0, `${name}: isValid agrees with validate`);
  }
  const refused = {
    'regex too big for the size limit': [{ pattern: '^.{0,404600}$' }, 'invalid_schema', '/pattern'],
    'missing pointer': [{ $ref: '#/$defs/missing' }, 'unresolvable_ref', ''],
    'missing anchor': [{ $ref: '#nope' }, 'unresolvable_ref', ''],
    'urn reference': [{ $id: 'urn:x', $ref: 'urn:y' }, 'unresolvable_ref', ''],
  };
  for (const [, [schema, code, at]] of Object.entries(refused)) {
    throwsCode(
      () => compileSchema(schema),
      'invalid_schema',
      (e) => e.issues[0].code === code && e.issues[0].path === at,
    );
  }
  // A value nested to the depth limit against a recursive schema.
  let deep = 1;
  for (let i = 0; i < 120; i++) deep = { x: deep };
  assert.equal(compileSchema(compiles['recursive properties']).isValid(deep), true);
  assert.equal(compileSchema({ type: 'string' }).isValid('alive'), true);
});

test('patterns: ECMA-262 Unicode properties match; the properties it lacks (Age, segmentation) are invalid_schema (crates/vendor/PATCHES.md)', () => {
  const greek = compileSchema({ type: 'string', pattern: '^\\p{Script=Greek}+$' });
  assert.equal(greek.isValid('αβγ'), true);
  assert.equal(greek.isValid('abc'), false);
  assert.equal(compileSchema({ type: 'string', pattern: '^\\p{Lu}$' }).isValid('É'), true);
  for (const pattern of ['\\p{Age=6.0}', '\\p{gcb=Extend}', '\\p{wb=ALetter}', '\\p{sb=Upper}']) {
    throwsCode(
      () => compileSchema({ type: 'string', pattern }),
      'invalid_schema',
      (e) => e.issues[0].path === '/pattern',
    );
  }
});
