// Every reply the bindings send is built here: JSON bodies, and the single error → reply mapping.

import { type ErrorBody, RateLimitError, UnauthorizedError, WebsiftError } from '../errors.js';
import type { ApiReply, RequestInfo } from './exchange.js';
import { MethodNotAllowedError } from './http-errors.js';
import { BIG_ANSWER_CHARS, jsonPieces, stringChars } from './json-pieces.js';

/**
 * A JSON reply's headers, built as one literal rather than spread from a shared object: every reply
 * then has the same shape (the bindings add to it), and a spread of two objects cost ~1 µs per reply.
 */
function jsonHeaders(headers?: Record<string, string>): Record<string, string> {
  const all: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  if (headers) for (const name in headers) all[name] = headers[name]!;
  return all;
}

export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): ApiReply {
  return { status, headers: jsonHeaders(headers), body: JSON.stringify(body) };
}

/**
 * An engine's answer as a reply: in one piece, or, when its strings hold a megabyte or more (pages'
 * Markdown or HTML), as UTF-8 pieces made a turn of the event loop at a time (json-pieces.ts). The
 * same JSON text either way.
 */
export function answerReply(status: number, body: unknown, headers?: Record<string, string>): ApiReply | Promise<ApiReply> {
  // Not async for the usual small answer: its reply is made without a promise of its own.
  if (stringChars(body) < BIG_ANSWER_CHARS) return jsonReply(status, body, headers);
  return jsonPieces(body).then((pieces) => ({ status, headers: jsonHeaders(headers), body: pieces }));
}

/**
 * The reply to a request whose client went away before it was answered: never written by the node
 * binding; 499 (nginx's "client closed request") is what a fetch runtime's logs will show.
 */
export function clientGoneReply(): ApiReply {
  return { status: 499, headers: {}, body: null };
}

export interface ErrorContext {
  request: RequestInfo;
  /** Named in the body (`request_id`), except in the spec's exact search 503. */
  requestId: string;
  /** When the request arrived (ms since epoch), for the timing of errors raised before the engine ran. */
  startedAt: number;
  now: () => number;
  onError: (error: unknown, request: RequestInfo) => void;
}

/**
 * The one place an error becomes a reply. A WebsiftError keeps its status and `.body`, with the
 * headers its status calls for; anything else is reported through `onError` and answered as a
 * generic 500 that leaks nothing of the exception.
 */
export function errorReply(error: unknown, ctx: ErrorContext): ApiReply {
  // A server fault is the operator's to see: an unexpected exception, or a named 500 (a host set-up fault).
  if (!(error instanceof WebsiftError) || error.status === 500) report(error, ctx);
  if (!(error instanceof WebsiftError)) return jsonReply(500, { ...internalErrorBody(ctx), request_id: ctx.requestId });
  stampTiming(error, ctx);
  const headers: Record<string, string> = {};
  if (error instanceof UnauthorizedError) headers['www-authenticate'] = 'Bearer';
  if (error instanceof RateLimitError) {
    const { retryAfter, limit, window } = error.rateLimit;
    headers['retry-after'] = String(retryAfter);
    headers['ratelimit-policy'] = `"default";q=${limit};w=${window}`;
    headers['ratelimit'] = `"default";r=0;t=${retryAfter}`;
  }
  if (error instanceof MethodNotAllowedError) headers['allow'] = error.allow.join(', ');
  const body = error.body;
  // The spec's search 503 is exact (no `code`, nothing added): its request id is in the header only.
  return jsonReply(error.status, 'code' in body ? { ...body, request_id: ctx.requestId } : body, headers);
}

function report(error: unknown, ctx: ErrorContext): void {
  try {
    ctx.onError(error, { method: ctx.request.method, url: ctx.request.url, requestId: ctx.requestId });
  } catch {
    // A failing reporter must not turn a 500 into a crash.
  }
}

/** Errors the binding raises itself carry no timing yet (epoch 0); give them the request's. */
function stampTiming(error: WebsiftError, ctx: ErrorContext): void {
  if (error.timing.timestamp !== new Date(0).toISOString()) return;
  const now = ctx.now();
  error.timing = { response_time: Math.max(0, Math.round(now - ctx.startedAt)), timestamp: new Date(now).toISOString() };
}

function internalErrorBody(ctx: ErrorContext): ErrorBody {
  const now = ctx.now();
  return {
    status: 'error',
    error: 'Internal server error',
    code: 'internal_error',
    retryable: false,
    metadata: {
      status: 'error',
      response_time: Math.max(0, Math.round(now - ctx.startedAt)),
      timestamp: new Date(now).toISOString(),
    },
  };
}
