// Quality of the safety screen on the corpus generated at test time
// (tests/screen/corpus.mjs): detection per category and false positives on
// benign text, against the targets in docs/screen.md §9. The development set
// in ../shared/safety-dev is measured by bench/screen-quality.mjs.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { caught, corpus } from '../screen/corpus.mjs';
import { REAL_OUTPUTS } from '../screen/real-outputs.mjs';
import { toolresult as t } from './helpers.mjs';

const TARGETS = { secret: 0.95, executable_payload: 0.9, policy_change: 0.95, hidden_text: 0.95 };

test('the generated corpus: detection and false-positive rates meet the targets', () => {
  const items = corpus();
  const seen = {};
  let benign = 0;
  let benignRejected = 0;
  let benignSecret = 0;
  for (const item of items) {
    const report = t.screen(item.text);
    if (item.label === 'benign') {
      benign++;
      if (report.verdict === 'reject') benignRejected++;
      if (report.findings.some((f) => f.category === 'secret')) benignSecret++;
      continue;
    }
    const s = (seen[item.label] ??= { n: 0, caught: 0, missed: [] });
    s.n++;
    if (caught(item, report)) s.caught++;
    else s.missed.push(item.group);
  }
  for (const [label, target] of Object.entries(TARGETS)) {
    const s = seen[label];
    assert.ok(s && s.n >= 20, `${label}: enough items`);
    const rate = s.caught / s.n;
    assert.ok(rate >= target, `${label}: ${s.caught}/${s.n} caught (< ${target}); missed ${s.missed.join(', ')}`);
  }
  assert.ok(benign >= 100);
  assert.ok(benignRejected / benign <= 0.02, `${benignRejected}/${benign} benign rejected`);
  assert.ok(benignSecret / benign <= 0.01, `${benignSecret}/${benign} benign flagged as secret`);
});

test('the same corpus in ToolResults: findings point into the output', () => {
  for (const item of corpus(99)
    .filter((i) => i.label !== 'benign')
    .slice(0, 40)) {
    const result = t.createSuccess({ input: { tool_name: 'read_file', parameters: {} }, output: { text: item.text } });
    const report = t.screen(result);
    assert.ok(caught(item, report), item.group);
    for (const f of report.findings) {
      assert.ok(f.path.startsWith('/output/text') || f.path.startsWith('/content'), f.path);
      assert.ok(f.end <= item.text.length);
    }
  }
});

// Issue #44: outputs of public MCP servers and CLIs in their real shapes
// (tests/screen/real-outputs.mjs), which mention URIs, paths and commands
// without ordering anything: every one is accepted, as text and as its JSON value.
test('real tool outputs that mention URIs, paths and commands are accepted', () => {
  assert.ok(REAL_OUTPUTS.length >= 40, `${REAL_OUTPUTS.length} items`);
  const rejected = [];
  for (const { source, text } of REAL_OUTPUTS) {
    const report = t.screen(text);
    if (report.verdict === 'reject') rejected.push(`${source}: ${report.findings.map((f) => `${f.rule} «${f.excerpt}»`).join(', ')}`);
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (t.screen(value).verdict === 'reject') rejected.push(`${source} (parsed)`);
  }
  assert.deepEqual(rejected, []);
});

// Issue #37: a JSON text and its parsed value get the same verdict, on every
// JSON item of the development set (read at run time; skipped when absent).
const devFile = process.env.SAFETY_DEV ?? new URL('../../../shared/safety-dev/corpus.jsonl', import.meta.url).pathname;
test('the development set: screen(text) and screen(JSON.parse(text)) agree on every JSON item', {
  skip: !existsSync(devFile) && 'no ../shared/safety-dev',
}, () => {
  const rot13 = (s) =>
    s.replace(/[A-Za-z]/g, (c) => {
      const b = c <= 'Z' ? 65 : 97;
      return String.fromCharCode(b + ((c.charCodeAt(0) - b + 13) % 26));
    });
  const items = readFileSync(devFile, 'utf8').split('\n').filter(Boolean).map(JSON.parse);
  let json = 0;
  const differ = [];
  for (const it of items) {
    const text = it.text ?? rot13(Buffer.from(it.text_rot13_b64, 'base64').toString('utf8'));
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    json++;
    const a = t.screen(text);
    const b = t.screen(value);
    if (a.verdict !== b.verdict) differ.push(it.id);
  }
  assert.ok(json >= 100, `${json} JSON items`);
  assert.deepEqual(differ, [], `${differ.length} of ${json} JSON items differ`);
});
