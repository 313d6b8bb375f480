// The result service (docs/guide/service.md): validate, store and read tool
// results under a tier. A tier decides where results live (the session or a
// persistent store), how long history is served, how far a result is checked
// and whether side effects are kept. What a tier does not include is a soft
// gate: the result is still validated and kept, and the report (and, where
// the result itself changes, the result) says what was left out and why, with
// the `license_required` status code (docs/spec.md §3).
import { statusInfo, validateToolResult } from './api.js';
import { auditFailed, auditOption, storedRecord } from './audit/hooks.js';
import type { AuditAction, AuditLog, AuditRecord, SyncAuditLog } from './audit/log.js';
import { ToolResultError, briefText, quoteJson, quoteText } from './errors.js';
import type { Eviction, HistoryQuery, Issue, PutReport, SchemaIssue, ScreenOptions, ToolDefinition, ToolResult } from './generated/types.js';
import { type CompiledSchema, compileSchema, ToolRegistry } from './schema.js';
import { applyScreen, screen, screenError } from './screen.js';
import { ResultStore, type ResultStoreEventMap, type ResultStoreEventType, type ResultStoreMetrics } from './stores/memory.js';

/** How far `store` checks a result: each level includes the ones before it. */
export type ValidationLevel = 'basic' | 'advanced' | 'full';

/**
 * What a tier includes (docs/guide/service.md, "Tiers"). The four built-in
 * ones are {@link TIERS}; any object of this shape is a custom tier.
 */
export interface TierPolicy {
  /** Shown in reports and in what the tier gated (a custom policy without one: `custom`). */
  readonly name: string;
  /** Results go to the service's `store` (else they are kept for the session only). */
  readonly persistence: boolean;
  /**
   * History is served for this long, counted from a result's `started_at`
   * (as the stores' `maxAgeMs`); `null`: no limit from the tier.
   */
  readonly retentionMs: number | null;
  /** `basic`: the envelope; `advanced`: + the tool's output schema; `full`: + the safety screen. */
  readonly validation: ValidationLevel;
  /** Side effects are kept with the result (else dropped, and the result says so). */
  readonly sideEffects: boolean;
}

/** The built-in tiers' names. */
export type TierName = 'core' | 'writer_pro' | 'teams' | 'enterprise';

const DAY_MS = 24 * 60 * 60 * 1000;

const tier = (policy: TierPolicy): TierPolicy => Object.freeze(policy);

/**
 * The built-in tiers (docs/guide/service.md): `core` keeps results in memory
 * for the session, checks the envelope and drops side effects; `writer_pro`
 * persists them for 7 days with side effects; `teams` for 30 days and checks
 * outputs against the tool's output schema; `enterprise` has no retention
 * limit of its own (give `retentionMs` in a custom policy) and screens every
 * result too.
 */
export const TIERS: Readonly<Record<TierName, TierPolicy>> = Object.freeze({
  core: tier({ name: 'core', persistence: false, retentionMs: null, validation: 'basic', sideEffects: false }),
  writer_pro: tier({ name: 'writer_pro', persistence: true, retentionMs: 7 * DAY_MS, validation: 'basic', sideEffects: true }),
  teams: tier({ name: 'teams', persistence: true, retentionMs: 30 * DAY_MS, validation: 'advanced', sideEffects: true }),
  enterprise: tier({ name: 'enterprise', persistence: true, retentionMs: null, validation: 'full', sideEffects: true }),
});

const LEVELS: readonly ValidationLevel[] = ['basic', 'advanced', 'full'];

/**
 * The store a service persists to: any of `ResultStore`, `FileResultStore`
 * (`toolresult/node`), the IndexedDB store (`toolresult/web`) and
 * `PostgresResultStore` (`toolresult/postgres`); sync or async.
 */
