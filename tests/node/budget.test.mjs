// Context budgets (docs/bounding.md §7): boundForModel within characters,
// tokens and bytes; head and tail kept; JSON valid; media whole or a
// placeholder; per-tool budgets; every cut retrievable whole from the store.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer';
import { toolresult } from './helpers.mjs';

const { boundForModel, budgetFor, createSuccess, estimateTokens, ResultStore, sha256Hex, ToolResultError } = toolresult;

const chars = (s) => [...s].length;
const result = (output, extra = {}) =>
  createSuccess({ input: { tool_name: 'bash', tool_call_id: 'call_42', parameters: { command: 'pytest' } }, output, duration_ms: 5, ...extra });

const pytest = [
  '============================= test session starts ==============================',
  ...Array.from({ length: 3000 }, (_, i) => `tests/test_mod_${i % 40}.py::test_case_${i} PASSED  [${Math.floor((i / 3000) * 100)}%]`),
  '=================================== FAILURES ===================================',
  'E       AssertionError: expected 3, got 4',
  '=========================== 1 failed, 2999 passed in 12.31s ===========================',
].join('\n');

test('a long text keeps its head and its tail, with one marker naming get_tool_result and the id', () => {
  const b = boundForModel(result(pytest), { maxChars: 4000 });
  assert.ok(chars(b.output) <= 4000, `${chars(b.output)} chars`);
  assert.ok(b.output.startsWith('============================= test session starts'));
  assert.ok(b.output.endsWith('1 failed, 2999 passed in 12.31s ==========================='));
  assert.ok(b.output.includes('AssertionError: expected 3, got 4'));
  assert.equal(b.output.match(/get_tool_result\("call_42"\)/g).length, 1);
  assert.equal(b.cuts.length, 1);
  assert.equal(b.cuts[0].kind, 'text');
  assert.equal(b.cuts[0].path, '/output');
  const shownLines = b.output.split('\n').filter((l) => l.startsWith('tests/')).length;
  assert.equal(shownLines + b.cuts[0].dropped_lines, 3000);
  assert.equal(b.truncated, true);
  assert.equal(b.sha256, sha256Hex(pytest));
  assert.equal(b.before.chars, chars(pytest));
  // keep: 'head' drops the failure.
  const head = boundForModel(result(pytest), { maxChars: 4000, keep: 'head' });
  assert.ok(!head.output.includes('AssertionError'));
});

test('a budget in tokens is met with a real tokenizer and with the estimate', () => {
  for (const countTokensFn of [countTokens, undefined]) {
    const count = countTokensFn ?? estimateTokens;
    const b = boundForModel(result(pytest), { maxTokens: 1000, countTokens: countTokensFn });
    assert.ok(count(b.output) <= 1000, `${count(b.output)} tokens`);
    assert.equal(b.after.tokens, count(b.output));
    assert.ok(b.after.tokens > 700, `uses the budget: ${b.after.tokens}`);
    assert.ok(b.output.includes('1 failed, 2999 passed'));
  }
  // The tightest limit wins.
  const b = boundForModel(result(pytest), { maxTokens: 100_000, maxChars: 900, maxBytes: 100_000 });
  assert.ok(chars(b.output) <= 900);
});

test('JSON stays JSON: arrays keep their first and last items, small members stay', () => {
  const output = { status: 'ok', rows: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `row ${i}` })) };
  const b = boundForModel(result(output), { maxChars: 1500 });
  assert.ok(JSON.stringify(b.output).length <= 1500);
  assert.equal(b.output.status, 'ok');
  assert.deepEqual(b.output.rows[0], { id: 0, name: 'row 0' });
  assert.deepEqual(b.output.rows.at(-1), { id: 1999, name: 'row 1999' });
  const cut = b.cuts.find((c) => c.path === '/output/rows');
  assert.equal(cut.kind, 'items');
  assert.equal(cut.dropped_items + b.output.rows.length - 1, 2000);
  assert.ok(b.output.rows.some((r) => typeof r === 'string' && r.includes('get_tool_result("call_42")')));
});

