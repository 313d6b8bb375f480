// <tool-result-view> and renderDom in headless Chromium, served with the
// strict CSP and Trusted Types: every state of a tool call (the seven AI SDK
// UI message tool part states, made by toolresult/ai's toUIToolPart, and
// ToolResults) in the light and the dark theme; Approve and Deny as events;
// updates in place that keep the user's collapsed/expanded choice and focus;
// reduced motion; restyling through --tr-* and ::part(); the shipped
// toolresult/style.css for renderDom in the light DOM; axe-core in both
// themes; no markup from a result; zero console errors and CSP violations.
// Screenshots of every state in both themes are compared with the baselines
// in tests/browser/screenshots/ (Playwright's own comparator, as its
// toHaveScreenshot uses it); regenerate them with
//   UPDATE_SCREENSHOTS=1 node --test tests/browser/tool-result-view.test.mjs
// and review the images before committing them.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import * as render from 'toolresult/render';
import { toUIToolPart } from 'toolresult/ai';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const artifacts = path.join(here, 'artifacts');
const baselines = path.join(here, 'screenshots');
const fixture = (f) => JSON.parse(readFileSync(path.join(root, 'tests', 'fixtures', f), 'utf8'));
const compareImages = require('playwright-core/lib/coreBundle').utils.getComparator('image/png');

// The calls the states are made of: an edit (a diff once done), a failed read, a grep.
const edit = fixture('tool/valid-metadata-file-edit.json');
edit.input.parameters = { path: 'src/main.rs', old_string: '    println!("hi");', new_string: '    let name = "world";\n    println!("hi {name}");' };
const failed = fixture('tool/valid-failed.json');
const grep = fixture('tool/valid-metadata-grep.json');
const approval = { id: 'approval-42' };
const streamed = { path: 'src/main.rs', old_string: '    println!("hi");', new_string: '    let na' };

/** Every state, as the element is given it: [name, value, property]. */
const STATES = [
  ['input-streaming', { type: 'tool-edit_file', toolCallId: 'call_m', state: 'input-streaming', input: streamed }, 'toolPart'],
  ['input-available', toUIToolPart(edit, { state: 'input-available' }), 'toolPart'],
  ['approval-requested', toUIToolPart(edit, { state: 'approval-requested', approval }), 'toolPart'],
  ['approval-responded', toUIToolPart(edit, { state: 'approval-responded', approval: { ...approval, approved: true } }), 'toolPart'],
  ['output-available', toUIToolPart(edit, { approval: { ...approval, approved: true } }), 'toolPart'],
  ['output-error', toUIToolPart(failed), 'toolPart'],
  ['output-denied', toUIToolPart(edit, { state: 'output-denied', approval: { ...approval, approved: false, reason: 'Not on a Friday' } }), 'toolPart'],
  ['result-grep', grep, 'result'],
];
const THEMES = ['light', 'dark'];

