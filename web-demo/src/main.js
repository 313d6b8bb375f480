// The toolresult web demo. Everything the page shows is built with
// createElement and textContent (the page runs under Trusted Types, so an
// innerHTML anywhere would throw), and every result is treated as untrusted.
import * as t from 'toolresult';
import * as audit from 'toolresult/audit';
import * as convert from 'toolresult/convert';
import * as render from 'toolresult/render';
import * as screen from 'toolresult/screen';
import './style.css';
import { analyzeDocument, LARGE_INPUT, SHAPES } from './analyze.js';
// Vite bundles the worker and gives its URL (the Worker is made below, through a Trusted Types policy).
import workerPath from './worker.js?worker&url';

const $ = (id) => document.getElementById(id);
const DIALOG = 'demo';
const SOURCE_VIEW_LIMIT = 1024 * 1024;

/** An element with a class and text. */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A <pre>; it may scroll, so it is focusable (keyboard users can scroll it). */
function pre(text, className) {
  const p = el('pre', className, text);
  p.tabIndex = 0;
  return p;
}

const json = (v) => JSON.stringify(v, null, 2);
const kb = (n) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

// ---- modules: the core module now (validation, rendering), the agent module
// on first conversion or history use (store, references, conversions), the
// JSON Schema engine on first schema check (docs/internals/modules.md)

const ready = t.init();
let engineModule;
function engine() {
  engineModule ??= t.loadSchemaEngine().then(showModules);
  return engineModule;
}
let agentLoaded = false;
async function agent() {
  await t.loadAgentModule();
  if (!agentLoaded) {
    agentLoaded = true;
    showModules();
  }
}
function showModules() {
  $('modules').textContent =
    `wasm modules loaded: core (validation, rendering)${agentLoaded ? ', agent (store, references, conversions)' : ''}${t.schemaEngineLoaded() ? ', JSON Schema engine' : '; the JSON Schema engine loads on first schema check'}`;
}

// ---- views

function show(view) {
  for (const b of document.querySelectorAll('nav [data-view]')) {
    if (b.dataset.view === view) b.setAttribute('aria-current', 'page');
    else b.removeAttribute('aria-current');
  }
  for (const s of document.querySelectorAll('.view')) s.hidden = s.id !== `view-${view}`;
  if (view === 'history') refreshHistory();
  if (view === 'conversation') refreshConversation();
  if (view === 'catalog') showCatalog();
}
for (const b of document.querySelectorAll('nav [data-view]')) b.addEventListener('click', () => show(b.dataset.view));

// ---- validation in a worker

// Under `require-trusted-types-for 'script'` a worker URL must be a
// TrustedScriptURL: this policy vouches for this page's own scripts only.
const scriptUrls = globalThis.trustedTypes?.createPolicy('toolresult-demo', {
  createScriptURL(url) {
    const u = new URL(url, document.baseURI);
    if (u.origin !== location.origin) throw new TypeError(`refusing a worker from ${u.origin}`);
    return u.href;
  },
});
const workerUrl = new URL(workerPath, import.meta.url).href;
const worker = new Worker(scriptUrls ? scriptUrls.createScriptURL(workerUrl) : workerUrl, { type: 'module' });
let requested = 0;
let shown = 0;
const waiting = new Map();
worker.onmessage = (e) => {
  const resolve = waiting.get(e.data.id);
  waiting.delete(e.data.id);
  resolve?.(e.data);
};
function analyzeInWorker(text) {
  const id = ++requested;
  worker.postMessage({ id, text });
  return new Promise((resolve) => waiting.set(id, resolve)).then((reply) => ({ id, reply }));
}

let current = { analysis: undefined, text: '', doc: 0, raw: false };

// The text being validated. The text box holds all of it, except a large
// paste, drop or file: then it shows the start, and the page never reads the
// whole back out of the text box (a 20 MB text box is slow to read and lay out).
const SHOWN_IN_BOX = 256 * 1024;
let sourceText = '';
function putSource(text) {
  sourceText = text;
  $('source').value = text.length > SHOWN_IN_BOX ? text.slice(0, SHOWN_IN_BOX) : text;
}

