import type { Issue } from './generated/types.js';

/** Codes of errors thrown by this package (issues inside carry their own codes). */
export type ToolResultErrorCode =
  | 'invalid_agent_result'
  | 'invalid_tool_result'
  | 'invalid_spec'
  | 'invalid_output'
  | 'invalid_options'
  | 'invalid_schema'
  | 'invalid_definition'
  | 'invalid_value'
  | 'unknown_tool'
  | 'store_conflict'
  | 'store_lost'
  | 'invalid_summary'
  | 'not_found'
  | 'corrupt_store'
  | 'invalid_id'
  | 'invalid_input'
  | 'unknown_status'
  | 'not_initialized'
  | 'internal_trap'
  | 'unsupported_value'
  | 'corrupt_row'
  | 'schema_too_new'
  | 'schema_outdated'
  | 'store_closed'
  | 'storage_error'
  | 'missing_dependency'
  | 'invalid_document'
  | 'invalid_provenance'
  | 'unsafe_output'
  | 'unscreened_result'
  | 'inbox_conflict';

/**
 * What every fallible call that does not throw returns (validation, wasm
 * replies): the value, or every issue found.
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** A wasm reply (`Outcome` JSON text): its value, or a `ToolResultError` with `code` and its issues. */
export function unwrapOutcome<T>(json: string, code: ToolResultErrorCode, message: string): T {
  const out = JSON.parse(json) as Outcome<T>;
  if (!out.ok) throw new ToolResultError(code, message, out.issues);
  return out.value;
}

/** A screen-module reply: its value, or the error its issues call for. */
export function unwrapScreenReply<T>(json: string, message: string): T {
  const out = JSON.parse(json) as Outcome<T>;
  if (out.ok) return out.value;
  const has = (code: string) => out.issues.some((i) => i.code === code);
  const code = has('invalid_utf8') ? 'invalid_input' : has('invalid_options') ? 'invalid_options' : 'invalid_value';
  throw new ToolResultError(code, message, out.issues);
}

/**
 * The one error type this package throws: a real `Error` with a stable `code`
 * and the list of `issues` (each with a JSON Pointer `path`, a `code` and a
 * `message`).
 */
export class ToolResultError extends Error {
  readonly code: ToolResultErrorCode;
  readonly issues: Issue[];

  constructor(code: ToolResultErrorCode, message: string, issues: Issue[] = []) {
    super(issues.length ? `${message}\n${formatIssues(issues)}` : message);
    this.name = 'ToolResultError';
    this.code = code;
    this.issues = issues;
  }
}

/** One line per issue: `path: message [code]`, the root shown as `(root)`. */
export function formatIssues(issues: readonly Issue[], limit = 20): string {
  const lines = issues.slice(0, limit).map((i) => `  ${i.path || '(root)'}: ${i.message} [${i.code}]`);
  if (issues.length > limit) lines.push(`  ... and ${issues.length - limit} more`);
  return lines.join('\n');
}
