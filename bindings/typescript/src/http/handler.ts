// The two lazy-loading endpoints (docs/guide/storage.md) as a Fetch handler, `(request: Request) =>
// Promise<Response>`, so it mounts as it is in Workers, Deno, Bun, Hono,
// Next.js route handlers and Service Workers (node.ts adapts it to node:http):
//
//   GET {basePath}/dialogs/{dialog_id}/tool-results                  the dialog's results as metadata
//   GET {basePath}/dialogs/{dialog_id}/tool-results/{tool_call_id}   one full result
//
// Every answer but a success is an RFC 9457 problem (application/problem+json)
// that says what was wrong and never what the server was doing (no stack, no
// store message: those name files and tables).
import { statusInfo } from '../api.js';
import { sha256Hex } from '../bound.js';
import { ToolResultError, refuseUnknownOptions } from '../errors.js';
import type { StoredMeta, ToolResult } from '../generated/types.js';
import { isSafeId } from '../ids.js';
import { accessRecord, auditFailed, auditOption } from '../audit/hooks.js';
import type { AuditLog } from '../audit/log.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * The reads the endpoints need: every store has them (`ResultStore`,
 * `FileResultStore`, `IndexedDbResultStore` synchronously,
 * `PostgresResultStore` asynchronously).
 */
export interface ToolResultsSource {
  /**
   * Metadata of a dialog's results, in the order they were stored; with
   * `skipped` (the persistent stores' listings), the records it left out.
   */
  listDialog(dialogId: string): MaybePromise<StoredMeta[] & { readonly skipped?: readonly ToolResultsSkipped[] }>;
  getByToolCallId(toolCallId: string): MaybePromise<ToolResult | undefined>;
  meta(executionId: string): MaybePromise<StoredMeta | undefined>;
}

/** What a request asks for: the dialog, and the tool call for one full result. */
export interface ToolResultsTarget {
  dialogId: string;
  /** Absent for the listing. */
  toolCallId?: string;
}

/**
 * What `authorize` decides: `true` serves the request, `false` answers 403;
 * `{ actor }` serves it and names who asked (the audit log records it with
 * each `read` and `listed` entry); `{ status: 401 }` asks for credentials
 * (with `WWW-Authenticate`, default `Bearer`), `{ status: 403 }` refuses,
 * each with an optional `detail`.
 */
export type AuthorizeDecision = boolean | { actor: string } | { status: 401 | 403; detail?: string; wwwAuthenticate?: string };

export interface ToolResultsHandlerOptions {
  /** Where the endpoints live: `/api` (default) serves `/api/dialogs/…`; `''` serves `/dialogs/…`. */
  basePath?: string;
  /**
   * Who may read what; runs after the ids are checked and before the store is
   * read, so a refused caller learns nothing about what exists. Without it
   * nothing is served (403) unless `public: true`.
   */
  authorize?: (request: Request, target: ToolResultsTarget) => MaybePromise<AuthorizeDecision>;
  /** Serve every dialog to anyone (no `authorize`). */
  public?: boolean;
  /** Items per page when the request gives no `limit` (50). */
  defaultLimit?: number;
  /** The largest `limit` a request may ask for (500). */
  maxLimit?: number;
  /** `Cache-Control` of successful answers (`private, no-cache`: revalidated with the ETag). */
  cacheControl?: string;
  /**
   * Called with what made an answer a 500 (the answer itself says only
   * "internal error", or for a result the store cannot read, the store's
   * code); default `console.error` of the answer's code and the error.
   */
  onError?: (error: unknown, request: Request) => void;
  /**
   * An audit log: a `listed` entry for every listing served and a `read`
   * entry for every result served (200, 304, HEAD), with the `actor`
   * `authorize` returned. Appended before the answer is sent; if it fails,
   * the answer is a 500 and nothing is served.
   */
  audit?: AuditLog;
}

