// get_tool_result in pieces (README "Lazy loading"): every answer within its
// budget, paging with `next` reads an output exactly once in order, pointers
// and patterns return exactly what they name, bad requests get an answer.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { toolresult } from './helpers.mjs';

const { createGetToolResultHandler, createSuccess, getToolResultTool, compileSchema, pageableText, readToolResult, ResultStore, sha256Hex, ToolResultError } =
  toolresult;

const chars = (s) => [...s].length;
let n = 0;
const make = (output) => createSuccess({ input: { tool_name: 'bash', tool_call_id: `call_${n++}`, parameters: {} }, output, duration_ms: 1 });

/** Follows `next` from `first` to the end; returns the pages' texts and checks each answer's size. */
function readAll(result, first, budget) {
  const texts = [];
  let request = first;
  for (let i = 0; i < 100_000; i++) {
    const answer = readToolResult(result, request, budget);
    assert.ok(chars(JSON.stringify(answer)) <= budget.maxChars, `answer of ${chars(JSON.stringify(answer))} chars over ${budget.maxChars}`);
    if (answer.result) return [pageableText(answer.result)];
    assert.ok(answer.page, JSON.stringify(answer).slice(0, 300));
    texts.push(answer.page.text);
    assert.equal(answer.page.sha256, sha256Hex(pageableText(result)));
    if (!answer.page.next) return texts;
    request = answer.page.next;
  }
  throw new Error('paging did not end');
}

const pytest = Array.from({ length: 3000 }, (_, i) =>
  i === 2400 ? 'FAILED tests/test_x.py::test_edge - AssertionError: 3 != 4' : `tests/test_${i}.py::test_${i} PASSED`,
).join('\n');

test('the tool offers ranges, a pattern and a pointer; its schema takes them', () => {
  const schema = compileSchema(getToolResultTool.input_schema);
  assert.ok(
    schema.isValid({ tool_call_id: 'c', offset: 10, limit: 50, pattern: 'FAIL', context: 2, ignore_case: true, path: '/a/0', char_offset: 0, char_limit: 100 }),
  );
  assert.ok(!schema.isValid({ tool_call_id: 'c', offset: 0 }));
  assert.match(getToolResultTool.description, /next/);
});

test('a 3,000-line output pages through in order, each answer within the default 8,000 characters', () => {
  const result = make(pytest);
  const store = new ResultStore();
  store.put(result, { dialog_id: 'd' });
  const handler = createGetToolResultHandler(store);
  const first = handler({ tool_call_id: result.input.tool_call_id });
  assert.ok(first.page, 'a 108 KB result does not come back whole');
  assert.ok(chars(JSON.stringify(first)) <= 8000);
  assert.equal(first.page.lines.from, 1);
  assert.equal(first.page.lines.total, 3000);
  assert.match(first.page.note, /^Lines 1–\d+ of 3000; call get_tool_result with offset \d+ for the next lines\.$/);
  assert.deepEqual(first.page.next, { tool_call_id: result.input.tool_call_id, offset: first.page.lines.to + 1 });
  assert.equal(readAll(result, { tool_call_id: result.input.tool_call_id, offset: 1 }, { maxChars: 8000 }).join(''), pytest);
  // A range asked for comes back as asked, when it fits.
  const range = handler({ tool_call_id: result.input.tool_call_id, offset: 2399, limit: 3 });
  assert.equal(range.page.text, `${pytest.split('\n').slice(2398, 2401).join('\n')}\n`);
  assert.deepEqual(range.page.lines, { from: 2399, to: 2401, total: 3000 });
  // A small result still comes back whole.
  const small = make('ok');
  store.put(small, { dialog_id: 'd' });
  assert.deepEqual(handler({ tool_call_id: small.input.tool_call_id }), { found: true, result: small });
});

test('a pattern returns only matching lines with their numbers and context', () => {
  const result = make(pytest);
  const a = readToolResult(result, { tool_call_id: 'x', pattern: 'FAILED|test_2401\\.py' });
  assert.equal(a.page.kind, 'matches');
  assert.equal(a.page.matches.total, 2);
  const lines = pytest.split('\n');
  for (const l of a.page.text.split('\n')) {
    if (l === '--') continue;
    const m = l.match(/^(\d+)([:-])(.*)$/s);
    assert.ok(m, l);
    assert.equal(lines[Number(m[1]) - 1], m[3]);
    assert.equal(/FAILED|test_2401\.py/.test(m[3]), m[2] === ':', l);
  }
  assert.equal(a.page.complete, true);
  const ci = readToolResult(result, { tool_call_id: 'x', pattern: 'assertionerror', ignore_case: true, context: 0 });
  assert.equal(ci.page.text, `2401:${lines[2400]}`);
  // Many matches page with next.
  const many = readAll(result, { tool_call_id: 'x', pattern: 'PASSED', context: 0 }, { maxChars: 3000 });
  const numbers = many.flatMap((t) =>
    t
      .split('\n')
      .filter((l) => l !== '--')
      .map((l) => Number(l.split(':')[0])),
  );
  assert.equal(numbers.length, 2999);
  assert.deepEqual(
    numbers,
    [...numbers].sort((x, y) => x - y),
  );
});

