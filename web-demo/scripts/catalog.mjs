// Writes public/catalog.json (served as is, fetched when needed): every fixture of tests/fixtures (envelopes
// and conversions) and every case of the hostile corpus, with the verdict the
// Node suites expect, for the page's catalog view (and the browser tests,
// which check the page reaches the same verdicts). Hostile cases whose input
// is a JS value (not text), over 256 KB, or needs non-default options are
// listed with the reason they cannot be pasted into a page.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cases as hostile } from '../../tests/hostile/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '../../tests/fixtures');
const read = (f) => readFileSync(path.join(fixtures, f), 'utf8');
const MAX_TEXT = 256 * 1024;

const entries = [];
for (const c of JSON.parse(read('cases.json'))) {
  entries.push({
    group: c.kind === 'agent' ? 'AgentResult fixtures' : 'ToolResult fixtures',
    name: c.file,
    source: c.kind === 'agent' ? 'agent-result' : 'tool-result',
    text: read(c.file),
    expect: c.issues.length ? 'invalid' : 'valid',
    codes: [...new Set(c.issues.map((i) => i.code))],
  });
}
const SOURCES = { mcp: 'mcp', anthropic: 'anthropic', openai: 'openai', vercel: 'vercel', 'task-result': 'task-result', 'agent-message': 'agent-message', auto: 'auto' };
for (const c of JSON.parse(read('convert/cases.json'))) {
  const context = { ...c.context, ...(c.revision && { revision: c.revision }), ...(c.as && { as: c.as }) };
  entries.push({
    group: 'Conversion fixtures',
    name: `${c.file} (${c.from}${c.context ? '' : ', no context'})`,
    source: SOURCES[c.from],
    context: c.context === undefined && !c.revision && !c.as ? undefined : context,
    text: read(path.join('convert', c.file)),
    expect: c.expect === 'ok' ? 'valid' : 'invalid',
    codes: c.expect === 'ok' ? [] : [c.expect],
  });
}
for (const c of hostile) {
  const entry = { group: 'Hostile corpus', name: c.name, source: c.kind === 'tool' ? 'tool-result' : 'agent-result' };
  let input;
  try {
    input = c.input();
  } catch (e) {
    input = e;
  }
  if (c.unwrap) input = input.value;
  if (c.options) entry.skipped = `needs validation options (${Object.keys(c.options).join(", ")})`;
  else if (c.throws) entry.skipped = `a JS value the package refuses (${c.throws})`;
  else if (typeof input !== 'string') entry.skipped = 'the input is a JS value, not text';
  else if (input.length > MAX_TEXT) entry.skipped = `the input is ${(input.length / 1024 / 1024).toFixed(1)} MB of text`;
  else {
    entry.text = input;
    entry.expect = c.expect === 'ok' ? 'valid' : 'invalid';
    entry.codes = c.expect === 'ok' ? [] : [c.expect];
  }
  entries.push(entry);
}
mkdirSync(path.join(here, '../public'), { recursive: true });
writeFileSync(path.join(here, '../public/catalog.json'), JSON.stringify(entries));
const runnable = entries.filter((e) => !e.skipped).length;
console.log(`catalog: ${entries.length} cases (${runnable} runnable in the page, ${entries.length - runnable} listed with why not)`);
