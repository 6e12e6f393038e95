// createFetchHandler: the HTTP API as `(Request) => Promise<Response>`, for fetch-style frameworks on Node.

import type { Engine } from '../types/index.js';
import { createApiHandler } from './api-handler.js';
import { piecesLength } from './json-pieces.js';
import type { FetchHandlerOptions } from './options.js';

/** Answers one request of the HTTP API; never rejects (unexpected exceptions answer 500 and go to `onError`). */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * The HTTP API (`GET|POST /api/search`, `POST /api/crawl`, `GET /api/usage`) as a fetch-API handler:
 * authenticates the `Authorization: Bearer` key (or `x-api-key` on search), calls the engine, and
 * answers its JSON with the status of every `WebsiftError` (docs/http.md). Every reply carries
 * `X-Request-Id` (the caller's when sane, else a new UUID). For fetch-style frameworks
 * running on Node ≥ 20.18.1 (e.g. Hono via `@hono/node-server`): the engine needs Node.
 *
 * @param engine The engine to serve (not closed by the handler).
 * @param options `basePath`, `maxBodyBytes`, `bodyTimeoutMs`, `deprecationLink`, `onError`, `clock`, `health` (/healthz and /readyz).
 * @throws {TypeError} at creation for a bad option (a `basePath` without a leading `/`, a
 *   `maxBodyBytes` that is not a positive integer, a `deprecationLink` that is not an absolute URL).
 * @example
 * ```ts
 * const handle = createFetchHandler(engine, { basePath: '/v1' });
 * app.all('/v1/api/*', (c) => handle(c.req.raw)); // Hono
 * ```
 */
export function createFetchHandler(engine: Engine, options: FetchHandlerOptions = {}): FetchHandler {
  const handle = createApiHandler(engine, options);
  return async (request) => {
    const reply = await handle(request);
    if (!Array.isArray(reply.body)) return new Response(reply.body, { status: reply.status, headers: reply.headers });
    // A big answer's UTF-8 pieces, streamed as they are (no joined copy).
    const pieces = reply.body;
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (next < pieces.length) controller.enqueue(pieces[next++]!);
        else controller.close();
      },
    });
    return new Response(body, { status: reply.status, headers: { ...reply.headers, 'content-length': String(piecesLength(pieces)) } });
  };
}
