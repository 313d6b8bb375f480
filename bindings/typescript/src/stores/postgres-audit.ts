// The audit log in PostgreSQL (`toolresult/postgres`): one hash chain shared
// by every node that appends to the same database and schema. Each append is
// one transaction that locks the head row (`SELECT … FOR UPDATE`), chains the
// entry to it, inserts the entry and moves the head, so writers on any number
// of nodes take turns and the seqs have no gaps. Triggers refuse UPDATE,
// DELETE and TRUNCATE of entries; whoever can drop them can rewrite rows,
// which `verifyAuditLog` then finds (docs/guide/storage.md, "Audit trail").
// A PostgresResultStore on the log's own pool appends the same way inside
// its write's transaction (`auditInTransaction`), so rows and entries commit
// together.
//
// Nothing here is imported from ./postgres.ts (that file re-exports this one):
// the connection handling follows PostgresResultStore's.
import { ToolResultError, quoteText, refuseUnknownOptions } from '../errors.js';
import { checkFromSeq } from '../audit/memory.js';
import { retryTransient, withPooledClient, withTransaction } from './pg-client.js';
import {
  type AuditCheckpoint,
  type AuditEntry,
  type AuditLog,
  type AuditRecord,
  chainAuditEntry,
  checkAuditRecord,
  signAuditCheckpoint,
} from '../audit/log.js';

/** The parts of node-postgres the log uses (a `pg.Pool` satisfies them; see `PgPool` of `PostgresResultStore`). */
interface AuditPgResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}
export interface AuditPgClient {
  query(text: string, values?: unknown[]): Promise<AuditPgResult>;
  release(destroy?: boolean | Error): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}
interface AuditPgPool {
  connect(): Promise<AuditPgClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'connect', listener: (client: AuditPgClient) => void): unknown;
}

/** Options of {@link PostgresAuditLog.open}. */
export interface PostgresAuditLogOptions {
  /** A `pg.Pool` (the log never ends it), or ... */
  pool?: AuditPgPool;
  /** ... pg's connection options or URL: the log makes a pool and ends it on `close()`. */
  connection?: string | Record<string, unknown>;
  /** The PostgreSQL schema holding the tables (created if missing). Default `public`. */
  schema?: string;
  /** Run the migrations on open (default true). With `false`, open checks the schema is current. */
  migrate?: boolean;
  /** Retries of an operation that failed because the connection or server went away (default 8; backoff doubles from 50 ms to 2 s). */
  retries?: number;
  /** The clock for each entry's `at` (ms since the epoch); default `Date.now`. */
  now?: () => number;
}

const OPTIONS = ['pool', 'connection', 'schema', 'migrate', 'retries', 'now'] as const;

/** The migrations of the audit tables, in order (versioned apart from the result store's). */
const MIGRATIONS: { version: number; description: string; sql: (s: string) => string }[] = [
  {
    version: 1,
    description: 'audit entries, their head row, and triggers that keep entries append-only',
    sql: (s) => `
CREATE TABLE ${s}.toolresult_audit (
  seq bigint PRIMARY KEY,
  at text NOT NULL,
  action text NOT NULL,
  execution_id text,
  tool_call_id text,
  dialog_id text,
  actor text,
  sha256 text,
  prev text NOT NULL,
  hash text NOT NULL,
  append_id uuid NOT NULL UNIQUE,
  appended_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX toolresult_audit_execution ON ${s}.toolresult_audit (execution_id) WHERE execution_id IS NOT NULL;
CREATE TABLE ${s}.toolresult_audit_head (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  seq bigint NOT NULL,
  hash text NOT NULL
);
INSERT INTO ${s}.toolresult_audit_head (one, seq, hash) VALUES (true, 0, repeat('0', 64));
CREATE FUNCTION ${s}.toolresult_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'toolresult_audit is append-only: % is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER toolresult_audit_no_change BEFORE UPDATE OR DELETE ON ${s}.toolresult_audit
  FOR EACH ROW EXECUTE FUNCTION ${s}.toolresult_audit_append_only();
CREATE TRIGGER toolresult_audit_no_truncate BEFORE TRUNCATE ON ${s}.toolresult_audit
  FOR EACH STATEMENT EXECUTE FUNCTION ${s}.toolresult_audit_append_only();
`,
  },
];

