// Writes public/catalog.json (served as is, fetched when needed): every fixture of tests/fixtures (envelopes
// and conversions) and every case of the hostile corpus, with the verdict the
// Node suites expect, for the page's catalog view (and the browser tests,
// which check the page reaches the same verdicts). A hostile case whose input
// is a JS value is pasted as its JSON text, expecting what the Node build
// says of that text; cases over 256 KB of text, with no JSON text, or that
// need non-default options are listed with the reason they are not run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateAgentResult, validateToolResult } from 'toolresult';
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
const SOURCES = {
  mcp: 'mcp',
  anthropic: 'anthropic',
  openai: 'openai',
  vercel: 'vercel',
  'task-result': 'task-result',
  'agent-message': 'agent-message',
  auto: 'auto',
};
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
  // A JS value is pasted as its JSON text; what that text should give is what
  // the Node build gives it (JSON.stringify may change the case: NaN → null).
  let text = input;
  let asText = false;
  // Bytes are not stringified: JSON.stringify of a 70 MB Uint8Array takes minutes.
  if (typeof input !== 'string' && !(input instanceof Error) && !ArrayBuffer.isView(input) && !c.options && !c.throws) {
    try {
      text = JSON.stringify(input);
      asText = typeof text === 'string';
    } catch {
      text = undefined;
    }
  }
  if (c.options) entry.skipped = `needs validation options (${Object.keys(c.options).join(', ')})`;
  else if (c.throws) entry.skipped = `a JS value the package refuses (${c.throws})`;
  else if (typeof text !== 'string') entry.skipped = 'a JS value with no JSON text (a cycle, a BigInt, bytes, …)';
  else if (text.length > MAX_TEXT) entry.skipped = `${(text.length / 1024 / 1024).toFixed(1)} MB of text`;
  else if (asText) {
    const validate = c.kind === 'tool' ? validateToolResult : validateAgentResult;
    const r = validate(text);
    entry.name = `${c.name} (as JSON text)`;
    entry.text = text;
    entry.expect = r.ok ? 'valid' : 'invalid';
    entry.codes = r.ok ? [] : [r.issues[0].code];
  } else {
    entry.text = text;
    entry.expect = c.expect === 'ok' ? 'valid' : 'invalid';
    entry.codes = c.expect === 'ok' ? [] : [c.expect];
  }
  entries.push(entry);
}
mkdirSync(path.join(here, '../public'), { recursive: true });
writeFileSync(path.join(here, '../public/catalog.json'), JSON.stringify(entries));
const runnable = entries.filter((e) => !e.skipped).length;
console.log(`catalog: ${entries.length} cases (${runnable} runnable in the page, ${entries.length - runnable} listed with why not)`);
