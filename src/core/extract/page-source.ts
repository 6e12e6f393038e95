// Where a page comes from: the plain fetch pipeline, or the browser in stealth mode.
// Either way the caller gets a PageOutcome; conversion to the requested format happens here too.
// A page's time limit (withPageLimit) counts its fetch and its conversion, not its wait for a worker:
// the page's clock stops when it joins the conversion queue and the conversion gets the time left
// from the moment it starts on a worker. The wait has a limit of its own (the same length), so a page
// stuck behind its own organization's backlog fails alone as `timeout` instead of holding its request
// to the request deadline; the request's deadline and the caller still stop it too.

import type { Renderer } from '../../ports/renderer.js';
import { FetchFailure, isFetchFailure } from '../../ports/fetcher.js';
import { timeLimit } from '../../signals.js';
import type { PageMetadata } from '../../types/index.js';
import { failureOutcome, type PageOutcome } from './page-outcome.js';

/** The fetch pipeline (src/fetch/load-page.ts): robots, type gating, size cap, redirects, decoding. */
export interface PageLoader {
  load(
    url: string,
    options: { signal?: AbortSignal },
  ): Promise<{ url: string; finalUrl: string; status: number; mimeType: string; text: string; contentLanguage?: string }>;
}

/** What the converter is given (src/conversion/convert-page.ts, ConversionTask). */
export interface ConversionRequest {
  mimeType: string;
  text: string;
  finalUrl: string;
  /** `metadata`: read the page's metadata without converting it (the `html` format). */
  want?: 'markdown' | 'metadata';
  links?: boolean;
  contentLanguage?: string;
}

/** Markdown and metadata (without `final_url`) of one document. */
export interface ConvertedDocument {
  markdown: string;
  metadata: PageMetadata;
  links?: string[];
}

/** One page's claim on the converter (src/conversion/conversion-pool.ts, ConversionRun). */
export interface ConversionRun {
  /** Stops the page, queued or converting: the request's deadline, the caller. */
  signal: AbortSignal;
  /** Whose share of the pool the page uses. */
  org: string;
  /** Most time the conversion may take, counted from when it starts on a worker. */
  budgetMs: number;
  /** Most time the page may wait for a worker (the page's limit again, counted apart). */
  waitMs: number;
}

/**
 * Converts off the event loop (src/conversion/); rejects with the signal's reason when it aborts
 * first, a TimeoutError past the budget, FetchFailure('overloaded') when the organization's backlog is full.
 */
export type DocumentConverter = (doc: ConversionRequest, run: ConversionRun) => Promise<ConvertedDocument>;

export interface PageSourceDeps {
  loader: PageLoader;
  renderer?: Renderer | undefined;
  convert: DocumentConverter;
  /** Gets the converter ready while a page that will be converted is fetched. */
  warm?: () => void;
  maxBytes: number;
  /** One page's own time: fetch (or render) and conversion, its wait for a conversion worker not counted. */
  timeoutMs: number;
}

/** One page's work: whose it is, and its time (withPageLimit). */
export interface PageLimit {
  org: string;
  /** The fetch runs under it: aborts with the request or at the page's time limit. */
  signal: AbortSignal;
  /** The request's own signal (its deadline, the caller). */
  request: AbortSignal;
  /** Stops the page's clock (the conversion takes over) and returns the time it had left, in ms. */
  stop(): number;
}

/** Runs one page's work under the request's signal, cut at the page's own time limit. */
export async function withPageLimit<T>(
  deps: PageSourceDeps,
  request: { signal: AbortSignal; org: string },
  work: (page: PageLimit) => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const limit = timeLimit(deps.timeoutMs, request.signal, `The page took longer than ${deps.timeoutMs} ms`);
  let left: number | undefined;
  const stop = () => {
    if (left === undefined) {
      limit.clear();
      left = Math.max(0, deps.timeoutMs - (performance.now() - started));
    }
    return left;
  };
  try {
    return await work({ org: request.org, signal: limit.signal, request: request.signal, stop });
  } finally {
    limit.clear();
  }
}

/** Converts `doc` as the page's last step: the page's clock stops, and the conversion gets the time left (at most `capMs`). */
export function convertWithin(deps: PageSourceDeps, doc: ConversionRequest, page: PageLimit, capMs = Infinity): Promise<ConvertedDocument> {
  page.signal.throwIfAborted();
  const budgetMs = Math.min(capMs, page.stop());
  return deps.convert(doc, { signal: page.request, org: page.org, budgetMs, waitMs: deps.timeoutMs });
}