/** The version of the audit tables this code reads and writes. */
export const POSTGRES_AUDIT_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1].version;

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const ENTRY_COLUMNS = 'seq, at, action, execution_id, tool_call_id, dialog_id, actor, sha256, prev, hash';
const PAGE = 1000;

function invalidOption(path: string, message: string): ToolResultError {
  return new ToolResultError('invalid_options', message, [{ path, code: 'invalid_options', message }]);
}

/** A row as an entry: the columns that are NULL are fields the entry does not have. */
function entryFromRow(row: Record<string, unknown>): AuditEntry {
  const entry: Record<string, unknown> = {};
  for (const column of ENTRY_COLUMNS.split(', ')) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    // bigint comes back as text; a seq past 2^53 would not be a safe number, and verification says so.
    entry[column] = column === 'seq' ? Number(value) : value;
  }
  return entry as unknown as AuditEntry;
}

/** Appends records on a connection inside its transaction; resolves with the entries (they commit with it). */
export type AppendInTransaction = (c: AuditPgClient, records: AuditRecord[]) => Promise<AuditEntry[]>;

/** Each log's pool and its in-transaction append (kept off the class: not part of the package's API). */
const inTransaction = new WeakMap<object, { pool: unknown; append: AppendInTransaction }>();

/**
 * For a PostgresResultStore: when `log` is a PostgresAuditLog on `pool` (so
 * on the store's database), the function that appends its entries inside
 * the store's own transaction, so a write and its entries commit together or
 * not at all; otherwise undefined (the store appends after its COMMIT).
 */
export function auditInTransaction(log: unknown, pool: unknown): AppendInTransaction | undefined {
  const hook = log !== null && typeof log === 'object' ? inTransaction.get(log) : undefined;
  return hook && hook.pool === pool ? hook.append : undefined;
}

/**
 * A hash-chained audit log in PostgreSQL, shared by every process that opens
 * the same database and schema (docs/integrations/postgres.md, "Audit log").
 * `append` resolves once its transaction committed; concurrent appends from
 * any number of pools and processes form one chain, seqs 1, 2, 3… without
 * gaps. Call `close()` when done.
 */
export class PostgresAuditLog implements AuditLog {
  readonly schema: string;
  readonly #q: string;
  readonly #pool: AuditPgPool;
  readonly #ownsPool: boolean;
  readonly #retries: number;
  readonly #now: () => number;
  #closed = false;

  private constructor(pool: AuditPgPool, ownsPool: boolean, schema: string, retries: number, now: () => number) {
    this.schema = schema;
    this.#q = `"${schema}"`;
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#retries = retries;
    this.#now = now;
    inTransaction.set(this, {
      pool,
      append: async (c, records) => {
        if (this.#closed) throw new ToolResultError('store_closed', 'this PostgresAuditLog was closed');
        return this.#chain(
          c,
          records.map((r) => ({ record: checkAuditRecord(r), appendId: globalThis.crypto.randomUUID() })),
        );
      },
    });
  }

