// The default look of `renderDom` and `<tool-result-view>` (docs/guide/rendering.md,
// "A default look"): one set of rules, with the design tokens (every colour, font
// and spacing, as `--tr-…` custom properties) declared where each context
// lets a host page override them. Inside the element the tokens sit on
// `:host`, which the page's own rules on `tool-result-view` always beat; in a
// page that links `toolresult/style.css` they sit on `:where(.tool-result…)`,
// zero specificity, so any rule on `.tool-result` beats them. The element
// adopts it as a constructable stylesheet, which a strict `style-src` CSP
// allows without an exception. The build writes the page variant to
// `dist/style.css`.

/** Light tokens (WCAG AA pairs: tests/browser/tool-result-view.test.mjs runs axe on both themes). */
const LIGHT: Record<string, string> = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif',
  'font-mono': 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace',
  'font-size': '14px',
  'font-size-small': '12px',
  'font-size-code': '12.5px',
  'line-height': '1.5',
  'space-1': '4px',
  'space-2': '8px',
  'space-3': '12px',
  radius: '6px',
  'border-width': '1px',
  'focus-width': '2px',
  bg: '#ffffff',
  fg: '#1f2328',
  muted: '#59636e',
  border: '#d1d9e0',
  surface: '#f6f8fa',
  accent: '#0969da',
  focus: '#0969da',
  'success-bg': '#dafbe1',
  'success-fg': '#116329',
  'danger-bg': '#ffebe9',
  'danger-fg': '#a40e26',
  'warning-bg': '#fff8c5',
  'warning-fg': '#7d4e00',
  'info-bg': '#ddf4ff',
  'info-fg': '#0a3069',
  'neutral-bg': '#eff2f5',
  'neutral-fg': '#1f2328',
  'diff-added-bg': '#dafbe1',
  'diff-added-fg': '#1f2328',
  'diff-removed-bg': '#ffebe9',
  'diff-removed-fg': '#1f2328',
  'diff-hunk-bg': '#ddf4ff',
  'diff-hunk-fg': '#59636e',
  'gutter-fg': '#59636e',
  'mark-bg': '#fff8c5',
  'mark-fg': '#1f2328',
  'stderr-fg': '#a40e26',
  'button-bg': '#f6f8fa',
  'button-fg': '#1f2328',
  'button-border': '#d1d9e0',
  'button-hover-bg': '#eff2f5',
  'approve-bg': '#1a7f37',
  'approve-fg': '#ffffff',
  'approve-hover-bg': '#116329',
  'deny-bg': '#ffffff',
  'deny-fg': '#cf222e',
  'deny-border': '#cf222e',
  'deny-hover-bg': '#ffebe9',
  'progress-track': '#d1d9e0',
  'progress-fg': '#0969da',
};

/** Dark tokens: only what differs from light. */
const DARK: Record<string, string> = {
  bg: '#0d1117',
  fg: '#e6edf3',
  muted: '#9198a1',
  border: '#3d444d',
  surface: '#151b23',
  accent: '#4493f8',
  focus: '#4493f8',
  'success-bg': '#0f2d1a',
  'success-fg': '#56d364',
  'danger-bg': '#3a1519',
  'danger-fg': '#ff9492',
  'warning-bg': '#2f2507',
  'warning-fg': '#e3b341',
  'info-bg': '#0c2d4f',
  'info-fg': '#79c0ff',
  'neutral-bg': '#262c36',
  'neutral-fg': '#e6edf3',
  'diff-added-bg': '#12301d',
  'diff-added-fg': '#e6edf3',
  'diff-removed-bg': '#3a1519',
  'diff-removed-fg': '#e6edf3',
  'diff-hunk-bg': '#0c2d4f',
  'diff-hunk-fg': '#9198a1',
  'gutter-fg': '#9198a1',
  'mark-bg': '#5a4a0c',
  'mark-fg': '#e6edf3',
  'stderr-fg': '#ff9492',
  'button-bg': '#21262d',
  'button-fg': '#e6edf3',
  'button-border': '#3d444d',
  'button-hover-bg': '#30363d',
  'approve-bg': '#1a7f37',
  'approve-fg': '#ffffff',
  'approve-hover-bg': '#116329',
  'deny-bg': '#0d1117',
  'deny-fg': '#ff7b72',
  'deny-border': '#ff7b72',
  'deny-hover-bg': '#3a1519',
  'progress-track': '#3d444d',
  'progress-fg': '#4493f8',
};

