// Where a page comes from: the plain fetch pipeline, or the browser in stealth mode.
// Either way the caller gets a PageOutcome; conversion to the requested format happens here too,
// under the same per-page signal (withPageLimit), so a page's time limit counts its conversion.

import type { Renderer } from '../../ports/renderer.js';
import { FetchFailure, isFetchFailure } from '../../ports/fetcher.js';
import { timeLimit } from '../../signals.js';
import { failureOutcome, type PageOutcome } from './page-outcome.js';

/** The fetch pipeline (src/fetch/load-page.ts): robots, type gating, size cap, redirects, decoding. */
export interface PageLoader {
  load(
    url: string,
    options: { signal?: AbortSignal },
  ): Promise<{ url: string; finalUrl: string; status: number; mimeType: string; text: string }>;
}

/** Converts off the event loop (src/conversion/); rejects with the signal's reason when it aborts first. */
export type DocumentConverter = (doc: { mimeType: string; text: string; finalUrl: string }, signal: AbortSignal) => Promise<string>;

export interface PageSourceDeps {
  loader: PageLoader;
  renderer?: Renderer | undefined;
  convert: DocumentConverter;
  /** Gets the converter ready while a page that will be converted is fetched. */
  warm?: () => void;
  maxBytes: number;
  /** One page's whole time: fetch (or render) and conversion. */
  timeoutMs: number;
}

/** Runs one page's work under the request's signal, cut at the page's own time limit. */
export async function withPageLimit<T>(deps: PageSourceDeps, request: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const limit = timeLimit(deps.timeoutMs, request, `The page took longer than ${deps.timeoutMs} ms`);
  try {
    return await work(limit.signal);
  } finally {
    limit.clear();
  }
}

export interface PageRequest {
  url: string;
  format: 'markdown' | 'html';
  stealth: boolean;
  signal: AbortSignal;
}

/** Loads one page and converts it; never throws for per-URL problems. `request.signal`: see withPageLimit. */
export async function loadPage(deps: PageSourceDeps, request: PageRequest): Promise<PageOutcome> {
  if (request.signal.aborted) return failureOutcome(request.signal.reason);
  if (request.format === 'markdown') deps.warm?.();
  try {
    const doc = await fetchDocument(deps, request);
    const text = request.format === 'html' ? doc.text : await convertDocument(deps, doc, request.signal);
    return { ok: true, status: doc.status, finalUrl: doc.finalUrl, mimeType: doc.mimeType, text };
  } catch (error) {
    if (request.signal.aborted) return failureOutcome(request.signal.reason ?? error);
    return failureOutcome(error);
  }
}

async function fetchDocument(deps: PageSourceDeps, request: PageRequest) {
  if (!request.stealth) return deps.loader.load(request.url, { signal: request.signal });
  if (!deps.renderer) throw new FetchFailure('network', 'Stealth rendering is not configured for this engine');
  const page = await deps.renderer.render(request.url, { signal: request.signal, maxBytes: deps.maxBytes });
  return { url: request.url, finalUrl: page.url, status: page.status, mimeType: page.contentType, text: page.html };
}

/** Conversion failures (the heap limit) report the status of the page they were served with. */
async function convertDocument(deps: PageSourceDeps, doc: { status: number; mimeType: string; text: string; finalUrl: string }, signal: AbortSignal) {
  try {
    return await deps.convert(doc, signal);
  } catch (error) {
    if (isFetchFailure(error) && error.statusCode === 0) throw new FetchFailure(error.type, error.message, doc.status, { cause: error });
    throw error;
  }
}