  /** Connects and migrates (unless `migrate: false`). */
  static async open(options: PostgresAuditLogOptions): Promise<PostgresAuditLog> {
    if (options === undefined) throw invalidOption('', 'PostgresAuditLog.open takes options: { pool } or { connection }');
    refuseUnknownOptions(options, OPTIONS, 'PostgresAuditLog.open');
    if ((!options.pool && !options.connection) || (options.pool && options.connection)) {
      throw invalidOption('', 'give either `pool` (a pg.Pool) or `connection` (pg connection options or URL)');
    }
    const schema = options.schema ?? 'public';
    if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
      throw invalidOption('/schema', `schema ${quoteText(schema, '`')} must be 1-63 letters, digits or '_', not starting with a digit`);
    }
    const retries = options.retries ?? 8;
    if (!Number.isSafeInteger(retries) || retries < 0) throw invalidOption('/retries', `retries must be a whole number >= 0, got ${quoteText(retries)}`);
    if (options.now !== undefined && typeof options.now !== 'function') throw invalidOption('/now', 'now must be a function returning ms since the epoch');
    if (options.migrate !== undefined && typeof options.migrate !== 'boolean') throw invalidOption('/migrate', 'migrate must be true or false');
    let pool = options.pool;
    let owns = false;
    if (!pool) {
      // The peer dependency is loaded only when the log makes the pool.
      let pg: { Pool: new (config: Record<string, unknown>) => AuditPgPool };
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
    // As in PostgresResultStore: an idle client whose server went away must not end the process.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const log = new PostgresAuditLog(pool, owns, schema, retries, options.now ?? Date.now);
    try {
      if (options.migrate !== false) {
        await log.migrate();
      } else if ((await log.schemaVersion()) < POSTGRES_AUDIT_SCHEMA_VERSION) {
        throw new ToolResultError(
          'schema_outdated',
          `the audit tables in schema ${schema} are older than this package needs (${POSTGRES_AUDIT_SCHEMA_VERSION}): run migrate() (or open without migrate: false)`,
        );
      }
    } catch (e) {
      await log.close();
      throw e;
    }
    return log;
  }

  #retry<T>(f: () => Promise<T>): Promise<T> {
    return retryTransient(f, this.#retries, () => this.#closed, 'PostgresAuditLog');
  }

  #withClient<T>(f: (c: AuditPgClient) => Promise<T>): Promise<T> {
    return withPooledClient(this.#pool, f);
  }

  #query(text: string, values?: unknown[]): Promise<AuditPgResult> {
    return this.#retry(() => this.#withClient((c) => c.query(text, values)));
  }

