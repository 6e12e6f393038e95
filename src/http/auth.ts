// Reads the API key of a request: `Authorization: Bearer <key>` everywhere, `x-api-key` where allowed.

import type { ApiRequest } from './exchange.js';

export function apiKeyOf(request: ApiRequest, acceptApiKeyHeader: boolean): string | null {
  const authorization = request.headers.get('authorization');
  if (authorization !== null) {
    // The auth scheme is case-insensitive (RFC 9110 §11.1).
    const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization.trim());
    if (match?.[1]) return match[1];
  }
  if (acceptApiKeyHeader) {
    const key = request.headers.get('x-api-key')?.trim();
    if (key) return key;
  }
  return null;
}