async function validateNow() {
  const text = sourceText;
  const status = $('status');
  status.dataset.state = 'busy';
  status.textContent = text.length > LARGE_INPUT ? `Validating ${kb(text.length)} in a worker…` : 'Validating…';
  const { id, reply } = await analyzeInWorker(text);
  if (id < shown || id !== requested) return; // a newer request is on its way
  shown = id;
  if (!reply.ok) {
    status.textContent = `The worker failed: ${reply.error}`;
    status.dataset.state = 'error';
    return;
  }
  current = { analysis: reply.analysis, text, doc: 0, raw: current.raw };
  showAnalysis();
}

let debounce;
$('source').addEventListener('input', (e) => {
  sourceText = e.target.value;
  clearTimeout(debounce);
  debounce = setTimeout(validateNow, 300);
});
$('validate').addEventListener('click', () => {
  clearTimeout(debounce);
  validateNow();
});
$('example').addEventListener('click', async () => {
  const cases = await catalog();
  const example = cases.find((c) => c.name === 'tool/valid-success.json') ?? cases[0];
  setSource(example.text);
});

// The catalog (web-demo/scripts/catalog.mjs) is fetched on first use.
let catalogPromise;
function catalog() {
  catalogPromise ??= fetch(new URL('catalog.json', document.baseURI)).then((r) => {
    if (!r.ok) throw new Error(`catalog.json: HTTP ${r.status}`);
    return r.json();
  });
  return catalogPromise;
}

// A large paste goes to `sourceText`, not through the text box.
$('source').addEventListener('paste', (e) => {
  const text = e.clipboardData?.getData('text/plain');
  if (!text || text.length <= SHOWN_IN_BOX) return;
  e.preventDefault();
  setSource(text);
});

function setSource(text) {
  clearTimeout(debounce);
  putSource(text);
  show('validate');
  return validateNow();
}

// Open file and drop: one or many files, joined as JSON Lines when many.
async function readFiles(files) {
  const texts = await Promise.all([...files].map((f) => f.text()));
  const one = texts.length === 1 ? texts[0] : texts.map((x) => JSON.stringify(safeParse(x) ?? x)).join('\n');
  return setSource(one);
}
function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
$('file').addEventListener('change', (e) => readFiles(e.target.files));
$('source').addEventListener('dragover', (e) => e.preventDefault());
$('source').addEventListener('drop', (e) => {
  if (!e.dataTransfer?.files.length) return;
  e.preventDefault();
  readFiles(e.dataTransfer.files);
});

// ---- showing an analysis

function showAnalysis() {
  const { analysis } = current;
  const docs = analysis.docs;
  const bad = docs.filter((d) => !d.ok).length;
  const status = $('status');
  status.textContent = `${docs.length} document${docs.length === 1 ? '' : 's'} (${kb(analysis.length)}) validated in ${analysis.ms.toFixed(1)} ms: ${bad ? `${bad} with issues` : 'all valid'}.${current.text.length > SHOWN_IN_BOX ? ` The text box shows its first ${kb(SHOWN_IN_BOX)}.` : ''}`;
  status.dataset.state = 'done';
  status.dataset.verdict = bad ? 'invalid' : 'valid';
  performance.mark('toolresult:analysis');
  // A counter the browser tests wait on.
  document.body.dataset.analyses = String(Number(document.body.dataset.analyses ?? 0) + 1);
  const picker = $('doc-picker');
  picker.replaceChildren(
    ...docs.map((d, i) => {
      const o = el(
        'option',
        undefined,
        `${i + 1}: ${SHAPES[d.shape] ?? d.shape} — ${d.ok ? 'valid' : `${d.issues.length} issue${d.issues.length === 1 ? '' : 's'}`}`,
      );
      o.value = String(i);
      return o;
    }),
  );
  $('doc-row').hidden = docs.length < 2;
  // The first document with issues is the one to see (issue #34): a valid
  // first document must not stand for the whole input.
  const first = Math.max(
    0,
    docs.findIndex((d) => !d.ok),
  );
  picker.value = String(first);
  showDoc(first);
}
$('doc-picker').addEventListener('change', (e) => showDoc(Number(e.target.value)));

