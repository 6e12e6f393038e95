// createFetchHandler: the HTTP API as `(Request) => Promise<Response>`, for any fetch-API runtime.

import type { Engine } from '../types.js';
import { createApiHandler } from './api-handler.js';
import type { FetchHandlerOptions } from './options.js';

export type FetchHandler = (request: Request) => Promise<Response>;

export function createFetchHandler(engine: Engine, options: FetchHandlerOptions = {}): FetchHandler {
  const handle = createApiHandler(engine, options);
  return async (request) => {
    const reply = await handle(request);
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}
