// Wires the extraction side of the engine: fetcher → page loader (robots, type gate, size cap),
// the stealth renderer, the conversion pool, the content cache; used by extract and include_content.
// close() closes what it created, never an injected fetcher or renderer.

import { pageCacheStore } from '../adapters/page-cache-store.js';
import { type ConversionStats, createConversionPool } from '../conversion/conversion-pool.js';
import type { PageSourceDeps } from '../core/extract/page-source.js';
import type { CachedPage } from '../core/extract/run-extract.js';
import { fetchContents } from '../core/extract/search-content.js';
import type { PartOffload } from '../core/read-parts.js';
import type { ContentFetcher } from '../core/search/index.js';
import { createPageLoader, DEFAULT_MAX_BYTES, DEFAULT_PAGE_TIMEOUT_MS } from '../fetch/load-page.js';
import { createRobotsPolicy } from '../fetch/robots.js';
import { createUndiciFetcher, DEFAULT_USER_AGENT } from '../fetch/undici-fetcher.js';
import type { CacheStore } from '../ports/cache.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { Renderer } from '../ports/renderer.js';
import { createPlaywrightRenderer } from '../render/playwright-renderer.js';
import type { Clock } from '../types/index.js';
import { normalizeEndpoint } from './allow-endpoints.js';
import { trackedPages } from './tracked-pages.js';

/** The extraction options of `createEngine` (used by `extract` and `include_content`). */
export interface ExtractionOptions {
  /**
   * Let extraction reach loopback, private, link-local, CGNAT and cloud-metadata addresses (default
   * false: they fail as `blocked_address`). All of them at once: for one local service prefer
   * `allowEndpoints`. Search sources are not subject to the address policy.
   */
  allowPrivateNetwork?: boolean;
  /**
   * Exact `ip:port` endpoints extraction may reach despite the address policy, e.g.
   * `['127.0.0.1:8080', '[::1]:8080']` (default none). Matched against the address actually connected
   * to, after DNS, so an entry is an IP: a host name, a missing port or a port outside 1–65535 throws
   * a TypeError naming the entry. Applies to page fetches, robots.txt and the stealth browser; not to an
   * injected `fetcher` or `renderer` (give them their own).
   */
  allowEndpoints?: string[];
  /**
   * Replaces the undici fetcher (its address policy and size cap included); `createUndiciFetcher` builds
   * the default with other options. Not closed by `engine.close()`.
   */
  fetcher?: Fetcher;
  /**
   * Replaces the playwright-core renderer used by stealth mode; `createPlaywrightRenderer` builds the
   * default with other options. Not closed by `engine.close()`.
   */
  renderer?: Renderer;
  /** The Chromium the stealth renderer launches (default /usr/bin/chromium, Debian package `chromium`). */
  chromiumPath?: string;
  /**
   * User-Agent of page and robots.txt fetches (default `websift/<version> (+https://github.com/websift/websift)`).
   * Its first word is the robots.txt product token. Empty or with control characters: TypeError.
   */
  userAgent?: string;
  /** Obey robots.txt (default true). */
  robots?: boolean;
  /**
   * Time for one URL: robots.txt, redirects and conversion included, its wait for a conversion worker
   * not counted (default 15 s); past it the URL fails as `timeout`. The wait has a limit of the same
   * length of its own.
   */
  pageTimeoutMs?: number;
  /** Worker threads converting pages to Markdown (default: the machine's cores, at most 4). */
  conversionThreads?: number;
  /** Heap limit of each conversion worker in MiB (default 384); a page that needs more fails alone as `too_large`. */
  conversionMemoryMb?: number;
  /**
   * Pages one organization may have waiting for or in conversion at once (default 50). Past it the
   * page fails alone as `overloaded` (include_content: `content_error: overloaded`), uncharged. Not a
   * positive integer: RangeError.
   */
  conversionBacklog?: number;
  /** Whole extract request (default 30 s); past it the request answers 504, nothing charged. */
  extractDeadlineMs?: number;
  /** include_content phase of a search (default 10 s); pages still loading get `timeout`. */
  contentDeadlineMs?: number;
  /** Pages fetched at once per request (default 10). */
  extractConcurrency?: number;
  /** Bytes of page text kept for free repeats (default 64 MiB). */
  pageCacheBytes?: number;
  /** `stealth: true` is refused (400 `stealth_unavailable`) from this date, by the engine's clock (default 2026-11-01T00:00:00Z). An unparsable date: RangeError. */
  stealthRemovalDate?: string | number | Date;
}

