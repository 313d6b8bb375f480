// `toolresult/postgres`: one result store shared by every node of an
// orchestrator fleet, on PostgreSQL through node-postgres (`pg`, a peer
// dependency). Same contract as the in-memory ResultStore (docs/integrations/postgres.md,
// "Guarantees"): immutable results, idempotent `put`, `store_conflict`
// decided by the database's unique indexes (never by a read-then-write race),
// history newest first, per-dialog listing, retention with every eviction
// reported, metrics, and events that reach every node through LISTEN/NOTIFY.
import { createHash, randomUUID } from 'node:crypto';
// The entry installs the wasm modules: this entry may be the first one loaded.
import '../index.js';
import { validateToolResult } from '../api.js';
import { ToolResultError, unwrapOutcome, refuseSnakeCaseOptions, refuseUnknownOptions } from '../errors.js';
import type {
  Eviction,
  EvictionReason,
  HistoryBounds,
  HistoryQuery,
  Issue,
  PutReport,
  RetentionPolicy,
  SchemaIssue,
  StoreEntry,
  StoreMetrics,
  StoredMeta,
  ToolResult,
  ToolStatus,
} from '../generated/types.js';
import { customSummary } from '../summary.js';
import { agentModule } from '../runtime.js';
import type { ResultStoreEventMap } from './memory.js';
import {
  type EncryptionOptions,
  Keyring,
  type Listing,
  type SkippedRecord,
  clearFieldChanged,
  clearFieldMismatch,
  encryptionRequired,
  fromSealedBytes,
  listing,
  metaContext,
  resultContext,
  rewrapIncomplete,
  rewrapNeedsEncryption,
  sealedBytes,
  skippedCode,
} from './encryption.js';
import { jsonText } from '../wire.js';
import { toolExecutionResultsView } from './postgres-view.js';
import { auditFailed, auditOption, evictedRecord, storedRecord } from '../audit/hooks.js';
import type { AuditLog, AuditRecord } from '../audit/log.js';
import { type AppendInTransaction, auditInTransaction } from './postgres-audit.js';
import { isTransientPgError, retryTransient, withPooledClient, withTransaction } from './pg-client.js';

// ---------------------------------------------------------------------------
// The parts of node-postgres the store uses. Structural, so the declarations
// need no `@types/pg`; a `pg.Pool` satisfies them.

/** What a query returns (a subset of pg's `QueryResult`). */
export interface PgQueryResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** A connection checked out of the pool (a subset of pg's `PoolClient`). */
export interface PgPoolClient {
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
  release(destroy?: boolean | Error): void;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(event?: string): unknown;
}

/** A connection pool (a subset of pg's `Pool`). */
export interface PgPool {
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'connect', listener: (client: PgPoolClient) => void): unknown;
}

/** Options of {@link PostgresResultStore.open}. */
export interface PostgresStoreOptions {
  /** A `pg.Pool` (the store never ends it), or ... */
  pool?: PgPool;
  /** ... pg's connection options or URL: the store makes a pool and ends it on `close()`. */
  connection?: string | Record<string, unknown>;
  /** The PostgreSQL schema holding the tables (created if missing). Default `public`. */
  schema?: string;
  /** How much the store keeps (as `ResultStore`); enforced on every put, across nodes. */
  retention?: RetentionPolicy;
  /** Run the migrations on open (default true). With `false`, open checks the schema is current. */
  migrate?: boolean;
  /** Receive other nodes' `stored` and `evicted` events through LISTEN/NOTIFY (default true; holds one pooled connection). */
  listen?: boolean;
  /** Retries of an operation that failed because the connection or server went away (default 8; backoff doubles from 50 ms to 2 s). */
  retries?: number;
  /** The clock for age retention (ms since the epoch). */
  now?: () => number;
  /**
   * Encrypt each result, and its summary and preview, at rest (AES-256-GCM;
   * docs/guide/storage.md, "Encryption at rest"). Clear rows written before
   * stay readable; `rewrap()` encrypts them.
   */
  encryption?: EncryptionOptions;
  /**
   * An audit log: a `stored` entry per result stored, an `evicted` one per
   * eviction. A `PostgresAuditLog` on this same `pool` appends them inside
   * the write's transaction (both commit, or neither); any other log after
   * COMMIT (docs/guide/storage.md, "Audit trail").
   */
  audit?: AuditLog;
}

/** What `open` takes; any other key is refused. */
const STORE_OPTIONS = ['pool', 'connection', 'schema', 'retention', 'migrate', 'listen', 'retries', 'now', 'encryption', 'audit'] as const;

/** What each event's `detail` holds: the ResultStore events, plus the store's own. */
export interface PostgresStoreEventMap extends ResultStoreEventMap {
  /** A row that failed validation on read; it is never returned as a result. */
  corrupt_row: { execution_id: string; issues: Issue[] };
  /** The LISTEN connection failed; the store reconnects by itself. */
  connection_error: { message: string; code?: string };
  /** A row a read could not decrypt (its key not given, failing authentication, or read without `encryption`); it stays stored. */
  unreadable: SkippedRecord;
}
export type PostgresStoreEventType = keyof PostgresStoreEventMap;

/** An event of a PostgresResultStore. `remote` is true when another node (another store object) caused it. */
export class PostgresStoreEvent<K extends PostgresStoreEventType = PostgresStoreEventType> extends Event {
  readonly detail: PostgresStoreEventMap[K];
  readonly remote: boolean;
  constructor(type: K, detail: PostgresStoreEventMap[K], remote = false) {
    super(type);
    this.detail = detail;
    this.remote = remote;
  }
}

/** What `putMany` did with each result, in order, and what retention removed. */
export interface PutManyReport {
  results: ({ ok: true; value: PutReport } | { ok: false; error: ToolResultError })[];
  evicted: Eviction[];
}

export { PostgresAuditLog, POSTGRES_AUDIT_SCHEMA_VERSION } from './postgres-audit.js';
export type { PostgresAuditLogOptions } from './postgres-audit.js';
export type { EncryptionOptions, Listing, SkippedCode, SkippedRecord } from './encryption.js';