function showDoc(index) {
  current.doc = index;
  const d = current.analysis.docs[index];
  const list = $('issue-list');
  list.replaceChildren();
  $('issues').dataset.count = String(d.issues.length);
  const docs = current.analysis.docs;
  const bad = docs.filter((x) => !x.ok).length;
  $('changes').textContent = [
    ...(docs.length > 1
      ? [`Document ${index + 1} of ${docs.length} (${bad ? `${bad} with issues: ${docs.flatMap((x, i) => (x.ok ? [] : [i + 1])).join(', ')}` : 'all valid'}).`]
      : []),
    `${SHAPES[d.shape] ?? d.shape}: ${d.ok ? 'valid' : 'not valid'}.`,
    ...d.changes.map((c) => (typeof c === 'string' ? c : `${c.path || '(root)'}: ${c.message ?? c.kind ?? ''}`)),
  ].join(' ');
  d.issues.forEach((issue, i) => {
    const li = el('li');
    const b = el('button', 'issue');
    b.type = 'button';
    b.dataset.index = String(i);
    b.dataset.code = issue.code;
    b.append(el('code', 'code', issue.code), ' ', el('span', 'message', issue.message), ' ', el('code', 'pointer', issue.path || '(root)'));
    if (issue.loc) b.append(' ', el('span', 'where', `line ${issue.loc.line}, column ${issue.loc.column}`));
    b.addEventListener('click', () => selectIssue(i));
    li.append(b);
    list.append(li);
  });
  if (!d.issues.length) list.append(el('li', 'muted', 'No issues.'));
  showSource(d);
  showRendered(d);
  showConversions(d);
  showBounding(d);
}

/** The source text with every issue's span marked (small inputs only). */
function showSource(d) {
  const view = $('highlight');
  const text = current.text;
  if (text.length > SOURCE_VIEW_LIMIT) {
    view.replaceChildren(
      el('span', 'muted', `The source view is off for inputs over ${kb(SOURCE_VIEW_LIMIT)}; selecting an issue selects it in the text box.`),
    );
    return;
  }
  const spans = d.issues
    .map((issue, i) => ({ i, issue, loc: issue.loc }))
    .filter((s) => s.loc)
    // A missing field marks its parent's first character only, not the whole parent.
    .map((s) => ({ ...s, start: s.loc.offset, end: s.loc.found ? Math.max(s.loc.end, s.loc.offset + 1) : s.loc.offset + 1 }))
    .sort((a, b) => a.start - b.start);
  const parts = [];
  let at = 0;
  for (const s of spans) {
    const start = Math.max(s.start, at);
    const end = Math.min(text.length, Math.max(s.end, start));
    if (end <= start) continue;
    if (start > at) parts.push(document.createTextNode(text.slice(at, start)));
    const mark = el('mark', 'issue-mark', text.slice(start, end));
    mark.dataset.index = String(s.i);
    mark.title = `${s.issue.code} at line ${s.loc.line}, column ${s.loc.column}`;
    parts.push(mark);
    at = end;
  }
  parts.push(document.createTextNode(text.slice(at)));
  view.replaceChildren(...parts);
}

function selectIssue(i) {
  const d = current.analysis.docs[current.doc];
  const loc = d.issues[i]?.loc;
  for (const m of document.querySelectorAll('.issue-mark.active')) m.classList.remove('active');
  const mark = document.querySelector(`.issue-mark[data-index="${i}"]`);
  mark?.classList.add('active');
  mark?.scrollIntoView({ block: 'nearest' });
  if (loc) {
    const source = $('source');
    source.focus();
    source.setSelectionRange(loc.offset, loc.found ? loc.end : loc.offset + 1);
  }
}

