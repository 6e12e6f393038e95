// websift: the embeddable search-and-extraction engine.

export type { EngineOptions } from './engine/index.js';
export { createEngine } from './engine/index.js';

import { htmlToMarkdown as convertHtmlToMarkdown } from './convert/html-to-markdown.js';
import type { HtmlToMarkdownOptions } from './convert/markdown-options.js';

export type { HtmlToMarkdownOptions };
/**
 * The same main-content Markdown that `extract` returns, for HTML the caller already has.
 * (Declared by its signature so the published types never reach the converter's DOM types.)
 */
export const htmlToMarkdown: (html: string, options?: HtmlToMarkdownOptions) => string = convertHtmlToMarkdown;
export type { CallTraceContext, ChargeTraceContext, HttpTraceContext, PageTraceContext, SourceTraceContext } from './channels.js';
// The tracing channels' names and contexts (docs/operating.md, "Tracing"), for a subscriber of your own.
export { CHANNEL_NAMES } from './channels.js';
export type { RepeatEntry } from './core/books/index.js';
export { isIdempotentReplay } from './core/books/index.js';
export type { CachedPage } from './core/extract/run-extract.js';
export type { RateLimitPolicy } from './core/rate-limit.js';
export type { BreakerOptions, RouterOptions, SourceAttemptEvent } from './core/router/index.js';
export { isSourceError, SourceError } from './core/router/index.js';
export type { ConfirmedEmpty } from './core/search/index.js';
export { isNoResults } from './core/search/index.js';
export type { ErrorBody, ErrorTiming, FieldProblem, RateLimitInfo } from './errors.js';
export {
  CacheUnavailableError,
  ExtractTimeoutError,
  IdempotencyInProgressError,
  InsufficientCreditsError,
  InvalidRequestError,
  isInvalidRequestError,
  isRateLimitError,
  isWebsiftError,
  LedgerUnavailableError,
  RateLimitError,
  RateLimiterUnavailableError,
  SearchUnavailableError,
  UnauthorizedError,
  WebsiftError,
} from './errors.js';
export type { LookupFunction } from './fetch/guarded-connector.js';
export type { RobotsPolicy } from './fetch/robots.js';
export type { UndiciFetcherOptions } from './fetch/undici-fetcher.js';
// The default Fetcher and the stealth Renderer, to configure one beyond createEngine's options and
// pass it as `fetcher` / `renderer` (playwright-core is loaded only when the renderer first launches).
export { createUndiciFetcher } from './fetch/undici-fetcher.js';
export type { CacheReadOptions, CacheStore, CacheWriteOptions } from './ports/cache.js';
export type { Fetcher, FetchOptions, RawResponse } from './ports/fetcher.js';
// Custom Fetcher and Renderer adapters report per-URL failures with this (its `type` is the error_type).
export { FetchFailure, isFetchFailure } from './ports/fetcher.js';
export type { Flights } from './ports/flights.js';
export type { KeyEvents } from './ports/key-events.js';
export type { KeyStore, StoredKey } from './ports/key-store.js';
export type {
  ClaimOutcome,
  IdempotencyClaim,
  Ledger,
  RequestKind,
  Reservation,
  ReserveOutcome,
  Settlement,
  UsageCounts,
} from './ports/ledger.js';
export { DEFAULT_MAX_STORED_ANSWER_BYTES, IDEMPOTENCY_TTL_MS, UNSTORED_ANSWER } from './ports/ledger.js';
export type { RateDecision, RateLimiter } from './ports/rate-limiter.js';
export type { RenderedPage, Renderer, RenderOptions } from './ports/renderer.js';
export { DEFAULT_USER_AGENT } from './project.js';
export type { PlaywrightRenderer, PlaywrightRendererOptions } from './render/playwright-renderer.js';
export { createPlaywrightRenderer } from './render/playwright-renderer.js';
export type * from './types/index.js';