  #transaction<T>(f: (c: AuditPgClient) => Promise<T>): Promise<T> {
    return this.#retry(() => this.#withClient((c) => withTransaction(c, f)));
  }

  async #version(query: (text: string, values?: unknown[]) => Promise<AuditPgResult>): Promise<number> {
    const exists = await query('SELECT to_regclass($1) AS t', [`${this.#q}.toolresult_audit_migrations`]);
    const version =
      exists.rows[0].t === null ? 0 : Number((await query(`SELECT coalesce(max(version), 0) AS v FROM ${this.#q}.toolresult_audit_migrations`)).rows[0].v);
    if (version > POSTGRES_AUDIT_SCHEMA_VERSION) {
      throw new ToolResultError(
        'schema_too_new',
        `the audit tables in schema ${this.schema} are at version ${version}, newer than this package knows (${POSTGRES_AUDIT_SCHEMA_VERSION}): upgrade the package; it never writes to a newer schema`,
      );
    }
    return version;
  }

  /**
   * Brings the audit tables to the current version; idempotent and safe to
   * run from many nodes at once (an advisory lock serializes them). Returns
   * the versions it applied.
   */
  async migrate(): Promise<number[]> {
    return this.#transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolresult.audit.migrate.${this.schema}`]);
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.#q}`);
      await c.query(
        `CREATE TABLE IF NOT EXISTS ${this.#q}.toolresult_audit_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const current = await this.#version((text, values) => c.query(text, values));
      const applied: number[] = [];
      for (const m of MIGRATIONS) {
        if (m.version <= current) continue;
        await c.query(m.sql(this.#q));
        await c.query(`INSERT INTO ${this.#q}.toolresult_audit_migrations (version, description) VALUES ($1, $2)`, [m.version, m.description]);
        applied.push(m.version);
      }
      return applied;
    });
  }

  /** The version the audit tables are at (0: not migrated). */
  async schemaVersion(): Promise<number> {
    return this.#version((text, values) => this.#query(text, values));
  }

  /**
   * Appends one entry in one transaction: lock the head row, chain the entry
   * to it, insert it, move the head. Resolves once committed. A retry after a
   * lost COMMIT acknowledgement finds the entry by its append id instead of
   * appending it twice.
   */
  async append(record: AuditRecord): Promise<AuditEntry> {
    const checked = checkAuditRecord(record);
    const appendId = globalThis.crypto.randomUUID();
    return this.#transaction(async (c) => {
      const done = await c.query(`SELECT ${ENTRY_COLUMNS} FROM ${this.#q}.toolresult_audit WHERE append_id = $1`, [appendId]);
      if (done.rows[0]) return entryFromRow(done.rows[0]);
      return (await this.#chain(c, [{ record: checked, appendId }]))[0];
    });
  }

  /** Inside `c`'s transaction: locks the head row, chains and inserts each record after it, moves the head. */
  async #chain(c: AuditPgClient, records: { record: AuditRecord; appendId: string }[]): Promise<AuditEntry[]> {
    if (!records.length) return [];
    const { rows } = await c.query(`SELECT seq, hash FROM ${this.#q}.toolresult_audit_head FOR UPDATE`);
    if (!rows[0]) throw new ToolResultError('corrupt_audit_log', `the head row of ${this.schema}.toolresult_audit_head is missing: the chain cannot go on`);
    const seq = Number(rows[0].seq);
    let head = seq === 0 ? null : { seq, hash: rows[0].hash as string };
    const entries: AuditEntry[] = [];
    for (const { record, appendId } of records) {
      const entry = chainAuditEntry(head, record, this.#now());
      await c.query(`INSERT INTO ${this.#q}.toolresult_audit (${ENTRY_COLUMNS}, append_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
        entry.seq,
        entry.at,
        entry.action,
        entry.execution_id ?? null,
        entry.tool_call_id ?? null,
        entry.dialog_id ?? null,
        entry.actor ?? null,
        entry.sha256 ?? null,
        entry.prev,
        entry.hash,
        appendId,
      ]);
      entries.push(entry);
      head = { seq: entry.seq, hash: entry.hash };
    }
    const last = entries[entries.length - 1];
    await c.query(`UPDATE ${this.#q}.toolresult_audit_head SET seq = $1, hash = $2`, [last.seq, last.hash]);
    return entries;
  }

  /** Entries in seq order from `fromSeq`, read a page at a time. */
  entries(options?: { fromSeq?: number }): AsyncIterable<AuditEntry> {
    const fromSeq = checkFromSeq(options);
    const read = (from: number) => this.#query(`SELECT ${ENTRY_COLUMNS} FROM ${this.#q}.toolresult_audit WHERE seq >= $1 ORDER BY seq LIMIT ${PAGE}`, [from]);
    return (async function* () {
      for (let from = fromSeq; ; ) {
        const { rows } = await read(from);
        for (const row of rows) yield entryFromRow(row);
        if (rows.length < PAGE) return;
        from = Number(rows[rows.length - 1].seq) + 1;
      }
    })();
  }

  /** The head row: the last entry's seq and hash, or null when nothing was appended. */
  async head(): Promise<{ seq: number; hash: string } | null> {
    const { rows } = await this.#query(`SELECT seq, hash FROM ${this.#q}.toolresult_audit_head`);
    if (!rows[0]) throw new ToolResultError('corrupt_audit_log', `the head row of ${this.schema}.toolresult_audit_head is missing`);
    const seq = Number(rows[0].seq);
    return seq === 0 ? null : { seq, hash: rows[0].hash as string };
  }

  async checkpoint(privateKey: CryptoKey): Promise<AuditCheckpoint> {
    return signAuditCheckpoint(await this.head(), privateKey);
  }

  /** Ends the pool if the log made it. The database is untouched. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsPool) await this.#pool.end();
  }
}