export interface PageRequest {
  url: string;
  format: 'markdown' | 'html';
  stealth: boolean;
  page: PageLimit;
  /** Collect the page's links (`links` on the outcome). */
  links?: boolean;
  /** The `html` format as fetched, not even parsed for metadata (the caller converts it itself): metadata is `final_url` only. */
  raw?: boolean;
}

/** Loads one page and converts it; never throws for per-URL problems. `request.page`: see withPageLimit. */
export async function loadPage(deps: PageSourceDeps, request: PageRequest): Promise<PageOutcome> {
  const { page: limit } = request;
  if (limit.signal.aborted) return failureOutcome(limit.signal.reason);
  if (!request.raw) deps.warm?.();
  try {
    const doc = await fetchDocument(deps, request);
    const page = { status: doc.status, finalUrl: doc.finalUrl, mimeType: doc.mimeType };
    if (request.raw) {
      const language = doc.contentLanguage !== undefined ? { contentLanguage: doc.contentLanguage } : {};
      return { ok: true, ...page, text: doc.text, metadata: { final_url: doc.finalUrl }, ...language };
    }
    const task: ConversionRequest = { mimeType: doc.mimeType, text: doc.text, finalUrl: doc.finalUrl };
    if (request.links) task.links = true;
    if (doc.contentLanguage !== undefined) task.contentLanguage = doc.contentLanguage;
    if (request.format === 'html') {
      const facts = await readMetadata(deps, { ...task, want: 'metadata' }, limit);
      return { ok: true, ...page, text: doc.text, ...withFinalUrl(facts, doc.finalUrl) };
    }
    const converted = await convertDocument(deps, task, doc.status, limit);
    return { ok: true, ...page, text: converted.markdown, ...withFinalUrl(converted, doc.finalUrl) };
  } catch (error) {
    // The request's end or the page's own limit, whichever stopped it (the page's clock may be stopped).
    const stopped = limit.request.aborted ? limit.request : limit.signal.aborted ? limit.signal : undefined;
    return failureOutcome(stopped ? (stopped.reason ?? error) : error);
  }
}

/** A converted document's metadata with `final_url`, and its links when it has them. */
export function withFinalUrl(doc: Omit<ConvertedDocument, 'markdown'>, finalUrl: string): { metadata: PageMetadata; links?: string[] } {
  const metadata = { ...doc.metadata, final_url: finalUrl };
  return doc.links ? { metadata, links: doc.links } : { metadata };
}

/** The most time the `html` format's metadata read may take (a parse, no conversion: well under a second for most pages). */
export const HTML_METADATA_BUDGET_MS = 5_000;

/**
 * The `html` format's metadata: a page whose metadata can't be read (the converter's heap limit,
 * longer than HTML_METADATA_BUDGET_MS on a worker, or the organization's conversion backlog full) is
 * still delivered as fetched, with `final_url` only.
 */
async function readMetadata(deps: PageSourceDeps, task: ConversionRequest, page: PageLimit): Promise<Omit<ConvertedDocument, 'markdown'>> {
  try {
    return await convertWithin(deps, task, page, HTML_METADATA_BUDGET_MS);
  } catch (error) {
    if (page.request.aborted) throw error;
    return { metadata: {}, ...(task.links ? { links: [] } : {}) };
  }
}

async function fetchDocument(deps: PageSourceDeps, request: PageRequest): Promise<{
  url: string;
  finalUrl: string;
  status: number;
  mimeType: string;
  text: string;
  contentLanguage?: string;
}> {
  const { signal } = request.page;
  if (!request.stealth) return deps.loader.load(request.url, { signal });
  if (!deps.renderer) throw new FetchFailure('network', 'Stealth rendering is not configured for this engine');
  const page = await deps.renderer.render(request.url, { signal, maxBytes: deps.maxBytes });
  return { url: request.url, finalUrl: page.url, status: page.status, mimeType: page.contentType, text: page.html };
}

/** Conversion failures (the heap limit) report the status of the page they were served with. */
async function convertDocument(deps: PageSourceDeps, task: ConversionRequest, status: number, page: PageLimit): Promise<ConvertedDocument> {
  try {
    return await convertWithin(deps, task, page);
  } catch (error) {
    if (isFetchFailure(error) && error.statusCode === 0) throw new FetchFailure(error.type, error.message, status, { cause: error });
    throw error;
  }
}