test('a pointer returns exactly that member of a JSON output', () => {
  const output = { items: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a/b', 'c~d'] })), meta: { 'a/b': { 'c~d': 7 } } };
  const result = make(output);
  assert.deepEqual(JSON.parse(readToolResult(result, { tool_call_id: 'x', path: '/items/42' }).page.text), output.items[42]);
  assert.equal(readToolResult(result, { tool_call_id: 'x', path: '/meta/a~1b/c~0d' }).page.text, '7');
  assert.equal(readToolResult(result, { tool_call_id: 'x', path: '/items/3/name' }).page.text, 'item 3');
  // A member too big for one answer pages like any text, the pointer kept in `next`.
  const pages = readAll(result, { tool_call_id: 'x', path: '/items', offset: 1 }, { maxChars: 4000 });
  assert.deepEqual(JSON.parse(pages.join('')), output.items);
});

test('requests outside the result get a clear answer, never a throw', () => {
  const text = make(pytest);
  const json = make({ a: [1, 2] });
  const cases = [
    [text, { offset: 5000 }, /offset 5000 is past the end: the output has 3000 lines/],
    [text, { char_offset: 10_000_000 }, /past the end/],
    [text, { pattern: '(' }, /not a regular expression/],
    [text, { pattern: '(a)\\1' }, /not a regular expression/],
    [text, { pattern: 'NO_SUCH_LINE' }, /no line matches "NO_SUCH_LINE"/],
    [text, { path: '/a' }, /this output is text/],
    [json, { path: '/b' }, /has no member "b" \(it has: "a"\)/],
    [json, { path: '/a/9' }, /array of 2 items/],
    [json, { path: 'a' }, /not a JSON Pointer/],
    [text, { offset: 0 }, /offset must be a whole number >= 1/],
    [text, { limit: 'x' }, /limit must be a whole number/],
  ];
  for (const [result, args, why] of cases) {
    const a = readToolResult(result, { tool_call_id: 'x', ...args });
    assert.ok(a.invalid, JSON.stringify(a).slice(0, 200));
    assert.match(a.invalid.error, why);
  }
  assert.throws(
    () => createGetToolResultHandler(new ResultStore(), { budget: { maxChars: 10 } }),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options',
  );
  // A pattern that backtracks exponentially in JavaScript runs in linear time here.
  const hostile = make(`${'a'.repeat(30_000)}!`);
  assert.match(readToolResult(hostile, { tool_call_id: 'x', pattern: '^(a+)+$' }).invalid.error, /no line matches/);
});

test('a store that answers with a promise (PostgreSQL) gets a promise back', async () => {
  const store = new ResultStore();
  const result = make(pytest);
  store.put(result, { dialog_id: 'd' });
  const asyncStore = { getByToolCallId: async (id) => store.getByToolCallId(id) };
  const handler = createGetToolResultHandler(asyncStore, { budget: { maxChars: 5000 } });
  const answer = handler({ tool_call_id: result.input.tool_call_id, offset: 10, limit: 5 });
  assert.ok(answer instanceof Promise);
  assert.equal((await answer).page.lines.from, 10);
  assert.equal((await handler({ tool_call_id: 'nope' })).found, false);
  assert.ok(!(createGetToolResultHandler(store)({ tool_call_id: 'nope' }) instanceof Promise));
});

test('properties: paging from the start reads any output exactly once, in order, within budget', () => {
  const line = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.string({ unit: 'grapheme', minLength: 2000, maxLength: 9000 }),
    fc.constantFrom('', '"\\\t\u0001', '😀é'),
  );
  fc.assert(
    fc.property(fc.array(line, { maxLength: 200 }), fc.integer({ min: 1000, max: 9000 }), fc.boolean(), (lines, maxChars, byChars) => {
      const text = lines.map((l) => l.replace(/\n/g, ' ')).join('\n');
      const result = make(text);
      const first = byChars ? { tool_call_id: 'p', char_offset: 0 } : { tool_call_id: 'p', offset: 1 };
      if (text.length === 0 && byChars) return;
      assert.equal(readAll(result, first, { maxChars }).join(''), text);
    }),
    { numRuns: 60 },
  );
});

const transcripts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'transcripts-dev', 'tool_outputs.jsonl');
test('real transcripts: stored and read back in pages, byte for byte', { skip: !existsSync(transcripts) && 'no ../shared/transcripts-dev' }, () => {
  const rows = readFileSync(transcripts, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const store = new ResultStore();
  let paged = 0;
  for (const row of rows) {
    const result = make(row.output);
    store.put(result, { dialog_id: 'd' });
    const got = store.getByToolCallId(result.input.tool_call_id);
    const texts = readAll(got, { tool_call_id: result.input.tool_call_id, offset: 1 }, { maxChars: 1500 });
    if (texts.length > 1) paged++;
    assert.equal(Buffer.from(texts.join('')).equals(Buffer.from(row.output)), true);
  }
  assert.ok(paged > 20, `${paged} outputs took more than one page`);
});
