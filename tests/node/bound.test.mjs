// Bounding outputs through the npm package: sha256 equals Node's crypto,
// truncation never exceeds the limit and keeps UTF-8 and JSON valid, line caps
// and previews keep whole lines (fast-check properties plus examples).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { toolresult } from './helpers.mjs';

const { ToolResultError, capLines, previewText, sha256Hex, truncateOutput } = toolresult;
const nodeSha = (x) => createHash('sha256').update(x).digest('hex');
const utf8Len = (s) => Buffer.byteLength(s, 'utf8');
const safeJson = fc
  .jsonValue({ maxDepth: 4 })
  .map((v) => JSON.parse(JSON.stringify(v, (_, x) => (typeof x === 'number' && Number.isInteger(x) && !Number.isSafeInteger(x) ? 1 : x))));

test('sha256Hex equals Node crypto on strings and bytes', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (s) => sha256Hex(s) === nodeSha(s)),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 5000 }), (b) => sha256Hex(b) === nodeSha(b)),
    { numRuns: 300 },
  );
  assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const big = `${'x'.repeat(3 * 1024 * 1024)}é`;
  assert.equal(sha256Hex(big), nodeSha(big));
  assert.equal(sha256Hex('a\uD800b'), nodeSha('a\uD800b'), 'lone surrogates are hashed as Node hashes them (U+FFFD)');
});

test('text truncation: bounded, a UTF-8 prefix, sha256 of the whole', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.nat(600), (s, maxBytes) => {
      const r = truncateOutput(s, { maxBytes });
      assert.equal(r.output_truncated, utf8Len(s) > maxBytes);
      assert.equal(r.original_size, utf8Len(s));
      assert.equal(r.size, utf8Len(r.output));
      assert.equal(r.sha256, nodeSha(s));
      if (r.output_truncated) {
        assert.ok(r.size <= maxBytes);
        const kept = r.output.split('\n…[truncated')[0];
        assert.ok(s.startsWith(kept));
        assert.ok(utf8Len(kept) * 20 <= maxBytes * 19, 'keeps at most 95 % of the limit');
        assert.ok(!/[\uD800-\uDBFF]$/.test(kept), 'no character is split');
        // The longest prefix of whole characters within 95 %, and the note as
        // the spec words it (or none when it would not fit): the Node build
        // measures the text in JS, the browser build in wasm, with one result.
        const next = String.fromCodePoint(s.codePointAt(kept.length));
        assert.ok(utf8Len(kept) + utf8Len(next) > Math.floor((maxBytes * 19) / 20), 'keeps every character that fits');
        const note = `\n…[truncated: ${utf8Len(kept)} of ${utf8Len(s)} bytes shown]`;
        assert.equal(r.output, utf8Len(kept) + utf8Len(note) <= maxBytes ? kept + note : kept);
      } else {
        assert.equal(r.output, s);
      }
    }),
    { numRuns: 500 },
  );
});

// (A top-level string is text, covered above.)
test('JSON truncation: bounded, valid JSON, untouched when it fits', () => {
  fc.assert(
    fc.property(
      safeJson.filter((v) => typeof v !== 'string'),
      fc.integer({ min: 64, max: 800 }),
      (v, maxBytes) => {
        const full = JSON.stringify(v);
        const r = truncateOutput(v, { maxBytes });
        const text = JSON.stringify(r.output);
        assert.ok(utf8Len(text) <= maxBytes, `${utf8Len(text)} > ${maxBytes}`);
        // Sizes are those of the output as JSON.stringify writes it: exact.
        assert.equal(r.size, utf8Len(text));
        assert.equal(r.sha256, nodeSha(full));
        if (r.output_truncated) assert.ok(utf8Len(text) * 20 <= maxBytes * 19, 'at most 95 % of the limit');
        assert.equal(r.original_size, utf8Len(full));
        assert.equal(r.output_truncated, utf8Len(full) > maxBytes);
        if (!r.output_truncated) assert.deepEqual(r.output, JSON.parse(full));
        assert.deepEqual(JSON.parse(text), r.output);
      },
    ),
    { numRuns: 500 },
  );
});

