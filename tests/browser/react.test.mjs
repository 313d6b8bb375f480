// toolresult/react in a real app: examples/react-chat (Vite + React 19), a
// chat page driven by the AI SDK's useChat over a scripted ChatTransport,
// built with Vite's own build() and served with the strict CSP and Trusted
// Types. The conversation passes every state of a tool call (input
// streaming, running, approval requested, approval answered, output, error,
// denied), each rendered by <ToolResultView>; the approvals are answered with
// the keyboard alone and reach the transport, which goes on; axe-core finds
// no serious or critical violation in the light or the dark theme; zero
// console errors, page errors or CSP violations.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const example = path.join(root, 'examples', 'react-chat');
const artifacts = path.join(here, 'artifacts');
const axeSource = readFileSync(path.join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

let out;
let server;
let browser;
before(async () => {
  mkdirSync(artifacts, { recursive: true });
  out = mkdtempSync(path.join(tmpdir(), 'toolresult-react-chat-'));
  // The example's own config; only the output goes elsewhere (the tree stays clean).
  await build({ root: example, configFile: path.join(example, 'vite.config.mjs'), logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
  server = await serve(out);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

test('the example is a Vite build of React 19, the AI SDK and toolresult/react, with the wasm as files', () => {
  const assets = readdirSync(path.join(out, 'assets'));
  assert.ok(
    assets.some((f) => /^toolresult_wasm_bg-.*\.wasm$/.test(f)),
    `the core wasm module emitted: ${assets.join(', ')}`,
  );
  const js = assets.filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(out, 'assets', f), 'utf8'));
  assert.ok(
    js.some((s) => s.includes('tool-result-view') && s.includes('toolresult-approve')),
    'the element and its events are in the bundle',
  );
  assert.ok(
    js.some((s) => s.includes('19.3.1')),
    'React 19 is bundled',
  );
});

/** The page (strict CSP unless `bypassCSP`), recording console errors, page errors and CSP violations. */
async function open({ colorScheme = 'light', bypassCSP = false } = {}) {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 1000 }, colorScheme, bypassCSP });
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
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Start the conversation' }).waitFor();
  return page;
}

/** Every tool call on the page: [id, the state the element rendered, its status text]. */
const calls = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('tool-result-view')].map((el) => {
      const r = el.shadowRoot;
      return [el.id, r?.querySelector('article.tool-result')?.dataset.state ?? null, r?.querySelector('.tr-status')?.textContent ?? null];
    }),
  );

/** Waits until the tool calls are in `want` ([id, state] in page order) and the chat is `status`. */
async function until(page, want, status) {
  try {
    await page.waitForFunction(
      ({ want, status }) => {
        const got = [...document.querySelectorAll('tool-result-view')].map((el) => [
          el.id,
          el.shadowRoot?.querySelector('article.tool-result')?.dataset.state ?? null,
        ]);
        return JSON.stringify(got) === JSON.stringify(want) && document.querySelector('.status')?.dataset.status === status;
      },
      { want, status },
      { timeout: 20_000 },
    );
  } catch (e) {
    assert.fail(`${e.message}\nwanted ${JSON.stringify(want)} (${status}), have ${JSON.stringify(await calls(page))}`);
  }
}

/** What has the focus: the element's id and the focused control inside it (or the page's). */
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    const inner = a?.shadowRoot?.activeElement;
    return [a?.localName === 'tool-result-view' ? a.id : null, (inner ?? a)?.textContent ?? null];
  });

/** Presses Tab (at most `max` times) until `target` ([id, control text]) has the focus. */
async function tabTo(page, target, max = 60) {
  for (let i = 0; i < max; i++) {
    if (JSON.stringify(await focused(page)) === JSON.stringify(target)) return;
    await page.keyboard.press('Tab');
  }
  assert.deepEqual(await focused(page), target, `Tab reaches ${target.join(' ')}`);
}

const requests = (page) => page.locator('#requests li').evaluateAll((lis) => lis.map((li) => JSON.parse(li.dataset.answers)));

/** The chat up to the approvals, started with the keyboard: grep done, tests failed, edit and deploy awaiting approval. */
async function toApprovals(page) {
  await tabTo(page, [null, 'Start the conversation']);
  await page.keyboard.press('Enter');
  await until(
    page,
    [
      ['call_grep', 'output-available'],
      ['call_tests', 'output-error'],
      ['call_edit', 'approval-requested'],
      ['call_deploy', 'approval-requested'],
    ],
    'ready',
  );
}

/** Approves the edit and denies the deploy, keyboard only, up to the script's pause. */
async function toPause(page, { check = () => {} } = {}) {
  await tabTo(page, ['call_edit', 'Approve']);
  await page.keyboard.press('Enter');
  await check('edit approved');
  await tabTo(page, ['call_deploy', 'Deny']);
  await page.keyboard.press('Enter');
  await until(
    page,
    [
      ['call_grep', 'output-available'],
      ['call_tests', 'output-error'],
      ['call_edit', 'output-available'],
      ['call_deploy', 'output-denied'],
      ['call_retest', 'input-available'],
      ['call_notes', 'input-streaming'],
    ],
    'streaming',
  );
  await page.getByRole('button', { name: 'Continue the script' }).waitFor();
}

