// Previews through the built package (Node or browser build), on the shared
// fixtures in tests/fixtures/preview (the Rust tests run the same cases):
// previewResult, toReference, prepareHistory and the store listings all
// show the same text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fixturesDir, toolresult as t } from './helpers.mjs';

const cases = JSON.parse(readFileSync(path.join(fixturesDir, 'preview', 'cases.json'), 'utf8'));
const NOTE = '\n… (truncated; call get_tool_result for the full result)';

for (const c of cases) {
  test(`preview: ${c.name}`, () => {
    assert.equal(t.validateToolResult(c.result).ok, true);
    const p = t.previewResult(c.result, { maxChars: c.max_chars });
    assert.equal(p, c.preview);
    const shown = p.endsWith(NOTE) ? p.slice(0, -NOTE.length) : p;
    assert.ok([...shown].length <= c.max_chars, 'within the budget');
    assert.equal(t.previewResult(JSON.stringify(c.result), { maxChars: c.max_chars }), p, 'JSON text gives the same preview');
  });
}

test('preview: references, prepareHistory and both listings show the same text', () => {
  const store = new t.ResultStore();
  const messages = cases.map((c) => ({ role: 'tool', content: c.result }));
  const prepared = t.prepareHistory(messages, { dialogId: 'd1', store });
  assert.equal(prepared.referenced.length, cases.length);
  const listed = store.listDialog('d1');
  for (const [i, c] of cases.entries()) {
    const expected = t.previewResult(c.result);
    assert.equal(prepared.messages[i].content.metadata.truncated_preview, expected, c.name);
    assert.equal(t.toReference(c.result, { dialogId: 'd1' }).metadata.truncated_preview, expected, c.name);
    assert.equal(listed[i].preview, expected, c.name);
  }
  // Seed 003's own example: the preview holds the file's lines, not a brace.
  const read = cases.find((c) => c.name.startsWith('seed 003'));
  assert.match(t.previewResult(read.result), /^import os\nimport sys\n/);
  assert.throws(
    () => t.previewResult(read.result, { maxChars: 0 }),
    (e) => e.code === 'invalid_options',
  );
  assert.throws(
    () => t.previewResult({ nope: 1 }),
    (e) => e instanceof t.ToolResultError,
  );
});
