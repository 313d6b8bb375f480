// The safety screen (docs/screen.md): a tool result is untrusted data, and one
// that carries a credential, an inline executable payload, a claim that the
// agent's rules changed, a new instruction to fetch or execute, or hidden
// text is rejected with the reasons. The rules run in the screen module.
import { ToolResultError, unwrapOutcome } from './errors.js';
import type { ScreenCategory, ScreenOptions, ScreenReport } from './generated/types.js';
import { writeScreenInput } from './input.js';
import { screenModule } from './runtime.js';
import { jsonText } from './wire.js';

/** The five categories of the screen, in report order. */
export const SCREEN_CATEGORIES: readonly ScreenCategory[] = [
  'secret',
  'executable_payload',
  'policy_change',
  'fetch_execute_instruction',
  'hidden_text',
];

function optionsText(options: ScreenOptions | undefined): string {
  return options === undefined ? '' : jsonText(options, 'invalid_options', 'the screen options');
}

function isBytes(input: unknown): input is Uint8Array {
  return input instanceof Uint8Array;
}

/**
 * Screens a tool result or any text. A string or UTF-8 bytes are screened as
 * text (findings have path `""`); any other value is JSON data, and every
 * string in it is screened, object keys included (a ToolResult's output,
 * content blocks, error message, stdout and stderr). Findings carry the JSON
 * Pointer of their string and UTF-16 offsets into it.
 *
 * Every category rejects by default (seed 002: results MUST be rejected);
 * `options.policy` sets a category to `flag` or `off`, and `options.allow`
 * drops findings by rule, path, tool or category.
 */
export function screen(input: unknown, options?: ScreenOptions): ScreenReport {
  const opts = optionsText(options);
  if (typeof input === 'string' || isBytes(input)) {
    return unwrapOutcome<ScreenReport>(
      screenModule.call((w) => w.screen_text_input(writeScreenInput(w, input), opts)),
      typeof input === 'string' ? 'invalid_options' : 'invalid_input',
      'cannot screen this input',
    );
  }
  const json = jsonText(input, 'invalid_value', 'the value to screen');
  const reply = screenModule.call((w) => w.screen_json_input(writeScreenInput(w, json), opts));
  return unwrapOutcome<ScreenReport>(reply, 'invalid_options', 'cannot screen this input');
}

/**
 * Replaces every secret the screen finds with `[REDACTED:<rule>]`. Text stays
 * text; JSON data keeps its shape (secrets are redacted inside strings, so the
 * result is still valid JSON).
 */
export function redactSecrets<T>(input: T): T {
  if (typeof input === 'string' || isBytes(input)) {
    const text = unwrapOutcome<string>(
      screenModule.call((w) => w.redact_text_input(writeScreenInput(w, input))),
      'invalid_input',
      'cannot redact this input',
    );
    return (isBytes(input) ? new TextEncoder().encode(text) : text) as T;
  }
  const json = jsonText(input, 'invalid_value', 'the value to redact');
  return unwrapOutcome<T>(screenModule.call((w) => w.redact_json_input(writeScreenInput(w, json))), 'invalid_value', 'cannot redact this value');
}

/** A rejected screen as an error (code `unsafe_output`), findings as issues. */
export function screenError(report: ScreenReport, what = 'the result'): ToolResultError {
  const issues = report.findings
    .filter((f) => f.action === 'reject')
    .map((f) => ({ path: f.path, code: 'unsafe_output' as const, message: `${f.category}: ${f.rule} at ${f.start}..${f.end} (${f.excerpt})` }));
  return new ToolResultError('unsafe_output', `${what} was rejected by the safety screen (${report.rejected_categories.join(', ')})`, issues);
}