async function showRendered(d) {
  const out = $('render-out');
  if (current.analysis?.docs[current.doc] !== d) return;
  $('save').disabled = !(d.ok && d.kind === 'tool' && d.value);
  if (!d.value) {
    out.replaceChildren(
      el(
        'p',
        'muted',
        current.analysis.large
          ? `Large input (${kb(current.analysis.length)}): validated in the worker, not rendered. sha256 ${current.analysis.sha256}`
          : 'Nothing to render.',
      ),
    );
    return;
  }
  if (current.raw) {
    out.replaceChildren(pre(json(d.value), 'raw'));
    return;
  }
  if (d.kind === 'agent') {
    out.replaceChildren(renderAgentResult(d.value));
    return;
  }
  // Rendered even when invalid, with the issues beside it (renderDomChecked).
  const view = document.createElement('tool-result-view');
  view.result = d.value;
  out.replaceChildren(view);
}
render.defineToolResultView();
$('toggle-raw').addEventListener('click', (e) => {
  current.raw = !current.raw;
  e.target.setAttribute('aria-pressed', String(current.raw));
  e.target.textContent = current.raw ? 'Show rendered' : 'Show raw JSON';
  if (current.analysis) showRendered(current.analysis.docs[current.doc]);
});

/** An AgentResult as a card: status, who did what, the result as JSON. */
function renderAgentResult(v) {
  const card = el('article', 'agent-result');
  const header = el('header', 'tr-header');
  header.append(
    el('span', 'tr-status', String(v.status ?? 'no status')),
    el('span', 'tr-summary', `${v.agent_type ?? '?'} agent ${v.agent_id ?? '?'}: ${v.action ?? ''}`),
  );
  card.append(header);
  if (v.error) card.append(el('p', 'tr-error', `${v.error.code ?? ''} ${v.error.message ?? ''}`));
  if (v.result !== undefined) card.append(pre(json(v.result), 'tr-raw'));
  return card;
}

async function showConversions(d) {
  const box = $('conversions');
  if (!(d.ok && d.kind === 'tool' && d.value)) {
    box.replaceChildren(el('p', 'muted', 'A valid ToolResult is shown here as MCP, Anthropic, OpenAI and Vercel AI SDK shapes.'));
    return;
  }
  try {
    await agent();
  } catch (e) {
    box.replaceChildren(el('p', 'tr-error', `The agent module did not load: ${e.message}`));
    return;
  }
  if (current.analysis?.docs[current.doc] !== d) return; // another document is shown now
  const shapes = [
    ['MCP CallToolResult (2025-11-25)', () => convert.toMcpCallToolResult(d.value, { revision: '2025-11-25' })],
    ['MCP CallToolResult (2026-07-28)', () => convert.toMcpCallToolResult(d.value, { revision: '2026-07-28' })],
    ['Anthropic tool_result', () => convert.toAnthropicToolResult(d.value)],
    ['OpenAI Responses function_call_output', () => convert.toOpenAIFunctionCallOutput(d.value)],
    ['OpenAI Chat tool message', () => convert.toOpenAIChatToolMessage(d.value)],
    ['Vercel AI SDK tool part', () => convert.toVercelToolPart(d.value)],
  ];
  box.replaceChildren(
    ...shapes.map(([name, toShape]) => {
      const details = el('details', 'conversion');
      details.dataset.shape = name;
      details.append(el('summary', undefined, name));
      try {
        details.append(pre(json(toShape())));
      } catch (e) {
        details.append(el('p', 'tr-error', `${e.code ?? 'error'}: ${e.message}`));
      }
      return details;
    }),
  );
}

function showBounding(d) {
  const box = $('bounding');
  const rows = [['sha256 of the whole input', current.analysis.sha256]];
  if (d.ok && d.kind === 'tool' && d.value) {
    const maxBytes = Math.max(16, Number($('max-bytes').value) || 256);
    try {
      const b = t.truncateOutput(d.value.output, { maxBytes });
      rows.push(['output sha256', b.sha256], ['output size', `${b.original_size} bytes`], ['truncated', b.output_truncated ? `yes, to ${b.size} bytes` : 'no']);
      box.replaceChildren(table(rows), pre(typeof b.output === 'string' ? b.output : json(b.output), 'bounded'));
      return;
    } catch (e) {
      rows.push(['truncation', `${e.code}: ${e.message}`]);
    }
  }
  box.replaceChildren(table(rows));
}
$('max-bytes').addEventListener('change', () => current.analysis && showBounding(current.analysis.docs[current.doc]));