export interface ServiceStore {
  put(result: ToolResult, options: { dialogId?: string; summary?: string }): PutReport | Promise<PutReport>;
  get(executionId: string): ToolResult | undefined | Promise<ToolResult | undefined>;
  history(toolName: string, query?: HistoryQuery): ToolResult[] | Promise<ToolResult[]>;
  on(type: never, listener: never): () => void;
  metrics(): ResultStoreMetrics | Promise<ResultStoreMetrics>;
}

/**
 * What `store` does with a result the safety screen rejects: `reject` refuses
 * it (`unsafe_output`, nothing stored); `quarantine` stores it as a
 * `security_violation` record, secrets redacted (docs/screen.md §7).
 */
export type ServiceScreenMode = 'off' | 'reject' | 'quarantine';

/** Options of {@link createResultService}. */
export interface ResultServiceOptions {
  /** A built-in tier's name or a {@link TierPolicy} (`name` defaults to `custom`, `retentionMs` to `null`). */
  tier: TierName | (Omit<TierPolicy, 'name' | 'retentionMs'> & { readonly name?: string; readonly retentionMs?: number | null });
  /** Where results persist; required when the tier persists. A tier without persistence never writes to it. */
  store?: ServiceStore;
  /** The tools' definitions: `store` checks outputs against them (validation `advanced` and above). */
  registry?: ToolRegistry;
  /** Receives `validation_failed`, `rejected` and `quarantined` entries (the stores append their own). */
  audit?: AuditLog;
  /** The safety screen on `store`: default `off`, or `quarantine` at validation level `full`. */
  screen?: ServiceScreenMode;
  /** Options of the screen (docs/screen.md §2). */
  screenOptions?: ScreenOptions;
  /** The clock for retention (ms since the epoch). Default `Date.now`. */
  now?: () => number;
  /** The dialog of results stored without one (the file store files results by dialog). */
  dialogId?: string;
}

/** What `validate` returns: the specification's `{ isValid, errorMessage }`, and the issues behind it. */
export interface ResultValidation {
  isValid: boolean;
  /** `null` when valid; else what failed, each mismatch with the JSON Pointer of its field. */
  errorMessage: string | null;
  issues: (Issue | SchemaIssue)[];
}

/** Something the tier does not include, left out of one `store` call. */
export interface TierGate {
  feature: 'persistence' | 'side_effects' | 'output_schema';
  /** Always `license_required`, with its code (11, docs/spec.md §3). */
  status: 'license_required';
  code: number;
  tier: string;
  message: string;
}

/** What `store` did. */
export interface ResultServiceReport {
  /** The result as kept: checked, maybe `output_validation_failed` or a quarantine record, side effects maybe dropped. */
  result: ToolResult;
  /** False when the same result was already kept (storing is idempotent). */
  stored: boolean;
  /** Written to the persistent store (else kept for the session only). */
  persisted: boolean;
  /** The output check's verdict (valid when the check did not run: see `gated`). */
  validation: ResultValidation;
  /** What the tier left out, each with the `license_required` status. */
  gated: TierGate[];
  /** Results the store's own retention removed on this put. */
  evicted: Eviction[];
}

/** The operations of the ToolResult specification's result service. */
export interface ResultService {
  /** The tier in force (frozen). */
  readonly tier: TierPolicy;
  /**
   * Checks a result's output against a tool definition's output schema. A
   * result that failed or has no output is valid, as is any result of a tool
   * without an output schema. Never throws for the result; a definition that
   * is not one throws (`invalid_definition`, `invalid_schema`).
   */
  validate(result: ToolResult | string, definition: ToolDefinition | { name: string; outputSchema?: unknown }): ResultValidation;
  /** Checks the result as the tier says and keeps it: persisted, or for the session. */
  store(result: ToolResult | string, options?: { dialogId?: string; summary?: string }): Promise<ResultServiceReport>;
  /** A kept result by execution id; `undefined` when unknown or past the tier's retention. */
  getByExecutionId(executionId: string): Promise<ToolResult | undefined>;
  /** A tool's results, newest first, at most `limit` (1 to 10,000), within the tier's retention. */
  getHistory(toolName: string, limit?: number): Promise<ToolResult[]>;
  /** The store's events (`stored`, `validation_failed`, `truncated`, `evicted`, ...): of the persistent store, or the session's. */
  on<K extends ResultStoreEventType>(type: K, listener: (event: Event & { detail: ResultStoreEventMap[K] }) => void): () => void;
  /** The store's counters and output-size histogram. */
  metrics(): Promise<ResultStoreMetrics>;
}

