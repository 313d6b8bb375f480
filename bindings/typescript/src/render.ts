// Rendering (docs/spec.md §16): the built-in text renderers (Rust core, envelope
// module), a renderer registry that picks a renderer by tool name, tool_type
// or pattern and never renders nothing, and the helpers that produce typed
// per-tool data (tool_metadata) from what tools actually have.
import { ToolResultError, type Outcome, quoteText } from './errors.js';
import type { DiffHunk, TodoItem, ToolMetadata, ToolResult } from './generated/types.js';
import { agentModule, call } from './runtime.js';
import { toolResultJson } from './wire.js';

/** How `renderText` renders. */
export interface RenderTextOptions {
  /** Longest line in characters (default 120, at least 20); longer lines end with `…`. */
  width?: number;
  /** ANSI styles: diff green/red, errors red, context dim (default false). */
  color?: boolean;
  /** Most body lines (default 200, at least 4); beyond, head and tail and a line naming how many were omitted. */
  maxLines?: number;
  /** Header, error and preview only (failures keep their error). */
  collapsed?: boolean;
}

function wholeAtLeast(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) {
    throw new ToolResultError('invalid_options', `${name} must be a whole number >= ${min}, got ${quoteText(value)}`, [
      { path: `/${name}`, code: 'invalid_options', message: `${name} must be a whole number >= ${min}` },
    ]);
  }
}

/**
 * A ToolResult as text for a terminal or a log: a header with the status (as
 * text, not colour alone) and summary, the error of a failure (never
 * collapsed away), then the body its `tool_metadata` kind renders (file with
 * line numbers, unified diff, grep grouped by file, bash with exit code, todo
 * checklist, batch with nested results, MCP content with images as
 * `[image: mime, size]`), or the result's text. Everything from the result is
 * sanitized: no escape sequence, control character or bidi override in a
 * result reaches the terminal. Throws `invalid_tool_result` for an invalid result.
 * Runs in the core module (browsers: `await init()` first).
 */
export function renderText(result: ToolResult | string, options: RenderTextOptions = {}): string {
  if (options === null || typeof options !== 'object') throw new ToolResultError('invalid_options', 'options must be an object');
  wholeAtLeast('width', options.width, 20);
  wholeAtLeast('maxLines', options.maxLines, 4);
  const json = toolResultJson(result);
  const opts = JSON.stringify(options);
  const out = JSON.parse(call((w) => w.render_text(json, opts))) as Outcome<string>;
  if (!out.ok) {
    const code = out.issues.some((i) => i.code === 'invalid_options') ? 'invalid_options' : 'invalid_tool_result';
    throw new ToolResultError(code, code === 'invalid_options' ? 'invalid render options' : 'invalid ToolResult', out.issues);
  }
  return out.value;
}

/** The language of a file by its name (`src/main.rs` → `rust`), as highlight.js and Prism name them; undefined when unknown. Schema engine module. */
export function detectLanguage(path: string): string | undefined {
  if (typeof path !== 'string') throw new ToolResultError('invalid_input', 'detectLanguage takes a path string');
  return call((w) => w.detect_language(path)) || undefined;
}

/**
 * Unified-diff hunks turning `oldText` into `newText` (Myers' diff on lines,
 * the `similar` crate), with `context` unchanged lines around each change
 * (default 3).
 */
export function diffHunks(oldText: string, newText: string, options: { context?: number } = {}): DiffHunk[] {
  if (typeof oldText !== 'string' || typeof newText !== 'string') throw new ToolResultError('invalid_input', 'diffHunks takes two strings');
  wholeAtLeast('context', options.context, 0);
  return JSON.parse(agentModule.call((w) => w.diff_hunks(oldText, newText, options.context ?? 3))) as DiffHunk[];
}