/** A record of the dialog the store holds but could not read (docs/guide/storage.md, "Encryption at rest"). */
export interface ToolResultsSkipped {
  execution_id: string;
  tool_call_id?: string;
  /** Why: `key_unavailable`, `decryption_failed`, `encryption_required` (or `corrupt_row`). */
  code: string;
}

/** One page of a dialog's results, newest first. */
export interface ToolResultsPage {
  dialog_id: string;
  items: StoredMeta[];
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
  /** On every page: the dialog's records the store could not read, so left out of `items` (empty when none). */
  skipped: ToolResultsSkipped[];
}

/**
 * A result the store holds but cannot read: the problem's code is the
 * store's, the detail says what it means without naming keys or files. A
 * 500: the request is valid and the result exists; only the server (its
 * keys, its storage) can make it readable again.
 */
const UNREADABLE: Record<string, string> = {
  key_unavailable: 'this result is stored under an encryption key the server was not given; it cannot be served',
  decryption_failed: 'this result is stored but failed its integrity check (changed or moved); it is not served',
  encryption_required: 'this result is stored encrypted, and the server reads the store without its keys',
};
const unreadableCode = (e: unknown): string | undefined => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(UNREADABLE, code) ? code : undefined;
};

/** Responses of requests no route matched: `toNodeListener` passes those on to `next` (Express). */
export const unrouted: WeakSet<Response> = new WeakSet();

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  500: 'Internal Server Error',
};

const ALLOW = 'GET, HEAD';

function problem(status: number, code: string, detail: string, headers: Record<string, string> = {}): Response {
  const body = JSON.stringify({ type: 'about:blank', title: TITLES[status], status, detail, code });
  return new Response(body, {
    status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers },
  });
}

function invalidOptions(path: string, message: string): ToolResultError {
  return new ToolResultError('invalid_options', message, [{ path, code: 'invalid_options', message }]);
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw invalidOptions(`/${name}`, `${name} must be a positive integer`);
  return value;
}

/**
 * Whether the Accept header lets the answer be JSON (`application/json`,
 * `application/*`, `*\/*` with q > 0); no header accepts anything.
 */
function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  let best = -1;
  let bestQ = 0;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    const specificity = type === 'application/json' ? 2 : type === 'application/*' ? 1 : type === '*/*' ? 0 : -1;
    if (specificity < 0) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    // The most specific range that matches decides (RFC 9110 §12.5.1).
    if (specificity > best) {
      best = specificity;
      bestQ = Number.isFinite(q) ? q : 0;
    }
  }
  return best >= 0 && bestQ > 0;
}

/** RFC 3339 to milliseconds, the same in every engine (Date.parse of more than ISO's subset is implementation-defined). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
function startedMs(meta: StoredMeta): number {
  const m = RFC3339.exec(meta.started_at);
  if (!m) return Number.NEGATIVE_INFINITY;
  const [, y, mo, d, h, mi, s, frac = '', sign, oh = '0', om = '0'] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.slice(0, 3).padEnd(3, '0')));
  const offset = (Number(oh) * 60 + Number(om)) * 60_000;
  return sign === '+' ? utc - offset : sign === '-' ? utc + offset : utc;
}

// The cursor names the last item of a page: its execution id and start time.
// The next page is what follows that item; if the item has gone since
// (retention), it is what started before it. Inserts and evictions never
// repeat or skip an item that was there on both pages.
interface Cursor {
  e: string;
  t: number;
}

function encodeCursor(c: Cursor): string {
  // A start time that does not parse sorts last (-Infinity, which JSON writes as null).
  const bytes = new TextEncoder().encode(JSON.stringify([Number.isFinite(c.t) ? c.t : null, c.e]));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [t, e] = value as unknown[];
    if ((t !== null && (typeof t !== 'number' || !Number.isFinite(t))) || !isSafeId(e)) return undefined;
    return { t: t ?? Number.NEGATIVE_INFINITY, e };
  } catch {
    return undefined;
  }
}

/** `If-None-Match` holds `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`. */
function noneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

