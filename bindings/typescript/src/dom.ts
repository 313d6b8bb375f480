// Web rendering (docs/spec.md §16): a ToolResult as a DOM node, built with
// createElement and textContent only — never innerHTML, never Markdown — so
// nothing in a result can inject markup or run. Links only to http(s) and
// mailto, with rel="noopener noreferrer"; images only as capped data: URLs
// of PNG, JPEG, GIF or WebP (never SVG); nothing remote is loaded unless the
// user follows a link. Status is text, not colour alone; disclosure and copy
// are buttons (keyboard-reachable, aria-expanded).
import type { Issue, ToolResult } from './generated/types.js';
import { renderText, RendererRegistry, type RenderContext } from './render.js';
import { validateToolResult } from './api.js';

/** What the DOM renderers read from the context. */
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

/** The text renderer's body (its lines after the header), unindented, as a <pre>; nothing when empty. */
function textBody(b: Builder, r: ToolResult, into: El): void {
  const text = renderText(r).split('\n').slice(1).join('\n').replace(/\n$/, '').replace(/^ {2}/gm, '');
  if (text.trim()) into.append(b.pre(text));
}

function body(b: Builder, r: ToolResult): El {
  const m = r.tool_metadata;
  const root = b.el('div', 'tr-body');
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
        const pre = b.el('pre', 'tr-diff');
        pre.append(b.el('span', 'tr-hunk', `@@ -${h.old_start},${h.old_count} +${h.new_start},${h.new_count} @@\n`));
        for (const l of h.lines) {
          const sign = l.type === 'added' ? '+' : l.type === 'removed' ? '-' : ' ';
          const tag = l.type === 'added' ? 'ins' : l.type === 'removed' ? 'del' : 'span';
          pre.append(b.el(tag, `tr-diff-${l.type}`, `${sign}${l.content}\n`));
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

/**
 * A ToolResult as a DOM node (`<article class="tool-result">`): status as
 * text, summary, the error of a failure (never hidden), a disclosure button
 * and a copy button, and the body its kind renders. Safe for untrusted
 * results (see the module comment).
 */
export function renderDom(result: ToolResult, ctx: DomRenderContext = {}): HTMLElement {
  const b = new Builder(docOf(ctx), ctx);
  const r = result;
  const article = b.el('article', 'tool-result');
  article.dataset.status = String(r.status);
  if (r.tool_metadata) article.dataset.toolType = r.tool_metadata.tool_type;
  const header = b.el('header', 'tr-header');
  const lines = renderText(r, { collapsed: true }).split('\n');
  header.append(
    b.el('span', `tr-status tr-status-${String(r.status)}`, `${statusMark(String(r.status))} ${String(r.status)}`),
    b.el('span', 'tr-summary', lines[0].replace(/^\S+ \S+ /, '')),
  );
  const bodyId = `tool-result-body-${++ids}`;
  const toggle = b.el('button', 'tr-toggle', ctx.collapsed ? 'Expand' : 'Collapse') as HTMLButtonElement;
  toggle.type = 'button';
  toggle.setAttribute('aria-controls', bodyId);
  toggle.setAttribute('aria-expanded', ctx.collapsed ? 'false' : 'true');
  const copy = b.el('button', 'tr-copy', 'Copy') as HTMLButtonElement;
  copy.type = 'button';
  copy.setAttribute('aria-label', 'Copy result as text');
  header.append(toggle, copy);
  article.append(header);
  if (r.status !== 'success') {
    const what = r.status === 'requires_confirmation' ? 'needs confirmation' : 'error';
    article.append(b.el('p', 'tr-error', `${what} [${r.error_code ?? r.status}]: ${r.error_message ?? ''}`));
  }
  const content = body(b, r);
  content.id = bodyId;
  const preview = b.el('p', 'tr-preview', lines.slice(1).join('\n').trim());
  if (ctx.collapsed) content.hidden = true;
  else preview.hidden = true;
  article.append(preview, content);
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? 'Collapse' : 'Expand';
    content.hidden = !open;
    preview.hidden = open;
  });
  copy.addEventListener('click', () => {
    const clip = (globalThis as { navigator?: { clipboard?: { writeText(t: string): Promise<void> } } }).navigator?.clipboard;
    void clip?.writeText(renderText(r)).then(
      () => (copy.textContent = 'Copied'),
      () => (copy.textContent = 'Copy failed'),
    );
  });
  return article;
}

/** A registry of DOM renderers whose fallback is `renderDom`. */
export function createDomRendererRegistry(ctx: DomRenderContext = {}): RendererRegistry<Node> {
  return new RendererRegistry<Node>(
    (r, c) => renderDom(r, { ...ctx, ...c }),
    (line) => docOf(ctx).createTextNode(line),
  );
}

/**
 * Renders a result that may be invalid: validation issues listed first (with
 * code and path), then the result rendered anyway when it can be; the raw
 * JSON in a <pre> when it cannot.
 */
export function renderDomChecked(input: unknown, ctx: DomRenderContext = {}): HTMLElement {
  const b = new Builder(docOf(ctx), ctx);
  const wrap = b.el('div', 'tool-result-view');
  const verdict = validateToolResult(input as ToolResult);
  if (verdict.ok) {
    wrap.append(renderDom(verdict.value, ctx));
    return wrap;
  }
  const issues = b.el('section', 'tr-issues');
  issues.setAttribute('role', 'alert');
  issues.append(b.el('h4', undefined, `Not a valid ToolResult: ${verdict.issues.length} issue${verdict.issues.length === 1 ? '' : 's'}`));
  const ul = b.el('ul');
  for (const i of verdict.issues as Issue[]) ul.append(b.el('li', undefined, `${i.path || '(root)'}: ${i.message} [${i.code}]`));
  issues.append(ul);
  // Render anyway: what the result says about itself, as text, then all of it.
  const v = (input && typeof input === 'object' ? input : {}) as { input?: { tool_name?: unknown }; status?: unknown; error_message?: unknown };
  const name = typeof v.input?.tool_name === 'string' ? v.input.tool_name : 'unknown tool';
  const status = typeof v.status === 'string' ? v.status : 'no status';
  const header = b.el('header', 'tr-header');
  header.append(b.el('span', 'tr-status', status), b.el('span', 'tr-summary', name));
  wrap.append(issues, header);
  if (typeof v.error_message === 'string') wrap.append(b.el('p', 'tr-error', v.error_message));
  let raw: string;
  try {
    raw = typeof input === 'string' ? input : JSON.stringify(input, null, 2);
  } catch {
    raw = String(input);
  }
  wrap.append(b.pre(raw, 'tr-raw'));
  return wrap;
}

/**
 * Defines `<tool-result-view>` (once): set its `result` property (a value or
 * JSON text) and it renders it with `renderDomChecked`, so React, Vue or
 * Svelte use it like any element; the `collapsed` attribute starts it
 * collapsed. `win` is the window to define it in (default: the global one).
 * Returns the element class, or undefined where custom elements do not exist.
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
    #result: unknown;
    get result(): unknown {
      return this.#result;
    }
    set result(value: unknown) {
      this.#result = value;
      this.#render();
    }
    connectedCallback(): void {
      this.#render();
    }
    #render(): void {
      if (this.#result === undefined || !this.isConnected) return;
      this.replaceChildren(renderDomChecked(this.#result, { document: this.ownerDocument, collapsed: this.hasAttribute('collapsed') }));
    }
  }
  reg.define('tool-result-view', ToolResultView);
  return ToolResultView;
}