function table(rows) {
  const dl = el('dl', 'facts');
  for (const [k, v] of rows) dl.append(el('dt', undefined, k), el('dd', undefined, v));
  return dl;
}

// ---- history: the IndexedDB store

let storePromise;
const events = [];
function store() {
  // openIndexedDbStore loads the agent module (the store's index) itself; agent() updates the module line.
  storePromise ??= Promise.all([t.openIndexedDbStore('toolresult-demo', { retention: { maxCount: 500 } }), agent()]).then(([s]) => {
    for (const type of ['stored', 'validation_failed', 'truncated', 'evicted']) {
      s.on(type, (e) => {
        events.unshift(`${type}: ${e.detail.tool_name ?? ''} ${e.detail.execution_id}${e.detail.reason ? ` (${e.detail.reason})` : ''}`);
        events.length = Math.min(events.length, 50);
      });
    }
    return s;
  });
  return storePromise;
}

$('save').addEventListener('click', async () => {
  const d = current.analysis.docs[current.doc];
  const s = await store();
  try {
    const report = await s.put(d.value, { dialogId: DIALOG });
    $('status').textContent = report.stored ? `Saved to history: ${report.meta.summary}` : 'Already in history.';
  } catch (e) {
    $('status').textContent = `Not saved: ${e.code}: ${e.message}`;
  }
});

function fillSelect(select, values, label) {
  const keep = select.value;
  select.replaceChildren(
    ...['', ...values].map((v) => {
      const o = el('option', undefined, v || label);
      o.value = v;
      return o;
    }),
  );
  select.value = values.includes(keep) ? keep : '';
}

async function refreshHistory() {
  const s = await store();
  const metas = s.listDialog(DIALOG).reverse();
  fillSelect($('filter-tool'), [...new Set(metas.map((m) => m.tool_name))].sort(), 'all tools');
  fillSelect($('filter-status'), [...new Set(metas.map((m) => m.status))].sort(), 'any status');
  const tool = $('filter-tool').value;
  const status = $('filter-status').value;
  const shown = tool
    ? s.history(tool, status ? { status } : {}).map((r) => s.meta(r.metadata.execution_id))
    : metas.filter((m) => !status || m.status === status);
  const list = $('history-list');
  list.replaceChildren(
    ...shown.map((m) => {
      const li = el('li');
      const b = el('button', 'history-item');
      b.type = 'button';
      b.dataset.executionId = m.execution_id;
      b.append(el('span', 'tr-status', m.status), ' ', el('span', undefined, m.summary), ' ', el('span', 'muted', kb(m.size_bytes)));
      b.addEventListener('click', () => setSource(json(s.get(m.execution_id))));
      li.append(b);
      return li;
    }),
  );
  if (!shown.length)
    list.append(el('li', 'muted', metas.length ? 'No result matches the filters.' : 'Nothing saved yet: validate a ToolResult and press "Save to history".'));
  showMetrics(s.metrics());
  $('events').replaceChildren(...events.map((e) => el('li', undefined, e)));
}
$('filter-tool').addEventListener('change', refreshHistory);
$('filter-status').addEventListener('change', refreshHistory);
$('clear-history').addEventListener('click', async () => {
  const s = await store();
  s.close();
  storePromise = undefined;
  await new Promise((resolve, reject) => {
    const r = indexedDB.deleteDatabase('toolresult-demo');
    r.onsuccess = resolve;
    r.onerror = () => reject(r.error);
  });
  events.length = 0;
  refreshHistory();
});

