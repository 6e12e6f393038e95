// The Fetcher port: one raw HTTP exchange, with the safety policy of the adapter (address checks,
// decoded-size cap, timeouts) applied. Redirects, robots.txt, type gating and decoding are layered on
// top of it in src/fetch/, so every adapter gets them once.

import type { ExtractErrorType } from '../types/index.js';

/** What the engine asks of one `Fetcher.fetch`. */
export interface FetchOptions {
  /** Aborts the request (the page's time limit, the request deadline or the caller's signal). */
  signal: AbortSignal;
  /** Abort once this many *decoded* bytes have arrived (Content-Length above it: reject before reading). */
  maxBytes: number;
  /** At the cap, return the first `maxBytes` decoded bytes instead of failing (robots.txt: parse the first 500 KiB). */
  truncate?: boolean;
  /** Extra request headers; they win over the fetcher's own (user-agent, accept…). */
  headers?: Record<string, string>;
}

export interface RawResponse {
  /** The URL this response answers (no redirect following at this level). */
  url: string;
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Decoded (decompressed) body bytes (the undici adapter leaves a 3xx-with-Location body unread: empty). */
  body: Uint8Array;
}

export interface Fetcher {
  /** One request, no redirect following. Throws FetchFailure. */
  fetch(url: string, options: FetchOptions): Promise<RawResponse>;
  close?(): Promise<void>;
}

/**
 * A per-URL failure with the `error_type` it maps to (`network`, `timeout`, `blocked_address`,
 * `too_large`, `http`…). Custom `Fetcher` and `Renderer` adapters throw it; the engine reports it in
 * that URL's result, uncharged, and the other URLs are unaffected. Any other error counts as `network`.
 */
export class FetchFailure extends Error {
  override name = 'FetchFailure' as const;
  /** The `error_type` reported for the URL. */
  readonly type: ExtractErrorType;
  /** HTTP status to report (0 when no response was had). */
  readonly statusCode: number;
  constructor(type: ExtractErrorType, message: string, statusCode = 0, options?: { cause?: unknown }) {
    super(message, options);
    this.type = type;
    this.statusCode = statusCode;
  }
}

/** True for a `FetchFailure`. */
export const isFetchFailure = (e: unknown): e is FetchFailure => e instanceof FetchFailure;
