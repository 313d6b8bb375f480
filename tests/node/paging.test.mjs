// get_tool_result in pieces (docs/guide/storage.md "Lazy loading"): every answer within its
// budget, paging with `next` reads an output exactly once in order, pointers
// and patterns return exactly what they name, bad requests get an answer.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer';
import { toolresult } from './helpers.mjs';

const {
  createGetToolResultHandler,
  createSuccess,
  estimateTokens,
  getToolResultTool,
  compileSchema,
  pageableText,
  pageToolResult,
  ResultStore,
  sha256Hex,
  ToolResultError,
} = toolresult;

const chars = (s) => [...s].length;
let n = 0;
const make = (output) => createSuccess({ input: { tool_name: 'bash', tool_call_id: `call_${n++}`, parameters: {} }, output, duration_ms: 1 });

/** Whether one answer is within every limit of `budget`, as the model would count it (its JSON text). */
function within(answer, budget) {
  const json = JSON.stringify(answer);
  const count = budget.countTokens ?? estimateTokens;
  return (
    (budget.maxChars === undefined || chars(json) <= budget.maxChars) &&
    (budget.maxBytes === undefined || Buffer.byteLength(json) <= budget.maxBytes) &&
    (budget.maxTokens === undefined || count(json) <= budget.maxTokens)
  );
}

/** Follows `next` from `first` to the end; returns the pages' texts and checks each answer's size. */
function readAll(result, first, budget) {
  const texts = [];
  let request = first;
  for (let i = 0; i < 100_000; i++) {
    const answer = pageToolResult(result, request, budget);
    assert.ok(
      within(answer, budget),
      `answer of ${chars(JSON.stringify(answer))} chars, ${Buffer.byteLength(JSON.stringify(answer))} bytes over ${JSON.stringify(budget)}`,
    );
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
  store.put(result, { dialogId: 'd' });
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
  store.put(small, { dialogId: 'd' });
  assert.deepEqual(handler({ tool_call_id: small.input.tool_call_id }), { found: true, result: small });
});

test('a pattern returns only matching lines with their numbers and context', () => {
  const result = make(pytest);
  const a = pageToolResult(result, { tool_call_id: 'x', pattern: 'FAILED|test_2401\\.py' });
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
  const ci = pageToolResult(result, { tool_call_id: 'x', pattern: 'assertionerror', ignore_case: true, context: 0 });
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
  assert.deepEqual(JSON.parse(pageToolResult(result, { tool_call_id: 'x', path: '/items/42' }).page.text), output.items[42]);
  assert.equal(pageToolResult(result, { tool_call_id: 'x', path: '/meta/a~1b/c~0d' }).page.text, '7');
  assert.equal(pageToolResult(result, { tool_call_id: 'x', path: '/items/3/name' }).page.text, 'item 3');
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
    const a = pageToolResult(result, { tool_call_id: 'x', ...args });
    assert.ok(a.invalid, JSON.stringify(a).slice(0, 200));
    assert.match(a.invalid.error, why);
  }
  assert.throws(
    () => createGetToolResultHandler(new ResultStore(), { budget: { maxChars: 10 } }),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options',
  );
  // A pattern that backtracks exponentially in JavaScript runs in linear time here.
  const hostile = make(`${'a'.repeat(30_000)}!`);
  assert.match(pageToolResult(hostile, { tool_call_id: 'x', pattern: '^(a+)+$' }).invalid.error, /no line matches/);
});

test('a store that answers with a promise (PostgreSQL) gets a promise back', async () => {
  const store = new ResultStore();
  const result = make(pytest);
  store.put(result, { dialogId: 'd' });
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
    store.put(result, { dialogId: 'd' });
    const got = store.getByToolCallId(result.input.tool_call_id);
    const texts = readAll(got, { tool_call_id: result.input.tool_call_id, offset: 1 }, { maxChars: 1500 });
    if (texts.length > 1) paged++;
    assert.equal(Buffer.from(texts.join('')).equals(Buffer.from(row.output)), true);
  }
  assert.ok(paged > 20, `${paged} outputs took more than one page`);
});

