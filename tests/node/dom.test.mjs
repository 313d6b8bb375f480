// DOM rendering with a DOM implementation in Node (jsdom): every fixture and
// every hostile case renders inert — no script, no event handler, no link but
// http(s)/mailto, no image but capped raster data: URLs — and the view is
// accessible (status as text, disclosure buttons with aria-expanded).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { JSDOM } from 'jsdom';
import { fixturesDir, toolresult as t } from './helpers.mjs';

const { window } = new JSDOM('<!doctype html><html><body></body></html>');
const { document } = window;
const read = (f) => JSON.parse(readFileSync(path.join(fixturesDir, f), 'utf8'));
const valid = readdirSync(path.join(fixturesDir, 'tool'))
  .filter((f) => f.startsWith('valid-'))
  .sort();

function assertInert(node, what) {
  const all = [node, ...node.querySelectorAll('*')];
  assert.equal(node.querySelectorAll('script, iframe, object, embed, style, link, svg, form, base').length, 0, `${what}: active elements`);
  for (const el of all) {
    for (const attr of el.getAttributeNames()) {
      assert.ok(!attr.startsWith('on'), `${what}: ${attr} on <${el.tagName}>`);
      assert.ok(
        [
          'class',
          'id',
          'href',
          'rel',
          'target',
          'src',
          'alt',
          'type',
          'start',
          'hidden',
          'role',
          'aria-expanded',
          'aria-controls',
          'aria-label',
          'aria-hidden',
          'part',
        ].includes(attr) || attr.startsWith('data-'),
        `${what}: attribute ${attr}`,
      );
    }
  }
  for (const a of node.querySelectorAll('a')) {
    assert.match(a.getAttribute('href'), /^(https?:|mailto:)/, `${what}: link ${a.getAttribute('href')}`);
    assert.equal(a.getAttribute('rel'), 'noopener noreferrer');
  }
  for (const img of node.querySelectorAll('img')) {
    assert.match(img.getAttribute('src'), /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/, `${what}: image`);
  }
}

