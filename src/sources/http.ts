// The one HTTP exchange every remote source makes, and the status → SourceError mapping they share.
// Adapters build a request and read the reply; transport failures, aborts, size caps, Retry-After and
// the generic status classes are handled here once.

import { SourceError } from '../core/router/index.js';
import { DEFAULT_USER_AGENT } from '../project.js';
import type { Clock, SourceContext } from '../types/index.js';

/** The subset of `fetch` the adapters use; the global fetch and undici's both fit. */
export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

/** Options every remote adapter takes. */
export interface RemoteSourceOptions {
  /** Source id (health, logs). Each adapter has a default. */
  id?: string;
  /** Injected fetch; default the global fetch. */
  fetch?: FetchFn;
  /** Sent as User-Agent (some providers, Wikimedia among them, require a descriptive one). */
  userAgent?: string;
  /** Extra headers on every request (a proxy's auth, for example). */
  headers?: Record<string, string>;
  /** Reads the time for HTTP-date Retry-After values; default the system clock. */
  clock?: Pick<Clock, 'now'>;
}

export { DEFAULT_USER_AGENT } from '../project.js';

/** A provider's body larger than this is not a search answer. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

export interface SendRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** Rejects a context the engine should never hand over, before any request goes out. */
export function checkContext(provider: string, ctx: SourceContext): number {
  if (!ctx || !(ctx.signal instanceof AbortSignal)) throw new TypeError(`${provider}: ctx.signal must be an AbortSignal`);
  ctx.signal.throwIfAborted();
  if (!Number.isInteger(ctx.limit) || ctx.limit < 1) {
    throw new RangeError(`${provider}: ctx.limit must be a positive integer (got ${String(ctx.limit)})`);
  }
  return ctx.limit;
}

export async function send(provider: string, options: RemoteSourceOptions, req: SendRequest, signal: AbortSignal): Promise<Reply> {
  const fetchFn: FetchFn = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const headers: Record<string, string> = {
    'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
    ...lowerKeys(options.headers ?? {}),
    ...lowerKeys(req.headers ?? {}),
  };
  let response: Response;
  try {
    response = await fetchFn(req.url, {
      method: req.method ?? 'GET',
      headers,
      signal,
      redirect: 'follow',
      ...(req.body === undefined ? {} : { body: req.body }),
    });
  } catch (error) {
    signal.throwIfAborted(); // an abort is the caller's, not the provider's fault: rethrow its reason
    throw new SourceError(`${provider}: request failed: ${describe(error)}`, { reason: 'unavailable', cause: error });
  }
  const text = await readCapped(provider, response, signal);
  return { status: response.status, headers: response.headers, text };
}

async function readCapped(provider: string, response: Response, signal: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > MAX_BODY_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw new SourceError(`${provider}: response of ${declared} bytes is too large`, { reason: 'bad_response', status: response.status });
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw new SourceError(`${provider}: response larger than ${MAX_BODY_BYTES} bytes`, {
          reason: 'bad_response',
          status: response.status,
        });
      }
      chunks.push(value);
    }
  } catch (error) {
    signal.throwIfAborted();
    if (error instanceof SourceError) throw error;
    throw new SourceError(`${provider}: response body failed: ${describe(error)}`, { reason: 'unavailable', cause: error });
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

/** Parses a JSON body; anything else is a bad_response. */
export function parseJson(provider: string, reply: Reply): unknown {
  try {
    return JSON.parse(reply.text);
  } catch (error) {
    const head = reply.text.slice(0, 80).replace(/\s+/g, ' ');
    throw new SourceError(`${provider}: malformed JSON (HTTP ${reply.status}): ${head}`, {
      reason: 'bad_response',
      status: reply.status,
      cause: error,
    });
  }
}

/** Retry-After as milliseconds (delta-seconds or an HTTP-date); undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, clock: Pick<Clock, 'now'> = Date): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - clock.now());
}

/**
 * The generic meaning of a failed status: 429 rate_limited (with Retry-After), 401/403 auth, 5xx and 408
 * unavailable, any other non-2xx bad_response. Adapters refine quota and configuration cases first.
 */
export function statusError(provider: string, reply: Reply, detail: string, clock?: Pick<Clock, 'now'>): SourceError {
  const status = reply.status;
  const message = `${provider}: HTTP ${status}${detail ? `: ${detail}` : ''}`;
  if (status === 429) {
    const wait = retryAfterMs(reply.headers, clock);
    return new SourceError(message, { reason: 'rate_limited', status, ...(wait === undefined ? {} : { retryAfterMs: wait }) });
  }
  if (status === 401 || status === 403) return new SourceError(message, { reason: 'auth', status });
  if (status >= 500 || status === 408) return new SourceError(message, { reason: 'unavailable', status });
  return new SourceError(message, { reason: 'bad_response', status });
}

export function badResponse(provider: string, reply: Reply, what: string): SourceError {
  return new SourceError(`${provider}: unexpected response (HTTP ${reply.status}): ${what}`, {
    reason: 'bad_response',
    status: reply.status,
  });
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Absolute http(s) URL or null: results must carry URLs a caller can fetch. */
export function absoluteUrl(value: unknown, base?: string): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = base === undefined ? new URL(value.trim()) : new URL(value.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The base URL option, validated once at construction (a clear error, not a failing search later). */
export function baseUrlOption(provider: string, value: unknown, fallback?: string): string {
  const raw = value ?? fallback;
  if (typeof raw !== 'string' || raw.trim() === '') throw new TypeError(`${provider}: baseUrl is required`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new TypeError(`${provider}: baseUrl is not a valid URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${provider}: baseUrl must be http(s): ${raw}`);
  return url.href.replace(/\/+$/, '');
}

export function requiredString(provider: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${provider}: ${name} is required`);
  return value.trim();
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
