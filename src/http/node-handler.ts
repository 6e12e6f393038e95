// createNodeHandler: a thin node:http adapter over the same API core as the fetch handler. It reads the
// request body as a pull stream (stopping at the size limit) and writes the reply in one piece. It
// builds no fetch Request/Response (their construction cost more than the rest of the adapter) and
// patches no globals.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../types.js';
import { createApiHandler } from './api-handler.js';
import type { ApiReply, ApiRequest } from './exchange.js';
import type { FetchHandlerOptions } from './options.js';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function createNodeHandler(engine: Engine, options: FetchHandlerOptions = {}): NodeHandler {
  const handle = createApiHandler(engine, options);
  return (req, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : bodyOf(req);
    const request: ApiRequest = {
      method: req.method ?? 'GET',
      url: urlOf(req),
      headers: { get: (name) => headerOf(req, name) },
      body: body?.stream ?? null,
    };
    handle(request)
      .then((reply) => send(reply, req, res, body !== null && !body.finished()))
      .catch((error: unknown) => {
        // Only writing can fail here (the handler answers every error itself): drop the connection.
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
  };
}

interface NodeBody {
  stream: ReadableStream<Uint8Array>;
  /** Whether the request body was read to its end. */
  finished(): boolean;
}

/** A pull-based body: data is read from the socket only as the handler asks, so it can stop at the limit. */
function bodyOf(req: IncomingMessage): NodeBody {
  let ended = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          ended = true;
          controller.close();
        });
        req.once('error', (error) => controller.error(error));
      },
      pull() {
        req.resume();
      },
      cancel() {
        // Stop reading; the answer then closes the connection (see send()).
        req.pause();
        req.removeAllListeners('data');
      },
    },
    { highWaterMark: 1 },
  );
  return { stream, finished: () => ended };
}

function urlOf(req: IncomingMessage): string {
  // The host header only names the server; a malformed one must not break URL parsing of the path.
  const host = /^[\w.:[\]-]+$/.test(req.headers.host ?? '') ? req.headers.host : 'localhost';
  return `http://${host}${(req.url ?? '/').startsWith('/') ? req.url : '/'}`;
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function send(reply: ApiReply, req: IncomingMessage, res: ServerResponse, unreadBody: boolean): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...reply.headers };
  // A body left unread (over the limit, or not needed) can't be skipped on a kept-alive connection.
  if (unreadBody) headers['connection'] = 'close';
  if (reply.body !== null) headers['content-length'] = String(Buffer.byteLength(reply.body, 'utf8'));
  res.writeHead(reply.status, headers);
  // A string body: node:http sends it with the head in one write.
  res.end(req.method === 'HEAD' || reply.body === null ? undefined : reply.body, 'utf8');
}
