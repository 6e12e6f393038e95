// Where a page comes from: the plain fetch pipeline, or the browser in stealth mode.
// Either way the caller gets a PageOutcome; conversion to the requested format happens here too,
// under the same per-page signal (withPageLimit), so a page's time limit counts its conversion.

import type { Renderer } from '../../ports/renderer.js';
import { FetchFailure, isFetchFailure } from '../../ports/fetcher.js';
import { timeLimit } from '../../signals.js';
import type { PageMetadata } from '../../types/index.js';
import { withinPageCap } from './output-bounds.js';
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

/** Converts off the event loop (src/conversion/); rejects with the signal's reason when it aborts first. */
export type DocumentConverter = (doc: ConversionRequest, signal: AbortSignal) => Promise<ConvertedDocument>;

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
  /** Collect the page's links (`links` on the outcome). */
  links?: boolean;
  /** The `html` format as fetched, not even parsed for metadata (the caller converts it itself): metadata is `final_url` only. */
  raw?: boolean;
}

/** Loads one page and converts it; never throws for per-URL problems. `request.signal`: see withPageLimit. */
export async function loadPage(deps: PageSourceDeps, request: PageRequest): Promise<PageOutcome> {
  if (request.signal.aborted) return failureOutcome(request.signal.reason);
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
      const facts = await readMetadata(deps, { ...task, want: 'metadata' }, request.signal);
      return { ok: true, ...page, text: withinPageCap(doc.text, deps.maxBytes, doc.status), ...withFinalUrl(facts, doc.finalUrl) };
    }
    const converted = await convertDocument(deps, task, doc.status, request.signal);
    return { ok: true, ...page, text: withinPageCap(converted.markdown, deps.maxBytes, doc.status), ...withFinalUrl(converted, doc.finalUrl) };
  } catch (error) {
    if (request.signal.aborted) return failureOutcome(request.signal.reason ?? error);
    return failureOutcome(error);
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
 * The `html` format's metadata: a page whose metadata can't be read (the converter's heap limit, or
 * longer than HTML_METADATA_BUDGET_MS) is still delivered as fetched, with `final_url` only.
 */
async function readMetadata(deps: PageSourceDeps, task: ConversionRequest, signal: AbortSignal): Promise<Omit<ConvertedDocument, 'markdown'>> {
  const budget = timeLimit(HTML_METADATA_BUDGET_MS, signal, 'The page metadata took too long to read');
  try {
    return await deps.convert(task, budget.signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return { metadata: {}, ...(task.links ? { links: [] } : {}) };
  } finally {
    budget.clear();
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
  if (!request.stealth) return deps.loader.load(request.url, { signal: request.signal });
  if (!deps.renderer) throw new FetchFailure('network', 'Stealth rendering is not configured for this engine');
  const page = await deps.renderer.render(request.url, { signal: request.signal, maxBytes: deps.maxBytes });
  return { url: request.url, finalUrl: page.url, status: page.status, mimeType: page.contentType, text: page.html };
}

/** Conversion failures (the heap limit) report the status of the page they were served with. */
async function convertDocument(deps: PageSourceDeps, task: ConversionRequest, status: number, signal: AbortSignal): Promise<ConvertedDocument> {
  try {
    return await deps.convert(task, signal);
  } catch (error) {
    if (isFetchFailure(error) && error.statusCode === 0) throw new FetchFailure(error.type, error.message, status, { cause: error });
    throw error;
  }
}
