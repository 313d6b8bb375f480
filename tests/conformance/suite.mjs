// Runs the official JSON Schema Test Suite through the built npm package (not
// the native crate): every case of a draft's top-level files and of its
// optional/ files, with the suite's remotes/ served from memory through
// `options.documents`. Used by the test below and printable on its own:
//   node tests/conformance/suite.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// A copy of ../shared/conformance/json-schema-test-suite (drafts 2020-12 and 7,
// remotes, LICENSE), so the test runs from a clone alone.
export const suiteDir = path.join(here, 'json-schema-test-suite');
export const skips = JSON.parse(readFileSync(path.join(here, 'skip.json'), 'utf8'));

/** The drafts we claim, with the dialect a schema without `$schema` gets. */
export const DRAFTS = [
  { dir: 'draft2020-12', dialect: '2020-12' },
  { dir: 'draft7', dialect: 'draft-07' },
];

function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
}

/** remotes/ as documents: `http://localhost:1234/<path>` → JSON. */
export function remotes() {
  const root = path.join(suiteDir, 'remotes');
  return Object.fromEntries(
    walk(root)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [`http://localhost:1234/${path.relative(root, f).split(path.sep).join('/')}`, JSON.parse(readFileSync(f, 'utf8'))]),
  );
}

/** Test files of a draft: top level, then optional/ (and optional/format/). */
export function files(draft) {
  const root = path.join(suiteDir, 'tests', draft);
  return walk(root)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.relative(path.join(suiteDir, 'tests'), f).split(path.sep).join('/'));
}

/**
 * Runs one draft. Format assertion is on for optional/format/ (the behaviour
 * `formats: 'assert'`, our default, claims) and off elsewhere, where the suite
 * tests the spec's annotation-only default (`formats: 'annotate'`).
 */
export function runDraft(toolresult, { dir, dialect }, documents = remotes()) {
  const results = [];
  // Cases whose schema has a plan, so that isValid/validate were judged in JS.
  let planned = 0;
  for (const file of files(dir)) {
    const optional = file.includes('/optional/');
    const formats = file.includes('/optional/format/') ? 'assert' : 'annotate';
    const groups = JSON.parse(readFileSync(path.join(suiteDir, 'tests', file), 'utf8'));
    for (const group of groups) {
      let schema;
      let compileError;
      try {
        schema = toolresult.compileSchema(group.schema, { documents, defaultDialect: dialect, formats });
      } catch (e) {
        compileError = e;
      }
      for (const t of group.tests) {
        const id = `${file} | ${group.description} | ${t.description}`;
        let passed;
        let detail;
        if (compileError) {
          passed = false;
          detail = `compile: ${compileError.message.split('\n').slice(0, 2).join(' ')}`;
        } else {
          try {
            // By value: through the schema's plan where it has one
            // (docs/internals/schema-plan.md), else the engine.
            const valid = schema.isValid(t.data);
            const issues = schema.validate(t.data);
            // By text: always the engine.
            const text = JSON.stringify(t.data);
            const validText = schema.isValidJson(text);
            const textIssues = schema.validateJson(text);
            // Every path agrees, with the same issues, and matches the suite.
            passed = valid === t.valid && validText === t.valid && (issues.length === 0) === t.valid && JSON.stringify(issues) === JSON.stringify(textIssues);
            detail = `expected ${t.valid ? 'valid' : 'invalid'}, isValid ${valid}, isValidJson ${validText}, ${issues.length} issues (${textIssues.length} by text)`;
            if (schema.planCovered) planned++;
          } catch (e) {
            passed = false;
            detail = `threw ${e.code ?? ''} ${e.message.split('\n')[0]}`;
          }
        }
        results.push({ id, optional, passed, detail });
      }
      schema?.free();
    }
  }
  results.planned = planned;
  return results;
}

export function summarize(results) {
  const count = (rs) => ({ passed: rs.filter((r) => r.passed).length, failed: rs.filter((r) => !r.passed).length });
  return {
    required: count(results.filter((r) => !r.optional)),
    optional: count(results.filter((r) => r.optional)),
    skipped: results.filter((r) => !r.passed && skips[r.id]).length,
    unexpected: results.filter((r) => !r.passed && !skips[r.id]),
    stale: Object.keys(skips).filter((id) => results.some((r) => r.id === id && r.passed)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const toolresult = await import('toolresult');
  const documents = remotes();
  for (const draft of DRAFTS) {
    const results = runDraft(toolresult, draft, documents);
    const s = summarize(results);
    console.log(
      `${draft.dir}: required ${s.required.passed} passed, ${s.required.failed} failed; optional ${s.optional.passed} passed, ${s.optional.failed} failed; ${s.skipped} of the failures on the skip list; ${results.planned} of ${results.length} cases by the plan`,
    );
    for (const r of s.unexpected) console.log(`  FAIL ${r.id}: ${r.detail}`);
    for (const id of s.stale) console.log(`  STALE SKIP (passes now) ${id}`);
  }
}