/** The migrations, in order. A database at a higher version than this list is refused. */
const MIGRATIONS: { version: number; description: string; sql: (s: string) => string }[] = [
  {
    version: 1,
    description: 'results, evictions and their indexes',
    sql: (s) => `
CREATE TABLE ${s}.toolresult_results (
  seq bigserial PRIMARY KEY,
  execution_id text NOT NULL UNIQUE,
  tool_call_id text NOT NULL UNIQUE,
  dialog_id text,
  tool_name text NOT NULL,
  status text NOT NULL,
  started_at text NOT NULL,
  started_ms bigint NOT NULL,
  size_bytes bigint NOT NULL,
  stored_bytes bigint NOT NULL,
  output_truncated boolean NOT NULL,
  side_effects integer NOT NULL,
  size_bucket smallint NOT NULL,
  summary text NOT NULL,
  preview text NOT NULL,
  sha256 char(64) NOT NULL,
  result jsonb NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX toolresult_results_history ON ${s}.toolresult_results (tool_name, started_ms DESC, seq DESC);
CREATE INDEX toolresult_results_history_status ON ${s}.toolresult_results (tool_name, status, started_ms DESC, seq DESC);
CREATE INDEX toolresult_results_dialog ON ${s}.toolresult_results (dialog_id, seq) WHERE dialog_id IS NOT NULL;
CREATE INDEX toolresult_results_started ON ${s}.toolresult_results (started_ms);
CREATE TABLE ${s}.toolresult_evictions (
  id bigserial PRIMARY KEY,
  seq bigint NOT NULL,
  execution_id text NOT NULL,
  tool_call_id text NOT NULL,
  dialog_id text,
  tool_name text NOT NULL,
  status text NOT NULL,
  started_at text NOT NULL,
  size_bytes bigint NOT NULL,
  stored_bytes bigint NOT NULL,
  output_truncated boolean NOT NULL,
  side_effects integer NOT NULL,
  size_bucket smallint NOT NULL,
  summary text NOT NULL,
  preview text NOT NULL,
  reason text NOT NULL,
  evicted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX toolresult_evictions_execution ON ${s}.toolresult_evictions (execution_id);
`,
  },
  {
    version: 2,
    description: 'encryption at rest: key_id, sealed and sealed_meta',
    // An encrypted row (key_id set) holds its result and its summary and
    // preview only as AES-256-GCM ciphertext (docs/guide/storage.md,
    // "Encryption at rest"); a clear row only in the clear. NOT VALID: every
    // row written before this version is clear, so none needs checking.
    sql: (s) => `
ALTER TABLE ${s}.toolresult_results
  ADD COLUMN key_id text,
  ADD COLUMN sealed bytea,
  ADD COLUMN sealed_meta bytea,
  ALTER COLUMN result DROP NOT NULL,
  ALTER COLUMN summary DROP NOT NULL,
  ALTER COLUMN preview DROP NOT NULL;
ALTER TABLE ${s}.toolresult_results ADD CONSTRAINT toolresult_results_sealed CHECK (
  CASE WHEN key_id IS NULL THEN sealed IS NULL AND sealed_meta IS NULL AND result IS NOT NULL AND summary IS NOT NULL AND preview IS NOT NULL
       ELSE sealed IS NOT NULL AND sealed_meta IS NOT NULL AND result IS NULL AND summary IS NULL AND preview IS NULL END) NOT VALID;
ALTER TABLE ${s}.toolresult_evictions ALTER COLUMN summary DROP NOT NULL, ALTER COLUMN preview DROP NOT NULL;
`,
  },
  {
    version: 3,
    description: 'the view tool_execution_results (the ToolResult specification table)',
    sql: toolExecutionResultsView,
  },
];

/** The schema version this code reads and writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const META_COLUMNS = 'execution_id, tool_call_id, dialog_id, tool_name, status, started_at, size_bytes, stored_bytes, output_truncated, summary, preview';

function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new ToolResultError('invalid_options', `schema \`${schema}\` must be 1-63 letters, digits or '_', not starting with a digit`);
  }
  return `"${schema}"`;
}

/**
 * RFC 8785 (JCS) canonical JSON of a JSON value: keys sorted by UTF-16 code
 * units, numbers and strings as ECMAScript writes them. PostgreSQL's jsonb
 * keeps neither key order nor number spelling, so the sha256 that vouches for
 * a row is taken over this form, which survives the round trip.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

const utf8 = new TextDecoder();
const byteaHex = (bytes: Uint8Array) => `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
const isSealedRow = (row: Record<string, unknown>) => row.key_id !== null && row.key_id !== undefined;
/** The ids an encrypted row's ciphertext is bound to: its own columns, so a row moved to another dialog or id fails to decrypt. */
const rowIds = (row: { execution_id?: unknown; tool_call_id?: unknown; dialog_id?: unknown }) => ({
  execution_id: row.execution_id as string,
  tool_call_id: row.tool_call_id as string,
  dialog_id: (row.dialog_id as string | null | undefined) ?? null,
});
/** What a read left out of a row: its ids, its key, and why. */
const skippedRow = (row: Record<string, unknown>, code: SkippedRecord['code']): SkippedRecord => ({
  execution_id: row.execution_id as string,
  tool_call_id: row.tool_call_id as string,
  ...(isSealedRow(row) ? { key_id: row.key_id as string } : {}),
  code,
});
/**
 * The plaintext of an encrypted row's `sealed_meta`: its summary and preview,
 * and the tool name and status it was stored with, which `listDialog` and
 * `meta` check against the clear columns (they do not decrypt the result).
 */
const sealedMetaText = (meta: StoredMeta) => JSON.stringify({ summary: meta.summary, preview: meta.preview, tool_name: meta.tool_name, status: meta.status });
/** The clear columns `get` and `history` read with a result, to decrypt it and check it against them. */
const RESULT_COLUMNS = 'execution_id, tool_call_id, dialog_id, tool_name, status, sha256, result::text AS result, key_id, sealed';

