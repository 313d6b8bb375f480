// The official JSON Schema Test Suite (draft 2020-12 and draft 7, required and
// optional) through the built package, Node or browser build
// (TOOLRESULT_BUILD=web). A failure outside skip.json fails the test, and so
// does a skip-listed case that passes (the list must stay exact).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, toolresult } from '../node/helpers.mjs';
import { DRAFTS, remotes, runDraft, skips, summarize } from './suite.mjs';

const documents = remotes();

for (const draft of DRAFTS) {
  test(`JSON Schema Test Suite ${draft.dir} (${build} build)`, () => {
    const s = summarize(runDraft(toolresult, draft, documents));
    console.log(
      `${draft.dir} (${build}): required ${s.required.passed} passed, ${s.required.failed} failed; ` +
        `optional ${s.optional.passed} passed, ${s.optional.failed} failed (${s.skipped} skip-listed)`,
    );
    assert.deepEqual(
      s.unexpected.map((r) => `${r.id}: ${r.detail}`),
      [],
      'cases outside tests/conformance/skip.json failed',
    );
    assert.deepEqual(s.stale, [], 'skip-listed cases now pass: remove them from skip.json');
    assert.equal(s.required.failed, 0, 'every required case passes (no skips there)');
    assert.ok(s.required.passed > 900, `ran the required cases (${s.required.passed})`);
  });
}

test('every skip has a one-line reason', () => {
  for (const [id, reason] of Object.entries(skips)) {
    assert.equal(typeof reason, 'string', id);
    assert.ok(reason.length > 20 && !reason.includes('\n'), id);
  }
});
