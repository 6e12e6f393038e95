// Where a page comes from: the plain fetch pipeline, or the browser in stealth mode.
// Either way the caller gets a PageOutcome; conversion to the requested format happens here too,
// under the same per-page signal (withPageLimit), so a page's time limit counts its conversion.

import type { Renderer } from '../../ports/renderer.js';
import { FetchFailure, isFetchFailure } from '../../ports/fetcher.js';
import { decodeBody, decodeBodyInSlices } from '../../fetch/charset.js';
import { handOver, isHandedOver } from '../../fetch/owned-bytes.js';
import { timeLimit } from '../../signals.js';
import { nextTurn } from '../../turns.js';
import type { PageMetadata } from '../../types/index.js';
import { failureOutcome, type PageOutcome } from './page-outcome.js';

/** A document's body: text (a rendered page), or bytes as fetched, with the Content-Type they were served with. */
export type DocumentBody = { text: string } | { bytes: Uint8Array; contentType?: string };

/** A fetched (or rendered) document, not yet decoded when it came as bytes. */
export type FetchedDocument = { url: string; finalUrl: string; status: number; mimeType: string; contentLanguage?: string } & DocumentBody;

/** The fetch pipeline (src/fetch/load-page.ts): robots, type gating, size cap, redirects. */
export interface PageLoader {
  load(
    url: string,
    options: { signal?: AbortSignal },
  ): Promise<{ url: string; finalUrl: string; status: number; mimeType: string; body: Uint8Array; contentType?: string; contentLanguage?: string }>;
}

/**
 * What the converter is given (src/conversion/, WorkerTask). Bytes are decoded by the converter, off
 * the event loop; bytes websift handed over (fetch/owned-bytes.ts) are moved to it, not copied.
 */
export type ConversionRequest = {
  mimeType: string;
  finalUrl: string;
  /** `metadata`: read the page's metadata without converting it (the `html` format). */
  want?: 'markdown' | 'metadata';
  links?: boolean;
  contentLanguage?: string;
} & DocumentBody;

/** Markdown and metadata (without `final_url`) of one document. */
export interface ConvertedDocument {
  markdown: string;
  metadata: PageMetadata;
  links?: string[];
  /** Metadata reads of HTML only: whether the page has any readable text. */
  hasText?: boolean;
  /** The decoded document, for a bytes request with `want: 'metadata'`. */
  text?: string;
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
}

/** Loads one page and converts it; never throws for per-URL problems. `request.signal`: see withPageLimit. */
export async function loadPage(deps: PageSourceDeps, request: PageRequest): Promise<PageOutcome> {
  if (request.signal.aborted) return failureOutcome(request.signal.reason);
  deps.warm?.();
  try {
    const doc = await fetchDocument(deps, request);
    const page = { status: doc.status, finalUrl: doc.finalUrl, mimeType: doc.mimeType };
    const task = conversionRequest(doc);
    if (request.links) task.links = true;
    if (request.format === 'html') {
      const facts = await readMetadata(deps, { ...(await keptBytes(task)), want: 'metadata' }, request.signal);
      const { hasText, text = await documentText(doc), ...rest } = facts;
      if (hasText === false || text.trim() === '') throw emptyPage(doc.status);
      return { ok: true, ...page, text, ...withFinalUrl(rest, doc.finalUrl) };
    }
    const converted = await convertDocument(deps, task, doc.status, request.signal);
    if (converted.markdown.trim() === '') throw emptyPage(doc.status);
    return { ok: true, ...page, text: converted.markdown, ...withFinalUrl(converted, doc.finalUrl) };
  } catch (error) {
    if (request.signal.aborted) return failureOutcome(request.signal.reason ?? error);
    return failureOutcome(error);
  }
}

/**
 * A page that gives no text is a per-URL failure, `empty`, not a delivery (so not charged), as
 * include_content's `content_error: empty` (docs/extract.md, "Empty pages").
 */
function emptyPage(status: number): FetchFailure {
  return new FetchFailure('empty', 'The page has no text (nothing was found to convert)', status);
}

/**
 * A request whose bytes stay here when the worker takes its own: the `html` format still needs them
 * if the metadata read fails. The copy (~10 ms for 10 MiB) has a turn of its own.
 */
async function keptBytes(task: ConversionRequest): Promise<ConversionRequest> {
  if (!('bytes' in task) || !isHandedOver(task.bytes)) return task;
  await nextTurn();
  return { ...task, bytes: handOver(task.bytes.slice()) };
}

/** The conversion request of a fetched document (its body, type, URL and Content-Language). */
export function conversionRequest(doc: FetchedDocument): ConversionRequest {
  const body: DocumentBody = 'text' in doc ? { text: doc.text } : { bytes: doc.bytes, ...(doc.contentType !== undefined ? { contentType: doc.contentType } : {}) };
  return { mimeType: doc.mimeType, finalUrl: doc.finalUrl, ...body, ...(doc.contentLanguage !== undefined ? { contentLanguage: doc.contentLanguage } : {}) };
}

/** A document's text, decoded on the host a slice at a time (the event loop keeps its turns). */
async function documentText(doc: DocumentBody): Promise<string> {
  return 'text' in doc ? doc.text : (await decodeBodyInSlices(doc.bytes, doc.contentType)).text;
}

/** Bytes decoded for documentHead: more than 20,000 characters in any encoding. */
const HEAD_BYTES = 128 * 1024;

/** A document's text when small, else its beginning (at least 32,768 characters): what isBotChallenge reads. */
export function documentHead(doc: DocumentBody): string {
  return 'text' in doc ? doc.text : decodeBody(doc.bytes.subarray(0, HEAD_BYTES), doc.contentType).text;
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

/** The page as fetched (bytes) or rendered in stealth mode (text). Throws per-URL failures. */
export async function fetchDocument(deps: PageSourceDeps, request: { url: string; stealth: boolean; signal: AbortSignal }): Promise<FetchedDocument> {
  if (!request.stealth) {
    const { body, ...doc } = await deps.loader.load(request.url, { signal: request.signal });
    return { ...doc, bytes: body };
  }
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