let server;
let browser;
before(async () => {
  mkdirSync(artifacts, { recursive: true });
  // The repository root: the page imports the built package from bindings/typescript/dist.
  server = await serve(root);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** The test page (strict CSP unless `bypassCSP`), recording console errors and CSP violations. */
async function open({ bypassCSP = false, colorScheme = 'light', reducedMotion = 'no-preference' } = {}) {
  const ctx = await browser.newContext({ viewport: { width: 800, height: 900 }, bypassCSP, colorScheme, reducedMotion });
  const page = await ctx.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      globalThis.__violations ??= [];
      globalThis.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`);
    });
  });
  page.problems = async () => [...problems, ...(await page.evaluate(() => globalThis.__violations ?? [])).map((v) => `CSP violation: ${v}`)];
  await page.goto(`${server.url}tests/browser/view/index.html`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

async function clean(page) {
  assert.deepEqual(await page.problems(), [], 'no console errors, page errors or CSP violations');
  await page.context().close();
}

/** Puts one <tool-result-view> per item into the gallery (theme attribute when given). */
function gallery(page, items, { theme, attrs = {} } = {}) {
  return page.evaluate(
    ({ items, theme, attrs }) => {
      document.body.classList.toggle('dark', theme === 'dark');
      const out = document.getElementById('gallery');
      out.replaceChildren();
      for (const [name, value, property] of items) {
        const el = document.createElement('tool-result-view');
        el.id = name;
        if (theme) el.setAttribute('theme', theme);
        for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
        out.append(el);
        el[property] = value;
      }
    },
    { items, theme, attrs },
  );
}

/** Facts about one element's shadow tree. */
function facts(page, id) {
  return page.evaluate((id) => {
    const host = document.getElementById(id);
    const r = host.shadowRoot;
    const article = r.querySelector('article.tool-result');
    const q = (s) => r.querySelector(s);
    const text = (s) => q(s)?.textContent ?? null;
    return {
      state: article?.dataset.state ?? null,
      status: text('.tr-status'),
      tone: q('.tr-status')?.dataset.tone ?? null,
      summary: text('.tr-summary'),
      error: text('.tr-error'),
      input: text('pre.tr-input'),
      buttons: [...r.querySelectorAll('button')].map((b) => b.textContent),
      progress: r.querySelectorAll('[role="progressbar"]').length,
      diffLines: [...r.querySelectorAll('.tr-diff > *')].map((l) => [l.localName, l.dataset.ln, l.textContent]),
      expanded: q('button.tr-toggle')?.getAttribute('aria-expanded') ?? null,
      bodyHidden: q('.tr-body')?.hidden ?? null,
      preview: text('.tr-preview'),
      background: getComputedStyle(article ?? r.firstElementChild).backgroundColor,
      live: text('.tr-live'),
      lightDomChildren: host.childNodes.length,
    };
  }, id);
}

const BG = { light: 'rgb(255, 255, 255)', dark: 'rgb(13, 17, 23)' };

test('every state renders, in both themes, with what that state shows and nothing else', async () => {
  const page = await open();
  for (const theme of THEMES) {
    await gallery(page, STATES, { theme });
    const f = {};
    for (const [name] of STATES) f[name] = await facts(page, name);
    for (const [name] of STATES) {
      assert.equal(f[name].background, BG[theme], `${name} ${theme}: themed`);
      assert.equal(f[name].lightDomChildren, 0, `${name}: rendered in the shadow root`);
      if (name !== 'result-grep') assert.equal(f[name].state, name);
      assert.equal(f[name].buttons.includes('Approve'), name === 'approval-requested', `${name}: Approve only while approval is requested`);
      assert.equal(f[name].buttons.includes('Deny'), name === 'approval-requested');
    }
    const s = f['input-streaming'];
    assert.equal(s.status, '… receiving input');
    assert.equal(s.tone, 'info');
    assert.equal(s.input, JSON.stringify(streamed, null, 2), 'the partial input, as it is so far');
    assert.equal(s.progress, 1);
    assert.equal(f['input-available'].status, '⟳ running');
    assert.equal(f['input-available'].progress, 1, 'a progress indicator while it runs');
    assert.equal(f['input-available'].input, JSON.stringify(edit.input.parameters, null, 2));
    const a = f['approval-requested'];
    assert.equal(a.status, '? requires_confirmation');
    assert.equal(a.tone, 'warning');
    assert.match(a.error, /^needs confirmation \[APPROVAL_REQUESTED\]/);
    assert.equal(a.input, JSON.stringify(edit.input.parameters, null, 2), 'what would run is shown before it is approved');
    assert.equal(a.progress, 0);
    assert.equal(f['approval-responded'].status, '✓ approved');
    assert.equal(f['approval-responded'].progress, 1, 'approved: waiting for the tool');
    const o = f['output-available'];
    assert.equal(o.status, '✓ success');
    assert.equal(o.tone, 'success');
    assert.equal(
      o.summary,
      render
        .renderText(edit, { collapsed: true })
        .split('\n')[0]
        .replace(/^\S+ \S+ /, ''),
    );
    assert.deepEqual(
      o.diffLines.map(([tag, ln]) => [tag, ln]),
      [
        ['span', '   '],
        ['span', '3 3'],
        ['del', '4  '],
        ['ins', '  4'],
        ['ins', '  5'],
        ['span', '5 6'],
      ],
      'a gutter with the old and new line numbers',
    );
    assert.equal(o.progress, 0);
    assert.equal(f['output-error'].status, '✗ failed');
    assert.equal(f['output-error'].tone, 'danger');
    assert.equal(f['output-error'].error, 'error [TOOL_ERROR]: File not found');
    assert.equal(f['output-denied'].status, '✗ permission_denied');
    assert.equal(f['output-denied'].error, 'denied [EXECUTION_DENIED]: Not on a Friday');
  }
  // Grep: file headers, line numbers, no list markers.
  const grepView = await page.evaluate(() => {
    const r = document.getElementById('result-grep').shadowRoot;
    return {
      files: [...r.querySelectorAll('.tr-file > .tr-path')].map((h) => h.textContent),
      numbers: [...r.querySelectorAll('.tr-line-number')].map((n) => n.textContent),
      marker: getComputedStyle(r.querySelector('.tr-matches')).listStyleType,
      marks: [...r.querySelectorAll('mark')].map((m) => m.textContent),
    };
  });
  assert.deepEqual(grepView, { files: ['src/a.rs', 'src/ü.rs'], numbers: ['12: ', '1: '], marker: 'none', marks: ['TODO', 'TODO'] });
  await clean(page);
});

test('the theme follows prefers-color-scheme unless the theme attribute forces one', async () => {
  const page = await open({ colorScheme: 'dark' });
  await gallery(page, [STATES[4], ['forced-light', STATES[4][1], 'toolPart']]);
  await page.evaluate(() => document.getElementById('forced-light').setAttribute('theme', 'light'));
  assert.equal((await facts(page, 'output-available')).background, BG.dark);
  assert.equal((await facts(page, 'forced-light')).background, BG.light);
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal((await facts(page, 'output-available')).background, BG.light);
  await page.evaluate(() => document.getElementById('output-available').setAttribute('theme', 'dark'));
  assert.equal((await facts(page, 'output-available')).background, BG.dark);
  await clean(page);
});

test('Approve and Deny dispatch their events with the approval id, by mouse and by keyboard, and decide nothing', async () => {
  const page = await open();
  await gallery(page, [STATES[2], ['from-result', fixture('tool/valid-requires-confirmation.json'), 'result']]);
  await page.evaluate(() => {
    globalThis.__events = [];
    for (const type of ['toolresult-approve', 'toolresult-deny'])
      document.addEventListener(type, (e) => globalThis.__events.push({ type: e.type, target: e.target.id, detail: e.detail }));
  });
  const events = () => page.evaluate(() => globalThis.__events);
  const view = page.locator('#approval-requested');
  await view.getByRole('button', { name: 'Approve' }).click();
  await view.getByRole('button', { name: 'Deny' }).click();
  assert.deepEqual(await events(), [
    { type: 'toolresult-approve', target: 'approval-requested', detail: { approvalId: 'approval-42', toolCallId: 'call_m', toolName: 'edit_file' } },
    { type: 'toolresult-deny', target: 'approval-requested', detail: { approvalId: 'approval-42', toolCallId: 'call_m', toolName: 'edit_file' } },
  ]);
  assert.equal((await facts(page, 'approval-requested')).state, 'approval-requested', 'the element decides nothing: the host does');
  // A ToolResult that requires confirmation: the id toUIToolPart gives it.
  await page.locator('#from-result').getByRole('button', { name: 'Approve' }).click();
  const confirm = fixture('tool/valid-requires-confirmation.json');
  assert.deepEqual((await events())[2].detail, {
    approvalId: toUIToolPart(confirm).approval.id,
    toolCallId: confirm.metadata.execution_id,
    toolName: 'delete_branch',
  });

  // Keyboard only: Tab to Approve, Enter; Tab to Deny, Space.
  await page.evaluate(() => {
    globalThis.__events = [];
    document.activeElement?.blur();
  });
  const focused = () => page.evaluate(() => [document.activeElement?.id, document.activeElement?.shadowRoot?.activeElement?.textContent]);
  for (let i = 0; i < 10 && (await focused())[1] !== 'Approve'; i++) await page.keyboard.press('Tab');
  assert.deepEqual(await focused(), ['approval-requested', 'Approve']);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  assert.deepEqual(await focused(), ['approval-requested', 'Deny']);
  await page.keyboard.press('Space');
  assert.deepEqual(
    (await events()).map((e) => e.type),
    ['toolresult-approve', 'toolresult-deny'],
  );
  // The host answers; the buttons go and the focus stays in the element (on its disclosure button).
  await page.evaluate((part) => {
    document.getElementById('approval-requested').toolPart = part;
  }, STATES[3][1]);
  assert.deepEqual(await focused(), ['approval-requested', 'Collapse']);
  assert.equal((await facts(page, 'approval-requested')).live, 'edit_file: ✓ approved', 'the change of state is announced');
  await clean(page);
});

test('updates re-render in place: the input grows as it streams, and the collapsed choice and the focus survive every state', async () => {
  const page = await open();
  const call = { type: 'tool-edit_file', toolCallId: 'call_m', state: 'input-streaming' };
  await gallery(page, [['call', call, 'toolPart']]);
  assert.equal((await facts(page, 'call')).input, null);
  assert.match(await page.locator('#call .tr-omitted').textContent(), /No input yet/);
  const set = (part) =>
    page.evaluate((part) => {
      document.getElementById('call').toolPart = part;
    }, part);
  // The partial input as it grows, each update in the same element.
  await page.evaluate(() => {
    document.getElementById('call').marker = 'same element';
  });
  const full = JSON.stringify(edit.input.parameters);
  for (const n of [10, 30, 60, full.length]) {
    // What a streaming JSON parser has so far: a prefix, closed.
    const partial = { path: 'src/main.rs', old_string: full.slice(0, n) };
    await set({ ...call, input: partial });
    assert.equal((await facts(page, 'call')).input, JSON.stringify(partial, null, 2));
  }
  assert.equal(await page.evaluate(() => document.getElementById('call').marker), 'same element');
  // The user collapses it; the focus is on the disclosure button.
  await page.locator('#call').getByRole('button', { name: 'Collapse' }).click();
  assert.equal((await facts(page, 'call')).expanded, 'false');
  const parts = [
    { ...call, input: { path: 'src/main.rs', old_string: 'x', new_string: 'y' } },
    toUIToolPart(edit, { state: 'input-available' }),
    toUIToolPart(edit, { state: 'approval-requested', approval }),
    toUIToolPart(edit, { state: 'approval-responded', approval: { ...approval, approved: true } }),
    toUIToolPart(edit, { approval: { ...approval, approved: true } }),
  ];
  for (const part of parts) {
    await set(part);
    const f = await facts(page, 'call');
    assert.equal(f.state, part.state);
    assert.equal(f.expanded, 'false', `${part.state}: still collapsed`);
    assert.equal(f.bodyHidden, true);
    assert.ok(f.preview.length > 0, `${part.state}: the preview line shows instead`);
    assert.deepEqual(
      await page.evaluate(() => [document.activeElement.id, document.activeElement.shadowRoot.activeElement?.className]),
      ['call', 'tr-toggle'],
      `${part.state}: focus kept`,
    );
  }
  assert.equal((await facts(page, 'call')).live, 'Edited src/main.rs: +2 −1 in 1 hunk: ✓ success');
  // Expanded again by the user, it stays expanded.
  await page.locator('#call').getByRole('button', { name: 'Expand' }).click();
  await set(toUIToolPart(edit, { approval: { ...approval, approved: true }, preliminary: true }));
  assert.equal((await facts(page, 'call')).expanded, 'true');
  assert.equal((await facts(page, 'call')).progress, 1, 'a preliminary output: still running');
  // The host's `collapsed` attribute, changed, wins.
  await page.evaluate(() => document.getElementById('call').setAttribute('collapsed', ''));
  assert.equal((await facts(page, 'call')).expanded, 'false');
  await clean(page);
});

test('the progress indicator spins, and stands still under prefers-reduced-motion', async () => {
  const page = await open();
  await gallery(page, [STATES[1]]);
  const animation = () =>
    page.evaluate(() => getComputedStyle(document.getElementById('input-available').shadowRoot.querySelector('.tr-progress')).animationName);
  assert.equal(await animation(), 'tr-spin');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.equal(await animation(), 'none');
  await clean(page);
});

test('a result injects no markup: hostile parts and results render as text, or as the issues that make them invalid', async () => {
  const page = await open();
  const markup = '<img src=x onerror="globalThis.__pwned=1"><script>globalThis.__pwned=2</script><svg onload="globalThis.__pwned=3"></svg>';
  const items = [
    ['h-stream', { type: 'tool-edit_file', toolCallId: 'c1', state: 'input-streaming', input: { html: markup } }, 'toolPart'],
    [
      'h-approval',
      { type: 'tool-edit_file', toolCallId: 'c2', state: 'approval-requested', input: { html: markup }, approval: { id: markup, requestReason: markup } },
      'toolPart',
    ],
    ['h-error', { type: 'tool-edit_file', toolCallId: 'c3', state: 'output-error', input: {}, errorText: markup }, 'toolPart'],
    [
      'h-denied',
      { type: 'tool-edit_file', toolCallId: 'c4', state: 'approval-responded', input: {}, approval: { id: 'a', approved: false, reason: markup } },
      'toolPart',
    ],
    ['h-name', { type: `tool-${markup}`, toolCallId: 'c5', state: 'input-available', input: {} }, 'toolPart'],
    ['h-bad', { type: 'tool-edit_file', state: 'output-available', output: markup }, 'toolPart'],
    ['h-not-part', grep, 'toolPart'],
    ['h-json', JSON.stringify({ type: 'tool-x', toolCallId: 'c6', state: 'output-error', errorText: markup }), 'result'],
  ];
  await gallery(page, items);
  await page.waitForTimeout(100);
  for (const [id] of items) {
    const found = await page.evaluate((id) => {
      const r = document.getElementById(id).shadowRoot;
      return {
        active: r.querySelectorAll('img, script, svg, iframe, object, embed, style, link').length,
        handlers: [...r.querySelectorAll('*')].flatMap((e) => e.getAttributeNames().filter((a) => a.startsWith('on'))),
        text: r.textContent,
      };
    }, id);
    assert.equal(found.active, 0, `${id}: no active element`);
    assert.deepEqual(found.handlers, [], `${id}: no handler`);
    if (id !== 'h-not-part') assert.ok(found.text.includes('<img src=x'), `${id}: the markup shown as text`);
  }
  assert.equal(await page.evaluate(() => globalThis.__pwned), undefined);
  // A malformed part and a ToolResult given as a part: the issues that say why.
  assert.match(await page.locator('#h-bad .tr-issues').textContent(), /Not a valid tool part: .*\/toolCallId/);
  assert.match(await page.locator('#h-not-part .tr-issues').textContent(), /Not a valid tool part: .*\/type/);
  // The approval id reaches the host verbatim, as data.
  await page.evaluate(() => document.addEventListener('toolresult-approve', (e) => (globalThis.__id = e.detail.approvalId)));
  await page.locator('#h-approval').getByRole('button', { name: 'Approve' }).click();
  assert.equal(await page.evaluate(() => globalThis.__id), markup);
  await clean(page);
});

test('restyling without forking: --tr-* custom properties and ::part() from the page', async () => {
  const page = await open();
  await gallery(page, [['custom', STATES[4][1], 'toolPart']], { attrs: { class: 'custom' } });
  const styles = await page.evaluate(() => {
    const r = document.getElementById('custom').shadowRoot;
    const css = (s, p) => getComputedStyle(r.querySelector(s))[p];
    return {
      bg: css('article.tool-result', 'backgroundColor'),
      header: css('.tr-header', 'backgroundColor'),
      status: css('.tr-status', 'textTransform'),
      diff: css('.tr-diff', 'borderLeftWidth'),
      body: css('.tr-body', 'paddingTop'),
    };
  });
  // tests/browser/view/page.css: tool-result-view.custom { --tr-bg } and ::part(header|status|diff|body) rules.
  assert.deepEqual(styles, { bg: 'rgb(255, 251, 230)', header: 'rgb(221, 244, 255)', status: 'uppercase', diff: '4px', body: '20px' });
  await clean(page);
});

test('toolresult/style.css styles renderDom in the light DOM: the shipped file, light, dark and data-theme', async () => {
  const page = await open();
  const shipped = await page.evaluate(async () => (await fetch('/bindings/typescript/dist/style.css')).text());
  assert.equal(shipped, render.TOOL_RESULT_CSS, 'dist/style.css is the exported stylesheet');
  assert.deepEqual(
    JSON.parse(readFileSync(path.join(root, 'bindings/typescript/package.json'), 'utf8')).exports['./style.css'],
    { types: './dist/style.css.d.ts', default: './dist/style.css' },
    'exported as toolresult/style.css (with an empty declaration file)',
  );
  await page.evaluate((part) => {
    document.getElementById('plain').append(globalThis.toolresult.renderDom(part));
  }, STATES[4][1]);
  const look = () =>
    page.evaluate(() => {
      const a = document.querySelector('#plain article.tool-result');
      return [getComputedStyle(a).backgroundColor, getComputedStyle(a.querySelector('.tr-diff-added')).backgroundColor];
    });
  assert.deepEqual(await look(), [BG.light, 'rgb(218, 251, 225)']);
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.deepEqual(await look(), [BG.dark, 'rgb(18, 48, 29)']);
  await page.evaluate(() => document.getElementById('plain').setAttribute('data-theme', 'light'));
  assert.deepEqual(await look(), [BG.light, 'rgb(218, 251, 225)']);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => document.getElementById('plain').setAttribute('data-theme', 'dark'));
  assert.deepEqual(await look(), [BG.dark, 'rgb(18, 48, 29)']);
  await clean(page);
});

test('axe-core: no serious or critical violation, colour contrast included, in both themes', async () => {
  const page = await open({ bypassCSP: true });
  // axe-core is injected into a context that bypasses the CSP (the page's own policy would refuse the injected script).
  await page.evaluate(readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  for (const [theme, scheme] of [
    ['light', 'light'],
    ['dark', 'light'],
    [undefined, 'dark'],
  ]) {
    await page.emulateMedia({ colorScheme: scheme });
    await gallery(page, STATES, { theme });
    await page.evaluate(() => {
      for (const [i, el] of [...document.querySelectorAll('tool-result-view')].entries()) if (i % 2) el.setAttribute('collapsed', '');
    });
    const results = await page.evaluate(async () => {
      const r = await globalThis.axe.run(document.getElementById('gallery'), { resultTypes: ['violations', 'passes'] });
      return {
        violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) })),
        contrastChecked: r.passes.find((p) => p.id === 'color-contrast')?.nodes.length ?? 0,
      };
    });
    const label = theme ?? `system ${scheme}`;
    assert.deepEqual(
      results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'color-contrast'),
      [],
      `${label}: ${JSON.stringify(results.violations)}`,
    );
    assert.ok(results.contrastChecked >= 40, `${label}: colour contrast checked inside the shadow roots (${results.contrastChecked} nodes)`);
  }
  await page.context().close();
});

test('screenshots of every state in both themes match the committed baselines', async () => {
  const page = await open({ reducedMotion: 'reduce' });
  const update = Boolean(process.env.UPDATE_SCREENSHOTS);
  if (update) mkdirSync(baselines, { recursive: true });
  const failures = [];
  for (const theme of THEMES) {
    await gallery(page, STATES, { theme });
    for (const [name] of STATES) {
      const file = `${name}-${theme}.png`;
      const png = await page.locator(`#${name}`).screenshot({ animations: 'disabled', caret: 'hide' });
      const baseline = path.join(baselines, file);
      if (update) {
        writeFileSync(baseline, png);
        continue;
      }
      if (!existsSync(baseline)) {
        failures.push(`${file}: no baseline (UPDATE_SCREENSHOTS=1 node --test tests/browser/tool-result-view.test.mjs writes it)`);
        continue;
      }
      // Anti-aliasing differs a little between machines: a per-pixel threshold and 1% of the pixels.
      const diff = compareImages(png, readFileSync(baseline), { threshold: 0.2, maxDiffPixelRatio: 0.01 });
      if (diff) {
        writeFileSync(path.join(artifacts, file.replace('.png', '-actual.png')), png);
        if (diff.diff) writeFileSync(path.join(artifacts, file.replace('.png', '-diff.png')), diff.diff);
        failures.push(`${file}: ${diff.errorMessage}`);
      }
    }
  }
  assert.deepEqual(failures, [], 'see tests/browser/artifacts/*-actual.png and *-diff.png');
  await clean(page);
});