type Route = { kind: 'list'; dialog: string } | { kind: 'one'; dialog: string; call: string };

/** The route of a path under basePath (segments still percent-encoded), or undefined. */
function route(pathname: string, basePath: string): Route | undefined {
  if (!pathname.startsWith(`${basePath}/dialogs/`)) return undefined;
  const parts = pathname.slice(basePath.length + '/dialogs/'.length).split('/');
  if (parts[1] !== 'tool-results' || parts.length > 3) return undefined;
  if (parts.length === 2) return { kind: 'list', dialog: parts[0] };
  return { kind: 'one', dialog: parts[0], call: parts[2] };
}

function decodeId(segment: string): string | undefined {
  try {
    const id = decodeURIComponent(segment);
    return isSafeId(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * the lazy-loading endpoints (docs/guide/storage.md) over `store` as a Fetch handler:
 * `GET {basePath}/dialogs/{dialog_id}/tool-results` (the dialog's results as
 * metadata with summary and preview, newest first, `limit` and `cursor`,
 * `tool` and `status` filters) and
 * `GET {basePath}/dialogs/{dialog_id}/tool-results/{tool_call_id}` (the full
 * result, with an `ETag` from its sha256; `If-None-Match` answers 304).
 * Without `options.authorize` nothing is served unless `options.public` is true.
 */
export function createToolResultsHandler(store: ToolResultsSource, options: ToolResultsHandlerOptions = {}): (request: Request) => Promise<Response> {
  if (!store || typeof store.listDialog !== 'function' || typeof store.getByToolCallId !== 'function' || typeof store.meta !== 'function') {
    throw invalidOptions('', 'createToolResultsHandler takes a result store (listDialog, getByToolCallId, meta)');
  }
  if (options === null || typeof options !== 'object') throw invalidOptions('', 'options must be an object');
  refuseUnknownOptions(
    options,
    ['basePath', 'authorize', 'public', 'defaultLimit', 'maxLimit', 'cacheControl', 'onError', 'audit'],
    'createToolResultsHandler',
  );
  const givenBase: unknown = options.basePath ?? '/api';
  // A trailing slash is dropped: `/api/` serves what `/api` does.
  const basePath = typeof givenBase === 'string' ? givenBase.replace(/\/+$/, '') : undefined;
  if (basePath === undefined || (basePath !== '' && !basePath.startsWith('/')) || /[?#]/.test(basePath)) {
    throw invalidOptions('/basePath', "basePath must be a path starting with '/' (or '' for the root)");
  }
  const { authorize } = options;
  if (authorize !== undefined && typeof authorize !== 'function') throw invalidOptions('/authorize', 'authorize must be a function');
  if (authorize !== undefined && options.public === true) throw invalidOptions('/public', 'give authorize or public: true, not both');
  const maxLimit = positiveInteger(options.maxLimit, 'maxLimit', 500);
  const defaultLimit = positiveInteger(options.defaultLimit, 'defaultLimit', Math.min(50, maxLimit));
  if (defaultLimit > maxLimit) throw invalidOptions('/defaultLimit', 'defaultLimit must not exceed maxLimit');
  const cacheControl = options.cacheControl ?? 'private, no-cache';
  // The log names the code the answer carried: a typed 500 (a record the store cannot read) is not an "internal error".
  const onError =
    options.onError ?? ((e: unknown) => console.error(`toolresult/http: answered 500 (${e instanceof ToolResultError ? e.code : 'internal error'})`, e));
  const open = options.public === true;
  const audit = auditOption(options.audit, 'createToolResultsHandler', false);

  /** A refusal to answer with, or who may read (`actor`, when `authorize` named one). */
  async function decide(request: Request, target: ToolResultsTarget): Promise<{ refused?: Response; actor?: string }> {
    if (!authorize) {
      return open ? {} : { refused: problem(403, 'not_authorized', 'this server has not said who may read tool results (authorize, or public: true)') };
    }
    const verdict = await authorize(request, target);
    if (verdict === true) return {};
    if (verdict !== null && typeof verdict === 'object' && !('status' in verdict) && 'actor' in verdict) {
      const { actor } = verdict;
      if (typeof actor !== 'string' || actor === '') {
        throw invalidOptions(
          '/authorize',
          `authorize returned { actor: ${typeof actor === 'string' ? '""' : typeof actor} }: actor must be a non-empty string`,
        );
      }
      return { actor };
    }
    return { refused: refusal(verdict) };
  }

  function refusal(verdict: AuthorizeDecision): Response {
    if (verdict !== null && typeof verdict === 'object' && 'status' in verdict && verdict.status === 401) {
      return problem(401, 'unauthenticated', verdict.detail ?? 'credentials are needed', { 'www-authenticate': verdict.wwwAuthenticate ?? 'Bearer' });
    }
    const detail =
      verdict !== null && typeof verdict === 'object' && 'detail' in verdict && typeof verdict.detail === 'string' ? verdict.detail : 'not allowed';
    return problem(403, 'forbidden', detail);
  }

  /** Records an answer about to be served; a log that refuses makes it a 500, so nothing unrecorded is served. */
  async function record(entry: Parameters<typeof accessRecord>): Promise<void> {
    if (!audit) return;
    try {
      await audit.append(accessRecord(...entry));
    } catch (e) {
      throw auditFailed(`a ${entry[0]} answer was ready`, e);
    }
  }

  function json(request: Request, body: string, headers: Record<string, string>): Response {
    const all = { 'content-type': 'application/json', 'cache-control': cacheControl, 'x-content-type-options': 'nosniff', ...headers };
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: all });
  }

  async function list(request: Request, url: URL, dialogId: string, actor: string | undefined): Promise<Response> {
    const params = url.searchParams;
    for (const name of ['limit', 'cursor', 'tool', 'status']) {
      if (params.getAll(name).length > 1) return problem(400, 'invalid_query', `${name} is given more than once`);
    }
    let limit = defaultLimit;
    const limitText = params.get('limit');
    if (limitText !== null) {
      limit = /^[0-9]{1,6}$/.test(limitText) ? Number(limitText) : 0;
      if (limit < 1 || limit > maxLimit) return problem(400, 'invalid_query', `limit must be an integer from 1 to ${maxLimit}`);
    }
    const tool = params.get('tool');
    if (tool !== null && (tool === '' || tool.length > 200)) return problem(400, 'invalid_query', 'tool must be a tool name (1 to 200 characters)');
    const status = params.get('status');
    if (status !== null) {
      try {
        statusInfo(status as never, 'tool');
      } catch {
        return problem(400, 'invalid_query', 'status must be a tool status (success, failed, timeout, ...)');
      }
    }
    const cursorText = params.get('cursor');
    const cursor = cursorText === null ? undefined : decodeCursor(cursorText);
    if (cursorText !== null && !cursor) return problem(400, 'invalid_cursor', 'cursor is not one this endpoint gave');

    // Newest first: by started_at, then the later stored first (as `history`).
    const stored = await store.listDialog(dialogId);
    const ordered = stored.map((meta, seq) => ({ meta, seq, t: startedMs(meta) })).sort((a, b) => b.t - a.t || b.seq - a.seq);
    let from = 0;
    if (cursor) {
      const at = ordered.findIndex((x) => x.meta.execution_id === cursor.e);
      from = at >= 0 ? at + 1 : ordered.findIndex((x) => x.t < cursor.t);
      if (from < 0) from = ordered.length;
    }
    const items: StoredMeta[] = [];
    let last: (typeof ordered)[number] | undefined;
    let more = false;
    for (let i = from; i < ordered.length; i++) {
      const x = ordered[i];
      if ((tool !== null && x.meta.tool_name !== tool) || (status !== null && x.meta.status !== status)) continue;
      if (items.length === limit) {
        more = true;
        break;
      }
      items.push(x.meta);
      last = x;
    }
    const next = more && last ? encodeCursor({ e: last.meta.execution_id, t: last.t }) : null;
    const headers: Record<string, string> = {};
    if (next) {
      const nextUrl = new URL(url);
      nextUrl.searchParams.set('cursor', next);
      headers.link = `<${nextUrl.pathname}${nextUrl.search}>; rel="next"`;
    }
    // The store's own skipped records, without their key ids (the server's business, not the reader's).
    const skipped = (stored.skipped ?? []).map((r) => ({
      execution_id: r.execution_id,
      ...(r.tool_call_id === undefined ? {} : { tool_call_id: r.tool_call_id }),
      code: r.code,
    }));
    const page: ToolResultsPage = { dialog_id: dialogId, items, next_cursor: next, skipped };
    await record(['listed', { dialog_id: dialogId }, actor]);
    return json(request, JSON.stringify(page), headers);
  }

  /** Whether the dialog's listing names this tool call, read or skipped. */
  async function listsCall(dialogId: string, toolCallId: string): Promise<boolean> {
    const listed = await store.listDialog(dialogId);
    return listed.some((m) => m.tool_call_id === toolCallId) || (listed.skipped ?? []).some((r) => r.tool_call_id === toolCallId);
  }

  async function one(request: Request, dialogId: string, toolCallId: string, actor: string | undefined): Promise<Response> {
    const missing = () => problem(404, 'not_found', 'no such tool result in this dialog');
    let result: ToolResult | undefined;
    let meta: StoredMeta | undefined;
    try {
      result = await store.getByToolCallId(toolCallId);
      // A tool call id is unique in a store, but the URL names the dialog too: another dialog's result is not here.
      if (result) meta = await store.meta(result.metadata.execution_id);
    } catch (e) {
      const code = unreadableCode(e);
      if (code === undefined) throw e;
      // Said only of this dialog's records: another dialog's unreadable record is not found here, as a readable one is not.
      if (!(await listsCall(dialogId, toolCallId))) return missing();
      onError(e, request);
      return problem(500, code, UNREADABLE[code]);
    }
    if (!result) return missing();
    if (!meta || (meta.dialog_id ?? '') !== dialogId) return missing();
    const body = JSON.stringify(result);
    const sha = sha256Hex(body);
    const etag = `"${sha}"`;
    const headers = { etag, 'cache-control': cacheControl };
    await record(['read', { dialog_id: dialogId, tool_call_id: toolCallId, execution_id: result.metadata.execution_id }, actor, sha]);
    if (noneMatch(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    return json(request, body, headers);
  }

  return async (request: Request): Promise<Response> => {
    try {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return problem(400, 'invalid_url', 'the request URL is not a URL');
      }
      const r = route(url.pathname, basePath);
      if (!r) {
        const response = problem(404, 'not_found', 'no such endpoint');
        unrouted.add(response);
        return response;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return problem(405, 'method_not_allowed', `${ALLOW} only`, { allow: ALLOW });
      }
      const dialogId = decodeId(r.dialog);
      const toolCallId = r.kind === 'one' ? decodeId(r.call) : undefined;
      if (dialogId === undefined || (r.kind === 'one' && toolCallId === undefined)) {
        const which = dialogId === undefined ? 'dialog_id' : 'tool_call_id';
        return problem(400, 'invalid_id', `${which} must be 1-200 letters, digits, '.', '_' or '-', not starting with '.'`);
      }
      if (!acceptsJson(request.headers.get('accept'))) return problem(406, 'not_acceptable', 'the answer is application/json');
      const { refused, actor } = await decide(request, r.kind === 'one' ? { dialogId, toolCallId } : { dialogId });
      if (refused) return refused;
      return r.kind === 'list' ? await list(request, url, dialogId, actor) : await one(request, dialogId, toolCallId as string, actor);
    } catch (e) {
      onError(e, request);
      return problem(500, 'internal_error', 'the server could not answer this request');
    }
  };
}