export const STEALTH_REMOVAL_DATE = '2026-11-01T00:00:00Z';

export interface Extraction {
  pages: PageSourceDeps;
  pageCache: CacheStore<CachedPage>;
  contentFetcher: ContentFetcher;
  /** Long pages' query passages on a conversion worker (reading in parts). */
  partOffload: PartOffload;
  deadlineMs: number;
  concurrency: number;
  stealthRemovedAt: number;
  /** The conversion pool's load, for metrics. */
  stats(): ConversionStats;
  close(): Promise<void>;
}

export function createExtraction(options: ExtractionOptions, clock: Clock): Extraction {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const allowPrivateNetwork = options.allowPrivateNetwork ?? false;
  const allowEndpoints = (options.allowEndpoints ?? []).map(normalizeEndpoint);
  const fetcher = options.fetcher ?? createUndiciFetcher({ allowPrivateNetwork, allowEndpoints, userAgent });
  // One robots.txt cache for the fetcher and the browser.
  const robots = options.robots === false ? false : createRobotsPolicy({ fetcher, clock, userAgent });
  const loader = createPageLoader({
    fetcher,
    clock,
    userAgent,
    robots,
    maxBytes: DEFAULT_MAX_BYTES,
    ...(options.pageTimeoutMs !== undefined ? { timeoutMs: options.pageTimeoutMs } : {}),
  });
  // The browser launches on the first stealth request only.
  const renderer =
    options.renderer ??
    createPlaywrightRenderer({
      allowPrivateNetwork,
      allowEndpoints,
      robots,
      robotsUserAgent: userAgent,
      clock,
      ...(options.chromiumPath !== undefined ? { executablePath: options.chromiumPath } : {}),
    });
  const conversion = createConversionPool({
    ...(options.conversionThreads !== undefined ? { threads: options.conversionThreads } : {}),
    ...(options.conversionMemoryMb !== undefined ? { memoryMb: options.conversionMemoryMb } : {}),
    ...(options.conversionBacklog !== undefined ? { backlog: options.conversionBacklog } : {}),
  });
  const pages: PageSourceDeps = trackedPages(
    {
      loader,
      renderer,
      convert: conversion.convertPage,
      warm: conversion.warm,
      maxBytes: DEFAULT_MAX_BYTES,
      timeoutMs: options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS,
    },
    clock,
  );
  const concurrency = options.extractConcurrency ?? 10;
  const contentDeadlineMs = options.contentDeadlineMs ?? 10_000;
  const stealthRemovedAt = new Date(options.stealthRemovalDate ?? STEALTH_REMOVAL_DATE).getTime();
  if (Number.isNaN(stealthRemovedAt)) throw new RangeError('createEngine: stealthRemovalDate is not a date');

  return {
    pages,
    pageCache: pageCacheStore(options.pageCacheBytes),
    contentFetcher: (results, count, signal, org, trace) =>
      fetchContents({ pages, clock, deadlineMs: contentDeadlineMs, concurrency }, results, count, signal, org, trace),
    // In the organization's turn, with a page's time to wait and to run, stopped with the call.
    partOffload: (task, call) =>
      conversion.part(task, {
        signal: call.signal ?? new AbortController().signal,
        org: call.org,
        waitMs: pages.timeoutMs,
        budgetMs: pages.timeoutMs,
      }),
    deadlineMs: options.extractDeadlineMs ?? 30_000,
    concurrency,
    stealthRemovedAt,
    stats: () => conversion.stats(),
    async close() {
      // An injected fetcher or renderer is the caller's to close.
      await Promise.all([
        conversion.close(),
        options.renderer ? undefined : renderer.close(),
        options.fetcher ? undefined : fetcher.close?.(),
      ]);
    },
  };
}