test('JSON truncation examples: markers say what is missing', () => {
  const r = truncateOutput({ rows: Array.from({ length: 1000 }, (_, i) => i) }, { maxBytes: 300 });
  const rows = r.output.rows;
  assert.equal(rows[0], 0);
  assert.match(rows.at(-1), /^…\[\+\d+ items\]$/);
  assert.equal(Number(rows.at(-1).match(/\d+/)[0]) + rows.length - 1, 1000);
  assert.equal(r.sha256, nodeSha(JSON.stringify({ rows: Array.from({ length: 1000 }, (_, i) => i) })));
  const d = truncateOutput('x'.repeat(11 * 1024 * 1024));
  assert.equal(d.output_truncated, true);
  assert.ok(d.size <= 10 * 1024 * 1024, 'default limit is 10 MiB');
  assert.throws(
    () => truncateOutput('ok', { maxBytes: -1 }),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options',
  );
  assert.throws(
    () => truncateOutput({ n: NaN }),
    (e) => e.code === 'invalid_output' && e.issues[0].code === 'non_finite_number',
  );
  assert.throws(
    () => truncateOutput('a\uD800'),
    (e) => e.code === 'invalid_output' && e.issues[0].code === 'lone_surrogate',
  );
});

test('JSON truncation keeps members in the order of the JSON text (integer-like keys first, __proto__ an own member)', () => {
  const v = JSON.parse(
    `{"b":"${'x'.repeat(50)}","2":[1,2,3],"__proto__":{"p":"${'y'.repeat(80)}"},"1":"${'z'.repeat(60)}","a":${JSON.stringify(Array.from({ length: 40 }, (_, i) => i))}}`,
  );
  const order = Object.keys(v);
  assert.deepEqual(order, ['1', '2', 'b', '__proto__', 'a']);
  let cut = 0;
  for (const maxBytes of [64, 100, 150, 200, 260, 330, 400]) {
    const r = truncateOutput(v, { maxBytes });
    assert.equal(r.size, utf8Len(JSON.stringify(r.output)), `size at ${maxBytes}`);
    assert.ok(r.size <= maxBytes);
    if (r.output_truncated) cut++;
    const keys = Object.keys(r.output).filter((k) => !k.startsWith('…'));
    assert.deepEqual(keys, order.slice(0, keys.length), `kept keys at ${maxBytes}`);
    assert.equal(Object.getPrototypeOf(r.output), Object.prototype);
    if (keys.includes('__proto__')) assert.ok(Object.hasOwn(r.output, '__proto__'));
    // The output is a copy: changing it leaves the input as it was.
    if (Array.isArray(r.output['2'])) r.output['2'].push(4);
    assert.deepEqual(v['2'], [1, 2, 3]);
  }
  assert.ok(cut >= 5);
});

test('JSON truncation measures numbers as JavaScript writes them (1e+21, 1e-7, -0 as 0)', () => {
  const v = { a: Array.from({ length: 60 }, (_, i) => [1e21, 1e-7, -0, 5e-324, 0.1 + 0.2, i]) };
  for (const maxBytes of [64, 100, 333, 1000, 2500]) {
    const r = truncateOutput(v, { maxBytes });
    const text = JSON.stringify(r.output);
    assert.equal(r.size, utf8Len(text), `size at ${maxBytes}`);
    assert.ok(r.size <= maxBytes);
    assert.equal(r.original_size, utf8Len(JSON.stringify(v)));
  }
  const r = truncateOutput(v, { maxBytes: 300 });
  assert.deepEqual(r.output.a[0], [1e21, 1e-7, 0, 5e-324, 0.1 + 0.2, 0], 'kept numbers are the same numbers');
});

test('JSON truncation: a large output is cut once, through the text, with the markers and sha256 of the whole', () => {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `row ${i} é😀`, tags: ['a', 'b'], score: i / 3 }));
  const full = JSON.stringify({ rows });
  const r = truncateOutput({ rows }, { maxBytes: 100_000 });
  const text = JSON.stringify(r.output);
  assert.equal(r.size, utf8Len(text));
  assert.ok(r.size <= 95_000);
  assert.equal(r.sha256, nodeSha(full));
  assert.equal(r.original_size, utf8Len(full));
  const kept = r.output.rows.length - 1;
  // Whole rows, then the last kept row (cut itself when it did not fit whole).
  assert.deepEqual(r.output.rows.slice(0, kept - 1), rows.slice(0, kept - 1));
  assert.ok(Object.keys(r.output.rows[kept - 1]).every((k) => k === '…' || k in rows[kept - 1]));
  assert.equal(r.output.rows[kept], `…[+${20_000 - kept} items]`);
  // A string cut inside: its marker counts the UTF-8 bytes left out.
  const long = truncateOutput({ s: 'é'.repeat(500) }, { maxBytes: 200 });
  const m = long.output.s.match(/^(é*)…\[\+(\d+) bytes\]$/u);
  assert.ok(m, long.output.s);
  assert.equal(utf8Len(m[1]) + Number(m[2]), 1000);
});

