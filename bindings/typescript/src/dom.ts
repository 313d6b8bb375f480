// Web rendering (docs/spec.md §16): a ToolResult, or an AI SDK UI message
// tool part in any state of its call, as a DOM node, built with createElement
// and textContent only — never innerHTML, never Markdown — so nothing in a
// result can inject markup or run. Links only to http(s) and mailto, with
// rel="noopener noreferrer"; images only as capped data: URLs of PNG, JPEG,
// GIF or WebP (never SVG); nothing remote is loaded unless the user follows a
// link. Status is text, not colour alone; disclosure, copy and the approval
// buttons are buttons (keyboard-reachable, aria-expanded). The approval
// buttons only dispatch events: the host decides.
import { fromUIToolPart, UI_TOOL_STATES, type UIToolApproval, type UIToolPart, type UIToolState } from './ui-parts.js';
import { validateToolResult } from './api.js';
import { ToolResultError } from './errors.js';
import type { Issue, ToolResult } from './generated/types.js';
import { type RenderContext, RendererRegistry, renderText } from './render.js';
import { TOOL_RESULT_ELEMENT_CSS } from './style.js';

/** What `renderDom` and `<tool-result-view>` show: a ToolResult, or an AI SDK UI message tool part (any of its seven states). */
export type ToolCallView = ToolResult | UIToolPart;

/** The detail of the `toolresult-approve` and `toolresult-deny` events. */
export interface ToolApprovalEventDetail {
  /** The approval's id (the part's `approval.id`; for a ToolResult, as `toUIToolPart` writes it). */
  approvalId: string;
  toolCallId: string;
  toolName: string;
}

export interface DomRenderContext extends RenderContext {
  /** The document to create nodes in (default: the global `document`). */
  document?: Document;
  /** Start collapsed (header, error and preview line only). */
  collapsed?: boolean;
  /** Largest inline image, in bytes of base64 text (default 1 MiB). */
  maxImageBytes?: number;
  /** Most lines shown per block of text (default 500); the rest is named, not dropped silently. */
  maxLines?: number;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
let ids = 0;

function docOf(ctx: DomRenderContext): Document {
  const d = ctx.document ?? (globalThis as { document?: Document }).document;
  if (!d) throw new Error('renderDom needs a document: pass { document } outside a browser');
  return d;
}

type El = HTMLElement;

class Builder {
  constructor(
    readonly doc: Document,
    readonly ctx: DomRenderContext,
  ) {}

