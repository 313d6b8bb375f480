// A Fetch handler as a `node:http` request listener (and Express middleware).
// No Node import: the request and response are described by the parts used,
// so this file is the same in every build and needs no @types/node.
import { unrouted } from './handler.js';

/** The parts of `http.IncomingMessage` (or an Express request) used here. */
export interface NodeRequestLike extends AsyncIterable<unknown> {
  method?: string;
  url?: string;
  /** Express: the URL before a mount path was cut off (`app.use('/x', …)`). */
  originalUrl?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { encrypted?: boolean } | null;
}

/** The parts of `http.ServerResponse` used here. */
export interface NodeResponseLike {
  statusCode: number;
  headersSent: boolean;
  setHeader(name: string, value: string | string[]): unknown;
  write(chunk: Uint8Array): unknown;
  end(): unknown;
  destroy(error?: Error): unknown;
  once(event: 'close', listener: () => void): unknown;
  writableFinished?: boolean;
}

/**
 * `(req, res, next?)` for `http.createServer(…)` or Express: the request is
 * made a Fetch `Request` (its body streamed, aborted if the client goes away)
 * and the handler's `Response` is written back. With Express's `next`, a
 * request no route of the handler matches goes on to the next middleware;
 * without it, it gets the handler's 404.
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
): (req: NodeRequestLike, res: NodeResponseLike, next?: (error?: unknown) => void) => Promise<void> {
  return async (req, res, next) => {
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    let response: Response;
    try {
      response = await handler(toRequest(req, abort.signal));
    } catch (e) {
      // The handler answers its own errors; anything here is a bug of the caller's handler.
      if (next) return next(e);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/problem+json');
        res.write(new TextEncoder().encode(JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 })));
      }
      res.end();
      return;
    }
    if (next && unrouted.has(response)) return next();
    await writeResponse(response, res);
  };
}

function toRequest(req: NodeRequestLike, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:path`) are not headers.
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const host = headers.get('host') ?? 'localhost';
  const url = new URL(req.originalUrl ?? req.url ?? '/', `${req.socket?.encrypted ? 'https' : 'http'}://${host}`);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks = req[Symbol.asyncIterator]();
    init.body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(typeof value === 'string' ? new TextEncoder().encode(value) : (value as Uint8Array));
      },
      async cancel() {
        await chunks.return?.();
      },
    });
    // A streamed body needs it in Node's fetch.
    init.duplex = 'half';
  }
  return new Request(url, init);
}

async function writeResponse(response: Response, res: NodeResponseLike): Promise<void> {
  res.statusCode = response.status;
  const cookies = typeof response.headers.getSetCookie === 'function' ? response.headers.getSetCookie() : [];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length) res.setHeader('set-cookie', cookies);
  if (response.body) {
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch (e) {
      res.destroy(e instanceof Error ? e : new Error(String(e)));
      return;
    }
  }
  res.end();
}
