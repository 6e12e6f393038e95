// The fetch-style MCP handler behind node:http (`websift serve` mounts it at /mcp): the request as a
// web Request (its body streamed, cancelled when the client goes away), the Response streamed back.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { WebsiftError } from '../errors.js';
import type { McpFetchHandler } from './http-handler.js';

/** A node:http request listener. */
export type McpNodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The fetch-style MCP handler as a node:http request listener (`createMcpNodeHandler` in websift/mcp).
 * @param handle From `createMcpFetchHandler`.
 * @param onError Told about a handler that rejected (answered 500).
 * @example
 * ```ts
 * createServer(createMcpNodeHandler(createMcpFetchHandler(engine))).listen(8080);
 * ```
 */
export function toNodeHandler(handle: McpFetchHandler, onError: (error: unknown) => void = () => {}): McpNodeHandler {
  return (req, res) => {
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const withBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(urlOf(req), {
      method: req.method ?? 'GET',
      headers,
      signal: gone.signal,
      ...(withBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
    handle(request).then(
      (response) => {
        const head: Record<string, string> = {};
        response.headers.forEach((value, name) => (head[name] = value));
        res.writeHead(response.status, head);
        if (response.body === null) res.end();
        else
          Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>)
            .on('error', () => res.destroy())
            .pipe(res);
      },
      (error: unknown) => {
        onError(error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify(new WebsiftError(500, 'internal_error', 'Internal error').body));
      },
    );
  };
}

/** The request's absolute URL; a malformed Host only names the server, so it must not fail the request. */
function urlOf(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    return new URL((req.url ?? '/').replace(/^[^/]*/, ''), 'http://localhost');
  }
}
