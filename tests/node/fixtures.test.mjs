// Every shared fixture through the npm package, as a string, as bytes and as
// a JS value: each must give exactly the issues the case lists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brief, cases, readFixture, tryParse, toolresult } from './helpers.mjs';

const { validateAgentResult, validateToolResult } = toolresult;

const validators = { agent: validateAgentResult, tool: validateToolResult };

test('there are enough fixtures of each kind', () => {
  for (const kind of ['agent', 'tool']) {
    const mine = cases.filter((c) => c.kind === kind);
    assert.ok(mine.filter((c) => c.issues.length === 0).length >= 3, `${kind}: valid fixtures`);
    assert.ok(mine.filter((c) => c.issues.length > 0).length >= 8, `${kind}: invalid fixtures`);
  }
});

for (const c of cases) {
  const validate = validators[c.kind];
  const want = brief(c.issues);
  const bytes = readFixture(c.file);
  const text = bytes.toString('utf8');

  test(`${c.file} as a string`, () => {
    const r = validate(text);
    assert.equal(r.ok, want.length === 0);
    assert.deepEqual(r.ok ? [] : brief(r.issues), want);
    if (r.ok) assert.deepEqual(r.value, JSON.parse(text));
    else for (const issue of r.issues) assert.ok(issue.message.length > 10, issue.message);
  });

  test(`${c.file} as bytes`, () => {
    const r = validate(new Uint8Array(bytes));
    assert.deepEqual(r.ok ? [] : brief(r.issues), want);
  });

  // Inputs JSON.parse would change (duplicate keys, unsafe integers) or
  // cannot read have no faithful JS value form.
  const parsed = tryParse(text);
  const inputLevel = ['duplicate_key', 'unsafe_integer', 'lone_surrogate', 'invalid_json'];
  if (parsed.ok && !c.issues.some((i) => inputLevel.includes(i.code))) {
    test(`${c.file} as a JS value`, () => {
      const r = validate(parsed.value);
      assert.deepEqual(r.ok ? [] : brief(r.issues), want);
      if (r.ok) {
        assert.deepEqual(r.value, parsed.value);
        assert.notEqual(r.value, parsed.value, 'a fresh copy is returned');
      }
    });
  }
}
