// locate(text, pointer): every issue of every fixture points at the right
// place in its source text, on any layout of that text; broken text and bad
// pointers are handled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { cases, readFixture, toolresult } from './helpers.mjs';

const { locate, validateAgentResult, validateToolResult, ToolResultError } = toolresult;

/** The value at `pointer` in `value`, or undefined. */
function resolve(value, pointer) {
  if (pointer === '') return value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** Line and column (1-based, UTF-16) of `offset` in `text`, computed the slow way. */
function lineColumn(text, offset) {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

test('every fixture issue is located: the span holds the value, or its nearest ancestor when missing', () => {
  let checked = 0;
  for (const c of cases) {
    const source = readFixture(c.file).toString('utf8');
    let value;
    try {
      value = JSON.parse(source);
    } catch {
      continue;
    }
    const validate = c.kind === 'agent' ? validateAgentResult : validateToolResult;
    const out = validate(source);
    if (out.ok) continue;
    // The same document pretty-printed and compact: locations follow the layout.
    for (const text of [source, JSON.stringify(value), JSON.stringify(value, null, 2)]) {
      for (const issue of out.issues) {
        const at = locate(text, issue.path);
        const target = at.found ? resolve(value, issue.path) : resolve(value, at.pointer);
        assert.notEqual(target, undefined, `${c.file} ${issue.path}`);
        assert.deepEqual(JSON.parse(text.slice(at.offset, at.end)), target, `${c.file} ${issue.path}`);
        assert.deepEqual({ line: at.line, column: at.column }, lineColumn(text, at.offset));
        if (!at.found) assert.ok(issue.path.startsWith(`${at.pointer}/`), `${issue.path} lies under ${at.pointer}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 50, `checked ${checked} issues`);
});

test("property: any pointer into any JSON value is found, with the value's exact text", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.nat(), fc.integer({ min: 0, max: 2 }), (generated, pick, indent) => {
      const text = JSON.stringify(generated, null, indent);
      // What the text holds (-0 is written as 0).
      const value = JSON.parse(text);
      const pointers = [''];
      const walk = (v, p) => {
        if (v === null || typeof v !== 'object') return;
        for (const k of Object.keys(v)) {
          const child = `${p}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`;
          pointers.push(child);
          walk(v[k], child);
        }
      };
      walk(value, '');
      const pointer = pointers[pick % pointers.length];
      const at = locate(text, pointer);
      assert.ok(at.found);
      assert.equal(at.pointer, pointer);
      assert.deepEqual(JSON.parse(text.slice(at.offset, at.end)), resolve(value, pointer));
      assert.deepEqual({ line: at.line, column: at.column }, lineColumn(text, at.offset));
    }),
  );
});

test('text that does not parse is located as far as it goes; bad pointers are typed errors', () => {
  const text = '{\n  "metadata": {\n    "status": "success",\n    "output": [1, 2';
  const at = locate(text, '/metadata/output/5');
  assert.equal(at.found, false);
  assert.equal(at.pointer, '/metadata/output');
  assert.deepEqual([at.line, at.column, at.end], [4, 15, text.length]);
  assert.deepEqual(locate('', '/a'), { offset: 0, end: 0, line: 1, column: 1, found: false, pointer: '' });
  assert.throws(
    () => locate('{}', 'a'),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options',
  );
  assert.throws(
    () => locate('{}', '/~x'),
    (e) => e.code === 'invalid_options',
  );
  assert.throws(
    () => locate({}, ''),
    (e) => e.code === 'invalid_options',
  );
  assert.equal(locate('{"a": 1}', '/a').found, true, 'still works after errors');
});
