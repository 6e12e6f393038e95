// Where a page comes from: the plain fetch pipeline, or the browser in stealth mode.
// Either way the caller gets a PageOutcome; conversion to the requested format happens here too.

import type { Renderer } from '../../ports/renderer.js';
import { FetchFailure } from '../../ports/fetcher.js';
import { failureOutcome, type PageOutcome } from './page-outcome.js';

/** The fetch pipeline (src/fetch/load-page.ts): robots, type gating, size cap, redirects, decoding. */
export interface PageLoader {
  load(
    url: string,
    options: { signal?: AbortSignal },
  ): Promise<{ url: string; finalUrl: string; status: number; mimeType: string; text: string }>;
}

export type DocumentConverter = (doc: { mimeType: string; text: string; finalUrl: string }) => string;

export interface PageSourceDeps {
  loader: PageLoader;
  renderer?: Renderer | undefined;
  convert: DocumentConverter;
  maxBytes: number;
}

export interface PageRequest {
  url: string;
  format: 'markdown' | 'html';
  stealth: boolean;
  signal: AbortSignal;
}

/** Loads one page and converts it; never throws for per-URL problems. */
export async function loadPage(deps: PageSourceDeps, request: PageRequest): Promise<PageOutcome> {
  if (request.signal.aborted) return failureOutcome(request.signal.reason);
  try {
    const doc = await fetchDocument(deps, request);
    const text = request.format === 'html' ? doc.text : deps.convert(doc);
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
