// Where a page comes from: the plain fetch pipeline, or the browser in stealth mode.
// Either way the caller gets a PageOutcome; conversion to the requested format happens here too.
// A page's time limit (withPageLimit) counts its fetch and its conversion, not its wait for a worker:
// the page's clock stops when it joins the conversion queue and the conversion gets the time left
// from the moment it starts on a worker. The wait has a limit of its own (the same length), so a page
// stuck behind its own organization's backlog fails alone as `timeout` instead of holding its request
// to the request deadline; the request's deadline and the caller still stop it too.

import { type CallTraceContext, channels, PageTrace, type PageTraceContext, traced } from '../../channels.js';
import { decodeBody, decodeBodyInSlices } from '../../fetch/charset.js';
import { handOver, isHandedOver } from '../../fetch/owned-bytes.js';
import { FetchFailure, isFetchFailure } from '../../ports/fetcher.js';
import type { Renderer } from '../../ports/renderer.js';
import { timeLimit } from '../../signals.js';
import { nextTurn } from '../../turns.js';
import type { PageMetadata } from '../../types/index.js';
import { withinPageCap } from './output-bounds.js';
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
  ): Promise<{
    url: string;
    finalUrl: string;
    status: number;
    mimeType: string;
    body: Uint8Array;
    contentType?: string;
    contentLanguage?: string;
  }>;
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
  /** The page's websift:page context, when someone listens: the fetch and conversion note their facts. */
  trace: PageTraceContext | undefined;
}

/** Runs one page's work under the request's signal, cut at the page's own time limit; traced on websift:page when `trace` is given. */
export function withPageLimit<T>(
  deps: PageSourceDeps,
  request: { signal: AbortSignal; org: string },
  work: (page: PageLimit) => Promise<T>,
  trace?: { url: string; outcome: (result: T) => string; call?: CallTraceContext | undefined },
): Promise<T> {
  if (!trace) return limited(deps, request, work, undefined);
  const pageContext = (): PageTraceContext => new PageTrace(hostOf(trace.url), trace.call);
  return traced(
    channels.page,
    pageContext,
    (context) => limited(deps, request, work, context),
    (context, failed, result) => {
      if (!failed) context.outcome = trace.outcome(result as T);
    },
  );
}

async function limited<T>(
  deps: PageSourceDeps,
  request: { signal: AbortSignal; org: string },
  work: (page: PageLimit) => Promise<T>,
  trace: PageTraceContext | undefined,
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
    return await work({ org: request.org, signal: limit.signal, request: request.signal, stop, trace });
  } finally {
    limit.clear();
  }
}

const hostOf = (url: string): string => (URL.canParse(url) ? new URL(url).host : '');

/** The fetched body's size, for the page's trace. */
export function noteFetched(page: PageLimit, doc: DocumentBody): void {
  if (page.trace) page.trace.bytes = 'bytes' in doc ? doc.bytes.byteLength : Buffer.byteLength(doc.text, 'utf8');
}

/** Converts `doc` as the page's last step: the page's clock stops, and the conversion gets the time left (at most `capMs`). */
export function convertWithin(deps: PageSourceDeps, doc: ConversionRequest, page: PageLimit, capMs = Infinity): Promise<ConvertedDocument> {
  page.signal.throwIfAborted();
  const budgetMs = Math.min(capMs, page.stop());
  const converting = deps.convert(doc, { signal: page.request, org: page.org, budgetMs, waitMs: deps.timeoutMs });
  const trace = page.trace;
  if (!trace) return converting;
  const started = performance.now();
  const noteTime = () => (trace.conversionMs = performance.now() - started);
  converting.then(noteTime, noteTime);
  return converting;
}

export interface PageRequest {
  url: string;
  format: 'markdown' | 'html';
  stealth: boolean;
  page: PageLimit;
  /** Collect the page's links (`links` on the outcome). */
  links?: boolean;
}

/** Loads one page and converts it; never throws for per-URL problems. `request.page`: see withPageLimit. */
export async function loadPage(deps: PageSourceDeps, request: PageRequest): Promise<PageOutcome> {
  const { page: limit } = request;
  if (limit.signal.aborted) return failureOutcome(limit.signal.reason);
  deps.warm?.();
  try {
    const doc = await fetchDocument(deps, { url: request.url, stealth: request.stealth, signal: limit.signal });
    noteFetched(limit, doc);
    const page = { status: doc.status, finalUrl: doc.finalUrl, mimeType: doc.mimeType };
    const task = conversionRequest(doc);
    if (request.links) task.links = true;
    if (request.format === 'html') {
      const facts = await readMetadata(deps, { ...(await keptBytes(task)), want: 'metadata' }, limit);
      const { hasText, text = await documentText(doc), ...rest } = facts;
      if (hasText === false || text.trim() === '') throw emptyPage(doc.status);
      return { ok: true, ...page, text: withinPageCap(text, deps.maxBytes, doc.status), ...withFinalUrl(rest, doc.finalUrl) };
    }
    const converted = await convertDocument(deps, task, doc.status, limit);
    if (converted.markdown.trim() === '') throw emptyPage(doc.status);
    return {
      ok: true,
      ...page,
      text: withinPageCap(converted.markdown, deps.maxBytes, doc.status),
      ...withFinalUrl(converted, doc.finalUrl),
    };
  } catch (error) {
    // The request's end or the page's own limit, whichever stopped it (the page's clock may be stopped).
    const stopped = limit.request.aborted ? limit.request : limit.signal.aborted ? limit.signal : undefined;
    return failureOutcome(stopped ? (stopped.reason ?? error) : error);
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
  const body: DocumentBody =
    'text' in doc ? { text: doc.text } : { bytes: doc.bytes, ...(doc.contentType !== undefined ? { contentType: doc.contentType } : {}) };
  return {
    mimeType: doc.mimeType,
    finalUrl: doc.finalUrl,
    ...body,
    ...(doc.contentLanguage !== undefined ? { contentLanguage: doc.contentLanguage } : {}),
  };
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

/** The page as fetched (bytes) or rendered in stealth mode (text). Throws per-URL failures. */
export async function fetchDocument(
  deps: PageSourceDeps,
  request: { url: string; stealth: boolean; signal: AbortSignal },
): Promise<FetchedDocument> {
  const { signal } = request;
  if (!request.stealth) {
    const { body, ...doc } = await deps.loader.load(request.url, { signal });
    return { ...doc, bytes: body };
  }
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