/** `file_read` metadata from a file's text: its lines from `offset` (default 1), at most `maxLines`, with the language. */
export function structureFileRead(spec: {
  file_path: string;
  text: string;
  offset?: number;
  maxLines?: number;
}): Extract<ToolMetadata, { tool_type: 'file_read' }> {
  const all = spec.text.split(/\r?\n/);
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  const offset = spec.offset ?? 1;
  wholeAtLeast('offset', offset, 1);
  wholeAtLeast('maxLines', spec.maxLines, 1);
  const from = all.slice(offset - 1);
  const lines = spec.maxLines === undefined ? from : from.slice(0, spec.maxLines);
  const language = detectLanguage(spec.file_path);
  return {
    tool_type: 'file_read',
    file_path: spec.file_path,
    offset,
    lines,
    ...(language && { language }),
    total_lines: all.length,
    truncated: offset - 1 + lines.length < all.length,
  };
}

/** `file_edit` metadata from the text before and after: the hunks, the contents and the language. */
export function structureFileEdit(spec: {
  file_path: string;
  old_text: string;
  new_text: string;
  context?: number;
}): Extract<ToolMetadata, { tool_type: 'file_edit' }> {
  const language = detectLanguage(spec.file_path);
  return {
    tool_type: 'file_edit',
    file_path: spec.file_path,
    old_content: spec.old_text,
    new_content: spec.new_text,
    diff_hunks: diffHunks(spec.old_text, spec.new_text, { context: spec.context }),
    ...(language && { language }),
  };
}

/** `todo` metadata with its statistics counted from the items. */
export function structureTodo(spec: { action: 'read' | 'write'; todo_list: TodoItem[] }): Extract<ToolMetadata, { tool_type: 'todo' }> {
  const by = (s: TodoItem['status']) => spec.todo_list.filter((t) => t.status === s).length;
  return {
    tool_type: 'todo',
    action: spec.action,
    todo_list: spec.todo_list,
    statistics: { total: spec.todo_list.length, completed: by('completed'), in_progress: by('in_progress'), pending: by('pending') },
  };
}

/** `batch` metadata with success and failure counted from the nested results. */
export function structureBatch(spec: { sub_results: ToolResult[]; description?: string; duration_ms?: number }): Extract<ToolMetadata, { tool_type: 'batch' }> {
  const ok = spec.sub_results.filter((r) => r.status === 'success').length;
  return {
    tool_type: 'batch',
    ...(spec.description !== undefined && { description: spec.description }),
    sub_results: spec.sub_results,
    ...(spec.duration_ms !== undefined && { duration_ms: spec.duration_ms }),
    success_count: ok,
    failure_count: spec.sub_results.length - ok,
  };
}

// ------------------------------------------------------------- the registry

/** What a renderer is given besides the result. */
export interface RenderContext {
  /** Render options for text renderers; DOM renderers may read their own fields. */
  [key: string]: unknown;
}

/** A renderer: a function of the result (text renderers return a string, DOM renderers a Node). */
export type Renderer<T> = (result: ToolResult, context: RenderContext) => T;

/** A renderer that threw; rendering went on with the next candidate. */
export interface RenderError {
  renderer: string;
  error: unknown;
}

/** What `RendererRegistry.render` returns. */
export interface Rendered<T> {
  output: T;
  /** Which renderer produced `output`: `name:…`, `type:…`, `pattern:…`, `fallback` or `last-resort`. */
  renderer: string;
  /** Renderers that threw before it. */
  errors: RenderError[];
}

interface PatternEntry<T> {
  label: string;
  test: (name: string) => boolean;
  specificity: number;
  order: number;
  renderer: Renderer<T>;
}

function globRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/**
 * Renderers by tool name, `tool_type` and name pattern (docs/spec.md §16). Resolution:
 * the exact tool name, then the result's `tool_metadata.tool_type`, then the
 * patterns (the most specific first: the most literal characters; a later
 * registration wins a tie), then the fallback. It never renders nothing: a
 * renderer that throws hands over to the next candidate and the error is
 * reported in `errors` (and to `onError`); if even the fallback throws, a
 * last-resort line naming the tool and status is returned.
 */
export class RendererRegistry<T> {
  readonly #byName = new Map<string, Renderer<T>>();
  readonly #patterns: PatternEntry<T>[] = [];
  #fallback: Renderer<T>;
  readonly #lastResort: (result: ToolResult) => T;
  #order = 0;
  /** Called with each renderer error as it happens (besides `errors` in the result). */
  onError: ((e: RenderError) => void) | undefined;