test('media is never cut mid-data: whole when it fits, else a typed placeholder', () => {
  const png = Buffer.alloc(30_000, 7).toString('base64');
  const content = [
    { type: 'text', text: pytest },
    { type: 'image', data: png, mimeType: 'image/png' },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  ];
  const b = boundForModel(result(null, { content }), { maxChars: 5000 });
  assert.equal(b.content.length, 3);
  assert.equal(b.content[1].type, 'text');
  assert.match(b.content[1].text, /^\[image image\/png, 29\.3 KB not shown; get_tool_result\("call_42"\)/);
  assert.deepEqual(b.content[2], content[2]);
  assert.ok(b.content[0].text.endsWith('in 12.31s ==========================='));
  assert.ok(b.after.chars <= 5000);
  assert.deepEqual(
    b.cuts.map((c) => c.kind),
    ['text', 'media'],
  );
});

test('per-tool budgets: exact name, glob, RegExp, default, and _meta["anthropic/maxResultSizeChars"]', () => {
  const budgets = {
    default: { maxTokens: 10_000 },
    tools: [
      { match: 'read_file', budget: { maxChars: 50_000 } },
      { match: 'mcp__*', budget: { maxChars: 8_000 } },
      { match: /^grep|^rg$/, budget: { maxChars: 4_000, keep: 'head' } },
    ],
  };
  assert.deepEqual(budgetFor(budgets, 'read_file'), { maxTokens: 10_000, maxChars: 50_000 });
  assert.deepEqual(budgetFor(budgets, 'mcp__github__search'), { maxTokens: 10_000, maxChars: 8_000 });
  assert.deepEqual(budgetFor(budgets, 'grep_files'), { maxTokens: 10_000, maxChars: 4_000, keep: 'head' });
  assert.deepEqual(budgetFor(budgets, 'bash'), { maxTokens: 10_000 });
  assert.deepEqual(budgetFor({ tools: { 'read_*': { maxChars: 100 } } }, 'read_x'), { maxChars: 100 });
  // An MCP tool's own announcement caps the budget; the tightest wins.
  const tool = { name: 'mcp__db__query', _meta: { 'anthropic/maxResultSizeChars': 2_000 } };
  assert.deepEqual(budgetFor(budgets, tool), { maxTokens: 10_000, maxChars: 2_000 });
  assert.deepEqual(budgetFor(budgets, { name: 'read_file', _meta: { 'anthropic/maxResultSizeChars': 90_000 } }), { maxTokens: 10_000, maxChars: 50_000 });
  assert.throws(
    () => budgetFor(budgets, {}),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options',
  );
});

test('bad budgets are typed errors; the module still works after them', () => {
  for (const budget of [{ maxChars: 0 }, { maxTokens: -1 }, { maxBytes: 1.5 }, { keep: 'middle' }, { countTokens: 3 }]) {
    assert.throws(
      () => boundForModel(result('x'), budget),
      (e) => e instanceof ToolResultError && e.code === 'invalid_options',
    );
  }
  assert.equal(boundForModel(result('short'), { maxChars: 1000 }).output, 'short');
});

test('properties: within budget, marker exactly when cut, head and tail kept, idempotent, retrievable whole', () => {
  const store = new ResultStore();
  let n = 0;
  fc.assert(
    fc.property(
      fc.oneof(
        fc
          .array(
            fc.string({ unit: 'grapheme', maxLength: 80 }).map((s) => s.replace(/\n/g, ' ')),
            { maxLength: 300 },
          )
          .map((ls) => ls.join('\n')),
        fc.jsonValue({ maxDepth: 4 }).filter((v) => v !== null),
      ),
      fc.integer({ min: 300, max: 6000 }),
      fc.constantFrom('head', 'head-tail'),
      (output, maxChars, keep) => {
        const id = `call_p${n++}`;
        let full;
        try {
          full = createSuccess({ input: { tool_name: 't', tool_call_id: id, parameters: {} }, output, duration_ms: 1 });
        } catch (e) {
          // Not JSON data the package accepts (an integer beyond 2^53): refused, typed.
          assert.ok(e instanceof ToolResultError);
          return;
        }
        store.put(full, { dialogId: 'd1' });
        const b = boundForModel(full, { maxChars, keep });
        const shown = typeof b.output === 'string' ? b.output : JSON.stringify(b.output);
        const isScalar = typeof output !== 'string' && (typeof output !== 'object' || output === null);
        if (!isScalar) assert.ok(chars(shown) <= maxChars, `${chars(shown)} > ${maxChars}`);
        const marked = shown.includes('cut; get_tool_result(') || /…\[\d+ cut\]…/.test(shown);
        assert.equal(b.truncated, marked && JSON.stringify(b.output) !== JSON.stringify(output));
        assert.equal(b.truncated, b.cuts.length > 0);
        if (b.truncated && typeof output === 'string' && !shown.startsWith('…[')) {
          assert.equal(shown[0], output[0]);
        }
        // Bounding what was bounded changes nothing.
        const again = boundForModel({ ...full, output: b.output }, { maxChars, keep });
        assert.equal(again.truncated, false);
        assert.deepEqual(again.output, b.output);
        // Whatever was cut comes back whole, with the same sha256.
        const stored = store.getByToolCallId(id);
        assert.deepEqual(stored.output, output);
        if (b.truncated) assert.equal(b.sha256, sha256Hex(typeof output === 'string' ? output : JSON.stringify(output)));
      },
    ),
    { numRuns: 150 },
  );
});