const SVG = 'http://www.w3.org/2000/svg';
/** A bar chart as SVG elements (no markup strings). */
function barChart(title, bars) {
  const width = 360;
  const rowHeight = 22;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${rowHeight * bars.length + 4}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${title}: ${bars.map((b) => `${b.label} ${b.value}`).join(', ')}`);
  svg.classList.add('chart');
  bars.forEach((b, i) => {
    const y = i * rowHeight + 2;
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', '0');
    label.setAttribute('y', String(y + 15));
    label.textContent = b.label;
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', '150');
    rect.setAttribute('y', String(y + 3));
    rect.setAttribute('height', '14');
    rect.setAttribute('width', String(Math.round((b.value / max) * 170)));
    const value = document.createElementNS(SVG, 'text');
    value.setAttribute('x', String(155 + Math.round((b.value / max) * 170)));
    value.setAttribute('y', String(y + 15));
    value.textContent = String(b.value);
    svg.append(label, rect, value);
  });
  const figure = el('figure', 'figure');
  figure.append(svg, el('figcaption', undefined, title));
  return figure;
}

function showMetrics(m) {
  const byStatus = Object.entries(m.by_status).map(([label, value]) => ({ label, value }));
  const sizes = m.output_size.map((b, i) => ({ label: b.le === null ? `> ${kb(m.output_size[i - 1].le)}` : `≤ ${kb(b.le)}`, value: b.count }));
  $('metrics').replaceChildren(
    table([
      ['stored', String(m.stored)],
      ['in the store now', `${m.current_count} (${kb(m.current_bytes)})`],
      ['validation failures', String(m.validation_failures)],
      ['truncated', String(m.truncated)],
      ['evicted', String(m.evicted)],
    ]),
    barChart('Results by status', byStatus.length ? byStatus : [{ label: 'none yet', value: 0 }]),
    barChart('Output size', sizes),
  );
}

// ---- conversation: references and "load full"

async function refreshConversation() {
  const s = await store();
  const metas = s.listDialog(DIALOG).slice(-20);
  const messages = [
    { role: 'user', content: 'Please look into this.' },
    ...metas.map((m) => ({ role: 'tool', tool_call_id: m.tool_call_id, content: s.get(m.execution_id) })),
  ];
  const prepared = t.prepareHistory(messages, { dialogId: DIALOG, store: s.index });
  $('conversation-summary').textContent = `${prepared.referenced.length} result${prepared.referenced.length === 1 ? '' : 's'} replaced by references.`;
  $('conversation').replaceChildren(
    ...prepared.messages.map((m) => {
      const li = el('li', `message ${m.role}`);
      li.append(el('strong', undefined, `${m.role}: `));
      if (typeof m.content === 'string') {
        li.append(el('span', undefined, m.content));
        return li;
      }
      const ref = m.content;
      const card = el('div', 'reference');
      card.dataset.toolCallId = ref.tool_call_id;
      card.append(
        el('p', undefined, `${ref.tool_name} — ${ref.status} — ${ref.metadata.summary} (${kb(ref.metadata.size_bytes)})`),
        pre(ref.metadata.truncated_preview, 'preview'),
      );
      const load = el('button', 'load-full', 'Load full');
      load.type = 'button';
      load.addEventListener('click', () => {
        const loaded = t.prepareHistory([m], { dialogId: DIALOG, store: s.index, load: [ref.tool_call_id] });
        const view = document.createElement('tool-result-view');
        view.result = loaded.messages[0].content;
        card.replaceChildren(view);
        card.dataset.loaded = 'true';
      });
      card.append(load);
      li.append(card);
      return li;
    }),
  );
}

// ---- schema check

$('schema').value = json({ type: 'object', required: ['temperature'], properties: { temperature: { type: 'number' }, unit: { enum: ['C', 'F'] } } });
$('schema-output').value = json({ temperature: '21', unit: 'K' });
$('check-schema').addEventListener('click', async () => {
  const box = $('schema-result');
  box.replaceChildren(el('p', undefined, 'Loading the JSON Schema engine…'));
  await engine();
  let compiled;
  try {
    compiled = t.compileSchema(JSON.parse($('schema').value));
  } catch (e) {
    box.replaceChildren(
      el('p', 'tr-error', e instanceof SyntaxError ? `The schema is not JSON: ${e.message}` : `${e.code}: ${e.message}`),
      ...issueList(e.issues ?? []),
    );
    box.dataset.verdict = 'bad-schema';
    return;
  }
  const outputText = $('schema-output').value;
  try {
    const issues = compiled.validateJson(outputText);
    box.dataset.verdict = issues.length ? 'invalid' : 'valid';
    box.replaceChildren(
      el('p', undefined, issues.length ? `${issues.length} issue${issues.length === 1 ? '' : 's'}:` : 'The output satisfies the schema.'),
      ...issueList(issues, outputText),
    );
  } catch (e) {
    box.dataset.verdict = 'bad-output';
    box.replaceChildren(el('p', 'tr-error', `${e.code}: ${e.message}`), ...issueList(e.issues ?? []));
  } finally {
    compiled.free();
  }
});

function issueList(issues, text) {
  if (!issues.length) return [];
  const ol = el('ol', 'schema-issues');
  for (const i of issues) {
    const where =
      text === undefined
        ? ''
        : (() => {
            const at = t.locate(text, i.path);
            return ` (line ${at.line}, column ${at.column})`;
          })();
    ol.append(el('li', undefined, `${i.path || '(root)'}${where}: ${i.message} [${i.code ?? i.keyword}]`));
  }
  return [ol];
}

// ---- catalog

function catalogEntry(c, index) {
  const details = el('details', 'case');
  details.dataset.index = String(index);
  details.dataset.expect = c.expect ?? 'skipped';
  const summary = el('summary');
  summary.append(
    el('span', 'case-group', c.group),
    ' ',
    el('span', 'case-name', c.name),
    ' ',
    el('span', 'verdict', c.skipped ? `not runnable here: ${c.skipped}` : `expected ${c.expect}`),
  );
  details.append(summary);
  return details;
}

function runCase(c, details) {
  const d = analyzeDocument({ ...t, ...convert }, { text: c.text, offset: 0, line: 1 }, { source: c.source, context: c.context });
  const verdict = d.ok ? 'valid' : 'invalid';
  const codes = d.issues.map((i) => i.code);
  const agrees = verdict === c.expect && c.codes.every((code) => codes.includes(code));
  details.dataset.verdict = verdict;
  details.dataset.agrees = String(agrees);
  details.querySelector('.verdict').textContent =
    `${verdict}${codes.length ? ` (${[...new Set(codes)].join(', ')})` : ''} — expected ${c.expect}${agrees ? ' ✓' : ' ✗'}`;
  const body = el('div', 'case-body');
  if (d.kind === 'agent' && d.value) body.append(renderAgentResult(d.value));
  else if (d.value !== undefined) {
    // The package's own look, as a user's page shows it (<tool-result-view>).
    const view = document.createElement('tool-result-view');
    view.result = d.value;
    body.append(view);
  } else body.append(render.renderDomChecked(c.text));
  const open = el('button', 'open-case', 'Open in the validator');
  open.type = 'button';
  open.addEventListener('click', () => setSource(c.text));
  body.append(open);
  details.append(body);
  return agrees;
}

let catalogShown;
async function showCatalog() {
  catalogShown ??= catalog().then((cases) => {
    $('catalog-list').replaceChildren(...cases.map(catalogEntry));
    return cases;
  });
  return catalogShown;
}

$('run-catalog').addEventListener('click', async () => {
  const cases = await showCatalog();
  // The catalog normalizes and converts legacy and foreign shapes.
  await Promise.all([engine(), agent()]);
  const summary = $('catalog-summary');
  let agree = 0;
  let ran = 0;
  const list = $('catalog-list');
  for (const [i, c] of cases.entries()) {
    if (c.skipped) continue;
    const details = list.children[i];
    details.querySelector('.case-body')?.remove();
    ran++;
    if (runCase(c, details)) agree++;
    // Let the page breathe between cases.
    if (i % 20 === 0) await new Promise((r) => setTimeout(r, 0));
  }
  summary.textContent = `${ran} cases run: ${agree} reached the expected verdict, ${ran - agree} did not; ${cases.length - ran} listed without running.`;
  summary.dataset.state = 'done';
  summary.dataset.agree = String(agree);
  summary.dataset.ran = String(ran);
});

await ready;
showModules();
// The package (the main entry and its subpaths, as one object), for trying the
// API from the devtools console (and for bench/browser.mjs).
globalThis.toolresult = { ...t, ...convert, ...render, ...screen, ...audit };
performance.mark('toolresult:ready');
document.body.dataset.ready = 'true';
