// Errors only the HTTP binding raises (routing and body limits). They share the engine's error body shape.

import { WebsiftError } from '../errors.js';

export class NotFoundError extends WebsiftError {
  override name = 'NotFoundError' as const;
  constructor(path: string) {
    super(404, 'not_found', `No endpoint at ${path}; the API serves /api/search, /api/crawl and /api/usage`);
  }
}

export class MethodNotAllowedError extends WebsiftError {
  override name = 'MethodNotAllowedError' as const;
  readonly allow: readonly string[];
  constructor(method: string, path: string, allow: readonly string[]) {
    super(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allow.join(' or ')}`);
    this.allow = allow;
  }
}

export class PayloadTooLargeError extends WebsiftError {
  override name = 'PayloadTooLargeError' as const;
  constructor(limit: number) {
    super(413, 'payload_too_large', `The request body is larger than the limit of ${limit} bytes`, {
      extra: { max_body_bytes: limit },
    });
  }
}