test('capLines keeps the first lines (keep: head) and names how many were dropped', () => {
  const text = Array.from({ length: 250 }, (_, i) => `line ${i}`).join('\n');
  const r = capLines(text, { keep: 'head' });
  assert.equal(r.dropped_lines, 50);
  assert.ok(r.text.startsWith('line 0\nline 1\n'));
  assert.ok(r.text.endsWith('line 199\n… [50 more lines not shown]'));
  assert.deepEqual(capLines('a\nb'), { text: 'a\nb', dropped_lines: 0 });
});

test('capLines keeps head and tail by default: 40 % first lines, the note, 60 % last lines', () => {
  const text = Array.from({ length: 250 }, (_, i) => `line ${i}`).join('\n');
  const r = capLines(text, { maxLines: 100 });
  assert.equal(r.dropped_lines, 150);
  const lines = r.text.split('\n');
  assert.equal(lines[0], 'line 0');
  assert.equal(lines[39], 'line 39');
  assert.equal(lines[40], '… [150 more lines not shown]');
  assert.equal(lines[41], 'line 190');
  assert.equal(lines.at(-1), 'line 249');
  assert.equal(lines.length, 101);
  assert.throws(
    () => capLines(text, { keep: 'tail' }),
    (e) => e.code === 'invalid_options',
  );
});

test('previews keep whole lines within maxChars', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replace(/\n/g, ' ')),
        { maxLength: 20 },
      ),
      fc.integer({ min: 1, max: 300 }),
      (lines, maxChars) => {
        const text = lines.join('\n');
        const r = previewText(text, { maxChars });
        assert.ok([...r.text].length <= maxChars);
        const firstLine = text.split('\n')[0];
        if (!r.truncated) assert.equal(r.text, text);
        else if ([...firstLine].length > maxChars) assert.ok(firstLine.startsWith(r.text.replace(/… \(line truncated\)$/, '')));
        else {
          assert.ok(text.startsWith(r.text));
          assert.ok(r.text.endsWith('\n') || text.slice(r.text.length).startsWith('\n'));
        }
      },
    ),
    { numRuns: 500 },
  );
  assert.deepEqual(previewText('one\ntwo\nthree\n', { maxChars: 9 }), { text: 'one\ntwo\n', truncated: true });
  assert.equal(previewText('x'.repeat(1000)).text.length, 500);
});

test('JSON truncation of hostile values: a typed error for what is not JSON data, and the module keeps working', () => {
  let deep = [];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.throws(
    () => truncateOutput(deep, { maxBytes: 100 }),
    (e) => e instanceof ToolResultError && e.code === 'invalid_output' && e.issues[0].code === 'too_deep',
  );
  const cyclic = { a: [1] };
  cyclic.a.push(cyclic);
  assert.throws(
    () => truncateOutput(cyclic),
    (e) => e.code === 'invalid_output' && e.issues[0].code === 'cyclic_value',
  );
  assert.throws(
    () => truncateOutput({ s: 'a\uD800' }),
    (e) => e.code === 'invalid_output' && e.issues[0].code === 'lone_surrogate',
  );
  assert.throws(
    () => truncateOutput({ d: new Date(0) }),
    (e) => e.code === 'invalid_output' && e.issues[0].path === '/d',
  );
  // A getter runs once, and what it returned is what was measured and cut.
  let reads = 0;
  const r = truncateOutput(
    {
      get g() {
        reads++;
        return 'x'.repeat(500);
      },
    },
    { maxBytes: 100 },
  );
  assert.equal(reads, 1);
  assert.match(r.output.g, /^x+…\[\+\d+ bytes\]$/);
  // 127 levels is within the default depth: cut, not refused; then a plain call still works.
  let nested = 'leaf'.repeat(100);
  for (let i = 0; i < 127; i++) nested = [nested];
  const n = truncateOutput(nested, { maxBytes: 200 });
  assert.equal(n.output_truncated, true);
  assert.ok(n.size <= 200);
  assert.equal(truncateOutput({ ok: 1 }).output.ok, 1);
  // A wide object: 200,000 keys, cut with a count of the keys left out.
  const wide = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]));
  const w = truncateOutput(wide, { maxBytes: 10_000 });
  const kept = Object.keys(w.output).filter((k) => k !== '…');
  assert.equal(w.output['…'], `[+${200_000 - kept.length} keys]`);
  assert.ok(w.size <= 10_000);
});
