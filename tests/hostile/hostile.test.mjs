// Runs the adversarial corpus through the npm package (TOOLRESULT_BUILD=web
// for the browser build). Every case must end in its typed outcome within a
// bounded time, and the module must still validate a good input afterwards.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { build, toolresult } from '../node/helpers.mjs';
import { cases, goodAgentText, goodToolText } from './corpus.mjs';

const { ToolResultError, validateAgentResult, validateToolResult, createSuccess } = toolresult;

function assertAlive() {
  assert.equal(validateAgentResult(goodAgentText).ok, true, 'the module stopped working');
  assert.equal(validateToolResult(goodToolText).ok, true, 'the module stopped working');
}

test('the corpus is big enough', () => {
  assert.ok(cases.length >= 40, `${cases.length} cases`);
  assert.equal(new Set(cases.map((c) => c.name)).size, cases.length, 'case names are unique');
});

for (const c of cases) {
  test(`hostile: ${c.name}`, { timeout: 30_000 }, () => {
    const raw = c.input();
    const input = c.unwrap ? raw.value : raw;
    const validate = c.kind === 'tool' ? validateToolResult : validateAgentResult;
    if (c.throws) {
      assert.throws(
        () => validate(input, c.options),
        (e) => e instanceof ToolResultError && e.code === c.throws && e.issues.length > 0,
      );
    } else {
      const r = validate(input, c.options);
      if (c.expect === 'ok') {
        assert.equal(r.ok, true, JSON.stringify(r.issues?.slice(0, 3)));
        if (typeof input === 'string') assert.deepEqual(r.value, JSON.parse(input), 'the value is exactly the input');
      } else {
        assert.equal(r.ok, false, 'expected issues');
        assert.equal(r.issues[0].code, c.expect, JSON.stringify(r.issues[0]));
        for (const issue of r.issues) {
          assert.equal(typeof issue.path, 'string');
          assert.ok(issue.path === '' || issue.path.startsWith('/'), issue.path);
          assert.ok(issue.message.length > 5, issue.message);
        }
      }
      if (c.check) assert.ok(c.check(r, raw), 'case-specific check');
    }
    assertAlive();
  });
}

test('a trap restarts the instance, throws internal_trap, and later calls work', async () => {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist', build);
  const runtime = build === 'web' ? await import(path.join(dist, 'runtime.js')) : require(path.join(dist, 'runtime.js'));
  // Warm the caches that a trap must invalidate.
  assert.equal(validateAgentResult(goodAgentText, { maxIssues: 5 }).ok, true);
  const before = runtime.trapCount();
  assert.throws(
    () => runtime.call((w) => w.trap_for_tests()),
    (e) => e instanceof ToolResultError && e.code === 'internal_trap' && /restarted/.test(e.message),
  );
  assert.equal(runtime.trapCount(), before + 1);
  assertAlive();
  assert.equal(validateAgentResult(goodAgentText, { maxIssues: 5 }).ok, true);
  assert.deepEqual(validateAgentResult('{"x":1}').issues[0], { path: '/x', code: 'unknown_field', message: 'unknown field `x`' });
  assert.equal(createSuccess({ input: { tool_name: 't' } }).status, 'success');
});

test('a trap of the schema engine restarts it; compiled schemas and registries keep working', async () => {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist', build);
  const runtime = build === 'web' ? await import(path.join(dist, 'runtime.js')) : require(path.join(dist, 'runtime.js'));
  const { compileSchema, ToolRegistry } = toolresult;
  const schema = compileSchema({ type: 'object', required: ['a'] });
  const registry = new ToolRegistry().register({ name: 't', output_schema: { type: 'integer' } });
  assert.equal(schema.isValid({}), false);
  const before = runtime.trapCount();
  assert.throws(
    () => runtime.schemaEngine.call((w) => w.trap_for_tests()),
    (e) => e instanceof ToolResultError && e.code === 'internal_trap',
  );
  assert.equal(runtime.trapCount(), before + 1);
  // Made before the trap, rebuilt from their kept source on next use.
  assert.equal(schema.isValid({ a: 1 }), true);
  assert.deepEqual(
    schema.validate({}).map((i) => i.code),
    ['required'],
  );
  assert.deepEqual(
    registry.validateOutput('t', 'x').issues.map((i) => i.code),
    ['type'],
  );
  assert.deepEqual(registry.names(), ['t']);
  // The core module was not affected.
  assertAlive();
});

// The agent module has no trap export: a RuntimeError thrown inside its `call`
// takes the same path as a trap (reset the instance, throw internal_trap).
test('a trap of the agent module restarts it; a store made before is lost, new ones work, the core is unaffected', async () => {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist', build);
  const runtime = build === 'web' ? await import(path.join(dist, 'runtime.js')) : require(path.join(dist, 'runtime.js'));
  const { ResultStore, toReference } = toolresult;
  const r = createSuccess({ input: { tool_name: 't' }, output: 'x' });
  const store = new ResultStore();
  store.put(r, { dialogId: 'd' });
  const before = runtime.trapCount();
  assert.throws(
    () =>
      runtime.agentModule.call(() => {
        throw new WebAssembly.RuntimeError('unreachable');
      }),
    (e) => e instanceof ToolResultError && e.code === 'internal_trap' && /restarted/.test(e.message),
  );
  assert.equal(runtime.trapCount(), before + 1);
  assert.throws(
    () => store.get(r.metadata.execution_id),
    (e) => e instanceof ToolResultError && e.code === 'store_lost',
  );
  const fresh = new ResultStore();
  assert.equal(fresh.put(r, { dialogId: 'd' }).stored, true);
  assert.equal(fresh.get(r.metadata.execution_id).output, 'x');
  assert.equal(toReference(r, { dialogId: 'd' }).tool_call_id, r.metadata.execution_id);
  assertAlive();
});

// Found by the `builders` fuzz target (its depth run): a duration
// longer than the calendar reaches trapped the core module.
test('a duration_ms beyond the calendar is a typed error, not a trap', () => {
  for (const duration_ms of [8.88e23, Number.MAX_VALUE, 1e300]) {
    assert.throws(
      () => createSuccess({ input: { tool_name: 't' }, duration_ms }),
      (e) => e instanceof ToolResultError && e.issues.some((i) => i.path === '/duration_ms' && i.code === 'number_out_of_range'),
    );
  }
  assert.equal(createSuccess({ input: { tool_name: 't' }, duration_ms: 5 }).metadata.duration_ms, 5);
  assertAlive();
});
