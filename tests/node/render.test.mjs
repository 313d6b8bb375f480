// Rendering through the built package (Node or browser build): the package
// renders every kind exactly as the Rust golden snapshots say, hostile output
// renders inert, the registry never renders nothing, and the helpers produce
// tool_metadata that validates.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fixturesDir, toolresult as t } from './helpers.mjs';

const read = (f) => JSON.parse(readFileSync(path.join(fixturesDir, f), 'utf8'));
const snapshot = (name) => readFileSync(path.join(fixturesDir, 'render', `${name}.txt`), 'utf8');
const validFixtures = readdirSync(path.join(fixturesDir, 'tool'))
  .filter((f) => f.startsWith('valid-'))
  .sort();

test('renderText gives the golden snapshot for every valid fixture (the same text as the Rust core)', () => {
  assert.ok(validFixtures.length >= 20);
  for (const f of validFixtures) {
    assert.equal(t.renderText(read(`tool/${f}`)), snapshot(f.replace(/\.json$/, '')), f);
  }
  assert.equal(t.renderText(read('tool/valid-metadata-file-edit.json'), { color: true }), snapshot('ansi-file-edit'));
  assert.equal(t.renderText(read('tool/valid-metadata-file-read.json'), { collapsed: true }), snapshot('collapsed-file-read'));
  const text = JSON.stringify(read('tool/valid-metadata-grep.json'));
  assert.equal(t.renderText(text), snapshot('valid-metadata-grep'), 'JSON text renders the same');
});