/** The first string PostgreSQL's jsonb cannot hold (it refuses U+0000), as a JSON Pointer. */
function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const p = `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (k.includes('\u0000')) return p;
    const found = findNul(v, p);
    if (found !== undefined) return found;
  }
  return undefined;
}

export { isTransientPgError };

interface Prepared {
  entry: StoreEntry;
  canonical: string;
  /** The digest the row carries: of `canonical`, or with encryption of the ciphertext. */
  sha256: string;
  /** sha256 of `canonical`: what a repeat of the same result is recognised by. */
  plainSha: string;
  result: ToolResult;
  /** With encryption: the key, `nonce ‖ ciphertext` of `canonical`, and of the summary and preview. */
  sealed?: { key_id: string; result: Uint8Array; meta: Uint8Array };
}

function metaFromRow(row: Record<string, unknown>): StoredMeta {
  // Built in the in-memory store's key order.
  const meta: StoredMeta = {
    execution_id: row.execution_id as string,
    tool_call_id: row.tool_call_id as string,
    tool_name: row.tool_name as string,
    status: row.status as ToolStatus,
  } as StoredMeta;
  if (row.dialog_id !== null && row.dialog_id !== undefined) meta.dialog_id = row.dialog_id as string;
  meta.started_at = row.started_at as string;
  meta.size_bytes = Number(row.size_bytes);
  meta.stored_bytes = Number(row.stored_bytes);
  meta.output_truncated = row.output_truncated as boolean;
  meta.summary = row.summary as string;
  meta.preview = row.preview as string;
  return meta;
}

function evictionFromRow(row: Record<string, unknown>): Eviction {
  const e: Eviction = {
    execution_id: row.execution_id as string,
    tool_call_id: row.tool_call_id as string,
    tool_name: row.tool_name as string,
    reason: row.reason as EvictionReason,
  };
  if (row.dialog_id !== null && row.dialog_id !== undefined) e.dialog_id = row.dialog_id as string;
  return e;
}

/**
 * Tool results in PostgreSQL, shared by every process that opens the same
 * database and schema. Every method is async; otherwise the contract is the
 * in-memory `ResultStore`'s: `put` (idempotent; `store_conflict` for a
 * different result under a stored execution_id or tool_call_id), `get`,
 * `getByToolCallId`, `meta`, `history`, `listDialog`, `prune`, `metrics`,
 * and events (`stored`, `validation_failed`, `truncated`, `evicted`, plus
 * `corrupt_row` and `connection_error`), including other nodes' when
 * `listen` is on. Call `close()` when done.
 */
export class PostgresResultStore extends EventTarget {
  readonly schema: string;
  readonly #q: string;
  readonly #pool: PgPool;
  readonly #ownsPool: boolean;
  readonly #retention: RetentionPolicy;
  readonly #hasRetention: boolean;
  readonly #retries: number;
  readonly #now: () => number;
  readonly #audit: AuditLog | undefined;
  /** With a PostgresAuditLog on this store's pool: entries appended inside the write's own transaction. */
  readonly #auditInTransaction: AppendInTransaction | undefined;
  readonly #origin = randomUUID();
  #keyring: Keyring | undefined;
  #listener: PgPoolClient | undefined;
  #listening = false;
  #closed = false;
  #remoteQueue: Promise<void> = Promise.resolve();
  #buckets: StoreMetrics['output_size'] | undefined;

  private constructor(pool: PgPool, ownsPool: boolean, options: PostgresStoreOptions, retention: RetentionPolicy) {
    super();
    this.schema = options.schema ?? 'public';
    this.#q = quoteSchema(this.schema);
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#retention = retention;
    this.#hasRetention = [this.#retention.maxAgeMs, this.#retention.maxCount, this.#retention.maxBytes].some((v) => v !== undefined && v !== null);
    this.#retries = options.retries ?? 8;
    this.#now = options.now ?? Date.now;
    this.#audit = options.audit;
    this.#auditInTransaction = auditInTransaction(options.audit, pool);
  }

  /**
   * Connects, migrates (unless `migrate: false`), and starts listening for
   * other nodes' events (unless `listen: false`).
   */
  static async open(options: PostgresStoreOptions): Promise<PostgresResultStore> {
    refuseUnknownOptions(options, STORE_OPTIONS, 'PostgresResultStore.open');
    if (!options || (!options.pool && !options.connection) || (options.pool && options.connection)) {
      throw new ToolResultError('invalid_options', 'give either `pool` (a pg.Pool) or `connection` (pg connection options or URL)');
    }
    // Options are checked before any connection is made.
    quoteSchema(options.schema ?? 'public');
    auditOption(options.audit, 'PostgresResultStore', false);
    const keyring = Keyring.from(options.encryption);
    const retention =
      options.retention === undefined
        ? {}
        : unwrapOutcome<RetentionPolicy>(
            agentModule.call((w) => w.retention_policy(jsonText(options.retention, 'invalid_options', 'the retention policy'))),
            'invalid_options',
            'invalid retention policy',
          );
    let pool = options.pool;
    let owns = false;
    if (!pool) {
      // The peer dependency is loaded only when the store makes the pool.
      let pg: { Pool: new (config: Record<string, unknown>) => PgPool };
      try {
        pg = require('pg') as typeof pg;
      } catch (e) {
        throw new ToolResultError(
          'missing_dependency',
          `toolresult/postgres needs node-postgres to connect: npm install pg (${(e as Error).message.split('\n')[0]})`,
        );
      }
      pool = new pg.Pool(typeof options.connection === 'string' ? { connectionString: options.connection } : options.connection!);
      owns = true;
    }
    // An idle client whose server went away emits `error` on the pool; unhandled, it would end the process.
    pool.on('error', () => {});
    // A new connection can be terminated in the same network read that
    // completes its handshake: pg then emits `error` after the pool dropped its
    // listener and before ours is attached. Every connection keeps one.
    pool.on('connect', (client) => client.on('error', () => {}));
    const store = new PostgresResultStore(pool, owns, options, retention);
    store.#keyring = keyring;
    try {
      if (options.migrate !== false) {
        await store.migrate();
      } else if ((await store.schemaVersion()) < POSTGRES_SCHEMA_VERSION) {
        throw new ToolResultError(
          'schema_outdated',
          `schema ${store.schema} is older than this package needs (${POSTGRES_SCHEMA_VERSION}): run migrate() (or open without migrate: false)`,
        );
      }
      if (options.listen !== false) await store.#listen();
    } catch (e) {
      await store.close();
      throw e;
    }
    return store;
  }

  /** On `error`-less failures (server gone), retries with backoff; everything else is thrown at once. */
  #retry<T>(f: () => Promise<T>): Promise<T> {
    return retryTransient(f, this.#retries, () => this.#closed, 'PostgresResultStore');
  }

  #withClient<T>(f: (c: PgPoolClient) => Promise<T>): Promise<T> {
    return withPooledClient(this.#pool, f);
  }

  /** One statement, retried while the connection or server is away. */
  #query(text: string, values?: unknown[]): Promise<PgQueryResult> {
    return this.#retry(() => this.#withClient((c) => c.query(text, values)));
  }

  #transaction<T>(f: (c: PgPoolClient) => Promise<T>): Promise<T> {
    return this.#retry(() => this.#withClient((c) => withTransaction(c, f)));
  }

  /** The version the schema is at (0: not migrated); a newer one than this package knows is refused. */
  async #version(query: (text: string, values?: unknown[]) => Promise<PgQueryResult>): Promise<number> {
    const exists = await query('SELECT to_regclass($1) AS t', [`${this.#q}.toolresult_migrations`]);
    const version =
      exists.rows[0].t === null ? 0 : Number((await query(`SELECT coalesce(max(version), 0) AS v FROM ${this.#q}.toolresult_migrations`)).rows[0].v);
    if (version > POSTGRES_SCHEMA_VERSION) {
      throw new ToolResultError(
        'schema_too_new',
        `schema ${this.schema} is at toolresult version ${version}, newer than this package knows (${POSTGRES_SCHEMA_VERSION}): upgrade the package; it never writes to a newer schema`,
      );
    }
    return version;
  }

  /**
   * Brings the schema to the current version; idempotent (a second run
   * changes nothing) and safe to run from many nodes at once (an advisory
   * lock serializes them). Returns the versions it applied.
   */
  async migrate(): Promise<number[]> {
    return this.#transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolresult.migrate.${this.schema}`]);
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.#q}`);
      await c.query(
        `CREATE TABLE IF NOT EXISTS ${this.#q}.toolresult_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const current = await this.#version((text, values) => c.query(text, values));
      const applied: number[] = [];
      for (const m of MIGRATIONS) {
        if (m.version <= current) continue;
        await c.query(m.sql(this.#q));
        await c.query(`INSERT INTO ${this.#q}.toolresult_migrations (version, description) VALUES ($1, $2)`, [m.version, m.description]);
        applied.push(m.version);
      }
      return applied;
    });
  }

  /** The schema version the database is at. */
  async schemaVersion(): Promise<number> {
    return this.#version((text, values) => this.#query(text, values));
  }

  // -- events ---------------------------------------------------------------

  /** Subscribes to an event; returns the function that unsubscribes. */
  on<K extends PostgresStoreEventType>(type: K, listener: (event: PostgresStoreEvent<K> & { detail: PostgresStoreEventMap[K] }) => void): () => void {
    const l = listener as unknown as EventListener;
    this.addEventListener(type, l);
    return () => this.removeEventListener(type, l);
  }

  #emit<K extends PostgresStoreEventType>(type: K, detail: PostgresStoreEventMap[K], remote = false): void {
    this.dispatchEvent(new PostgresStoreEvent(type, detail, remote));
  }

  #emitStored(meta: StoredMeta, issues: SchemaIssue[] | undefined, remote: boolean): void {
    this.#emit('stored', meta, remote);
    if (meta.status === 'output_validation_failed' || meta.status === 'validation_error') {
      this.#emit('validation_failed', { meta, issues: issues ?? [] }, remote);
    }
    if (meta.output_truncated) this.#emit('truncated', meta, remote);
  }

  // One channel per schema (case kept: LISTEN quotes it). A schema name too
  // long for a channel name is hashed; notes also carry the schema, and a
  // note for another schema is ignored.
  get #channel(): string {
    const name = `toolresult_${this.schema}`;
    return name.length <= 63 ? name : `toolresult_${sha256(this.schema).slice(0, 40)}`;
  }

  async #listen(): Promise<void> {
    if (this.#closed) return;
    const client = await this.#pool.connect();
    this.#listener = client;
    client.on('notification', (msg) => {
      if (msg.channel !== this.#channel || !msg.payload) return;
      // One at a time, in the order the database committed them.
      this.#remoteQueue = this.#remoteQueue.then(() => this.#onNotification(msg.payload!)).catch(() => {});
    });
    const lost = (e?: Error) => {
      if (this.#listener !== client) return;
      this.#listener = undefined;
      this.#listening = false;
      client.removeAllListeners('notification');
      client.release(e ?? true);
      if (this.#closed) return;
      this.#emit('connection_error', { message: e?.message ?? 'the LISTEN connection ended', code: (e as { code?: string } | undefined)?.code });
      void this.#relisten();
    };
    client.on('error', (e) => lost(e));
    client.on('end', () => lost());
    await client.query(`LISTEN "${this.#channel}"`);
    this.#listening = true;
  }

  async #relisten(): Promise<void> {
    for (let attempt = 0; !this.#closed && !this.#listening; attempt++) {
      // Unreferenced: waiting to listen again never keeps the process alive.
      await new Promise<void>((r) => setTimeout(r, Math.min(2000, 50 * 2 ** attempt)).unref());
      try {
        await this.#listen();
      } catch {
        const c = this.#listener;
        this.#listener = undefined;
        c?.release(true);
      }
    }
  }

  /** Whether the store is receiving other nodes' events right now. */
  get listening(): boolean {
    return this.#listening;
  }

  async #onNotification(payload: string): Promise<void> {
    let note: { o: string; s: string; k: 'stored' | 'evicted'; id: string };
    try {
      note = JSON.parse(payload) as typeof note;
    } catch {
      return;
    }
    if (note.o === this.#origin || note.s !== this.schema) return;
    if (note.k === 'stored') {
      const { rows } = await this.#query(
        `SELECT ${META_COLUMNS}, result->'validation_issues' AS issues, key_id, sealed, sealed_meta FROM ${this.#q}.toolresult_results WHERE execution_id = $1
         UNION ALL SELECT ${META_COLUMNS}, NULL::jsonb, NULL::text, NULL::bytea, NULL::bytea FROM ${this.#q}.toolresult_evictions WHERE execution_id = $1 LIMIT 1`,
        [note.id],
      );
      const row = rows[0];
      if (!row) return;
      if (!isSealedRow(row)) {
        // An encrypted result evicted before this node read it: its summary and preview are gone with it.
        row.summary ??= '';
        row.preview ??= '';
        this.#emitStored(metaFromRow(row), (row.issues as SchemaIssue[] | null) ?? undefined, true);
        return;
      }
      let meta: StoredMeta;
      let issues: SchemaIssue[] | undefined;
      try {
        meta = await this.#meta(row);
        if (meta.status === 'output_validation_failed' || meta.status === 'validation_error') {
          issues = (JSON.parse(await this.#open(row, 'sealed')) as ToolResult).validation_issues ?? undefined;
        }
      } catch (e) {
        const code = skippedCode(e);
        if (!code) throw e;
        this.#emit('unreadable', skippedRow(row, code), true);
        return;
      }
      this.#emitStored(meta, issues, true);
    } else {
      const { rows } = await this.#query(`SELECT execution_id, tool_call_id, tool_name, dialog_id, reason FROM ${this.#q}.toolresult_evictions WHERE id = $1`, [
        note.id,
      ]);
      if (rows[0]) this.#emit('evicted', evictionFromRow(rows[0]), true);
    }
  }

  // -- writing --------------------------------------------------------------

  #prepare(result: ToolResult | string, dialogId: string | undefined, summary: string | undefined): Prepared {
    const verdict = validateToolResult(result);
    if (!verdict.ok) throw new ToolResultError('invalid_tool_result', 'invalid ToolResult', verdict.issues);
    const value = verdict.value;
    const nul = findNul(value);
    if (nul !== undefined) {
      throw new ToolResultError('unsupported_value', 'not stored', [
        { path: nul, code: 'unsupported_value', message: 'PostgreSQL jsonb cannot hold the character U+0000; escape or remove it before storing' },
      ]);
    }
    const canonical = canonicalJson(value);
    const entry = unwrapOutcome<StoreEntry>(
      agentModule.call((w) => w.store_entry(canonical, dialogId ?? '', summary ?? customSummary(value) ?? '')),
      'invalid_tool_result',
      'invalid ToolResult',
    );
    // Checked before writing: ids the log cannot hold refuse the put, rather than leave a result stored without its entry.
    if (this.#audit) storedRecord(entry.meta);
    const digest = sha256(canonical);
    return { entry, canonical, sha256: digest, plainSha: digest, result: value };
  }

  /** With encryption, encrypts each item's result and its summary and preview (the row keeps neither in the clear). */
  async #seal(items: Prepared[]): Promise<void> {
    const keyring = this.#keyring;
    if (!keyring) return;
    for (const p of items) {
      const ids = rowIds(p.entry.meta);
      const result = sealedBytes(await keyring.seal(p.canonical, resultContext(ids)));
      const meta = sealedBytes(await keyring.seal(sealedMetaText(p.entry.meta), metaContext(ids)));
      p.sealed = { key_id: keyring.current, result, meta };
      p.sha256 = sha256(result);
    }
  }

  /**
   * Appends the records after COMMIT; `audit_failed` (the writes stay) if
   * the log refuses. A log on this store's pool appended them in the
   * transaction already.
   */
  async #appendAudit(records: AuditRecord[], done: string): Promise<void> {
    if (!this.#audit || this.#auditInTransaction) return;
    try {
      for (const r of records) await this.#audit.append(r);
    } catch (e) {
      throw auditFailed(done, e);
    }
  }

  /**
   * Validates and stores a result (value or JSON text). The same result again
   * is a no-op (`stored: false`); a different one under a stored execution_id
   * or tool_call_id is a `store_conflict` error. Resolves once committed.
   */
  async put(result: ToolResult | string, options: { dialogId?: string; summary?: string } = {}): Promise<PutReport> {
    refuseSnakeCaseOptions(options, 'put');
    refuseUnknownOptions(options, ['dialogId', 'summary'], 'put');
    const prepared = this.#prepare(result, options.dialogId, options.summary);
    await this.#seal([prepared]);
    const report = await this.#write([prepared]);
    const first = report.results[0];
    if (!first.ok) throw first.error;
    return { ...first.value, evicted: report.evicted };
  }

  /**
   * Stores many results in one transaction (much faster than one `put` each).
   * Each is reported on its own: one conflict does not stop the others.
   * A result that is not a valid ToolResult is reported and not written.
   */
  async putMany(results: (ToolResult | string)[], options: { dialogId?: string } = {}): Promise<PutManyReport> {
    refuseSnakeCaseOptions(options, 'putMany');
    refuseUnknownOptions(options, ['dialogId'], 'putMany');
    const prepared: (Prepared | ToolResultError)[] = results.map((r) => {
      try {
        return this.#prepare(r, options.dialogId, undefined);
      } catch (e) {
        if (e instanceof ToolResultError) return e;
        throw e;
      }
    });
    const valid = prepared.filter((p): p is Prepared => !(p instanceof ToolResultError));
    await this.#seal(valid);
    const written = valid.length ? await this.#write(valid) : { results: [], evicted: [] };
    let next = 0;
    return {
      results: prepared.map((p) => (p instanceof ToolResultError ? { ok: false as const, error: p } : written.results[next++])),
      evicted: written.evicted,
    };
  }

  async #write(items: Prepared[]): Promise<PutManyReport> {
    // The batch travels as one JSON array parameter; each result is spliced in
    // as the JSON it already is, and PostgreSQL parses it once.
    const batch = `[${items
      .map(({ entry, sha256: sha, canonical, sealed }) => {
        const columns = JSON.stringify({
          execution_id: entry.meta.execution_id,
          tool_call_id: entry.meta.tool_call_id,
          dialog_id: entry.meta.dialog_id ?? null,
          tool_name: entry.meta.tool_name,
          status: entry.meta.status,
          started_at: entry.meta.started_at,
          started_ms: entry.started_ms,
          size_bytes: entry.meta.size_bytes,
          stored_bytes: entry.meta.stored_bytes,
          output_truncated: entry.meta.output_truncated,
          side_effects: entry.side_effects,
          size_bucket: entry.size_bucket,
          summary: sealed ? null : entry.meta.summary,
          preview: sealed ? null : entry.meta.preview,
          sha256: sha,
          key_id: sealed ? sealed.key_id : null,
          sealed: sealed ? byteaHex(sealed.result) : null,
          sealed_meta: sealed ? byteaHex(sealed.meta) : null,
        });
        return `${columns.slice(0, -1)},"result":${sealed ? 'null' : canonical}}`;
      })
      .join(',')}]`;
    const now = this.#now();
    const out = await this.#transaction(async (c) => {
      // Retention decisions need one writer at a time; without retention the unique indexes suffice.
      if (this.#hasRetention) await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolresult.retention.${this.schema}`]);
      const inserted = await c.query(
        `INSERT INTO ${this.#q}.toolresult_results
           (execution_id, tool_call_id, dialog_id, tool_name, status, started_at, started_ms, size_bytes, stored_bytes,
            output_truncated, side_effects, size_bucket, summary, preview, sha256, result, key_id, sealed, sealed_meta)
         SELECT execution_id, tool_call_id, dialog_id, tool_name, status, started_at, started_ms, size_bytes, stored_bytes,
            output_truncated, side_effects, size_bucket, summary, preview, sha256, result, key_id, sealed, sealed_meta
         FROM jsonb_to_recordset($1::jsonb) AS x(execution_id text, tool_call_id text, dialog_id text, tool_name text, status text,
            started_at text, started_ms bigint, size_bytes bigint, stored_bytes bigint, output_truncated boolean,
            side_effects integer, size_bucket smallint, summary text, preview text, sha256 text, result jsonb,
            key_id text, sealed bytea, sealed_meta bytea)
         ON CONFLICT DO NOTHING
         RETURNING execution_id, sha256`,
        [batch],
      );
      // Which item each inserted row came from: the first with its id and content
      // (a batch may hold the same result twice, or two results under one id).
      const insertedSha = new Map(inserted.rows.map((r) => [r.execution_id as string, r.sha256 as string]));
      const claimed = new Set<number>();
      const stored = new Set<string>();
      items.forEach((p, i) => {
        const id = p.entry.meta.execution_id;
        if (insertedSha.get(id) === p.sha256 && !stored.has(id)) {
          stored.add(id);
          claimed.add(i);
        }
      });
      // What is there for the others (rows this transaction inserted included):
      // the same result (a retry), or a conflict.
      const missing = items.filter((_, i) => !claimed.has(i));
      const existing = missing.length
        ? (
            await c.query(
              `SELECT ${META_COLUMNS}, sha256, key_id, sealed, sealed_meta FROM ${this.#q}.toolresult_results WHERE execution_id = ANY($1) OR tool_call_id = ANY($2)`,
              [missing.map((p) => p.entry.meta.execution_id), missing.map((p) => p.entry.meta.tool_call_id)],
            )
          ).rows
        : [];
      const evicted = stored.size && this.#hasRetention ? await this.#enforce(c, now) : [];
      if (this.#auditInTransaction) {
        // `stored` before the evictions (the result may be one of them), committed with the rows or not at all.
        await this.#auditInTransaction(c, [
          ...items.flatMap((p, i) => (claimed.has(i) ? [storedRecord(p.entry.meta, p.sha256)] : [])),
          ...evicted.map((e) => evictedRecord(evictionFromRow(e))),
        ]);
      }
      await this.#notify(c, [
        ...[...stored].map((id) => ({ o: this.#origin, s: this.schema, k: 'stored', id })),
        ...evicted.map((e) => ({ o: this.#origin, s: this.schema, k: 'evicted', id: e.id })),
      ]);
      return { stored, claimed, existing, evicted };
    });
    const byExecution = new Map(out.existing.map((r) => [r.execution_id as string, r]));
    const byCall = new Map(out.existing.map((r) => [r.tool_call_id as string, r]));
    // What each row under a requested execution id holds in the clear (an
    // encrypted one decrypted): its digest and metadata, or why it cannot be
    // read (a repeat is told from a conflict by the result, never by ciphertext).
    const clearRows = new Map<string, { sha: string; meta: StoredMeta } | ToolResultError>();
    for (const p of items) {
      const row = byExecution.get(p.entry.meta.execution_id);
      if (!row || clearRows.has(row.execution_id as string)) continue;
      try {
        clearRows.set(row.execution_id as string, await this.#clearRow(row));
      } catch (e) {
        if (!(e instanceof ToolResultError)) throw e;
        clearRows.set(row.execution_id as string, e);
      }
    }
    const results: PutManyReport['results'] = items.map((p, i) => {
      const meta = p.entry.meta;
      if (out.claimed.has(i)) return { ok: true, value: { stored: true, meta, evicted: [] } };
      const same = byExecution.get(meta.execution_id);
      if (same) {
        const clear = clearRows.get(meta.execution_id) as { sha: string; meta: StoredMeta } | ToolResultError;
        if (clear instanceof ToolResultError) return { ok: false, error: clear };
        if (clear.sha === p.plainSha && (same.dialog_id ?? undefined) === meta.dialog_id) {
          return { ok: true, value: { stored: false, meta: clear.meta, evicted: [] } };
        }
        return {
          ok: false,
          error: conflict(
            '/metadata/execution_id',
            `a different result is already stored under execution_id ${meta.execution_id}; stored results are never overwritten`,
          ),
        };
      }
      const other = byCall.get(meta.tool_call_id);
      if (other) {
        return {
          ok: false,
          error: conflict('/input/tool_call_id', `tool_call_id ${meta.tool_call_id} already belongs to execution ${other.execution_id as string}`),
        };
      }
      // The row that blocked the insert was evicted before we looked: not stored, safe to retry.
      return {
        ok: false,
        error: conflict('/metadata/execution_id', `execution ${meta.execution_id} collided with a result that was evicted meanwhile; retry the put`),
      };
    });
    const evicted = out.evicted.map(evictionFromRow);
    for (const [i, r] of results.entries()) {
      if (r.ok && r.value.stored) this.#emitStored(r.value.meta, items[i].result.validation_issues ?? undefined, false);
    }
    for (const e of evicted) this.#emit('evicted', e);
    if (this.#audit) {
      const stored = results.flatMap((r, i) => (r.ok && r.value.stored ? [storedRecord(r.value.meta, items[i].sha256)] : []));
      await this.#appendAudit([...stored, ...evicted.map(evictedRecord)], stored.length ? 'the results are stored' : 'retention evicted results');
    }
    return { results, evicted };
  }

  /**
   * Queues one notification per note inside `c`'s transaction, in one round
   * trip; PostgreSQL delivers them at COMMIT, in order, and drops them on
   * ROLLBACK.
   */
  async #notify(c: PgPoolClient, notes: { o: string; s: string; k: string; id: unknown }[]): Promise<void> {
    if (!notes.length) return;
    await c.query('SELECT pg_notify($1, n) FROM unnest($2::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i', [
      this.#channel,
      notes.map((n) => JSON.stringify(n)),
    ]);
  }

  /** Applies the retention policy inside `c`'s transaction; the evicted rows move to the evictions log. */
  async #enforce(c: PgPoolClient, now: number): Promise<Record<string, unknown>[]> {
    const { maxAgeMs, maxCount, maxBytes } = this.#retention;
    const steps: [EvictionReason, string, unknown[]][] = [];
    if (maxAgeMs !== undefined && maxAgeMs !== null) {
      steps.push(['max_age', `SELECT seq FROM ${this.#q}.toolresult_results WHERE started_ms < $1`, [now - maxAgeMs]]);
    }
    if (maxCount !== undefined && maxCount !== null) {
      steps.push(['max_count', `SELECT seq FROM ${this.#q}.toolresult_results ORDER BY seq DESC OFFSET $1`, [maxCount]]);
    }
    if (maxBytes !== undefined && maxBytes !== null) {
      steps.push([
        'max_bytes',
        `SELECT seq FROM (SELECT seq, sum(stored_bytes) OVER (ORDER BY seq DESC) AS kept FROM ${this.#q}.toolresult_results) k WHERE kept > $1`,
        [maxBytes],
      ]);
    }
    const evicted: Record<string, unknown>[] = [];
    // With encryption on, a clear row's summary and preview (written before) are not copied into the log.
    const kept = this.#keyring ? META_COLUMNS.replace(/summary, preview$/, 'NULL, NULL') : META_COLUMNS;
    for (const [reason, victims, params] of steps) {
      const n = params.length + 1;
      const { rows } = await c.query(
        `WITH gone AS (
           DELETE FROM ${this.#q}.toolresult_results WHERE seq IN (${victims})
           RETURNING seq, ${META_COLUMNS}, side_effects, size_bucket)
         INSERT INTO ${this.#q}.toolresult_evictions (seq, ${META_COLUMNS}, side_effects, size_bucket, reason)
         SELECT seq, ${kept}, side_effects, size_bucket, $${n} FROM gone
         RETURNING id, seq, execution_id, tool_call_id, tool_name, dialog_id, reason`,
        [...params, reason],
      );
      rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      evicted.push(...rows);
    }
    return evicted;
  }

  /** Applies the retention policy now (age limits need a clock); returns and announces the evictions. */
  async prune(): Promise<Eviction[]> {
    if (!this.#hasRetention) return [];
    const now = this.#now();
    const rows = await this.#transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolresult.retention.${this.schema}`]);
      const evicted = await this.#enforce(c, now);
      if (this.#auditInTransaction)
        await this.#auditInTransaction(
          c,
          evicted.map((e) => evictedRecord(evictionFromRow(e))),
        );
      await this.#notify(
        c,
        evicted.map((e) => ({ o: this.#origin, s: this.schema, k: 'evicted', id: e.id })),
      );
      return evicted;
    });
    const evicted = rows.map(evictionFromRow);
    for (const e of evicted) this.#emit('evicted', e);
    await this.#appendAudit(evicted.map(evictedRecord), 'retention evicted results');
    return evicted;
  }

  // -- reading --------------------------------------------------------------

  /**
   * Decrypts an encrypted row's `column` (`sealed`: the result's canonical
   * JSON; `sealed_meta`: its summary and preview as JSON): throws
   * `encryption_required`, `key_unavailable` or `decryption_failed`.
   */
  async #open(row: Record<string, unknown>, column: 'sealed' | 'sealed_meta'): Promise<string> {
    const executionId = row.execution_id as string;
    const keyId = row.key_id as string;
    const what = `the row of execution ${executionId}`;
    if (!this.#keyring) throw encryptionRequired(what, keyId);
    const context = column === 'sealed' ? resultContext(rowIds(row)) : metaContext(rowIds(row));
    return utf8.decode(await this.#keyring.open(fromSealedBytes(keyId, row[column] as Uint8Array), context, what));
  }

  /**
   * A row's metadata; an encrypted row's summary and preview decrypted (it
   * throws as `#open`, and `decryption_failed` when its clear tool name or
   * status is not the one it was stored with).
   */
  async #meta(row: Record<string, unknown>): Promise<StoredMeta> {
    const meta = metaFromRow(row);
    if (!isSealedRow(row)) return meta;
    const clear = JSON.parse(await this.#open(row, 'sealed_meta')) as { summary: string; preview: string; tool_name: string; status: string };
    for (const field of ['tool_name', 'status'] as const) {
      if (clear[field] !== row[field]) throw clearFieldChanged(`the row of execution ${meta.execution_id}`, row.key_id as string, field);
    }
    meta.summary = clear.summary;
    meta.preview = clear.preview;
    return meta;
  }

  /** A row's digest of its canonical result and its metadata, in the clear (it throws as `#open`). */
  async #clearRow(row: Record<string, unknown>): Promise<{ sha: string; meta: StoredMeta }> {
    const sha = isSealedRow(row) ? sha256(await this.#open(row, 'sealed')) : (row.sha256 as string);
    return { sha, meta: await this.#meta(row) };
  }

  /**
   * A row read back: decrypted when encrypted, validated. A row that cannot
   * be decrypted is reported (`unreadable`), a row that fails validation
   * too (`corrupt_row`); neither is ever returned as a result.
   */
  async #checked(row: Record<string, unknown>): Promise<{ ok: true; value: ToolResult } | { ok: false; skipped: SkippedRecord; error: ToolResultError }> {
    const executionId = row.execution_id as string;
    let text = row.result as string;
    if (isSealedRow(row)) {
      try {
        text = await this.#open(row, 'sealed');
      } catch (e) {
        const code = skippedCode(e);
        if (!code) throw e;
        const skipped = skippedRow(row, code);
        this.#emit('unreadable', skipped);
        return { ok: false, skipped, error: e as ToolResultError };
      }
    }
    const verdict = validateToolResult(text);
    let issues: Issue[];
    const changed = verdict.ok ? clearFieldMismatch(verdict.value, row) : undefined;
    if (!verdict.ok) {
      issues = verdict.issues;
    } else if (changed && isSealedRow(row)) {
      // It decrypted, but a clear column the store finds it by says otherwise: never served under that column.
      const skipped = skippedRow(row, 'decryption_failed');
      this.#emit('unreadable', skipped);
      return { ok: false, skipped, error: clearFieldChanged(`the row of execution ${executionId}`, row.key_id as string, changed) };
    } else if (changed) {
      issues = [{ path: '', code: 'checksum_mismatch', message: `the row's ${changed} column is not the stored result's` }];
    } else if (!isSealedRow(row) && sha256(canonicalJson(verdict.value)) !== row.sha256) {
      // An encrypted row needs no digest: AES-GCM authenticated it.
      issues = [{ path: '', code: 'checksum_mismatch', message: 'the stored result no longer matches the sha256 it was stored with' }];
    } else {
      return { ok: true, value: verdict.value };
    }
    this.#emit('corrupt_row', { execution_id: executionId, issues });
    return {
      ok: false,
      skipped: skippedRow(row, 'corrupt_row'),
      error: new ToolResultError('corrupt_row', `the row of execution ${executionId} is not a valid stored result; it is not returned`, issues),
    };
  }

  async #one(where: string, id: string): Promise<ToolResult | undefined> {
    const { rows } = await this.#query(`SELECT ${RESULT_COLUMNS} FROM ${this.#q}.toolresult_results WHERE ${where} = $1`, [String(id)]);
    if (!rows[0]) return undefined;
    const checked = await this.#checked(rows[0]);
    if (!checked.ok) throw checked.error;
    return checked.value;
  }

  /**
   * A result by execution id; `corrupt_row` if its row no longer validates;
   * for an encrypted row, `key_unavailable`, `decryption_failed` or
   * `encryption_required` when it cannot be decrypted.
   */
  get(executionId: string): Promise<ToolResult | undefined> {
    return this.#one('execution_id', executionId);
  }

  getByToolCallId(toolCallId: string): Promise<ToolResult | undefined> {
    return this.#one('tool_call_id', toolCallId);
  }

  /** Metadata of a stored result (no output); an encrypted row's that cannot be decrypted throws as `get`. */
  async meta(executionId: string): Promise<StoredMeta | undefined> {
    const { rows } = await this.#query(`SELECT ${META_COLUMNS}, key_id, sealed_meta FROM ${this.#q}.toolresult_results WHERE execution_id = $1`, [
      String(executionId),
    ]);
    return rows[0] ? this.#meta(rows[0]) : undefined;
  }

  /**
   * A tool's results, newest first by started_at (then by storing order):
   * `limit` (100), `status`, `since`, `until`. Rows that cannot be read are
   * left out and listed in `skipped` (and reported as `corrupt_row` or
   * `unreadable` events).
   */
  async history(toolName: string, query: HistoryQuery = {}): Promise<Listing<ToolResult>> {
    const b = unwrapOutcome<HistoryBounds>(
      agentModule.call((w) => w.history_bounds(jsonText(query, 'invalid_options', 'the history query'))),
      'invalid_options',
      'invalid history query',
    );
    const where = ['tool_name = $1'];
    const params: unknown[] = [String(toolName)];
    if (b.status) where.push(`status = $${params.push(b.status)}`);
    if (b.since_ms !== undefined && b.since_ms !== null) where.push(`started_ms >= $${params.push(b.since_ms)}`);
    if (b.until_ms !== undefined && b.until_ms !== null) where.push(`started_ms < $${params.push(b.until_ms)}`);
    const { rows } = await this.#query(
      `SELECT ${RESULT_COLUMNS} FROM ${this.#q}.toolresult_results WHERE ${where.join(' AND ')}
       ORDER BY started_ms DESC, seq DESC LIMIT ${b.limit}`,
      params,
    );
    const out: ToolResult[] = [];
    const skipped: SkippedRecord[] = [];
    for (const row of rows) {
      const checked = await this.#checked(row);
      if (checked.ok) out.push(checked.value);
      else skipped.push(checked.skipped);
    }
    return listing(out, skipped);
  }

  /**
   * Metadata of a dialog's results, in the order they were stored. Encrypted
   * rows that cannot be decrypted are left out and listed in `skipped` (and
   * reported as `unreadable` events).
   */
  async listDialog(dialogId: string): Promise<Listing<StoredMeta>> {
    const { rows } = await this.#query(`SELECT ${META_COLUMNS}, key_id, sealed_meta FROM ${this.#q}.toolresult_results WHERE dialog_id = $1 ORDER BY seq`, [
      String(dialogId),
    ]);
    const out: StoredMeta[] = [];
    const skipped: SkippedRecord[] = [];
    for (const row of rows) {
      try {
        out.push(await this.#meta(row));
      } catch (e) {
        const code = skippedCode(e);
        if (!code) throw e;
        const record = skippedRow(row, code);
        this.#emit('unreadable', record);
        skipped.push(record);
      }
    }
    return listing(out, skipped);
  }

  /**
   * Re-encrypts every row not under the current key (older keys' and clear
   * ones) under it, in batches, each row in one UPDATE: a crash midway leaves
   * every row readable with the keys given, and running it again finishes.
   * Safe beside writers and other nodes (a row changed meanwhile is left to
   * them). Resolves with how many rows it re-encrypted; `onRewrapped` is told
   * of each once committed. Rows that cannot be read keep their keys: they
   * are named in a `key_unavailable` or `decryption_failed` error after the
   * rest are done.
   */
  async rewrap(options: { onRewrapped?: (record: { execution_id: string; from: string | null }) => void } = {}): Promise<number> {
    const keyring = this.#keyring;
    if (!keyring) throw rewrapNeedsEncryption('PostgresResultStore');
    refuseUnknownOptions(options, ['onRewrapped'], 'rewrap');
    let done = 0;
    let after = 0;
    const left: SkippedRecord[] = [];
    for (;;) {
      const { rows } = await this.#query(
        `SELECT seq, ${META_COLUMNS}, sha256, result::text AS result, key_id, sealed, sealed_meta FROM ${this.#q}.toolresult_results
         WHERE seq > $1 AND key_id IS DISTINCT FROM $2 ORDER BY seq LIMIT 64`,
        [after, keyring.current],
      );
      if (!rows.length) break;
      for (const row of rows) {
        after = Number(row.seq);
        const executionId = row.execution_id as string;
        let canonical: string;
        let meta: StoredMeta;
        if (isSealedRow(row)) {
          try {
            canonical = await this.#open(row, 'sealed');
            meta = await this.#meta(row);
          } catch (e) {
            const code = skippedCode(e);
            if (!code) throw e;
            left.push(skippedRow(row, code));
            continue;
          }
        } else {
          const checked = await this.#checked(row);
          if (!checked.ok) {
            left.push(checked.skipped);
            continue;
          }
          canonical = canonicalJson(checked.value);
          meta = metaFromRow(row);
        }
        const ids = rowIds(row);
        const sealed = sealedBytes(await keyring.seal(canonical, resultContext(ids)));
        const sealedMeta = sealedBytes(await keyring.seal(sealedMetaText(meta), metaContext(ids)));
        const { rowCount } = await this.#query(
          `UPDATE ${this.#q}.toolresult_results SET key_id = $1, sealed = $2, sealed_meta = $3, sha256 = $4, result = NULL, summary = NULL, preview = NULL
           WHERE seq = $5 AND key_id IS NOT DISTINCT FROM $6 AND dialog_id IS NOT DISTINCT FROM $7`,
          [keyring.current, Buffer.from(sealed), Buffer.from(sealedMeta), sha256(sealed), row.seq, row.key_id, row.dialog_id],
        );
        if (!rowCount) continue;
        done++;
        options.onRewrapped?.({ execution_id: executionId, from: (row.key_id as string | null) ?? null });
      }
    }
    // The evictions log keeps evicted results' clear columns; a summary and
    // preview among them (results evicted before encryption was on) go too.
    await this.#query(`UPDATE ${this.#q}.toolresult_evictions SET summary = NULL, preview = NULL WHERE summary IS NOT NULL OR preview IS NOT NULL`);
    if (left.length) throw rewrapIncomplete(done, left);
    return done;
  }

  /** Results held now. */
  async size(): Promise<number> {
    const { rows } = await this.#query(`SELECT count(*) AS n FROM ${this.#q}.toolresult_results`);
    return Number(rows[0].n);
  }

  /**
   * The store's counters (docs/spec.md §7) and the output-size histogram, from SQL aggregates
   * over every result ever stored in this schema (held now or evicted).
   */
  async metrics(): Promise<StoreMetrics> {
    const [all, current] = await Promise.all([
      this.#query(
        `SELECT status, size_bucket, count(*) AS n, sum(output_truncated::int) AS truncated, sum(side_effects) AS side_effects,
                  sum(size_bytes) AS size_sum, sum(evicted) AS evicted
           FROM (SELECT status, size_bucket, output_truncated, side_effects, size_bytes, 0 AS evicted FROM ${this.#q}.toolresult_results
                 UNION ALL
                 SELECT status, size_bucket, output_truncated, side_effects, size_bytes, 1 FROM ${this.#q}.toolresult_evictions) r
           GROUP BY status, size_bucket`,
      ),
      this.#query(`SELECT count(*) AS n, coalesce(sum(stored_bytes), 0) AS bytes FROM ${this.#q}.toolresult_results`),
    ]);
    this.#buckets ??= (JSON.parse(agentModule.call((w) => w.empty_store_metrics())) as StoreMetrics).output_size;
    const m: StoreMetrics = {
      stored: 0,
      by_status: {},
      truncated: 0,
      validation_failures: 0,
      side_effects: 0,
      evicted: 0,
      output_size: this.#buckets.map((b) => ({ ...b, count: 0 })),
      output_size_sum: 0,
      current_count: Number(current.rows[0].n),
      current_bytes: Number(current.rows[0].bytes),
    };
    for (const r of all.rows) {
      const n = Number(r.n);
      const status = r.status as string;
      m.stored += n;
      m.by_status[status] = (m.by_status[status] ?? 0) + n;
      m.truncated += Number(r.truncated);
      if (status === 'output_validation_failed' || status === 'validation_error') m.validation_failures += n;
      m.side_effects += Number(r.side_effects);
      m.evicted += Number(r.evicted);
      m.output_size[Number(r.size_bucket)].count += n;
      m.output_size_sum += Number(r.size_sum);
    }
    // Same key order as the in-memory store (by_status sorted by name).
    m.by_status = Object.fromEntries(Object.entries(m.by_status).sort(([a], [b]) => (a < b ? -1 : 1)));
    return m;
  }

  /** Stops listening and, if the store made the pool, ends it. The database is untouched. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const l = this.#listener;
    this.#listener = undefined;
    this.#listening = false;
    if (l) {
      l.removeAllListeners('notification');
      await l.query(`UNLISTEN "${this.#channel}"`).catch(() => {});
      l.release();
    }
    await this.#remoteQueue;
    if (this.#ownsPool) await this.#pool.end();
  }
}

function conflict(path: string, message: string): ToolResultError {
  return new ToolResultError('store_conflict', 'not stored', [{ path, code: 'store_conflict', message }]);
}