// ------------------------------------------------------------ more properties: pointers, patterns, budgets in tokens and bytes

/** `key` as one JSON Pointer segment (RFC 6901: `~` as `~0`, `/` as `~1`). */
const segment = (key) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const jsonKey = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('', 'a/b', '~', '~1', '~0x', '/', '0', '-', 'items'));
const jsonTree = fc.letrec((tie) => ({
  // Scalars a ToolResult holds exactly (no integers beyond 2^53, no NaN or infinities).
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.string({ unit: 'grapheme', maxLength: 12 })),
    tie('object'),
    tie('array'),
  ),
  object: fc.dictionary(jsonKey, tie('value'), { maxKeys: 6, noNullPrototype: true }),
  array: fc.array(tie('value'), { maxLength: 6 }),
}));

test('properties: a JSON Pointer returns exactly the member it names; one that names nothing gets an answer, never a throw', () => {
  fc.assert(
    fc.property(fc.oneof(jsonTree.object, jsonTree.array), fc.array(fc.nat(), { maxLength: 8 }), (root, choices) => {
      const result = make(root);
      // Walk the stored output by the random choices, writing the pointer on the way.
      let at = result.output;
      let pointer = '';
      for (const c of choices) {
        if (Array.isArray(at) && at.length > 0) {
          const i = c % at.length;
          pointer += `/${i}`;
          at = at[i];
        } else if (at !== null && typeof at === 'object' && Object.keys(at).length > 0) {
          const keys = Object.keys(at);
          const k = keys[c % keys.length];
          pointer += `/${segment(k)}`;
          at = at[k];
        } else break;
      }
      const answer = pageToolResult(result, { tool_call_id: 'p', path: pointer }, { maxChars: 1_000_000 });
      assert.ok(answer.page, JSON.stringify(answer).slice(0, 300));
      assert.equal(answer.page.kind, 'member');
      assert.equal(answer.page.path, pointer);
      assert.equal(answer.page.complete, true);
      assert.equal(answer.page.text, typeof at === 'string' ? at : JSON.stringify(at, null, 2), `${pointer} of ${JSON.stringify(result.output)}`);
      assert.equal(answer.page.sha256, sha256Hex(pageableText(result)));
      // One step further names nothing: a key the member lacks, an index past its end, or inside a scalar.
      const missing = Array.isArray(at) ? `/${at.length}` : at !== null && typeof at === 'object' ? `/${segment(`${Object.keys(at).join('')}_none`)}` : '/0';
      const none = pageToolResult(result, { tool_call_id: 'p', path: pointer + missing });
      assert.ok(none.invalid, JSON.stringify(none).slice(0, 300));
      assert.match(none.invalid.error, /does not resolve/);
    }),
    { numRuns: 200 },
  );
});

/** A literal as a regular expression (the engine is Rust's `regex`: escape its metacharacters). */
const literal = (s) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