test('renderText: statuses drive the header; failures and confirmations are never collapsed away', () => {
  const failed = {
    ...read('tool/valid-metadata-file-edit.json'),
    status: 'permission_denied',
    error_code: 'EACCES',
    error_message: 'src/main.rs is read-only',
  };
  const collapsed = t.renderText(failed, { collapsed: true });
  assert.equal(collapsed, snapshot('failed-collapsed-keeps-the-error'));
  assert.match(collapsed, /^✗ permission_denied /);
  assert.match(collapsed, /error \[EACCES\]: src\/main.rs is read-only/);
  const confirm = {
    ...read('tool/valid-metadata-bash.json'),
    status: 'requires_confirmation',
    error_code: 'CONFIRM',
    error_message: 'rm -rf build/ deletes 1,204 files; confirm?',
  };
  assert.match(t.renderText(confirm, { collapsed: true }), /needs confirmation \[CONFIRM\]: rm -rf build/);
  const cut = t.renderText(
    {
      ...read('tool/valid-metadata-bash.json'),
      tool_metadata: { ...read('tool/valid-metadata-bash.json').tool_metadata, stdout: Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n') },
    },
    { maxLines: 12 },
  );
  assert.equal(cut, snapshot('bash-head-and-tail'));
  assert.throws(
    () => t.renderText(read('tool/valid-success.json'), { width: 3 }),
    (e) => e.code === 'invalid_options',
  );
  assert.throws(
    () => t.renderText({ status: 'success' }),
    (e) => e.code === 'invalid_tool_result',
  );
});

// Only the renderer's own SGR sequences (ESC [ digits m) may hold an ESC.
function assertInert(text, what) {
  const withoutSgr = text.replace(/\x1b\[\d+m/g, '');
  assert.ok(!withoutSgr.includes('\x1b'), `${what}: a raw ESC`);
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/.test(withoutSgr), `${what}: a control character`);
}

test('hostile output renders inert in text: escapes, OSC 8 links, bidi, carriage returns, markup, 10 MB lines', () => {
  const base = read('tool/valid-metadata-bash.json');
  const payloads = [
    'clear\x1b[2J\x1b[H title\x1b]0;owned\x07 link \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\',
    'bidi \u202etxt.exe\u202c isolate \u2066x\u2069',
    'carriage\roverwrite C1 \u009b31m bell \x07',
    '</script><script>alert(1)</script> [x](javascript:alert(1)) ```\n```html\n<img src=x onerror=alert(1)>',
    'A'.repeat(10 * 1024 * 1024),
  ];
  for (const p of payloads) {
    const r = { ...base, output: { stdout: p }, tool_metadata: { ...base.tool_metadata, command: p, stdout: p } };
    const { tool_metadata, ...plain } = r;
    for (const [result, color] of [
      [r, false],
      [r, true],
      [{ ...plain, schema_version: '1.0.0' }, true],
    ]) {
      const text = t.renderText(result, { color, width: 80 });
      assertInert(text, p.slice(0, 20));
      assert.ok(text.length < 100_000, 'a 10 MB line is cut to the width');
    }
  }
});

test('RendererRegistry: exact name, then tool_type, then the most specific pattern, then the fallback; a throwing renderer hands over', () => {
  const reg = t.createTextRendererRegistry();
  const grep = read('tool/valid-metadata-grep.json');
  const mcp = read('tool/valid-metadata-mcp.json');
  assert.equal(reg.render(grep).renderer, 'fallback');
  assert.equal(reg.render(grep).output, t.renderText(grep));
  reg.register('grep', () => 'by type or name');
  assert.equal(reg.render(grep).renderer, 'name:grep');
  reg
    .registerPattern('mcp_*', () => 'any mcp')
    .registerPattern('mcp_github_*', () => 'github mcp')
    .registerPattern(/^mcp_/, () => 'regexp mcp');
  assert.deepEqual(
    reg.candidates(mcp).map((c) => c.label),
    ['pattern:mcp_github_*', 'pattern:/^mcp_/', 'pattern:mcp_*', 'fallback'],
  );
  assert.equal(reg.render(mcp).output, 'github mcp');
  reg.registerPattern('mcp_github_*', () => 'later github mcp');
  assert.equal(reg.render(mcp).output, 'later github mcp', 'a later registration wins a tie');
  reg.register('mcp', () => 'by tool_type');
  assert.equal(reg.render(mcp).renderer, 'type:mcp');
  const seen = [];
  reg.onError = (e) => seen.push(e.renderer);
  reg.register('mcp_github_search', () => {
    throw new Error('boom');
  });
  const r = reg.render(mcp);
  assert.equal(r.renderer, 'type:mcp');
  assert.equal(r.errors[0].error.message, 'boom');
  assert.deepEqual(seen, ['name:mcp_github_search']);
  const broken = new t.RendererRegistry(
    () => {
      throw new Error('no fallback today');
    },
    (line) => line,
  );
  const last = broken.render(grep);
  assert.equal(last.renderer, 'last-resort');
  assert.equal(last.output, 'grep: success (no renderer could render this result)');
  assert.equal(
    broken.register('x', () => undefined).render({ ...grep, input: { ...grep.input, tool_name: 'x' } }).errors.length,
    2,
    'returning nothing counts as a failure',
  );
  assert.throws(
    () => reg.register('', () => ''),
    (e) => e.code === 'invalid_options',
  );
  assert.throws(
    () => reg.registerPattern(42, () => ''),
    (e) => e.code === 'invalid_options',
  );
});

test('helpers: diffHunks, detectLanguage and structure* build tool_metadata that validates', async () => {
  await t.loadSchemaEngine?.();
  const hunks = t.diffHunks('a\nb\nc\n', 'a\nB\nc\nd\n', { context: 1 });
  assert.deepEqual(
    hunks.map((h) => [h.old_start, h.old_count, h.new_start, h.new_count]),
    [[1, 3, 1, 4]],
  );
  assert.deepEqual(
    hunks[0].lines.map((l) => l.type),
    ['context', 'removed', 'added', 'context', 'added'],
  );
  assert.deepEqual(t.diffHunks('same\n', 'same\n'), []);
  assert.equal(t.detectLanguage('src/App.tsx'), 'tsx');
  assert.equal(t.detectLanguage('LICENSE'), undefined);
  const edit = t.structureFileEdit({ file_path: 'src/lib.rs', old_text: 'fn a() {}\n', new_text: 'fn a() {}\nfn b() {}\n' });
  assert.equal(edit.language, 'rust');
  const read_ = t.structureFileRead({ file_path: 'a.py', text: 'x\ny\nz\n', offset: 2, maxLines: 1 });
  assert.deepEqual([read_.lines, read_.total_lines, read_.truncated], [['y'], 3, true]);
  const todo = t.structureTodo({
    action: 'write',
    todo_list: [
      { id: '1', content: 'a', status: 'completed' },
      { id: '2', content: 'b', status: 'pending' },
    ],
  });
  assert.deepEqual(todo.statistics, { total: 2, completed: 1, in_progress: 0, pending: 1 });
  const sub = t.createSuccess({ input: { tool_name: 'x' }, output: 1 });
  const batch = t.structureBatch({
    sub_results: [sub, t.createFailure({ input: { tool_name: 'y' }, status: 'failed', error_code: 'E', error_message: 'no' })],
  });
  for (const tool_metadata of [edit, read_, todo, batch]) {
    const r = t.createSuccess({ input: { tool_name: 'tool' }, tool_metadata });
    assert.equal(r.schema_version, '1.1.0', 'stamped with the version that has tool_metadata');
    assert.deepEqual(t.validateToolResult(r).ok, true, tool_metadata.tool_type);
  }
  assert.equal(t.createSuccess({ input: { tool_name: 'x' } }).schema_version, '1.0.0', 'the oldest version that holds the result');
  assert.equal(t.summarize(t.createSuccess({ input: { tool_name: 'edit' }, tool_metadata: edit })), 'Edited src/lib.rs: +1 \u22120 in 1 hunk');
});

test("ToolRegistry: a custom tool_metadata is checked against the tool's metadata_schema", () => {
  const tools = new t.ToolRegistry().register({
    name: 'jira_get',
    metadata_schema: { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: '^[A-Z]+-\\d+$' } } },
  });
  const custom = read('tool/valid-metadata-custom.json');
  assert.equal(tools.checkResult(custom).status, 'success');
  const bad = tools.checkResult({ ...custom, tool_metadata: { ...custom.tool_metadata, data: { key: 'nope' } } });
  assert.equal(bad.status, 'output_validation_failed');
  assert.equal(bad.validation_issues[0].path, '/tool_metadata/data/key');
  assert.equal(bad.error_code, 'OUTPUT_VALIDATION_FAILED');
  assert.equal(t.validateToolResult(bad).ok, true);
  assert.deepEqual(tools.get('jira_get').metadata_schema.required, ['key']);
  tools.free();
});