// ---------------------------------------------------------------------------
// Options

const OPTION_KEYS = ['tier', 'store', 'registry', 'audit', 'screen', 'screenOptions', 'now', 'dialogId'];
const POLICY_KEYS = ['name', 'persistence', 'retentionMs', 'validation', 'sideEffects'];
const SCREEN_MODES: readonly ServiceScreenMode[] = ['off', 'reject', 'quarantine'];

function badOption(path: string, message: string): ToolResultError {
  return new ToolResultError('invalid_options', `invalid result service options: ${message}`, [{ path, code: 'invalid_options', message }]);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function unknownKeys(value: Record<string, unknown>, known: readonly string[], at: string, what: string): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw badOption(`${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, `unknown ${what} ${quoteText(key, '`')}: expected one of ${known.join(', ')}`);
    }
  }
}

function policyOf(value: unknown): TierPolicy {
  if (typeof value === 'string') {
    if (!Object.hasOwn(TIERS, value)) {
      throw badOption('/tier', `unknown tier ${quoteJson(value)}: use ${Object.keys(TIERS).join(', ')} or a TierPolicy object`);
    }
    return TIERS[value as TierName];
  }
  if (!isObject(value)) {
    throw badOption(
      '/tier',
      `tier must be a tier name or a TierPolicy object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  unknownKeys(value, POLICY_KEYS, '/tier', 'tier field');
  const { name = 'custom', persistence, retentionMs = null, validation, sideEffects } = value;
  if (typeof name !== 'string' || name === '') throw badOption('/tier/name', `name must be a non-empty string, got ${quoteJson(name)}`);
  if (typeof persistence !== 'boolean') throw badOption('/tier/persistence', `persistence must be true or false, got ${quoteJson(persistence)}`);
  if (typeof sideEffects !== 'boolean') throw badOption('/tier/sideEffects', `sideEffects must be true or false, got ${quoteJson(sideEffects)}`);
  if (!LEVELS.includes(validation as ValidationLevel)) {
    throw badOption('/tier/validation', `validation must be ${LEVELS.join(', ')}, got ${quoteJson(validation)}`);
  }
  if (retentionMs !== null && !(Number.isSafeInteger(retentionMs) && (retentionMs as number) > 0)) {
    throw badOption('/tier/retentionMs', `retentionMs must be a whole number of milliseconds > 0, or null, got ${quoteJson(retentionMs)}`);
  }
  return tier({ name, persistence, retentionMs: retentionMs as number | null, validation: validation as ValidationLevel, sideEffects });
}

const STORE_METHODS = ['put', 'get', 'history', 'on', 'metrics'];

function checkOptions(options: unknown): { policy: TierPolicy; options: ResultServiceOptions } {
  if (!isObject(options)) throw badOption('', 'createResultService takes an options object with at least `tier`');
  unknownKeys(options, OPTION_KEYS, '', 'option');
  if (!Object.hasOwn(options, 'tier')) throw badOption('/tier', 'tier is required: core, writer_pro, teams, enterprise or a TierPolicy object');
  const policy = policyOf(options.tier);
  // A copy: changing the caller's object later changes nothing here.
  const o = { ...options } as unknown as ResultServiceOptions;
  if (o.store !== undefined) {
    const missing = STORE_METHODS.filter((m) => typeof (o.store as unknown as Record<string, unknown>)?.[m] !== 'function');
    if (missing.length) throw badOption('/store', `store must be a result store (put, get, history, on, metrics); missing ${missing.join(', ')}`);
  } else if (policy.persistence) {
    throw badOption('/store', `tier ${policy.name} persists results: give a store (ResultStore, FileResultStore, PostgresResultStore, ...)`);
  }
  if (o.registry !== undefined && !(o.registry instanceof ToolRegistry)) throw badOption('/registry', 'registry must be a ToolRegistry');
  auditOption(o.audit, 'createResultService', false);
  if (o.screen !== undefined && !SCREEN_MODES.includes(o.screen)) {
    throw badOption('/screen', `screen must be ${SCREEN_MODES.join(', ')}, got ${quoteJson(o.screen)}`);
  }
  if (o.screenOptions !== undefined) {
    if (!isObject(o.screenOptions)) throw badOption('/screenOptions', 'screenOptions must be an object');
    if (screenMode(o, policy) === 'off')
      throw badOption('/screenOptions', `screenOptions has no effect: screen is off (tier ${policy.name} validates ${policy.validation})`);
  }
  if (o.now !== undefined && typeof o.now !== 'function') throw badOption('/now', 'now must be a function returning milliseconds since the epoch');
  if (o.dialogId !== undefined && (typeof o.dialogId !== 'string' || o.dialogId === '')) throw badOption('/dialogId', 'dialogId must be a non-empty string');
  return { policy, options: o };
}

/** The screen a service runs: the option, else `quarantine` at level `full`, else none. */
function screenMode(o: ResultServiceOptions, policy: TierPolicy): ServiceScreenMode {
  return o.screen ?? (policy.validation === 'full' ? 'quarantine' : 'off');
}

// ---------------------------------------------------------------------------
// The service

const valid = (): ResultValidation => ({ isValid: true, errorMessage: null, issues: [] });

/** At most this many issues are spelled out in an `errorMessage`; the rest are counted. */
const MESSAGE_ISSUES = 5;

function invalid(what: string, issues: (Issue | SchemaIssue)[]): ResultValidation {
  const listed = issues.slice(0, MESSAGE_ISSUES).map((i) => `${i.path ? briefText(i.path) : '(root)'}: ${i.message}`);
  if (issues.length > MESSAGE_ISSUES) listed.push(`and ${issues.length - MESSAGE_ISSUES} more`);
  return { isValid: false, errorMessage: `${what}: ${listed.join('; ')}`, issues };
}

/** 0001-01-01T00:00:00Z, the earliest RFC 3339 time. */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z');

/** Compiled output schemas of `validate`, by schema text; the oldest goes first past this many. */
const MAX_CACHED_SCHEMAS = 64;

class Service implements ResultService {
  readonly tier: TierPolicy;
  readonly #options: ResultServiceOptions;
  readonly #now: () => number;
  readonly #screen: ServiceScreenMode;
  /** Where results are kept: the persistent store, or the session's. */
  readonly #target: ServiceStore;
  readonly #schemas = new Map<string, CompiledSchema>();
  #licenseCode: number | undefined;
  /** Who appends the session store's `stored` entries. */
  #sessionAudit: 'none' | 'store' | 'service' = 'none';

  constructor(policy: TierPolicy, options: ResultServiceOptions) {
    this.tier = policy;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#screen = screenMode(options, policy);
    if (policy.persistence) {
      this.#target = options.store!;
    } else {
      // The session store appends its own `stored` entries when the log can keep up with a synchronous put;
      // with an asynchronous log the service appends them (#put).
      const log = options.audit as Partial<SyncAuditLog> | undefined;
      this.#sessionAudit = typeof log?.appendSync === 'function' ? 'store' : log ? 'service' : 'none';
      const audit = this.#sessionAudit === 'store' ? (log as SyncAuditLog) : undefined;
      this.#target = new ResultStore({ now: this.#now, audit }) as unknown as ServiceStore;
    }
  }

  validate(result: ToolResult | string, definition: ToolDefinition | { name: string; outputSchema?: unknown }): ResultValidation {
    if (!isObject(definition)) {
      throw new ToolResultError('invalid_definition', 'validate(result, definition) takes a tool definition object');
    }
    const parsed = validateToolResult(result);
    if (!parsed.ok) return invalid('Invalid ToolResult', parsed.issues);
    const value = parsed.value;
    // A failed or output-less result has nothing to check (the specification's rule).
    if (value.status !== 'success' || value.output === undefined || value.output === null) return valid();
    const schema = (definition as ToolDefinition).output_schema ?? (definition as { outputSchema?: unknown }).outputSchema;
    if (schema === undefined || schema === null) return valid();
    const issues = this.#compiled(schema).validate(value.output);
    // Paths point into the output, as in an output_validation_failed result's error_message (docs/spec.md §7).
    return issues.length === 0 ? valid() : invalid('Output validation failed', issues);
  }

  #compiled(schema: unknown): CompiledSchema {
    const key = JSON.stringify(schema);
    let compiled = this.#schemas.get(key);
    if (compiled) return compiled;
    compiled = compileSchema(schema);
    if (this.#schemas.size >= MAX_CACHED_SCHEMAS) {
      const oldest = this.#schemas.keys().next().value as string;
      this.#schemas.get(oldest)?.free();
      this.#schemas.delete(oldest);
    }
    this.#schemas.set(key, compiled);
    return compiled;
  }

  #gate(feature: TierGate['feature'], message: string): TierGate {
    // Every tool status has a code (docs/spec.md §3); license_required's is 11.
    this.#licenseCode ??= statusInfo('license_required', 'tool').code as number;
    return { feature, status: 'license_required', code: this.#licenseCode, tier: this.tier.name, message };
  }

  async store(result: ToolResult | string, options: { dialogId?: string; summary?: string } = {}): Promise<ResultServiceReport> {
    if (!isObject(options)) throw badOption('', 'store options must be an object');
    unknownKeys(options, ['dialogId', 'summary'], '', 'store option');
    const dialogId = options.dialogId ?? this.#options.dialogId;
    // Basic: the envelope (shape, the rules of docs/spec.md §4, the limits of §9).
    const parsed = validateToolResult(result);
    if (!parsed.ok) throw new ToolResultError('invalid_tool_result', 'invalid ToolResult', parsed.issues);
    let value = parsed.value;
    const gated: TierGate[] = [];
    let validation = valid();
    let validationFailed = false;

    // Advanced: the output against the tool's output schema, as the registry knows it.
    const registry = this.#options.registry;
    const tool = value.input.tool_name;
    if (registry?.has(tool)) {
      const definition = registry.get(tool);
      // As `validate`: a failed or output-less result has nothing to check.
      const checkable =
        definition?.output_schema !== undefined &&
        definition.output_schema !== null &&
        value.status === 'success' &&
        value.output !== undefined &&
        value.output !== null;
      if (checkable && this.tier.validation === 'basic') {
        gated.push(
          this.#gate(
            'output_schema',
            `the output was not checked against ${tool}'s output schema: tier ${this.tier.name} validates basic (advanced or full checks it)`,
          ),
        );
      } else if (checkable) {
        // The registry's own schema options (registered documents) apply.
        const report = registry.validateOutput(tool, value.output);
        if (!report.ok) {
          // The specification's flow: the result is kept, as output_validation_failed with the issues.
          value = registry.checkResult(value);
          validationFailed = true;
          validation = invalid('Output validation failed', report.issues);
        }
      }
    }

    // Side effects are kept only where the tier tracks them; dropping them is written on the result.
    const sideEffects = value.side_effects?.length ?? 0;
    if (!this.tier.sideEffects && sideEffects > 0) {
      const gate = this.#gate('side_effects', `${sideEffects} side effect(s) dropped: tier ${this.tier.name} does not track side effects`);
      gated.push(gate);
      const { side_effects: _dropped, ...rest } = value;
      value = {
        ...rest,
        meta: { ...(value.meta ?? {}), gated: { tier: gate.tier, status: gate.status, code: gate.code, side_effects_dropped: sideEffects } },
      };
    }

    // Full (or an explicit `screen`): the safety screen.
    const audit: AuditAction[] = validationFailed ? ['validation_failed'] : [];
    if (this.#screen !== 'off') {
      const screenOptions = this.#options.screenOptions;
      const report = screen(value, { ...screenOptions, tool_name: screenOptions?.tool_name ?? tool });
      if (report.verdict === 'reject') {
        if (this.#screen === 'reject') {
          try {
            await this.#options.audit?.append(this.#record('rejected', value, dialogId));
          } catch (e) {
            throw auditFailed('the result was rejected by the safety screen and not stored', e);
          }
          throw screenError(report);
        }
        audit.push('quarantined');
      }
      value = applyScreen(value, report);
    }

    if (this.#options.store && !this.tier.persistence) {
      gated.push(this.#gate('persistence', `kept for this session only: tier ${this.tier.name} does not persist results`));
    }
    const put = await this.#target.put(value, { dialogId, summary: options.summary });
    // Recorded once, when the result is first kept: storing it again is a no-op.
    if (put.stored) {
      const records = audit.map((action) => this.#record(action, value, dialogId));
      if (this.#sessionAudit === 'service') records.unshift(storedRecord({ ...this.#ids(value), dialog_id: dialogId }));
      try {
        for (const record of records) await this.#options.audit?.append(record);
      } catch (e) {
        throw auditFailed('the result is stored', e);
      }
    }
    return { result: value, stored: put.stored, persisted: this.tier.persistence, validation, gated, evicted: put.evicted };
  }

  #ids(result: ToolResult): { execution_id: string; tool_call_id: string } {
    // A result without a tool_call_id is filed under its execution id, as the stores do.
    return { execution_id: result.metadata.execution_id, tool_call_id: result.input.tool_call_id ?? result.metadata.execution_id };
  }

  #record(action: AuditAction, result: ToolResult, dialogId: string | undefined): AuditRecord {
    const record: AuditRecord = { action, ...this.#ids(result) };
    if (dialogId !== undefined) record.dialog_id = dialogId;
    return record;
  }

  /** The oldest `started_at` (ms) the tier still serves, or undefined without a limit. */
  #cutoff(): number | undefined {
    if (this.tier.retentionMs === null) return undefined;
    const cutoff = this.#now() - this.tier.retentionMs;
    // Before year 1 nothing can have started (RFC 3339 has no earlier time): no limit.
    return cutoff < EARLIEST_MS ? undefined : cutoff;
  }

  async getByExecutionId(executionId: string): Promise<ToolResult | undefined> {
    if (typeof executionId !== 'string') throw badOption('/executionId', `executionId must be a string, got ${typeof executionId}`);
    const found = await this.#target.get(executionId);
    const cutoff = this.#cutoff();
    if (found === undefined || cutoff === undefined) return found;
    return Date.parse(found.metadata.started_at) >= cutoff ? found : undefined;
  }

  async getHistory(toolName: string, limit = 100): Promise<ToolResult[]> {
    if (typeof toolName !== 'string') throw badOption('/toolName', `toolName must be a string, got ${typeof toolName}`);
    const cutoff = this.#cutoff();
    const query: HistoryQuery = { limit };
    if (cutoff !== undefined) query.since = new Date(cutoff).toISOString();
    return this.#target.history(toolName, query);
  }

  on<K extends ResultStoreEventType>(type: K, listener: (event: Event & { detail: ResultStoreEventMap[K] }) => void): () => void {
    return (this.#target.on as (type: K, listener: unknown) => () => void)(type, listener);
  }

  async metrics(): Promise<ResultStoreMetrics> {
    return this.#target.metrics();
  }
}

/**
 * A result service under a tier (docs/guide/service.md): `validate`,
 * `store`, `getByExecutionId`, `getHistory`, and the store's events and
 * metrics. Throws `invalid_options` (with the option's JSON Pointer) for an
 * unknown option, an unknown tier or an ill-formed policy, a persistent tier
 * without a store, or screen options with the screen off.
 */
export function createResultService(options: ResultServiceOptions): ResultService {
  const checked = checkOptions(options);
  return new Service(checked.policy, checked.options);
}
