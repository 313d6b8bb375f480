// What the PostgreSQL store and the PostgreSQL audit log share: which errors
// mean "the connection or server went away", the retry with backoff, and the
// pooled-connection wrapper (docs/integrations/postgres.md, "Failures").
import { ToolResultError } from '../errors.js';

const TRANSIENT_SQLSTATE = /^(08|57P0[123]|40001|40P01|53300)/;
const TRANSIENT_NODE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether an error means "the connection or server went away; the same call may succeed later". */
export function isTransientPgError(e: unknown): boolean {
  if (e instanceof ToolResultError) return false;
  const err = e as { code?: unknown; message?: unknown };
  if (typeof err?.code === 'string') return TRANSIENT_SQLSTATE.test(err.code) || TRANSIENT_NODE.has(err.code);
  return (
    typeof err?.message === 'string' &&
    /Connection terminated|terminating connection|Client has encountered a connection error|Connection ended/i.test(err.message)
  );
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The part of a pooled pg client the wrapper uses. */
export interface PooledClient {
  release(destroy?: boolean | Error): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Runs `f` again with backoff while it fails transiently, at most `retries`
 * times; `closed` is checked before each attempt (`store_closed` once it is).
 */
export async function retryTransient<T>(f: () => Promise<T>, retries: number, closed: () => boolean, what: string): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (closed()) throw new ToolResultError('store_closed', `this ${what} was closed`);
    try {
      return await f();
    } catch (e) {
      if (!isTransientPgError(e) || attempt >= retries) throw e;
      await sleep(Math.min(2000, 50 * 2 ** attempt));
    }
  }
}

/**
 * Runs `f` on a pooled connection. (pg's `pool.query` is not used: a
 * connection the server terminates emits `error` after its query failed,
 * and pool.query has removed its listener by then, which ends the process.)
 */
export async function withPooledClient<C extends PooledClient, T>(pool: { connect(): Promise<C> }, f: (c: C) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  // Kept on a broken connection: it may still emit `error` after release.
  const ignore = () => {};
  c.on('error', ignore);
  try {
    const out = await f(c);
    c.removeListener('error', ignore);
    c.release();
    return out;
  } catch (e) {
    if (isTransientPgError(e)) {
      c.release(e as Error);
    } else {
      c.removeListener('error', ignore);
      c.release();
    }
    throw e;
  }
}

/** Runs `f` between BEGIN and COMMIT on `c`; a failure rolls back, unless the connection itself is gone. */
export async function withTransaction<C extends { query(text: string): Promise<unknown> }, T>(c: C, f: (c: C) => Promise<T>): Promise<T> {
  await c.query('BEGIN');
  try {
    const out = await f(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    if (!isTransientPgError(e)) await c.query('ROLLBACK').catch(() => {});
    throw e;
  }
}
