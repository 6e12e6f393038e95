// A real node:http server on 127.0.0.1 (random port) that serves pages per path, for offline tests of
// extraction. Create the engine/fetcher with `allowPrivateNetwork: true` (or allow this one endpoint) so
// websift may reach it.

import http from 'node:http';
import { listenOnLoopback } from '../net/loopback-server.js';

/** A canned answer. `body` strings are sent as UTF-8. */
export interface PageResponse {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Uint8Array;
}

/** A canned answer, or a handler that writes the response itself (streaming, delays, redirects…). */
export type PageRoute = PageResponse | ((req: http.IncomingMessage, res: http.ServerResponse) => unknown);

export interface RecordedRequest {
  method: string;
  /** Path and query, as requested. */
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface PageServer {
  /** Absolute URL of `path` on this server. */
  url(path: string): string;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Adds or replaces the route of `path` (exact path, query ignored). */
  route(path: string, route: PageRoute): void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** Starts the server. Paths without a route answer 404 text/plain. */
export async function startPageServer(routes: Record<string, PageRoute> = {}): Promise<PageServer> {
  const table = new Map<string, PageRoute>(Object.entries(routes));
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const route = table.get(path.split('?')[0]!);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    if (typeof route === 'function') {
      Promise.resolve(route(req, res)).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`route failed: ${err instanceof Error ? err.message : String(err)}`);
      });
      return;
    }
    const body = route.body ?? '';
    res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
    res.end(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  });
  const { port, close } = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: (path: string) => new URL(path, origin).href,
    origin,
    port,
    requests,
    route: (path, route) => void table.set(path, route),
    close,
  };
}