/** The names of every token (`--tr-<name>`), for documentation and tests. */
export const TOOL_RESULT_TOKENS: readonly string[] = Object.keys(LIGHT).map((k) => `--tr-${k}`);

const decls = (tokens: Record<string, string>) =>
  Object.entries(tokens)
    .map(([k, v]) => `  --tr-${k}: ${v};`)
    .join('\n');

// The rules: every colour, font and spacing through a token.
const RULES = `
.tool-result-view, .tool-result {
  color-scheme: light;
  font-family: var(--tr-font);
  font-size: var(--tr-font-size);
  line-height: var(--tr-line-height);
  color: var(--tr-fg);
  background: var(--tr-bg);
}
.tool-result-view { display: block; }
.tool-result {
  display: block;
  border: var(--tr-border-width) solid var(--tr-border);
  border-radius: var(--tr-radius);
  overflow: hidden;
  margin: 0;
}
.tool-result .tool-result { margin: var(--tr-space-2) 0; }
.tool-result-view [hidden], .tool-result [hidden] { display: none !important; }
.tr-header {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: var(--tr-space-2);
  padding: var(--tr-space-2) var(--tr-space-3);
  background: var(--tr-surface);
  border-bottom: var(--tr-border-width) solid var(--tr-border);
}
.tr-status {
  display: inline-flex;
  align-items: center;
  gap: var(--tr-space-1);
  padding: 0 var(--tr-space-2);
  border-radius: 999px;
  font-size: var(--tr-font-size-small);
  font-weight: 600;
  white-space: nowrap;
  background: var(--tr-neutral-bg);
  color: var(--tr-neutral-fg);
}
.tr-status[data-tone="success"] { background: var(--tr-success-bg); color: var(--tr-success-fg); }
.tr-status[data-tone="danger"] { background: var(--tr-danger-bg); color: var(--tr-danger-fg); }
.tr-status[data-tone="warning"] { background: var(--tr-warning-bg); color: var(--tr-warning-fg); }
.tr-status[data-tone="info"] { background: var(--tr-info-bg); color: var(--tr-info-fg); }
.tr-summary { flex: 1 1 12em; min-width: 0; overflow-wrap: anywhere; font-weight: 600; }
.tr-toggle, .tr-copy, .tr-approve, .tr-deny {
  font: inherit;
  font-size: var(--tr-font-size-small);
  line-height: var(--tr-line-height);
  padding: 0 var(--tr-space-2);
  border: var(--tr-border-width) solid var(--tr-button-border);
  border-radius: var(--tr-radius);
  background: var(--tr-button-bg);
  color: var(--tr-button-fg);
  cursor: pointer;
}
.tr-toggle:hover, .tr-copy:hover { background: var(--tr-button-hover-bg); }
.tr-approve, .tr-deny { font-size: var(--tr-font-size); padding: var(--tr-space-1) var(--tr-space-3); font-weight: 600; }
.tr-approve { background: var(--tr-approve-bg); color: var(--tr-approve-fg); border-color: var(--tr-approve-bg); }
.tr-approve:hover { background: var(--tr-approve-hover-bg); }
.tr-deny { background: var(--tr-deny-bg); color: var(--tr-deny-fg); border-color: var(--tr-deny-border); }
.tr-deny:hover { background: var(--tr-deny-hover-bg); }
.tool-result-view :focus-visible, .tool-result :focus-visible {
  outline: var(--tr-focus-width) solid var(--tr-focus);
  outline-offset: var(--tr-focus-width);
}
.tr-error, .tr-issues {
  margin: 0;
  padding: var(--tr-space-2) var(--tr-space-3);
  background: var(--tr-danger-bg);
  color: var(--tr-danger-fg);
  overflow-wrap: anywhere;
}
.tool-result[data-state="approval-requested"] > .tr-error { background: var(--tr-warning-bg); color: var(--tr-warning-fg); }
.tr-issues h4 { margin: 0 0 var(--tr-space-1); font-size: var(--tr-font-size); }
.tr-issues ul { margin: 0; padding-left: var(--tr-space-3); }
.tr-preview {
  margin: 0;
  padding: var(--tr-space-2) var(--tr-space-3);
  color: var(--tr-muted);
  white-space: pre-wrap;
  overflow-wrap: anywhere;
}
.tr-body { padding: var(--tr-space-2) var(--tr-space-3); }
.tr-body > :first-child { margin-top: 0; }
.tr-body > :last-child { margin-bottom: 0; }
.tr-body p { margin: var(--tr-space-1) 0; }
.tool-result-view pre, .tool-result pre, .tr-lines, .tr-matches {
  font-family: var(--tr-font-mono);
  font-size: var(--tr-font-size-code);
  line-height: var(--tr-line-height);
}
.tool-result-view pre, .tool-result pre {
  margin: var(--tr-space-2) 0;
  padding: var(--tr-space-2) var(--tr-space-3);
  background: var(--tr-surface);
  border: var(--tr-border-width) solid var(--tr-border);
  border-radius: var(--tr-radius);
  /* Long lines wrap rather than scroll: a scrolling region would need a tab stop of its own. */
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  tab-size: 4;
}
.tr-path { font-family: var(--tr-font-mono); font-size: var(--tr-font-size-code); font-weight: 600; overflow-wrap: anywhere; }
.tr-omitted, .tr-stats, .tr-exit, .tr-mcp, .tr-description, .tr-label { color: var(--tr-muted); font-size: var(--tr-font-size-small); }
.tr-label { margin: var(--tr-space-2) 0 0; font-weight: 600; }
.tr-stderr { color: var(--tr-stderr-fg); }
.tr-command { font-weight: 600; }
.tr-link, .tr-body a { color: var(--tr-accent); }
.tr-image { max-width: 100%; height: auto; border-radius: var(--tr-radius); }
.tr-diff { padding: var(--tr-space-1) 0; }
/* A line is a grid: the gutter (CSS text from data-ln) and the line, which wraps beside it. */
.tr-diff > * { display: grid; grid-template-columns: max-content 1fr; text-decoration: none; padding-right: var(--tr-space-3); }
.tr-diff > *::before {
  content: attr(data-ln);
  white-space: pre;
  padding: 0 var(--tr-space-2);
  margin-right: var(--tr-space-2);
  color: var(--tr-gutter-fg);
  border-right: var(--tr-border-width) solid var(--tr-border);
  user-select: none;
}
.tr-diff .tr-hunk { background: var(--tr-diff-hunk-bg); color: var(--tr-diff-hunk-fg); }
.tr-diff .tr-diff-added { background: var(--tr-diff-added-bg); color: var(--tr-diff-added-fg); }
.tr-diff .tr-diff-removed { background: var(--tr-diff-removed-bg); color: var(--tr-diff-removed-fg); }
.tr-file { margin: var(--tr-space-2) 0; }
.tr-file > .tr-path {
  margin: 0;
  padding: var(--tr-space-1) var(--tr-space-2);
  background: var(--tr-surface);
  border: var(--tr-border-width) solid var(--tr-border);
  border-radius: var(--tr-radius) var(--tr-radius) 0 0;
}
.tr-matches, .tr-files {
  list-style: none;
  margin: 0;
  padding: var(--tr-space-1) 0;
  border: var(--tr-border-width) solid var(--tr-border);
  border-radius: 0 0 var(--tr-radius) var(--tr-radius);
}
.tr-files { border-radius: var(--tr-radius); font-family: var(--tr-font-mono); font-size: var(--tr-font-size-code); }
.tr-matches > li, .tr-files > li { padding: 0 var(--tr-space-2); white-space: pre-wrap; overflow-wrap: anywhere; }
.tr-line-number {
  display: inline-block;
  min-width: 5ch;
  margin-right: var(--tr-space-2);
  color: var(--tr-gutter-fg);
  text-align: right;
  user-select: none;
}
.tool-result mark { background: var(--tr-mark-bg); color: var(--tr-mark-fg); border-radius: calc(var(--tr-radius) / 3); }
.tr-lines { margin: var(--tr-space-2) 0; padding: var(--tr-space-1) var(--tr-space-2) var(--tr-space-1) 6ch; background: var(--tr-surface); border: var(--tr-border-width) solid var(--tr-border); border-radius: var(--tr-radius); white-space: pre-wrap; }
.tr-lines > li::marker { color: var(--tr-gutter-fg); }
.tr-todo { border-collapse: collapse; }
.tr-todo td { padding: var(--tr-space-1) var(--tr-space-2); border-bottom: var(--tr-border-width) solid var(--tr-border); }
.tr-todo-completed td:nth-child(2) { color: var(--tr-muted); text-decoration: line-through; }
.tr-approval {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: var(--tr-space-2);
  padding: var(--tr-space-2) var(--tr-space-3);
  border-bottom: var(--tr-border-width) solid var(--tr-border);
}
.tr-approval-reason { flex: 1 1 100%; margin: 0; overflow-wrap: anywhere; }
.tr-actions { display: flex; gap: var(--tr-space-2); }
.tr-progress-line, .tr-note {
  display: flex;
  align-items: center;
  gap: var(--tr-space-2);
  margin: 0;
  padding: var(--tr-space-2) var(--tr-space-3) 0;
  color: var(--tr-muted);
}
.tr-note { display: block; overflow-wrap: anywhere; }
.tr-body:empty, .tr-preview:empty { display: none; }
.tr-progress {
  display: inline-block;
  flex: none;
  width: 1em;
  height: 1em;
  box-sizing: border-box;
  border: var(--tr-focus-width) solid var(--tr-progress-track);
  border-top-color: var(--tr-progress-fg);
  border-radius: 50%;
  animation: tr-spin 0.9s linear infinite;
}
@keyframes tr-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) {
  .tr-progress { animation: none; border-color: var(--tr-progress-fg); border-right-color: var(--tr-progress-track); }
}
.tr-input { white-space: pre-wrap; overflow-wrap: anywhere; }
.tr-live {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
`;

