// MCP over Streamable HTTP, stateless: every request is served by a fresh server for the organization
// of its Bearer API key, so any instance behind a balancer answers any request (2025-era clients too,
// through the SDK's stateless fallback). No key or a bad key is HTTP 401 before the SDK sees the request.

import { isWebsiftError, UnauthorizedError, WebsiftError } from '../errors.js';
import { apiKeyOf } from '../http/auth.js';
import type { Engine } from '../types/index.js';
import { loadMcpSdk } from './sdk.js';
import { checkMcpOptions, createMcpServer } from './server.js';

export interface McpHandlerOptions {
  /** Characters of page content per call when the caller gives no `max_chars` (default 20,000). */
  maxChars?: number;
  /** A POST body over this many bytes is answered 413 (default 4 MiB, the SDK's). */
  maxBodyBytes?: number;
  /** Told about errors outside any tool call (a malformed request, a server fault). */
  onError?: (error: Error) => void;
}

/** Answers one MCP request; never rejects for a request's own fault. */
export type McpFetchHandler = (request: Request) => Promise<Response>;

/**
 * The MCP endpoint as a fetch-style handler, authenticated by the API's keys (`Authorization: Bearer`).
 * Mount it at any path (e.g. `/mcp`); it answers every method there itself.
 * @throws {TypeError} at creation for a bad option.
 */
export function createMcpFetchHandler(engine: Engine, options: McpHandlerOptions = {}): McpFetchHandler {
  const maxChars = checkMcpOptions(options);
  const handler = loadMcpSdk().then(({ createMcpHandler }) =>
    createMcpHandler(({ authInfo }) => createMcpServer(engine, { organization: String(authInfo?.extra?.['organization']), maxChars }), {
      legacy: 'stateless',
      ...(options.maxBodyBytes !== undefined ? { maxRequestBodySize: options.maxBodyBytes } : {}),
      ...(options.onError ? { onerror: options.onError } : {}),
    }),
  );
  // A missing SDK is reported on first use, not as an unhandled rejection now.
  handler.catch(() => {});

  return async (request) => {
    let identity: { organization: string } | null;
    const key = apiKeyOf(request, false);
    try {
      identity = key === null ? null : await engine.authenticate(key);
    } catch (error) {
      // The key store could not answer (a 503 of the books): the API's answer, not a server fault.
      if (!isWebsiftError(error)) throw error;
      return errorResponse(error);
    }
    if (!identity) {
      const error = new UnauthorizedError(
        key === null ? 'Missing API key: send Authorization: Bearer <key>' : 'Invalid or revoked API key',
      );
      return errorResponse(error, { 'www-authenticate': 'Bearer' });
    }
    let mcp;
    try {
      mcp = await handler;
    } catch (error) {
      // The optional SDK is not installed: the endpoint exists but cannot serve (the body says what to install).
      return errorResponse(new WebsiftError(501, 'internal_error', (error as Error).message));
    }
    const authInfo = { token: key!, clientId: identity.organization, scopes: [], extra: { organization: identity.organization } };
    return mcp.fetch(request, { authInfo });
  };
}

/** An error answered before the SDK sees the request: the API's error body, stamped now. */
function errorResponse(error: WebsiftError, headers: Record<string, string> = {}): Response {
  error.timing = { response_time: 0, timestamp: new Date().toISOString() };
  const retryAfter = error.extra['retry_after'];
  if (typeof retryAfter === 'number') headers['retry-after'] = String(retryAfter);
  return Response.json(error.body, { status: error.status, headers });
}
