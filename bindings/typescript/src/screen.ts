// The safety screen (docs/screen.md): a tool result is untrusted data, and one
// that carries a credential, an inline executable payload, a claim that the
// agent's rules changed, a new instruction to fetch or execute, or hidden
// text is rejected with the reasons. The rules run in the screen module.
import { ToolResultError, unwrapScreenReply, quoteText } from './errors.js';
import type { ScreenCategory, ScreenOptions, ScreenReport, ToolResult } from './generated/types.js';
import { writeScreenInput } from './input.js';
import { screenModule } from './runtime.js';
import { jsonText } from './wire.js';

/** The five categories of the screen, in report order. */
export const SCREEN_CATEGORIES: readonly ScreenCategory[] = ['secret', 'executable_payload', 'policy_change', 'fetch_execute_instruction', 'hidden_text'];

function optionsText(options: ScreenOptions | undefined): string {
  return options === undefined ? '' : jsonText(options, 'invalid_options', 'the screen options');
}

function isBytes(input: unknown): input is Uint8Array {
  return input instanceof Uint8Array;
}

/**
 * Screens a tool result or any text. A string or UTF-8 bytes are screened as
 * text (findings have path `""`; a text that is one JSON document is read as
 * its decoded strings, so it gets the verdict of its parsed value); any other value is JSON data, and every
 * string in it is screened, object keys included (a ToolResult's output,
 * content blocks, error message, stdout and stderr). Findings carry the JSON
 * Pointer of their string and UTF-16 offsets into it.
 *
 * Every category rejects by default (docs/spec.md §13: a rejected result must not be passed on);
 * `options.policy` sets a category to `flag` or `off`, and `options.allow`
 * drops findings by rule, path, tool or category.
 */
export function screen(input: unknown, options?: ScreenOptions): ScreenReport {
  const opts = optionsText(options);
  if (typeof input === 'string' || isBytes(input)) {
    return unwrapScreenReply<ScreenReport>(
      screenModule.call((w) => w.screen_text_input(writeScreenInput(w, input), opts)),
      'cannot screen this input',
    );
  }
  const json = jsonText(input, 'invalid_value', 'the value to screen');
  return unwrapScreenReply<ScreenReport>(
    screenModule.call((w) => w.screen_json_input(writeScreenInput(w, json), opts)),
    'cannot screen this input',
  );
}

/**
 * Replaces every secret the screen finds with `[REDACTED:<rule>]`. Text stays
 * text; JSON data keeps its shape (secrets are redacted inside strings, so the
 * result is still valid JSON).
 */
export function redactSecrets<T>(input: T): T {
  if (typeof input === 'string' || isBytes(input)) {
    const text = unwrapScreenReply<string>(
      screenModule.call((w) => w.redact_text_input(writeScreenInput(w, input))),
      'cannot redact this input',
    );
    return (isBytes(input) ? new TextEncoder().encode(text) : text) as T;
  }
  const json = jsonText(input, 'invalid_value', 'the value to redact');
  return unwrapScreenReply<T>(
    screenModule.call((w) => w.redact_json_input(writeScreenInput(w, json))),
    'cannot redact this value',
  );
}

/** A rejected screen as an error (code `unsafe_output`), findings as issues. */
export function screenError(report: ScreenReport, what = 'the result'): ToolResultError {
  const issues = report.findings
    .filter((f) => f.action === 'reject')
    .map((f) => ({ path: f.path, code: 'unsafe_output' as const, message: `${f.category}: ${f.rule} at ${f.start}..${f.end} (${f.excerpt})` }));
  return new ToolResultError('unsafe_output', `${what} was rejected by the safety screen (${report.rejected_categories.join(', ')})`, issues);
}

/** Where a screened result keeps its verdict: `meta.screen`. */
export interface ScreenRecord {
  verdict: ScreenReport['verdict'];
  rejected_categories: ScreenCategory[];
  findings: ScreenReport['findings'];
}

/** The screen record a result carries (`meta.screen`), if it was screened. */
export function screenRecordOf(result: { meta?: Record<string, unknown> | null }): ScreenRecord | undefined {
  const record = result.meta?.screen as ScreenRecord | undefined;
  return record && (record.verdict === 'accept' || record.verdict === 'reject') ? record : undefined;
}

/**
 * A screened result: accepted, it gains `meta.screen`; rejected, it becomes
 * status `security_violation` with `error_code` `UNSAFE_OUTPUT`, its secrets
 * redacted, and the findings kept in `meta.screen`.
 */