test('every state of a tool call under strict CSP and Trusted Types; keyboard-only approval reaches the transport; zero console errors', async () => {
  const page = await open();
  const seen = new Map();
  const record = async () => {
    for (const [id, state, status] of await calls(page)) seen.set(state, [id, status]);
  };
  await toApprovals(page);
  await record();
  assert.deepEqual(await requests(page), [[]], 'one request so far, with no answers');
  const shadowText = (id, selector) =>
    page.evaluate(({ id, selector }) => document.getElementById(id).shadowRoot.querySelector(selector)?.textContent ?? null, { id, selector });
  assert.equal(await shadowText('call_tests', '.tr-error'), 'error [TOOL_ERROR]: 2 tests failed: greeting::says_hi, greeting::says_name');
  assert.match(await shadowText('call_grep', '.tr-summary'), /TODO/);

  await toPause(page, {
    check: async (what) => {
      // The edit is answered; the deploy is not yet, so nothing is sent.
      await until(
        page,
        [
          ['call_grep', 'output-available'],
          ['call_tests', 'output-error'],
          ['call_edit', 'approval-responded'],
          ['call_deploy', 'approval-requested'],
        ],
        'ready',
      );
      await record();
      assert.deepEqual(await requests(page), [[]], `${what}: the transport waits for every answer`);
    },
  });
  await record();
  // The transport saw both answers, and the parts moved on.
  const answers = (await requests(page))[1];
  assert.deepEqual(
    answers.map((a) => [a.toolCallId, a.id, a.approved]),
    [
      ['call_edit', 'approval-edit', true],
      ['call_deploy', 'approval-deploy', false],
    ],
  );
  assert.equal(await shadowText('call_edit', '.tr-status'), '✓ success');
  assert.equal(await page.evaluate(() => document.getElementById('call_edit').shadowRoot.querySelectorAll('.tr-diff ins').length), 2, 'the edit as a diff');
  assert.equal(await shadowText('call_deploy', '.tr-error'), 'denied [EXECUTION_DENIED]: Denied in the chat');
  assert.equal(await page.evaluate(() => document.getElementById('call_retest').shadowRoot.querySelectorAll('[role="progressbar"]').length), 1, 'running');
  const streamed = await shadowText('call_notes', 'pre.tr-input');
  assert.match(streamed, /"path": "CHANGELOG.md"/, 'the partial input so far');
  assert.doesNotMatch(streamed, /by name/, 'only what has streamed');

  assert.deepEqual([...seen.keys()].sort(), [
    'approval-requested',
    'approval-responded',
    'input-available',
    'input-streaming',
    'output-available',
    'output-denied',
    'output-error',
  ]);
  await page.screenshot({ path: path.join(artifacts, 'react-chat-paused.png'), fullPage: true });

  // Continue, by keyboard: the last calls finish and the chat is ready.
  await tabTo(page, [null, 'Continue the script']);
  await page.keyboard.press('Enter');
  await until(
    page,
    [
      ['call_grep', 'output-available'],
      ['call_tests', 'output-error'],
      ['call_edit', 'output-available'],
      ['call_deploy', 'output-denied'],
      ['call_retest', 'output-available'],
      ['call_notes', 'output-available'],
    ],
    'ready',
  );
  assert.match(await page.locator('main').textContent(), /All 12 tests pass\./);
  assert.equal(await page.locator('#requests li').count(), 2);
  assert.deepEqual(await page.problems(), [], 'no console errors, page errors or CSP violations');
  await page.context().close();
});

test('axe-core: no serious or critical violation, in the light and the dark theme, at the approvals and at the pause', async () => {
  const BG = { light: 'rgb(255, 255, 255)', dark: 'rgb(13, 17, 23)' };
  for (const colorScheme of ['light', 'dark']) {
    // axe-core is injected into a context that bypasses the CSP (the page's own policy would refuse the injected script).
    const page = await open({ colorScheme, bypassCSP: true });
    await page.evaluate(axeSource);
    const audit = async (at) => {
      const report = await page.evaluate(async () => {
        const r = await globalThis.axe.run(document, { resultTypes: ['violations', 'passes'] });
        return {
          violations: r.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          contrastChecked: r.passes.some((p) => p.id === 'color-contrast'),
        };
      });
      assert.deepEqual(report.violations, [], `${colorScheme}, ${at}`);
      assert.ok(report.contrastChecked, `${colorScheme}, ${at}: colour contrast was checked`);
    };
    await toApprovals(page);
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.getElementById('call_edit').shadowRoot.querySelector('article.tool-result')).backgroundColor),
      BG[colorScheme],
      `${colorScheme}: the element follows the system theme`,
    );
    await audit('at the approvals');
    await toPause(page);
    await audit('at the pause');
    await page.screenshot({ path: path.join(artifacts, `react-chat-${colorScheme}.png`), fullPage: true });
    assert.deepEqual(await page.problems(), []);
    await page.context().close();
  }
});
