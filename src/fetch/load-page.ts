// The page loader: one URL in, the body's bytes (or a FetchFailure with its error_type) out. It layers
// the per-URL rules over a Fetcher: extension gating before any request, robots.txt, manual redirects
// with every hop re-checked, a total deadline, the HTTP status rule, content-type and byte-sniff gating.
// Decoding the bytes (charset.ts) is left to whoever reads the text: the conversion worker, so a
// 10 MiB page is not decoded on the event loop.

import { STATUS_CODES } from 'node:http';
import { type Fetcher, FetchFailure, type RawResponse } from '../ports/fetcher.js';
import { timeLimit } from '../signals.js';
import type { Clock } from '../types/index.js';
import { toFetchFailure } from './fetch-errors.js';
import { RedirectChain, redirectTarget } from './redirects.js';
import { createRobotsPolicy, type RobotsPolicy } from './robots.js';
import { binaryReason, extensionRejection, judgeContentType, mimeEssence, sniffTextType } from './type-gate.js';
import { parseFetchableUrl } from './url-check.js';

/** 10 MiB of decoded body (contract). */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_PAGE_TIMEOUT_MS = 15_000;

export interface LoadedDocument {
  /** The URL as requested. */
  url: string;
  /** The URL after redirects. */
  finalUrl: string;
  status: number;
  /** Lower-case, without parameters: 'text/html', 'application/json'… (sniffed when the server sent none). */
  mimeType: string;
  /** The body as served (decompressed); `decodeBody(body, contentType)` gives its text. */
  body: Uint8Array;
  /** The Content-Type header as served (its charset decodes the body), when there was one. */
  contentType?: string;
  /** The Content-Language header, when the server sent one (a source of the page's language). */
  contentLanguage?: string;
}

export interface PageLoaderOptions {
  fetcher: Fetcher;
  /** Drives the robots.txt cache. */
  clock: Clock;
  userAgent: string;
  maxBytes?: number;
  /** Total time for one URL, robots.txt and redirects included (a real timer: network I/O is real). */
  timeoutMs?: number;
  /** Obey robots.txt (default true); a RobotsPolicy shares one robots.txt cache with the stealth renderer. */
  robots?: boolean | RobotsPolicy;
}

export interface PageLoader {
  /** Throws FetchFailure (type = the error_type, statusCode = the status to report). */
  load(url: string, options?: { signal?: AbortSignal }): Promise<LoadedDocument>;
}

/** "HTTP 404 Not Found". */
export const statusLine = (status: number): string => `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

export function createPageLoader(options: PageLoaderOptions): PageLoader {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS;
  const robots: RobotsPolicy | null =
    options.robots === false
      ? null
      : typeof options.robots === 'object'
        ? options.robots
        : createRobotsPolicy({ fetcher: options.fetcher, clock: options.clock, userAgent: options.userAgent });

  /** Rules checked before a URL (the first or a redirect target) is requested. */
  async function admit(url: URL, signal: AbortSignal, status: number): Promise<void> {
    const rejection = extensionRejection(url);
    if (rejection !== null) throw new FetchFailure('unsupported_content_type', rejection, status);
    await robots?.check(url, signal);
  }

  async function accept(requested: string, response: RawResponse, finalUrl: URL): Promise<LoadedDocument> {
    const { status } = response;
    if (status < 200 || status > 299) throw new FetchFailure('http', statusLine(status), status);
    const declared = response.headers['content-type'];
    const essence = mimeEssence(declared);
    const verdict = judgeContentType(essence);
    if (verdict === 'reject') throw new FetchFailure('unsupported_content_type', `Unsupported content type ${essence}`, status);
    // A binary body is refused whatever type it was served as.
    const binary = await binaryReason(response.body);
    if (binary !== null) throw new FetchFailure('unsupported_content_type', binary, status);
    const contentLanguage = response.headers['content-language'];
    return {
      url: requested,
      finalUrl: finalUrl.href,
      status,
      mimeType: verdict === 'sniff' ? sniffTextType(response.body) : essence,
      body: response.body,
      ...(declared !== undefined ? { contentType: declared } : {}),
      ...(contentLanguage ? { contentLanguage } : {}),
    };
  }

  async function run(requested: string, signal: AbortSignal): Promise<LoadedDocument> {
    let current = parseFetchableUrl(requested);
    const chain = new RedirectChain(current);
    let lastStatus = 0;
    for (;;) {
      await admit(current, signal, lastStatus);
      const response = await options.fetcher.fetch(current.href, {
        signal,
        maxBytes,
        headers: { 'user-agent': options.userAgent },
      });
      const next = redirectTarget(response, current);
      if (next === null) return accept(requested, response, current);
      chain.follow(next, response.status);
      lastStatus = response.status;
      current = next;
    }
  }

  return {
    async load(url: string, loadOptions: { signal?: AbortSignal } = {}): Promise<LoadedDocument> {
      const limit = timeLimit(timeoutMs, loadOptions.signal);
      const signal = limit.signal;
      try {
        return await run(url, signal);
      } catch (err) {
        const failure = toFetchFailure(err, signal);
        // An error page too big to read is still an error page: report its status, not its size.
        if (failure.type === 'too_large' && failure.statusCode !== 0 && (failure.statusCode < 200 || failure.statusCode > 299)) {
          throw new FetchFailure('http', statusLine(failure.statusCode), failure.statusCode, { cause: failure });
        }
        throw failure;
      } finally {
        limit.clear();
      }
    },
  };
}
