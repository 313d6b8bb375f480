// scripts/docs-test.mjs (`npm run docs:test`) proves the examples of the docs
// run: given markdown files, it fails on a block that calls what the package
// does not have, passes a block that works, and holds its markers to their
// rules (a skip needs a reason; `continue` joins the previous block).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(root, 'scripts', 'docs-test.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'docs-test-probe-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const fence = '```';
function page(name, text) {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Runs the script on `files` (as arguments, or through DOCS_TEST_FILES). */
function docsTest(files, { viaEnv = false } = {}) {
  const env = { ...process.env, DOCS_TEST_JOBS: '2' };
  if (viaEnv) env.DOCS_TEST_FILES = files.join(path.delimiter);
  const r = spawnSync(process.execPath, [script, ...(viaEnv ? [] : files)], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test('docs-test: a block calling a function the package does not have fails, named by file and line', () => {
  const file = page(
    'missing.md',
    `# Probe\n\nSome text.\n\n${fence}js\nimport { validateToolResultz } from 'toolresult';\nvalidateToolResultz('{}');\n${fence}\n`,
  );
  const r = docsTest([file]);
  assert.notEqual(r.status, 0, r.out);
  assert.match(r.out, new RegExp(`FAIL ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5`), r.out);
  assert.match(r.out, /validateToolResultz/, 'the error is shown');
  assert.match(r.out, /0 passed, 1 failed/);
});

test('docs-test: a good block passes (JavaScript, TypeScript with its types stripped, and a subpath export), through DOCS_TEST_FILES too', () => {
  const file = page(
    'good.md',
    [
      '# Good',
      '',
      `${fence}js`,
      "import { createSuccess, validateToolResult } from 'toolresult';",
      "const r = createSuccess({ input: { tool_name: 'ls', parameters: {} }, output: ['a'] });",
      "if (!validateToolResult(JSON.stringify(r)).ok) throw new Error('invalid');",
      fence,
      '',
      `${fence}ts`,
      "import { statusInfo, type StatusInfo } from 'toolresult';",
      "const info: StatusInfo = statusInfo('rate_limited');",
      "if (info.retryable !== true) throw new Error('not retryable');",
      fence,
      '',
      `${fence}mjs`,
      "import { createToolResultsHandler } from 'toolresult/http';",
      "if (typeof createToolResultsHandler !== 'function') throw new Error('no handler');",
      fence,
      '',
      `${fence}sh`,
      'exit 1   # not JavaScript: never run',
      fence,
      '',
    ].join('\n'),
  );
  for (const viaEnv of [false, true]) {
    const r = docsTest([file], { viaEnv });
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /3 passed, 0 failed, 0 skipped/, r.out);
  }
});

test('docs-test: a skip needs a reason; continue joins the previous block', () => {
  const noReason = page('skip-no-reason.md', `<!-- docs-test: skip -->\n${fence}js\nthrow new Error('never run');\n${fence}\n`);
  const r1 = docsTest([noReason]);
  assert.notEqual(r1.status, 0, r1.out);
  assert.match(r1.out, /skip needs a reason/);

  const withReason = page(
    'skip-continue.md',
    [
      '<!-- docs-test: skip — browser only -->',
      `${fence}js`,
      "throw new Error('never run');",
      fence,
      '',
      `${fence}js`,
      "import { sha256Hex } from 'toolresult';",
      "const digest = sha256Hex('abc');",
      fence,
      '',
      'Text between the blocks.',
      '',
      '<!-- docs-test: continue -->',
      `${fence}js`,
      "if (digest !== 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad') throw new Error(digest);",
      fence,
      '',
    ].join('\n'),
  );
  const r2 = docsTest([withReason]);
  assert.equal(r2.status, 0, r2.out);
  assert.match(r2.out, /skip .*skip-continue\.md:2: browser only/);
  assert.match(r2.out, /ok {3}.*skip-continue\.md:6 \(\+ continued at line 14\)/);
  assert.match(r2.out, /1 passed, 0 failed, 1 skipped/);

  const unknown = page('unknown.md', `<!-- docs-test: maybe -->\n${fence}js\nconsole.log(1);\n${fence}\n`);
  const r3 = docsTest([unknown]);
  assert.notEqual(r3.status, 0, r3.out);
  assert.match(r3.out, /unknown directive/);
});