// The dark theme's `color-scheme` and tokens, under the selector `dark`.
const darkBlock = (selector: string) => `${selector} {\n  color-scheme: dark;\n${decls(DARK)}\n}`;
const darkScheme = (selector: string) => `${selector} { color-scheme: dark; }`;

/**
 * The default look for a page that renders with `renderDom` (what
 * `toolresult/style.css` holds): tokens on `.tool-result-view` and
 * `.tool-result` at zero specificity; dark when the system prefers it,
 * forced with `data-theme="light"` or `"dark"` on the result or an ancestor.
 */
export const TOOL_RESULT_CSS = `/* toolresult: the default look of renderDom (tokens: --tr-*). */
:where(.tool-result-view, .tool-result) {
${decls(LIGHT)}
}
@media (prefers-color-scheme: dark) {
${darkBlock(':where(.tool-result-view, .tool-result):not(:where([data-theme="light"], [data-theme="light"] *))')}
${darkScheme('.tool-result-view:not([data-theme="light"], [data-theme="light"] *), .tool-result:not([data-theme="light"], [data-theme="light"] *)')}
}
${darkBlock(':where(.tool-result-view[data-theme="dark"], .tool-result[data-theme="dark"], [data-theme="dark"] .tool-result-view, [data-theme="dark"] .tool-result)')}
${darkScheme('.tool-result-view[data-theme="dark"], .tool-result[data-theme="dark"], [data-theme="dark"] .tool-result-view, [data-theme="dark"] .tool-result')}
${RULES}`;

/**
 * The same look for `<tool-result-view>`'s shadow root: tokens on `:host`
 * (the page's rules on the element win), dark when the system prefers it
 * unless `theme="light"`, and always with `theme="dark"`.
 */
export const TOOL_RESULT_ELEMENT_CSS = `:host {
  display: block;
${decls(LIGHT)}
}
@media (prefers-color-scheme: dark) {
${darkBlock(':host(:not([theme="light"]))')}
${darkScheme(':host(:not([theme="light"])) .tool-result-view, :host(:not([theme="light"])) .tool-result')}
}
${darkBlock(':host([theme="dark"])')}
${darkScheme(':host([theme="dark"]) .tool-result-view, :host([theme="dark"]) .tool-result')}
${RULES}`;
