// The `toolresult` CLI, run as a user runs it: exit codes 0 / 1 / 2, text and
// JSON reports, stdin.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { fixturesDir } from './helpers.mjs';

const require = createRequire(import.meta.url);
const bin = path.join(path.dirname(require.resolve('toolresult/package.json')), 'bin', 'toolresult.cjs');
const fx = (f) => path.join(fixturesDir, f);
const cli = (args, input) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input });

test('all valid: exit 0 and one line per file', () => {
  const r = cli(['validate', fx('agent/valid-success.json'), fx('tool/valid-failed.json')]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /valid\s+.*agent\/valid-success.json \(AgentResult\)/);
  assert.match(r.stdout, /valid\s+.*tool\/valid-failed.json \(ToolResult\)/);
  assert.match(r.stdout, /2 valid, 0 invalid/);
});

test('any invalid: exit 1 with readable issues', () => {
  const r = cli(['validate', fx('agent/valid-success.json'), fx('agent/invalid-success-mismatch.json')]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /INVALID\s+.*invalid-success-mismatch.json \(AgentResult\): 1 issue\n/);
  assert.match(r.stdout, /\/success: success is false but status is `success`.*\[success_status_mismatch\]/);
});

test('--json prints a machine-readable report', () => {
  const r = cli(['validate', '--json', '--kind', 'tool', fx('tool/invalid-time-order.json')]);
  assert.equal(r.status, 1);
  const report = JSON.parse(r.stdout);
  assert.equal(report.length, 1);
  assert.equal(report[0].kind, 'tool');
  assert.equal(report[0].ok, false);
  assert.deepEqual(
    report[0].issues.map((i) => [i.path, i.code]),
    [['/metadata/completed_at', 'time_order']],
  );
});

test('--kind forces the envelope; "-" reads stdin', () => {
  const r = cli(['validate', '--kind=agent', '-'], '{"input": {}}');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /\(AgentResult\)/);
  const ok = cli(['validate', '-'], require('node:fs').readFileSync(fx('tool/valid-success.json'), 'utf8'));
  assert.equal(ok.status, 0, ok.stdout);
  assert.match(ok.stdout, /\(ToolResult\)/);
});

test('usage and I/O errors: exit 2', () => {
  for (const args of [[], ['frobnicate'], ['validate'], ['validate', '--kind', 'nope', 'x'], ['validate', '--wat', 'x']]) {
    const r = cli(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, /usage: toolresult validate/);
  }
  const missing = cli(['validate', fx('does-not-exist.json')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read .*does-not-exist.json/);
  assert.equal(cli(['--help']).status, 0);
});

test('normalize: a TaskResult, an AgentMessage and an MCP result become valid envelopes; changes go to stderr', () => {
  const ctx = JSON.stringify({ agent_id: 'a1', agent_type: 'scaffold', action: 'build', timestamp: '2026-11-22T10:00:00Z' });
  const task = cli(['normalize', '--context', ctx, fx('convert/task-result-partial.json')]);
  assert.equal(task.status, 0, task.stderr);
  const agent = JSON.parse(task.stdout);
  assert.equal(agent.version, '1.0.0');
  assert.equal(agent.result._legacy.next_stage, 'integration');
  assert.match(task.stderr, /derived\s+\/status: partial → success/);
  const v = cli(['validate', '--kind', 'agent', '-'], task.stdout);
  assert.equal(v.status, 0, v.stdout);

  const message = cli(
    ['normalize', '--from', 'agent-message', '--context={"agent_type":"scaffold","action":"build"}', '-'],
    readFileSync(fx('convert/agent-message-task-result.json'), 'utf8'),
  );
  assert.equal(message.status, 0, message.stderr);
  assert.equal(JSON.parse(message.stdout).agent_id, 'scaffold-agent-1');

  const mcp = cli(['normalize', '--from', 'mcp', '--context', '{"tool_name":"get_weather"}', fx('convert/mcp-structured.json')]);
  assert.equal(mcp.status, 0, mcp.stderr);
  assert.deepEqual(JSON.parse(mcp.stdout).output, { temperature: 21, conditions: 'sunny' });
});

test('normalize: invalid or ambiguous input exits 1 with issues, usage errors exit 2', () => {
  const bad = cli(['normalize', fx('convert/invalid-ambiguous.json')]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /\[ambiguous_shape\]/);
  const wrongKind = cli(['normalize', '--from', 'task-result', '--context', '{}', fx('agent/valid-success.json')]);
  assert.equal(wrongKind.status, 1);
  const mcpBad = cli(['normalize', '--from', 'mcp', '--context', '{"tool_name":"x"}', fx('convert/invalid-mcp-no-content.json')]);
  assert.equal(mcpBad.status, 1);
  assert.match(mcpBad.stderr, /\/content: .*\[missing_field\]/);
  assert.equal(cli(['normalize', '--from', 'soap', fx('convert/mcp-text.json')]).status, 2);
  assert.equal(cli(['normalize', '--context', '{nope', fx('convert/mcp-text.json')]).status, 2);
  assert.equal(cli(['normalize']).status, 2);
  assert.equal(cli(['normalize', fx('convert/does-not-exist.json')]).status, 2);
});

test('render: text, ansi and html; hostile output stays inert; usage errors exit 2', () => {
  const r = cli(['render', fx('tool/valid-metadata-file-edit.json')]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, readFileSync(fx('render/valid-metadata-file-edit.txt'), 'utf8'));
  const ansi = cli(['render', '--format', 'ansi', fx('tool/valid-metadata-file-edit.json')]);
  assert.match(ansi.stdout, /\x1b\[32m {2}\+ {4}let name = "world";\x1b\[0m/);
  const hostile = JSON.parse(readFileSync(fx('tool/valid-metadata-bash.json'), 'utf8'));
  hostile.tool_metadata.stdout = '</pre><script>alert(1)</script>\x1b]0;t\x07';
  const html = cli(['render', '--format', 'html', '-'], JSON.stringify(hostile));
  assert.equal(html.status, 0, html.stderr);
  assert.match(html.stdout, /^<pre class="tool-result" data-status="success">/);
  assert.ok(!html.stdout.includes('<script>') && html.stdout.includes('&lt;/pre&gt;&lt;script&gt;'));
  assert.ok(!html.stdout.includes('\x1b'));
  assert.match(
    cli(['render', '--collapsed', fx('tool/valid-metadata-file-read.json')]).stdout,
    /^✓ success Read file: src\/main.py \(200 lines\)\n {2}import os/,
  );
  assert.equal(cli(['render', '--format', 'pdf', fx('tool/valid-success.json')]).status, 2);
  assert.equal(cli(['render', '--width', '5', fx('tool/valid-success.json')]).status, 2);
  assert.equal(cli(['render', fx('tool/invalid-empty.json')]).status, 1);
});