  /** `fallback` renders what nothing else claims; `lastResort` turns a one-line text into T (for DOM: a text node). */
  constructor(fallback: Renderer<T>, lastResort: (text: string) => T) {
    this.#fallback = fallback;
    this.#lastResort = (r) => {
      const name = typeof r?.input?.tool_name === 'string' ? r.input.tool_name : 'unknown tool';
      const status = typeof r?.status === 'string' ? r.status : 'unknown status';
      return lastResort(`${name}: ${status} (no renderer could render this result)`);
    };
  }

  /** A renderer for a tool name or a `tool_type` (both tables are looked up by the string). */
  register(toolNameOrType: string, renderer: Renderer<T>): this {
    if (typeof toolNameOrType !== 'string' || toolNameOrType === '')
      throw new ToolResultError('invalid_options', 'register takes a non-empty tool name or tool_type');
    if (typeof renderer !== 'function') throw new ToolResultError('invalid_options', 'a renderer is a function');
    this.#byName.set(toolNameOrType, renderer);
    return this;
  }

  /** A renderer for tool names matching a glob (`mcp_*`, `?` one character) or a RegExp. */
  registerPattern(pattern: string | RegExp, renderer: Renderer<T>): this {
    if (typeof renderer !== 'function') throw new ToolResultError('invalid_options', 'a renderer is a function');
    let re: RegExp;
    let literal: string;
    if (pattern instanceof RegExp) {
      re = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
      literal = pattern.source.replace(/\\.|[.*+?^${}()|[\]]/g, '');
    } else if (typeof pattern === 'string' && pattern !== '') {
      re = globRegExp(pattern);
      literal = pattern.replace(/[*?]/g, '');
    } else {
      throw new ToolResultError('invalid_options', 'registerPattern takes a glob string or a RegExp');
    }
    this.#patterns.push({ label: String(pattern), test: (n) => re.test(n), specificity: literal.length, order: this.#order++, renderer });
    return this;
  }

  /** The renderer for results nothing else claims. */
  setFallback(renderer: Renderer<T>): this {
    if (typeof renderer !== 'function') throw new ToolResultError('invalid_options', 'a renderer is a function');
    this.#fallback = renderer;
    return this;
  }

  /** The candidates for a result, in the order they are tried. */
  candidates(result: ToolResult): { label: string; renderer: Renderer<T> }[] {
    const out: { label: string; renderer: Renderer<T> }[] = [];
    const name = result?.input?.tool_name;
    if (typeof name === 'string' && this.#byName.has(name)) out.push({ label: `name:${name}`, renderer: this.#byName.get(name)! });
    const type = result?.tool_metadata?.tool_type;
    if (typeof type === 'string' && type !== name && this.#byName.has(type)) out.push({ label: `type:${type}`, renderer: this.#byName.get(type)! });
    if (typeof name === 'string') {
      const matching = this.#patterns.filter((p) => p.test(name)).sort((a, b) => b.specificity - a.specificity || b.order - a.order);
      for (const p of matching) out.push({ label: `pattern:${p.label}`, renderer: p.renderer });
    }
    out.push({ label: 'fallback', renderer: this.#fallback });
    return out;
  }

  /** Renders with the first candidate that does not throw. */
  render(result: ToolResult, context: RenderContext = {}): Rendered<T> {
    const errors: RenderError[] = [];
    for (const { label, renderer } of this.candidates(result)) {
      try {
        const output = renderer(result, context);
        if (output !== undefined && output !== null) return { output, renderer: label, errors };
        throw new Error('the renderer returned nothing');
      } catch (error) {
        const e = { renderer: label, error };
        errors.push(e);
        this.onError?.(e);
      }
    }
    return { output: this.#lastResort(result), renderer: 'last-resort', errors };
  }
}

/** A registry of text renderers whose fallback is the built-in `renderText` (options from the context). */
export function createTextRendererRegistry(): RendererRegistry<string> {
  return new RendererRegistry<string>(
    (r, ctx) => renderText(r, ctx as RenderTextOptions),
    (line) => `${line}\n`,
  );
}
