// Summarizers registered by the application (docs/spec.md §12):
// the store, the PostgreSQL store and references ask them before the
// built-in summary the wasm side computes.
import { ToolResultError, quoteText } from './errors.js';
import type { ToolResult } from './generated/types.js';

type Summarizer = (result: ToolResult) => string;
const summarizers: { pattern: string | RegExp; matches: (name: string) => boolean; fn: Summarizer }[] = [];

/**
 * Registers a summarizer for tools whose name matches `toolNamePattern` (a
 * name, a glob with `*`, or a RegExp). The latest registration wins. Returns
 * the function that removes it.
 */
export function registerSummarizer(toolNamePattern: string | RegExp, fn: Summarizer): () => void {
  if (typeof fn !== 'function') throw new ToolResultError('invalid_options', 'registerSummarizer needs a function');
  let matches: (name: string) => boolean;
  if (toolNamePattern instanceof RegExp) {
    matches = (name) => {
      toolNamePattern.lastIndex = 0;
      return toolNamePattern.test(name);
    };
  } else if (typeof toolNamePattern === 'string' && toolNamePattern.length > 0) {
    const re = new RegExp(
      `^${toolNamePattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    matches = (name) => re.test(name);
  } else {
    throw new ToolResultError('invalid_options', 'a summarizer pattern is a non-empty string or a RegExp');
  }
  const entry = { pattern: toolNamePattern, matches, fn };
  summarizers.unshift(entry);
  return () => {
    const i = summarizers.indexOf(entry);
    if (i >= 0) summarizers.splice(i, 1);
  };
}

/**
 * The line a registered summarizer gives, or `undefined` when none matches
 * (then the built-in one applies, which the wasm side computes itself).
 * @internal
 */
export function customSummary(result: ToolResult | string): string | undefined {
  const name = typeof result === 'string' ? undefined : result?.input?.tool_name;
  if (typeof name !== 'string') return undefined;
  const custom = summarizers.find((s) => s.matches(name));
  if (!custom) return undefined;
  const line = custom.fn(result as ToolResult);
  if (typeof line !== 'string') {
    throw new ToolResultError('invalid_summary', `the summarizer registered for ${quoteText(custom.pattern)} returned ${typeof line}, not a string`);
  }
  return line;
}