  el(tag: string, className?: string, text?: string): El {
    const e = this.doc.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /** Names `e` for `::part()` (inside `<tool-result-view>`; inert elsewhere). */
  part<E extends El>(e: E, name: string): E {
    e.setAttribute('part', name);
    return e;
  }

  button(className: string, label: string, ariaLabel?: string): HTMLButtonElement {
    const e = this.el('button', className, label) as HTMLButtonElement;
    e.type = 'button';
    if (ariaLabel) e.setAttribute('aria-label', ariaLabel);
    return e;
  }

  /** Text in a <pre>, capped to maxLines with a note naming the rest. */
  pre(text: string, className = 'tr-text'): El {
    const max = this.ctx.maxLines ?? 500;
    const lines = text.split('\n');
    const pre = this.el('pre', className);
    if (lines.length > max) {
      pre.textContent = lines.slice(0, max).join('\n');
      const note = this.el('p', 'tr-omitted', `… ${lines.length - max} more lines not shown`);
      const wrap = this.el('div');
      wrap.append(pre, note);
      return wrap;
    }
    pre.textContent = text;
    return pre;
  }

  /** A link only for http(s) and mailto; anything else is shown as text. */
  link(href: string, label?: string): El {
    let url: URL | undefined;
    try {
      url = new URL(href);
    } catch {
      url = undefined;
    }
    if (!url || !['http:', 'https:', 'mailto:'].includes(url.protocol)) return this.el('span', 'tr-url', label ?? href);
    const a = this.el('a', 'tr-link', label ?? href) as HTMLAnchorElement;
    a.href = url.href;
    a.rel = 'noopener noreferrer';
    a.target = '_blank';
    return a;
  }

  /** An inline image only for allowed raster types as base64 data within the cap; otherwise a text note. */
  image(mime: unknown, data: unknown): El {
    const bytes = typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0;
    const note = `[image: ${typeof mime === 'string' ? mime : 'unknown type'}, ${bytes} bytes]`;
    const max = this.ctx.maxImageBytes ?? 1024 * 1024;
    if (typeof mime !== 'string' || !IMAGE_TYPES.has(mime) || typeof data !== 'string' || data.length > max || !BASE64.test(data)) {
      return this.el('span', 'tr-image-note', note);
    }
    const img = this.el('img', 'tr-image') as HTMLImageElement;
    img.alt = note;
    img.src = `data:${mime};base64,${data}`;
    return img;
  }

  block(b: Record<string, unknown>): El {
    const type = b.type;
    if (type === 'text' && typeof b.text === 'string') return this.pre(b.text);
    if (type === 'image') return this.image(b.mimeType, b.data);
    if (type === 'audio') return this.el('span', 'tr-media-note', `[audio: ${String(b.mimeType)}]`);
    if (type === 'resource_link' && typeof b.uri === 'string') return this.link(b.uri, typeof b.name === 'string' ? b.name : b.uri);
    if (type === 'resource') {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      if (typeof r.text === 'string') return this.pre(r.text);
      return this.el('span', 'tr-media-note', `[resource: ${String(r.mimeType ?? 'binary')} ${String(r.uri ?? '')}]`);
    }
    return this.pre(JSON.stringify(b));
  }
}

function statusMark(status: string): string {
  if (status === 'success') return '✓';
  if (status === 'requires_confirmation') return '?';
  if (status === 'timeout' || status === 'cancelled' || status === 'rate_limited') return '!';
  return '✗';
}

type Tone = 'success' | 'danger' | 'warning' | 'info' | 'neutral';

function statusTone(status: string): Tone {
  if (status === 'success') return 'success';
  if (status === 'requires_confirmation' || status === 'timeout' || status === 'cancelled' || status === 'rate_limited') return 'warning';
  return 'danger';
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether `value` is shaped as an AI SDK UI message tool part (`type`
 * `tool-<name>` or `dynamic-tool`, and a `state`) rather than a ToolResult.
 * Only the shape: `fromUIToolPart` checks the rest.
 */
export function isUIToolPart(value: unknown): value is UIToolPart {
  return (
    isObject(value) &&
    typeof value.type === 'string' &&
    (value.type === 'dynamic-tool' || value.type.startsWith('tool-')) &&
    'state' in value &&
    !('schema_version' in value)
  );
}

/** The state a ToolResult shows as: the one `toUIToolPart` gives it by default. */
function resultState(r: ToolResult): UIToolState {
  if (r.status === 'success') return 'output-available';
  if (r.status === 'requires_confirmation') return 'approval-requested';
  if (r.status === 'permission_denied' && r.error_code === 'EXECUTION_DENIED') return 'output-denied';
  return 'output-error';
}

/** Untrusted JSON as indented text (never markup); `undefined` when there is none. */
function jsonText(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  try {
    return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  } catch {
    return String(v);
  }
}

/**
 * The text renderer's lines after its header, less its error line: the
 * error stands above the body, never hidden, so it is not said twice.
 */
function afterHeader(r: ToolResult, text: string): string[] {
  const lines = text.split('\n').slice(1);
  const oneLine = !String(r.error_message ?? '').includes('\n');
  return r.status !== 'success' && oneLine && /^ *(error|needs confirmation) \[[^\]]*\]: /.test(lines[0] ?? '') ? lines.slice(1) : lines;
}

/** The text renderer's body (its lines after the header), unindented, as a <pre>; nothing when empty. */
function textBody(b: Builder, r: ToolResult, into: El): void {
  const text = afterHeader(r, renderText(r)).join('\n').replace(/\n$/, '').replace(/^ {2}/gm, '');
  if (text.trim()) into.append(b.pre(text));
}

function body(b: Builder, r: ToolResult): El {
  const m = r.tool_metadata;
  const root = b.part(b.el('div', 'tr-body'), 'body');
  if (!m) {
    if (r.content?.length) for (const block of r.content) root.append(b.block(block));
    else textBody(b, r, root);
    return root;
  }
  switch (m.tool_type) {
    case 'file_read': {
      const ol = b.el('ol', 'tr-lines') as HTMLOListElement;
      ol.start = m.offset;
      for (const line of m.lines.slice(0, b.ctx.maxLines ?? 500)) ol.append(b.el('li', undefined, line));
      if (m.language) ol.dataset.language = m.language;
      root.append(b.el('p', 'tr-path', m.file_path), ol);
      if (m.truncated || m.lines.length > (b.ctx.maxLines ?? 500)) root.append(b.el('p', 'tr-omitted', `… file has ${m.total_lines ?? 'more'} lines`));
      break;
    }
    case 'file_write':
      root.append(b.el('p', 'tr-path', `${m.file_path} (${m.size} bytes)`), b.pre(m.content));
      break;
    case 'file_edit':
    case 'file_multi_edit': {
      root.append(b.el('p', 'tr-path', m.file_path));
      for (const h of m.diff_hunks) {
        const pre = b.part(b.el('pre', 'tr-diff'), 'diff');
        // The gutter (old and new line numbers) is CSS-generated text from
        // data-ln, so copying the diff copies the diff alone.
        const w = String(Math.max(h.old_start + h.old_count, h.new_start + h.new_count)).length;
        const hunk = b.el('span', 'tr-hunk', `@@ -${h.old_start},${h.old_count} +${h.new_start},${h.new_count} @@\n`);
        hunk.dataset.ln = ' '.repeat(2 * w + 1);
        pre.append(hunk);
        let oldLine = h.old_start;
        let newLine = h.new_start;
        for (const l of h.lines) {
          const sign = l.type === 'added' ? '+' : l.type === 'removed' ? '-' : ' ';
          const tag = l.type === 'added' ? 'ins' : l.type === 'removed' ? 'del' : 'span';
          const line = b.el(tag, `tr-diff-${l.type}`, `${sign}${l.content}\n`);
          // The line's own numbers when it carries them, else counted from the hunk's start.
          const o = l.type === 'added' ? '' : String(l.old_line ?? oldLine);
          const n = l.type === 'removed' ? '' : String(l.new_line ?? newLine);
          if (l.type !== 'added') oldLine = Number(o) + 1;
          if (l.type !== 'removed') newLine = Number(n) + 1;
          line.dataset.ln = `${o.padStart(w)} ${n.padStart(w)}`;
          pre.append(line);
        }
        root.append(pre);
      }
      break;
    }
    case 'grep': {
      for (const file of m.results) {
        const section = b.el('section', 'tr-file');
        section.append(b.el('h4', 'tr-path', file.file_path));
        const ol = b.el('ol', 'tr-matches');
        for (const hit of file.matches) {
          const li = b.el('li');
          li.append(b.el('span', 'tr-line-number', `${hit.line_number}: `));
          // Offsets are UTF-16 code units: exactly what String.slice takes.
          const ok = hit.match_start <= hit.match_end && hit.match_end <= hit.content.length;
          if (ok) {
            li.append(
              b.doc.createTextNode(hit.content.slice(0, hit.match_start)),
              b.el('mark', undefined, hit.content.slice(hit.match_start, hit.match_end)),
              b.doc.createTextNode(hit.content.slice(hit.match_end)),
            );
          } else li.append(b.doc.createTextNode(hit.content));
          ol.append(li);
        }
        section.append(ol);
        root.append(section);
      }
      if (m.truncated) root.append(b.el('p', 'tr-omitted', `… more matches not shown (${m.truncated_reason ?? 'limit reached'})`));
      break;
    }
    case 'glob': {
      const ul = b.el('ul', 'tr-files');
      for (const f of m.files) ul.append(b.el('li', `tr-${f.type}`, f.type === 'directory' ? `${f.path}/` : f.path));
      root.append(ul);
      break;
    }
    case 'bash': {
      root.append(b.pre(`$ ${m.command}`, 'tr-command'));
      for (const t of [m.output, m.stdout]) if (t) root.append(b.pre(t, 'tr-stdout'));
      if (m.stderr) root.append(b.pre(m.stderr, 'tr-stderr'));
      root.append(
        b.el('p', 'tr-exit', m.timed_out ? 'timed out' : m.exit_code === undefined || m.exit_code === null ? 'no exit code' : `exit code ${m.exit_code}`),
      );
      break;
    }
    case 'todo': {
      const table = b.el('table', 'tr-todo');
      for (const item of m.todo_list) {
        const tr = b.el('tr', `tr-todo-${item.status}`);
        tr.append(
          b.el('td', undefined, item.status === 'completed' ? '[x]' : item.status === 'in_progress' ? '[~]' : '[ ]'),
          b.el('td', undefined, item.content),
          b.el('td', undefined, item.priority ?? ''),
        );
        table.append(tr);
      }
      const s = m.statistics;
      root.append(table, b.el('p', 'tr-stats', `${s.total} total: ${s.completed} done, ${s.in_progress} in progress, ${s.pending} pending`));
      break;
    }
    case 'batch':
      if (m.description) root.append(b.el('p', 'tr-description', m.description));
      for (const sub of m.sub_results) root.append(renderDom(sub, b.ctx));
      break;
    case 'mcp':
      root.append(b.el('p', 'tr-mcp', `MCP ${m.server_name ? `${m.server_name} / ` : ''}${m.mcp_tool_name}`));
      for (const block of m.content) root.append(b.block(block));
      break;
    case 'web_fetch':
      root.append(b.link(m.url));
      if (typeof r.output === 'string') root.append(b.pre(r.output));
      break;
    case 'browser_navigate':
      root.append(b.el('p', 'tr-title', m.title ?? '(no title)'), b.link(m.final_url ?? m.url));
      break;
    default:
      textBody(b, r, root);
  }
  return root;
}

/** The article, its header (status as text and a tone, summary, disclosure, copy). */
function frame(
  b: Builder,
  s: { state: UIToolState; statusClass: string; statusText: string; tone: Tone; summary: string; copyLabel: string; copy: () => string },
): { article: El; toggle: HTMLButtonElement } {
  const article = b.part(b.el('article', 'tool-result'), 'result');
  article.dataset.state = s.state;
  const header = b.part(b.el('header', 'tr-header'), 'header');
  const status = b.part(b.el('span', `tr-status tr-status-${s.statusClass}`, s.statusText), 'status');
  status.dataset.tone = s.tone;
  const toggle = b.button('tr-toggle', b.ctx.collapsed ? 'Expand' : 'Collapse');
  toggle.setAttribute('aria-expanded', b.ctx.collapsed ? 'false' : 'true');
  const copy = b.button('tr-copy', 'Copy', s.copyLabel);
  header.append(status, b.el('span', 'tr-summary', s.summary), toggle, copy);
  article.append(header);
  copy.addEventListener('click', () => {
    const clip = (globalThis as { navigator?: { clipboard?: { writeText(t: string): Promise<void> } } }).navigator?.clipboard;
    void clip?.writeText(s.copy()).then(
      () => (copy.textContent = 'Copied'),
      () => (copy.textContent = 'Copy failed'),
    );
  });
  return { article, toggle };
}

/** Shows the body or the one-line preview, as the disclosure button says. */
function setOpen(toggle: Element, content: El, preview: El, open: boolean): void {
  toggle.setAttribute('aria-expanded', String(open));
  toggle.textContent = open ? 'Collapse' : 'Expand';
  content.hidden = !open;
  preview.hidden = open;
}

/** Appends the preview and the body, wired to the disclosure button. */
function disclose(b: Builder, article: El, toggle: HTMLButtonElement, previewText: string, content: El): void {
  content.id = `tool-result-body-${++ids}`;
  toggle.setAttribute('aria-controls', content.id);
  const preview = b.el('p', 'tr-preview', previewText);
  article.append(preview, content);
  setOpen(toggle, content, preview, !b.ctx.collapsed);
  toggle.addEventListener('click', () => setOpen(toggle, content, preview, toggle.getAttribute('aria-expanded') !== 'true'));
}

/** A progress indicator with its words (the spinner stops under prefers-reduced-motion). */
function progress(b: Builder, text: string): El {
  const line = b.part(b.el('p', 'tr-progress-line'), 'progress');
  const spinner = b.el('span', 'tr-progress');
  spinner.setAttribute('role', 'progressbar');
  spinner.setAttribute('aria-label', text);
  const words = b.el('span', undefined, text);
  words.setAttribute('aria-hidden', 'true');
  line.append(spinner, words);
  return line;
}

/** The call's input (untrusted JSON) as indented text. */
function inputBlock(b: Builder, input: unknown, streaming: boolean): El {
  const wrap = b.el('div', 'tr-input-block');
  const text = jsonText(input);
  wrap.append(b.el('p', 'tr-label', streaming ? 'Input so far' : 'Input'));
  wrap.append(text === undefined ? b.el('p', 'tr-omitted', streaming ? 'No input yet.' : 'No input.') : b.part(b.pre(text, 'tr-input'), 'input'));
  return wrap;
}

/** One line of JSON for the collapsed view. */
function oneLine(input: unknown): string {
  let text: string;
  try {
    text = typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
  } catch {
    text = String(input);
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Approve and Deny: each dispatches its event (bubbling, composed) with the approval id; nothing is decided here. */
function approvalSection(b: Builder, detail: ToolApprovalEventDetail): El {
  const section = b.part(b.el('section', 'tr-approval'), 'approval');
  section.setAttribute('aria-label', `Approval for ${detail.toolName}`);
  section.append(b.el('p', 'tr-approval-reason', `Allow ${detail.toolName} to run with this input?`));
  const actions = b.el('div', 'tr-actions');
  for (const [label, type] of [
    ['Approve', 'toolresult-approve'],
    ['Deny', 'toolresult-deny'],
  ] as const) {
    const button = b.part(b.button(label === 'Approve' ? 'tr-approve' : 'tr-deny', label), label.toLowerCase());
    button.addEventListener('click', () => {
      const Ctor = (b.doc.defaultView as { CustomEvent?: typeof CustomEvent } | null)?.CustomEvent ?? CustomEvent;
      button.dispatchEvent(new Ctor<ToolApprovalEventDetail>(type, { bubbles: true, composed: true, detail: { ...detail } }));
    });
    actions.append(button);
  }
  section.append(actions);
  return section;
}

/** A ToolResult (or a part that holds one) in the state it is in. */
function renderResult(b: Builder, r: ToolResult, part?: UIToolPart): El {
  const state = part ? part.state : resultState(r);
  const status = String(r.status);
  const lines = renderText(r, { collapsed: true }).split('\n');
  const { article, toggle } = frame(b, {
    state,
    statusClass: status,
    statusText: `${statusMark(status)} ${status}`,
    tone: statusTone(status),
    summary: lines[0].replace(/^\S+ \S+ /, ''),
    copyLabel: 'Copy result as text',
    copy: () => renderText(r),
  });
  article.dataset.status = status;
  if (r.tool_metadata) article.dataset.toolType = r.tool_metadata.tool_type;
  const meta = r.meta ?? {};
  if (state === 'output-available' && (part ? part.preliminary === true : meta['ai-sdk/preliminary'] === true)) {
    article.dataset.preliminary = 'true';
    article.append(progress(b, 'Partial output: the tool is still running…'));
  }
  if (r.status !== 'success') {
    const what = state === 'approval-requested' ? 'needs confirmation' : state === 'output-denied' ? 'denied' : 'error';
    article.append(b.part(b.el('p', 'tr-error', `${what} [${r.error_code ?? r.status}]: ${r.error_message ?? ''}`), 'error'));
  }
  // Asked to approve, the user sees what would run, not a restatement of the request.
  const asking = state === 'approval-requested';
  const input = part ? part.input : r.input.parameters;
  const content = asking && !r.tool_metadata && !r.content?.length ? b.part(b.el('div', 'tr-body'), 'body') : body(b, r);
  if (asking) {
    const kept = isObject(meta['ai-sdk/approval']) ? (meta['ai-sdk/approval'] as Partial<UIToolApproval>) : undefined;
    const approval = part?.approval ?? kept;
    // As toUIToolPart names it when the result carries no approval.
    const toolCallId = part?.toolCallId ?? (r.input.tool_call_id || r.metadata.execution_id);
    const approvalId = typeof approval?.id === 'string' ? approval.id : `approval-${toolCallId}`;
    article.append(approvalSection(b, { approvalId, toolCallId, toolName: r.input.tool_name }));
    content.prepend(inputBlock(b, input, false));
  }
  disclose(b, article, toggle, asking ? oneLine(input) : afterHeader(r, lines.join('\n')).join('\n').trim(), content);
  return article;
}

/** A part whose call has no result yet: its input streaming in, running, or the user's answer to its approval. */
function renderCall(b: Builder, part: UIToolPart): El {
  const state = part.state;
  const toolName = part.type === 'dynamic-tool' ? String(part.toolName) : part.type.slice(5);
  const approval = isObject(part.approval) ? part.approval : undefined;
  const approved = approval?.approved === true;
  const [statusText, tone, doing]: [string, Tone, string | undefined] =
    state === 'input-streaming'
      ? ['… receiving input', 'info', 'Receiving the input…']
      : state === 'input-available'
        ? ['⟳ running', 'info', 'Running…']
        : approved
          ? ['✓ approved', 'success', 'Approved: waiting for the tool to run…']
          : ['✗ denied', 'danger', undefined];
  const input = part.input !== undefined ? part.input : part.rawInput;
  const { article, toggle } = frame(b, {
    state,
    statusClass: state === 'approval-responded' ? (approved ? 'approved' : 'denied') : state,
    statusText,
    tone,
    summary: typeof part.title === 'string' && part.title ? `${part.title} (${toolName})` : toolName,
    copyLabel: 'Copy input as JSON',
    copy: () => jsonText(input) ?? '',
  });
  article.dataset.toolName = toolName;
  if (doing) article.append(progress(b, doing));
  const reason = typeof approval?.reason === 'string' && approval.reason ? approval.reason : undefined;
  if (state === 'approval-responded' && !approved) article.append(b.part(b.el('p', 'tr-error', `denied: ${reason ?? 'the call was denied'}`), 'error'));
  else if (state === 'approval-responded' && reason) article.append(b.el('p', 'tr-note', reason));
  const content = b.part(b.el('div', 'tr-body'), 'body');
  content.append(inputBlock(b, input, state === 'input-streaming'));
  disclose(b, article, toggle, input === undefined ? '' : oneLine(input), content);
  return article;
}

/**
 * A ToolResult, or an AI SDK UI message tool part in any of its seven states
 * (`fromUIToolPart` reads it; a malformed part is a `ToolResultError`), as a
 * DOM node (`<article class="tool-result" data-state="…">`): status as text,
 * summary, the error of a failure (never hidden), a disclosure button and a
 * copy button, then what the state shows — the input as it streams in; a
 * progress indicator while it runs; Approve and Deny buttons, which dispatch
 * `toolresult-approve` / `toolresult-deny` (detail: approval id, tool call
 * id, tool name) and decide nothing; the answer to an approval; the body the
 * result's kind renders; an error; a denial. Safe for untrusted results (see
 * the module comment).
 */
export function renderDom(input: ToolCallView, ctx: DomRenderContext = {}): HTMLElement {
  const b = new Builder(docOf(ctx), ctx);
  if (isUIToolPart(input)) {
    const result = fromUIToolPart(input);
    return result ? renderResult(b, result, input) : renderCall(b, input);
  }
  return renderResult(b, input);
}

/** A registry of DOM renderers whose fallback is `renderDom`. */
export function createDomRendererRegistry(ctx: DomRenderContext = {}): RendererRegistry<Node> {
  return new RendererRegistry<Node>(
    (r, c) => renderDom(r, { ...ctx, ...c }),
    (line) => docOf(ctx).createTextNode(line),
  );
}

/** Issues first (`role="alert"`), then what the input says about itself, then all of it as text. */
function invalidView(b: Builder, wrap: El, input: unknown, what: string, issueList: Issue[], status: string, name: string, message?: unknown): El {
  const issues = b.el('section', 'tr-issues');
  issues.setAttribute('role', 'alert');
  issues.append(b.el('h4', undefined, `Not a valid ${what}: ${issueList.length} issue${issueList.length === 1 ? '' : 's'}`));
  const ul = b.el('ul');
  for (const i of issueList) ul.append(b.el('li', undefined, `${i.path || '(root)'}: ${i.message} [${i.code}]`));
  issues.append(ul);
  const header = b.part(b.el('header', 'tr-header'), 'header');
  header.append(b.part(b.el('span', 'tr-status', status), 'status'), b.el('span', 'tr-summary', name));
  wrap.append(issues, header);
  if (typeof message === 'string') wrap.append(b.el('p', 'tr-error', message));
  let raw: string;
  try {
    raw = typeof input === 'string' ? input : JSON.stringify(input, null, 2);
  } catch {
    raw = String(input);
  }
  wrap.append(b.pre(raw, 'tr-raw'));
  return wrap;
}

/** `renderDomChecked`, or with `expect: 'part'` only a UI tool part (anything else is listed as not one). */
function renderChecked(input: unknown, ctx: DomRenderContext, expect: 'any' | 'part'): HTMLElement {
  const b = new Builder(docOf(ctx), ctx);
  const wrap = b.el('div', 'tool-result-view');
  let value = input;
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (isUIToolPart(parsed) || expect === 'part') value = parsed;
    } catch {
      // Not JSON: validateToolResult (or fromUIToolPart) says so below.
    }
  }
  if (expect === 'part' || isUIToolPart(value)) {
    try {
      if (!isUIToolPart(value)) fromUIToolPart(value); // throws the typed error that says why
      wrap.append(renderDom(value as UIToolPart, ctx));
      return wrap;
    } catch (e) {
      if (!(e instanceof ToolResultError)) throw e;
      const v = isObject(value) ? value : {};
      const issueList = e.issues.length ? e.issues : [{ path: '', code: 'invalid_type', message: e.message } as Issue];
      return invalidView(
        b,
        wrap,
        input,
        'tool part',
        issueList,
        typeof v.state === 'string' && (UI_TOOL_STATES as readonly string[]).includes(v.state) ? v.state : 'no state',
        typeof v.type === 'string' ? v.type : 'unknown tool',
      );
    }
  }
  const verdict = validateToolResult(value as ToolResult);
  if (verdict.ok) {
    wrap.append(renderDom(verdict.value, ctx));
    return wrap;
  }
  // Render anyway: what the result says about itself, as text, then all of it.
  const v = (value && typeof value === 'object' ? value : {}) as { input?: { tool_name?: unknown }; status?: unknown; error_message?: unknown };
  const name = typeof v.input?.tool_name === 'string' ? v.input.tool_name : 'unknown tool';
  const status = typeof v.status === 'string' ? v.status : 'no status';
  return invalidView(b, wrap, input, 'ToolResult', verdict.issues as Issue[], status, name, v.error_message);
}

/**
 * Renders a result that may be invalid: validation issues listed first (with
 * code and path), then the result rendered anyway when it can be; the raw
 * JSON in a <pre> when it cannot. A UI message tool part (or its JSON text)
 * renders as `renderDom` renders it, or with the issues `fromUIToolPart`
 * finds.
 */
export function renderDomChecked(input: unknown, ctx: DomRenderContext = {}): HTMLElement {
  return renderChecked(input, ctx, 'any');
}

export { TOOL_RESULT_CSS, TOOL_RESULT_ELEMENT_CSS, TOOL_RESULT_TOKENS } from './style.js';

// One constructed stylesheet per window (the CSSStyleSheet class is per realm).
const sheets = new WeakMap<object, CSSStyleSheet>();

/** Adopts the default look into `root` where constructable stylesheets exist (not in jsdom). */
function adoptStyles(root: ShadowRoot, win: object): void {
  const Sheet = (win as { CSSStyleSheet?: typeof CSSStyleSheet }).CSSStyleSheet;
  if (!Sheet || !('adoptedStyleSheets' in root)) return;
  let sheet = sheets.get(Sheet);
  if (!sheet) {
    try {
      sheet = new Sheet();
      sheet.replaceSync(TOOL_RESULT_ELEMENT_CSS);
    } catch {
      return;
    }
    sheets.set(Sheet, sheet);
  }
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** Names a focusable or disclosure element by tag, class and rank, to find its counterpart after a re-render. */
function keyOf(el: Element, root: ParentNode): string {
  const cls = el.getAttribute('class') ?? '';
  const rank = Array.from(root.querySelectorAll(el.localName))
    .filter((e) => (e.getAttribute('class') ?? '') === cls)
    .indexOf(el);
  return `${el.localName}\u0000${cls}\u0000${rank}`;
}

function byKey(key: string, root: ParentNode): HTMLElement | undefined {
  const [tag, cls, rank] = key.split('\u0000');
  return Array.from(root.querySelectorAll<HTMLElement>(tag)).filter((e) => (e.getAttribute('class') ?? '') === cls)[Number(rank)];
}

/**
 * Defines `<tool-result-view>` (once). Set its `result` property to a
 * ToolResult, a UI message tool part or JSON text of either (rendered with
 * `renderDomChecked`), or its `toolPart` property to a part (anything else is
 * shown with the issues that make it not one; the DOM's own `part` property
 * is the `::part()` token list, so the name differs). It renders in an open
 * shadow root with the default look adopted as a constructable stylesheet
 * (`TOOL_RESULT_ELEMENT_CSS`; restyle through `--tr-…` properties and
 * `::part(header | status | body | diff | approval | approve | deny |
 * progress | input | error | result)`). Attributes: `collapsed` (start
 * collapsed), `theme="light" | "dark"` (else the system's). Setting a new
 * value re-renders in place, keeping what the user expanded or collapsed and
 * where the focus was; a change of state is announced politely. Approve and
 * Deny dispatch `toolresult-approve` / `toolresult-deny` (composed: they
 * reach listeners on the element). `win` is the window to define it in
 * (default: the global one). Returns the element class, or undefined where
 * custom elements do not exist.
 */
export function defineToolResultView(
  win: { customElements?: CustomElementRegistry; HTMLElement?: typeof HTMLElement } = globalThis as never,
): CustomElementConstructor | undefined {
  const reg = win.customElements;
  const Base = win.HTMLElement;
  if (!reg || !Base) return undefined;
  const existing = reg.get('tool-result-view');
  if (existing) return existing;
  class ToolResultView extends Base {
    static get observedAttributes(): string[] {
      return ['collapsed'];
    }
    #value: unknown;
    #asPart = false;
    #given = false;
    #collapsedChanged = false;
    #content: HTMLElement | undefined;
    #announced: string | undefined;
    readonly #root: ShadowRoot;

    readonly #live: HTMLElement;

    constructor() {
      super();
      this.#root = this.attachShadow({ mode: 'open' });
      adoptStyles(this.#root, win);
      // Present (and empty) before anything is said in it, so it is announced.
      this.#live = this.ownerDocument.createElement('span');
      this.#live.className = 'tr-live';
      this.#live.setAttribute('role', 'status');
      this.#root.append(this.#live);
      // A value set before the element was defined sits on the instance,
      // hiding the accessors: move it behind them.
      for (const key of ['result', 'toolPart'] as const) {
        if (!Object.hasOwn(this, key)) continue;
        const value: unknown = this[key];
        delete (this as unknown as Record<string, unknown>)[key];
        this[key] = value;
      }
    }
    get result(): unknown {
      return this.#asPart ? undefined : this.#value;
    }
    set result(value: unknown) {
      this.#set(value, false);
    }
    get toolPart(): unknown {
      return this.#asPart ? this.#value : undefined;
    }
    set toolPart(value: unknown) {
      this.#set(value, true);
    }
    connectedCallback(): void {
      this.#render();
    }
    attributeChangedCallback(_name: string, old: string | null, value: string | null): void {
      if ((old === null) === (value === null)) return;
      this.#collapsedChanged = true;
      this.#render();
    }
    #set(value: unknown, asPart: boolean): void {
      this.#value = value;
      this.#asPart = asPart;
      this.#given = value !== undefined;
      this.#render();
    }
    #render(): void {
      if (!this.isConnected) return;
      const root = this.#root;
      if (!this.#given) {
        this.#content?.remove();
        this.#content = undefined;
        return;
      }
      // What the user chose and where the focus is, by element key.
      const active = root.activeElement;
      const focusKey = active ? keyOf(active, root) : undefined;
      const open = new Map<string, boolean>();
      for (const t of Array.from(root.querySelectorAll('button.tr-toggle'))) open.set(keyOf(t, root), t.getAttribute('aria-expanded') === 'true');
      const node = renderChecked(this.#value, { document: this.ownerDocument, collapsed: this.hasAttribute('collapsed') }, this.#asPart ? 'part' : 'any');
      if (this.#content) this.#content.replaceWith(node);
      else root.prepend(node);
      this.#content = node;
      const toggles = Array.from(root.querySelectorAll<HTMLElement>('button.tr-toggle'));
      for (const [i, t] of toggles.entries()) {
        // The host's `collapsed` change wins for the top-level result.
        if (i === 0 && this.#collapsedChanged) continue;
        const wanted = open.get(keyOf(t, root));
        const content = root.getElementById(t.getAttribute('aria-controls') ?? '');
        const preview = content?.previousElementSibling;
        if (wanted !== undefined && content && preview?.classList.contains('tr-preview')) setOpen(t, content as El, preview as El, wanted);
      }
      this.#collapsedChanged = false;
      if (focusKey !== undefined) (byKey(focusKey, root) ?? toggles[0])?.focus({ preventScroll: true });
      this.#announce(node);
    }
    /** Says a change of state (not the first render) in a polite live region that outlives the re-renders. */
    #announce(node: HTMLElement): void {
      const status = node.querySelector('.tr-status')?.textContent ?? '';
      const summary = node.querySelector('.tr-summary')?.textContent ?? '';
      const text = `${summary}: ${status}`;
      if (this.#announced !== undefined && this.#announced !== text) this.#live.textContent = text;
      this.#announced = text;
    }
  }
  reg.define('tool-result-view', ToolResultView);
  return ToolResultView;
}