export function applyScreen<R extends { status: string; meta?: Record<string, unknown> | null; error_message?: string | null; error_code?: string | null }>(
  result: R,
  report: ScreenReport,
): R {
  const record: ScreenRecord = { verdict: report.verdict, rejected_categories: report.rejected_categories, findings: report.findings };
  if (report.verdict === 'accept') return { ...result, meta: { ...(result.meta ?? {}), screen: record } };
  const reasons = report.findings
    .filter((f) => f.action === 'reject')
    .slice(0, 5)
    .map((f) => `${f.category} (${f.rule}${f.path ? ` at ${f.path}` : ''})`);
  const redacted = redactSecrets(result);
  return {
    ...redacted,
    status: 'security_violation',
    error_code: 'UNSAFE_OUTPUT',
    error_message: `The safety screen rejected this result: ${reasons.join('; ')}. Its output is untrusted and must not be acted on.`,
    meta: { ...(redacted.meta ?? {}), screen: record },
  };
}

/** What a store does with the screen: nothing, screen every put, or require a screened result. */
export type StoreScreenMode = 'off' | 'reject' | 'require';

/** Counts a store keeps of its screen (part of `metrics()`). */
export interface StoreScreenMetrics {
  mode: StoreScreenMode;
  screened: number;
  accepted: number;
  rejected: number;
  unscreened_refused: number;
  rejected_by_category: Record<ScreenCategory, number>;
}

/**
 * A store's screen policy (docs/screen.md §7): `reject` screens every result
 * and refuses those the screen rejects (`unsafe_output`); `require` refuses
 * results that carry no screen record (`unscreened_result`) or whose record
 * rejects them, unless they are already `security_violation` records.
 */
export class ScreenGate {
  readonly mode: StoreScreenMode;
  readonly options: ScreenOptions | undefined;
  readonly counts: StoreScreenMetrics;

  constructor(mode: StoreScreenMode = 'off', options?: ScreenOptions) {
    if (!['off', 'reject', 'require'].includes(mode)) {
      throw new ToolResultError('invalid_options', `screen must be 'off', 'reject' or 'require', got ${quoteText(mode)}`);
    }
    this.mode = mode;
    this.options = options;
    const zero = Object.fromEntries(SCREEN_CATEGORIES.map((c) => [c, 0])) as Record<ScreenCategory, number>;
    this.counts = { mode, screened: 0, accepted: 0, rejected: 0, unscreened_refused: 0, rejected_by_category: zero };
  }

  /**
   * Decides on a result before it is stored: returns the report when it
   * screened, throws `unsafe_output` or `unscreened_result` when refused.
   * `emit` announces `screened` and `rejected`.
   */
  admit(result: ToolResult, emit: (type: 'screened' | 'rejected', detail: ScreenEventDetail) => void): ScreenReport | undefined {
    if (this.mode === 'off') return undefined;
    const base = { execution_id: result.metadata.execution_id, tool_name: result.input.tool_name };
    if (this.mode === 'require') {
      const record = screenRecordOf(result);
      if (!record) {
        this.counts.unscreened_refused++;
        emit('rejected', { ...base, reason: 'unscreened' });
        throw new ToolResultError(
          'unscreened_result',
          'this store requires screened results (ToolRegistry.checkResult with screen: true, or applyScreen from toolresult/screen)',
        );
      }
      if (record.verdict === 'reject' && result.status !== 'security_violation') {
        this.#count(record.rejected_categories);
        emit('rejected', { ...base, reason: 'unsafe', report: { ...record, findings_truncated: false } });
        throw screenError({ ...record, findings_truncated: false });
      }
      return undefined;
    }
    const report = screen(result, { ...this.options, tool_name: this.options?.tool_name ?? result.input.tool_name });
    this.counts.screened++;
    emit('screened', { ...base, report });
    if (report.verdict === 'reject') {
      this.#count(report.rejected_categories);
      emit('rejected', { ...base, reason: 'unsafe', report });
      throw screenError(report);
    }
    this.counts.accepted++;
    return report;
  }

  #count(categories: ScreenCategory[]): void {
    this.counts.rejected++;
    for (const c of categories) this.counts.rejected_by_category[c]++;
  }
}

/** `detail` of a store's `screened` and `rejected` events. */
export interface ScreenEventDetail {
  execution_id: string;
  tool_name: string;
  /** `rejected` only: why. */
  reason?: 'unsafe' | 'unscreened';
  report?: ScreenReport;
}
