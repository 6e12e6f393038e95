// Options of the HTTP bindings and their defaults, in one place.

import { docsUrl } from '../project.js';
import type { Clock } from '../types/index.js';
import type { RequestInfo } from './exchange.js';

/** Options of `createFetchHandler` and `createNodeHandler`. */
export interface FetchHandlerOptions {
  /** Prefix of every route, e.g. `/v1` → `/v1/api/search`. Default: none. */
  basePath?: string;
  /** Largest accepted request body in bytes; larger bodies answer 413. Default 64 KiB. */
  maxBodyBytes?: number;
  /**
   * Longest time the request body may take to arrive, from the handler's first read; slower → 408
   * `request_timeout`. It bounds a trickled body whatever the host server's own timeouts are (node:http's
   * `requestTimeout` is 300 s by default). Default 30 s.
   */
  bodyTimeoutMs?: number;
  /**
   * Target of the `Link: <…>; rel="deprecation"` header sent when `engine`/`engines` is used: an absolute
   * URL (else TypeError). Default: the "Deprecated search parameters" section of docs/http.md in the repository.
   */
  deprecationLink?: string;
  /** Called with every unexpected exception (answered as a generic 500). Default: console.error. */
  onError?: (error: unknown, request: RequestInfo) => void;
  /** Clock for the timing of errors the binding itself raises (400/404/405/413). Default: system time. */
  clock?: Pick<Clock, 'now'>;
  /**
   * Also serve `GET /healthz` (200 while serving) and `GET /readyz` (200, or 503 naming the failing
   * check of `engine.readiness()`), under `basePath`, without a key. Default false.
   */
  health?: boolean;
}

export interface ResolvedOptions {
  basePath: string;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  deprecationLink: string;
  onError: (error: unknown, request: RequestInfo) => void;
  clock: Pick<Clock, 'now'>;
  health: boolean;
}

/** Default `maxBodyBytes`: 64 KiB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
/** Default `bodyTimeoutMs`: 30 s, time enough for 64 KiB at 2.2 KB/s. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** RFC 9745 structured date: 2026-01-01T00:00:00Z, when `engine`/`engines` became deprecated. */
export const DEPRECATION_DATE = '@1767225600';
/** Default target of the deprecation `Link` header: the section of docs/http.md on these parameters. */
export const DEFAULT_DEPRECATION_LINK = docsUrl('http.md#deprecated-search-parameters');

export function resolveOptions(options: FetchHandlerOptions = {}): ResolvedOptions {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError(`maxBodyBytes must be a positive integer, got ${String(options.maxBodyBytes)}`);
  }
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (!Number.isSafeInteger(bodyTimeoutMs) || bodyTimeoutMs < 1) {
    throw new TypeError(`bodyTimeoutMs must be a positive integer, got ${String(options.bodyTimeoutMs)}`);
  }
  const deprecationLink = options.deprecationLink ?? DEFAULT_DEPRECATION_LINK;
  if (typeof deprecationLink !== 'string' || !URL.canParse(deprecationLink) || /[\s<>"]/.test(deprecationLink)) {
    throw new TypeError(
      `deprecationLink must be an absolute URL without spaces, quotes or angle brackets, got ${String(options.deprecationLink)}`,
    );
  }
  return {
    basePath: normalizeBasePath(options.basePath ?? ''),
    maxBodyBytes,
    bodyTimeoutMs,
    deprecationLink,
    onError: options.onError ?? ((error) => console.error('websift/http: unexpected error', error)),
    clock: options.clock ?? { now: () => Date.now() },
    health: options.health === true,
  };
}

/** '' or '/prefix' without a trailing slash. */
function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!trimmed.startsWith('/')) throw new TypeError(`basePath must start with '/', got '${path}'`);
  return trimmed;
}
