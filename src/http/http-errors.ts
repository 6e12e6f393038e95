// Errors only the HTTP binding raises (routing and body limits). They share the engine's error body shape.

import { WebsiftError } from '../errors.js';

/** 404 `not_found`: no endpoint at that path (check `basePath`). Not retryable. */
export class NotFoundError extends WebsiftError {
  override name = 'NotFoundError' as const;
  constructor(path: string) {
    super(404, 'not_found', `No endpoint at ${path}; the API serves /api/search, /api/crawl and /api/usage`);
  }
}

/** 405 `method_not_allowed`: the endpoint exists but not for this method; `allow` lists the ones it takes (also the `Allow` header). */
export class MethodNotAllowedError extends WebsiftError {
  override name = 'MethodNotAllowedError' as const;
  /** The methods the endpoint accepts. */
  readonly allow: readonly string[];
  constructor(method: string, path: string, allow: readonly string[]) {
    super(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allow.join(' or ')}`);
    this.allow = allow;
  }
}

/**
 * 408 `request_timeout`: the request body did not arrive within `bodyTimeoutMs`. Retryable (nothing was
 * read into a call, nothing charged); a client on a slow link sends a smaller body, or the operator raises the limit.
 */
export class RequestTimeoutError extends WebsiftError {
  override name = 'RequestTimeoutError' as const;
  constructor(limitMs: number) {
    super(408, 'request_timeout', `The request body did not arrive within ${limitMs} ms; nothing was charged`, { retryable: true });
  }
}

/** 413 `payload_too_large`: the body is over `maxBodyBytes` (`max_body_bytes` in the body). Send a shorter body. */
export class PayloadTooLargeError extends WebsiftError {
  override name = 'PayloadTooLargeError' as const;
  constructor(limit: number) {
    super(413, 'payload_too_large', `The request body is larger than the limit of ${limit} bytes`, {
      extra: { max_body_bytes: limit },
    });
  }
}

/**
 * 500 `internal_error`, with its cause named: the host mounted the node handler after something that read
 * the request body and left no `req.body` (a body parser for another type, a logging middleware). A setup
 * fault of the host, reported through `onError` too; the request is never left unanswered.
 */
export class BodyAlreadyReadError extends WebsiftError {
  override name = 'BodyAlreadyReadError' as const;
  constructor() {
    super(
      500,
      'internal_error',
      'The request body was already read by the host before websift got it, and no req.body was left: mount the handler before body-reading middleware, or leave the parsed body in req.body (docs/http.md, "Mounting in a framework")',
    );
  }
}
