// `toolresult/react` inside React itself: `<ToolResultView>` rendered on the
// server by react-dom/server (no window, no customElements: an empty
// placeholder element), then hydrated by react-dom/client in a jsdom window,
// where the element fills in, follows new props in place, calls onApprove /
// onDeny from its Approve and Deny buttons, and lets go of them on unmount.
// The browser half (a Vite + React 19 page driven by the AI SDK's useChat)
// is tests/browser/react.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ToolResultError } from 'toolresult';
import { toUIToolPart } from 'toolresult/ai';
import { ToolResultView } from 'toolresult/react';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const edit = JSON.parse(readFileSync(path.join(root, 'tests', 'fixtures', 'tool', 'valid-metadata-file-edit.json'), 'utf8'));
const approval = { id: 'approval-7' };
const requested = toUIToolPart(edit, { state: 'approval-requested', approval });
const responded = toUIToolPart(edit, { state: 'approval-responded', approval: { ...approval, approved: true } });

test('server rendering: the bare element as a placeholder, attributes only, no DOM touched', () => {
  assert.equal(typeof globalThis.window, 'undefined');
  assert.equal(typeof globalThis.customElements, 'undefined');
  const html = renderToString(
    createElement(ToolResultView, { toolPart: requested, collapsed: true, theme: 'dark', className: 'call', id: 'v1', onApprove: () => {} }),
  );
  assert.equal(html, '<tool-result-view id="v1" class="call" theme="dark" collapsed=""></tool-result-view>');
  // Nothing of the value is written into the markup: it is set as a property on the client.
  assert.equal(renderToString(createElement(ToolResultView, { result: edit })), '<tool-result-view></tool-result-view>');
  assert.equal(renderToString(createElement(ToolResultView, { result: edit, collapsed: false })), '<tool-result-view></tool-result-view>');
});

test('result and toolPart together are a typed error', () => {
  assert.throws(
    () => renderToString(createElement(ToolResultView, { result: edit, toolPart: requested })),
    (e) => e instanceof ToolResultError && e.code === 'invalid_options' && e.issues[0].path === '/toolPart',
  );
});

test('hydration in a jsdom window: fills in, updates in place, approval events, cleanup on unmount', async () => {
  const { JSDOM } = await import('jsdom');
  const props = { toolPart: requested, id: 'v1', className: 'call' };
  const serverHtml = renderToString(createElement(ToolResultView, props));
  const dom = new JSDOM(`<!doctype html><html><body><div id="app">${serverHtml}</div></body></html>`, { pretendToBeVisual: true });
  const { window } = dom;
  // react-dom/client reads the DOM globals when it loads.
  Object.assign(globalThis, { window, document: window.document, navigator: window.navigator, HTMLElement: window.HTMLElement, Node: window.Node });
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  const { act } = await import('react');
  const { hydrateRoot } = await import('react-dom/client');
  const errors = [];
  const consoleError = console.error;
  console.error = (...args) => errors.push(args.map(String).join(' '));
  try {
    const container = window.document.getElementById('app');
    const serverEl = container.firstElementChild;
    assert.equal(serverEl.localName, 'tool-result-view');
    assert.equal(serverEl.shadowRoot, null, 'not defined yet: the server placeholder');

    const approvals = [];
    const denials = [];
    const onApprove = (detail, event) => approvals.push([detail, event.type]);
    const onDeny = (detail) => denials.push(detail);
    let root;
    await act(async () => {
      root = hydrateRoot(container, createElement(ToolResultView, { ...props, onApprove, onDeny }), {
        onRecoverableError: (e) => errors.push(`recoverable: ${e.message}`),
      });
    });
    const el = container.firstElementChild;
    assert.equal(el, serverEl, 'hydrated onto the server-rendered element, not replaced');
    assert.ok(window.customElements.get('tool-result-view'), 'the element is defined on the client');
    assert.equal(el.toolPart, requested, 'the part set as a property');
    const article = () => el.shadowRoot.querySelector('article.tool-result');
    assert.equal(article().dataset.state, 'approval-requested');
    const button = (text) => [...el.shadowRoot.querySelectorAll('button')].find((b) => b.textContent === text);

    button('Approve').click();
    button('Deny').click();
    const detail = { approvalId: 'approval-7', toolCallId: 'call_m', toolName: 'edit_file' };
    assert.deepEqual(approvals, [[detail, 'toolresult-approve']]);
    assert.deepEqual(denials, [detail]);

    // New props: the same element, the new state; a new handler replaces the old.
    const later = [];
    await act(async () => {
      root.render(createElement(ToolResultView, { ...props, toolPart: responded, collapsed: true, theme: 'light', onApprove: (d) => later.push(d) }));
    });
    assert.equal(container.firstElementChild, el);
    assert.equal(article().dataset.state, 'approval-responded');
    assert.equal(el.getAttribute('collapsed'), '');
    assert.equal(el.getAttribute('theme'), 'light');
    el.dispatchEvent(new window.CustomEvent('toolresult-approve', { detail }));
    el.dispatchEvent(new window.CustomEvent('toolresult-deny', { detail }));
    assert.deepEqual(later, [detail], 'the newest onApprove is called');
    assert.equal(approvals.length, 1, 'the old onApprove is not');
    assert.equal(denials.length, 1, 'onDeny was dropped from the props: no longer called');

    // collapsed={false}: the attribute goes (not collapsed="false").
    await act(async () => {
      root.render(createElement(ToolResultView, { ...props, toolPart: responded, collapsed: false, onApprove: (d) => later.push(d) }));
    });
    assert.equal(el.hasAttribute('collapsed'), false);

    // A ToolResult through `result`; then nothing: the element empties.
    await act(async () => root.render(createElement(ToolResultView, { result: edit })));
    assert.equal(el.result, edit);
    assert.equal(el.toolPart, undefined, 'from a part to a result');
    assert.equal(el.shadowRoot.querySelector('.tr-status').textContent, '✓ success');
    assert.equal(el.shadowRoot.querySelectorAll('.tr-diff ins').length, 2, 'the diff rendered');
    await act(async () => root.render(createElement(ToolResultView, { result: undefined })));
    assert.equal(el.shadowRoot.querySelector('.tool-result-view'), null, 'no value, no content');

    // The ref is the element.
    let ref;
    await act(async () => root.render(createElement(ToolResultView, { result: edit, ref: (r) => (ref = r), onApprove: (d) => later.push(d) })));
    assert.equal(ref, container.firstElementChild);

    const unmounted = ref;
    await act(async () => root.unmount());
    assert.equal(ref, null, 'the ref let go');
    unmounted.dispatchEvent(new window.CustomEvent('toolresult-approve', { detail }));
    assert.equal(later.length, 1, 'no handler left after unmount');
    assert.deepEqual(errors, [], 'no hydration mismatch or React error');
  } finally {
    console.error = consoleError;
    window.close();
  }
});
