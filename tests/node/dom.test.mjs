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
        ['class', 'id', 'href', 'rel', 'target', 'src', 'alt', 'type', 'start', 'hidden', 'role', 'aria-expanded', 'aria-controls', 'aria-label'].includes(
          attr,
        ) || attr.startsWith('data-'),
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
  assert.equal(el.querySelectorAll('tr').length, 3);
  el.result = JSON.stringify(read('tool/valid-metadata-grep.json'));
  assert.equal(el.querySelectorAll('mark').length, 2, 'JSON text works too');
  const reg = t.createDomRendererRegistry({ document });
  reg.register('grep', () => {
    throw new Error('custom grep view broke');
  });
  const out = reg.render(read('tool/valid-metadata-grep.json'));
  assert.equal(out.renderer, 'fallback');
  assert.equal(out.errors.length, 1);
});