test('properties: a literal pattern returns only the matching lines, each once, in order, with its number; context lines are numbered right too', () => {
  const alphabet = ['a', 'b', 'ab', '.', '*', '(', ')', '[', ']', ' ', '\\', '+', '?', '$', '^', '|', '{', '}', 'é', '😀', '\t', '"'];
  const word = fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((a) => a.join(''));
  const line = fc.oneof(word, fc.string({ unit: 'grapheme', maxLength: 40 }));
  const needle = fc.oneof(
    fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 3 }).map((a) => a.join('')),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }),
  );
  fc.assert(
    fc.property(
      fc.array(line, { maxLength: 300 }),
      needle,
      fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
      fc.integer({ min: 1000, max: 6000 }),
      (raw, rawNeedle, context, maxChars) => {
        const lines = raw.map((l) => l.replace(/\n/g, ' '));
        const find = rawNeedle.replace(/\n/g, ' ');
        const text = lines.join('\n');
        const result = make(text);
        const first = { tool_call_id: 'p', pattern: literal(find), ...(context === undefined ? {} : { context }) };
        const expected = lines.flatMap((l, i) => (l.includes(find) ? [i + 1] : []));
        if (expected.length === 0) {
          const none = pageToolResult(result, first, { maxChars });
          assert.ok(none.invalid, JSON.stringify(none).slice(0, 300));
          assert.match(none.invalid.error, /no line matches/);
          return;
        }
        const firstAnswer = pageToolResult(result, first, { maxChars });
        assert.equal(firstAnswer.page.kind, 'matches');
        assert.equal(firstAnswer.page.matches.total, expected.length);
        const shown = [];
        const matched = [];
        for (const page of readAll(result, first, { maxChars })) {
          for (const l of page.split('\n')) {
            if (l === '--') continue;
            const m = /^(\d+)([:-])(.*)$/s.exec(l);
            assert.ok(m, JSON.stringify(l));
            const n = Number(m[1]);
            assert.equal(m[3], lines[n - 1], `line ${n} as it is in the output`);
            assert.equal(m[2] === ':', lines[n - 1].includes(find), `line ${n}: ${m[2]} for ${JSON.stringify(lines[n - 1])} and ${JSON.stringify(find)}`);
            if (m[2] === ':') matched.push(n);
            else {
              const c = context ?? 2;
              assert.ok(
                expected.some((e) => Math.abs(e - n) <= c),
                `context line ${n} is within ${c} of a match`,
              );
            }
            shown.push(n);
          }
        }
        assert.deepEqual(matched, expected, 'every matching line, once, in order');
        assert.deepEqual(
          shown,
          [...new Set(shown)].sort((x, y) => x - y),
          'no line shown twice, in order',
        );
      },
    ),
    { numRuns: 150 },
  );
});

test('properties: pages within budgets in tokens (a real tokenizer and the estimate) and in bytes; the pages are the output', () => {
  const line = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 80 }),
    fc.string({ unit: 'grapheme', minLength: 500, maxLength: 3000 }),
    fc.constantFrom('', '"\\\t\u0001', '😀é中文', 'def f(x):  return x  # 12345 67890', '{"a": [1, 2, 3]}'),
  );
  const budget = fc.oneof(
    fc.integer({ min: 500, max: 3000 }).map((maxTokens) => ({ maxTokens, countTokens })),
    fc.integer({ min: 500, max: 3000 }).map((maxTokens) => ({ maxTokens })),
    fc.integer({ min: 500, max: 12_000 }).map((maxBytes) => ({ maxBytes })),
    fc
      .record({
        maxBytes: fc.integer({ min: 500, max: 12_000 }),
        maxTokens: fc.integer({ min: 500, max: 3000 }),
        maxChars: fc.integer({ min: 500, max: 12_000 }),
      })
      .map((b) => ({ ...b, countTokens })),
  );
  fc.assert(
    fc.property(fc.array(line, { maxLength: 120 }), budget, fc.boolean(), (lines, b, byChars) => {
      const text = lines.map((l) => l.replace(/\n/g, ' ')).join('\n');
      if (text.length === 0 && byChars) return;
      const result = make(text);
      const first = byChars ? { tool_call_id: 'p', char_offset: 0 } : { tool_call_id: 'p', offset: 1 };
      // readAll checks every answer against every limit of the budget, counted as the budget counts.
      const pages = readAll(result, first, b);
      assert.equal(pages.join(''), text);
      if (Buffer.byteLength(text) > 3 * (b.maxBytes ?? b.maxChars ?? b.maxTokens * 4)) assert.ok(pages.length > 1, 'a big output takes several pages');
    }),
    { numRuns: 60 },
  );
});