test('renderDom: every valid fixture renders, inert, with its status as text and a working disclosure', () => {
  for (const f of valid) {
    const node = t.renderDom(read(`tool/${f}`), { document });
    assertInert(node, f);
    const r = read(`tool/${f}`);
    assert.equal(node.dataset.status, r.status);
    assert.ok(node.querySelector('.tr-status').textContent.includes(r.status), `${f}: status as text`);
    if (r.status !== 'success') assert.match(node.querySelector('.tr-error').textContent, new RegExp(r.error_code));
    const toggle = node.querySelector('button.tr-toggle');
    const body = node.querySelector(`#${toggle.getAttribute('aria-controls')}`);
    assert.equal(toggle.getAttribute('aria-expanded'), 'true');
    toggle.click();
    assert.equal(toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(body.hidden, true);
    toggle.click();
    assert.equal(body.hidden, false);
    assert.equal(node.querySelector('button.tr-copy').getAttribute('aria-label'), 'Copy result as text');
  }
});

test('renderDom: kinds render as structure — diff lines as ins/del, grep matches as <mark> at UTF-16 offsets, file lines numbered', () => {
  const edit = t.renderDom(read('tool/valid-metadata-file-edit.json'), { document });
  assert.deepEqual(
    [...edit.querySelectorAll('ins')].map((e) => e.textContent),
    ['+    let name = "world";\n', '+    println!("hi {name}");\n'],
  );
  assert.equal(edit.querySelectorAll('del').length, 1);
  const grep = t.renderDom(read('tool/valid-metadata-grep.json'), { document });
  assert.deepEqual(
    [...grep.querySelectorAll('mark')].map((m) => m.textContent),
    ['TODO', 'TODO'],
    'the 🎉 before the second match is two UTF-16 units',
  );
  const file = t.renderDom(read('tool/valid-metadata-file-read.json'), { document });
  assert.equal(file.querySelector('ol.tr-lines').getAttribute('start'), '1');
  const batch = t.renderDom(read('tool/valid-metadata-batch.json'), { document });
  assert.equal(batch.querySelectorAll('article.tool-result').length, 2, 'nested results render nested');
  const collapsed = t.renderDom(read('tool/valid-metadata-file-read.json'), { document, collapsed: true });
  assert.equal(collapsed.querySelector('.tr-body').hidden, true);
  assert.match(collapsed.querySelector('.tr-preview').textContent, /import os/);
});

test('renderDom: hostile results render inert', () => {
  const base = read('tool/valid-metadata-mcp.json');
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString('base64');
  const hostileContent = [
    { type: 'text', text: '</script><script>alert(1)</script><img src=x onerror=alert(1)> ```\n```html' },
    { type: 'image', mimeType: 'image/svg+xml', data: svg },
    { type: 'image', mimeType: 'image/png', data: 'A'.repeat(2 * 1024 * 1024) },
    { type: 'image', mimeType: 'image/png', data: 'not base64 "><script>' },
    { type: 'resource_link', name: 'click me', uri: 'javascript:alert(1)' },
    { type: 'resource_link', name: 'html', uri: 'data:text/html,<script>alert(1)</script>' },
    { type: 'resource_link', name: 'ok', uri: 'https://example.com/a?b=<c>' },
    { type: 'text', text: 'bidi \u202etxt.exe \x1b]8;;https://evil\x1b\\ \u0000' },
    { type: 'text', text: 'A'.repeat(10 * 1024 * 1024) },
  ];
  const r = { ...base, tool_metadata: { ...base.tool_metadata, content: hostileContent }, content: hostileContent };
  const node = t.renderDom(r, { document });
  assertInert(node, 'mcp');
  assert.equal(node.querySelectorAll('img').length, 0, 'no SVG, no oversized or malformed image');
  assert.equal(node.querySelectorAll('a').length, 1);
  assert.match(node.textContent, /<\/script><script>alert\(1\)<\/script>/, 'markup shown as text');
  const { tool_metadata, ...plain } = r;
  assertInert(t.renderDom({ ...plain, schema_version: '1.0.0' }, { document }), 'content blocks');
  const fetch = t.renderDom(
    {
      ...read('tool/valid-metadata-web-fetch.json'),
      tool_metadata: { ...read('tool/valid-metadata-web-fetch.json').tool_metadata, url: 'javascript:alert(1)' },
    },
    { document },
  );
  assert.equal(fetch.querySelectorAll('a').length, 0);
  assertInert(fetch, 'web_fetch');
});

test('renderDomChecked and <tool-result-view>: invalid results show their issues and the raw text; the element renders what it is given', () => {
  const bad = t.renderDomChecked({ ...read('tool/valid-success.json'), status: 'bogus' }, { document });
  assert.match(bad.querySelector('.tr-issues').textContent, /\/status: .*\[invalid_enum\]/);
  assert.equal(bad.querySelector('.tr-issues').getAttribute('role'), 'alert');
  assert.match(bad.querySelector('pre.tr-raw').textContent, /"bogus"/);
  assertInert(bad, 'invalid');
  assert.equal(bad.querySelector('.tr-status').textContent, 'bogus', 'rendered anyway: what it says about itself');
  assert.equal(bad.querySelector('.tr-summary').textContent, 'read_file');
  const View = t.defineToolResultView(window);
  assert.equal(t.defineToolResultView(window), View, 'defined once');
  const el = document.createElement('tool-result-view');
  document.body.append(el);
  el.result = read('tool/valid-metadata-todo.json');
  assert.equal(el.shadowRoot.querySelectorAll('tr').length, 3, 'rendered in its shadow root');
  el.result = JSON.stringify(read('tool/valid-metadata-grep.json'));
  assert.equal(el.shadowRoot.querySelectorAll('mark').length, 2, 'JSON text works too');
  const reg = t.createDomRendererRegistry({ document });
  reg.register('grep', () => {
    throw new Error('custom grep view broke');
  });
  const out = reg.render(read('tool/valid-metadata-grep.json'));
  assert.equal(out.renderer, 'fallback');
  assert.equal(out.errors.length, 1);
});

// Every state of a tool call: the AI SDK UI tool parts that
// toolresult/ai's toUIToolPart makes of every valid fixture, in each state
// the result can be written in, render inert with that state; a ToolResult
// shows the state toUIToolPart gives it by default.
test('renderDom: every UI tool part state of every fixture renders inert, in its state; a ToolResult in the state toUIToolPart gives it', async () => {
  const { toUIToolPart } = await import('toolresult/ai');
  const STATES = ['input-streaming', 'input-available', 'approval-requested', 'approval-responded', 'output-available', 'output-error', 'output-denied'];
  for (const f of valid) {
    const r = read(`tool/${f}`);
    const node = t.renderDom(r, { document });
    assert.equal(node.dataset.state, toUIToolPart(r).state, `${f}: default state`);
    for (const state of STATES) {
      const part = toUIToolPart(r, { state, approval: { id: `approval-${f}`, approved: state !== 'output-denied' } });
      const view = t.renderDom(part, { document });
      assertInert(view, `${f} ${state}`);
      assert.equal(view.dataset.state, state, `${f} ${state}`);
      assert.equal(
        view.querySelectorAll('button.tr-approve, button.tr-deny').length,
        state === 'approval-requested' ? 2 : 0,
        `${f} ${state}: approval buttons`,
      );
      assert.equal(view.querySelectorAll('[role="progressbar"]').length, ['input-streaming', 'input-available', 'approval-responded'].includes(state) ? 1 : 0);
      assert.equal(view.querySelector('[part="header"]')?.localName, 'header');
      assert.equal(view.querySelector('[part="status"]')?.classList.contains('tr-status'), true);
      assert.equal(view.querySelector('[part="body"]')?.classList.contains('tr-body'), true);
    }
  }
  // The diff is a ::part() too, with its line-number gutter as data (CSS shows it; copying skips it).
  const edit = t.renderDom(read('tool/valid-metadata-file-edit.json'), { document });
  assert.deepEqual(
    [...edit.querySelectorAll('[part="diff"] > *')].map((l) => l.dataset.ln),
    ['   ', '3 3', '4  ', '  4', '  5', '5 6'],
  );
});

test('renderDom: Approve and Deny dispatch bubbling, composed events with the approval id and change nothing', async () => {
  const { toUIToolPart } = await import('toolresult/ai');
  const r = read('tool/valid-requires-confirmation.json');
  const part = toUIToolPart(r, { approval: { id: 'approval-7' } });
  const view = t.renderDom(part, { document });
  document.body.append(view);
  const seen = [];
  const listen = (e) => seen.push([e.type, e.bubbles, e.composed, e.detail]);
  document.addEventListener('toolresult-approve', listen);
  document.addEventListener('toolresult-deny', listen);
  view.querySelector('button.tr-approve').click();
  view.querySelector('button.tr-deny').click();
  const detail = { approvalId: 'approval-7', toolCallId: part.toolCallId, toolName: 'delete_branch' };
  assert.deepEqual(seen, [
    ['toolresult-approve', true, true, detail],
    ['toolresult-deny', true, true, detail],
  ]);
  assert.equal(view.dataset.state, 'approval-requested');
  assert.equal(view.querySelectorAll('button.tr-approve').length, 1, 'nothing decided inside');
  view.remove();
});

test('renderDom of a malformed part throws the typed error; renderDomChecked and <tool-result-view> list its issues', () => {
  const bad = { type: 'tool-x', state: 'output-available', output: 1 };
  assert.throws(
    () => t.renderDom(bad, { document }),
    (e) => e instanceof t.ToolResultError && e.code === 'invalid_input' && e.issues[0].path === '/toolCallId',
  );
  const checked = t.renderDomChecked(bad, { document });
  assert.match(checked.querySelector('.tr-issues').textContent, /Not a valid tool part: 1 issue.*\/toolCallId/);
  assertInert(checked, 'malformed part');
  const el = document.createElement('tool-result-view');
  document.body.append(el);
  el.toolPart = read('tool/valid-success.json');
  assert.match(el.shadowRoot.querySelector('.tr-issues').textContent, /Not a valid tool part.*\/type/, 'a ToolResult is not a part');
  assert.equal(el.result, undefined);
  el.result = { type: 'tool-x', toolCallId: 'c', state: 'input-streaming', input: { a: 1 } };
  assert.equal(el.shadowRoot.querySelector('article').dataset.state, 'input-streaming', '.result takes a part too');
  assert.equal(el.toolPart, undefined);
  el.remove();
});

test('<tool-result-view>: a value set before the element is defined is rendered once it is (frameworks render first)', () => {
  const { window: w } = new JSDOM('<!doctype html><html><body></body></html>');
  const early = w.document.createElement('tool-result-view');
  early.toolPart = { type: 'tool-grep', toolCallId: 'c1', state: 'input-available', input: { pattern: 'TODO' } };
  w.document.body.append(early);
  assert.equal(early.shadowRoot, null, 'not defined yet');
  t.defineToolResultView(w);
  assert.equal(early.shadowRoot.querySelector('article').dataset.state, 'input-available');
  assert.match(early.shadowRoot.querySelector('pre.tr-input').textContent, /"pattern": "TODO"/);
  assert.equal(Object.hasOwn(early, 'toolPart'), false, 'the accessor is in charge again');
});
