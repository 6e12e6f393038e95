// include_content: the top result pages fetched through the extract pipeline under one deadline.

import type { CallTraceContext } from '../../channels.js';
import type { Clock, ContentError, PageMetadata, SearchResultItem } from '../../types/index.js';
import { clockDeadline } from './deadline.js';
import { answerBudget, fitAnswer, withinPageCap } from './output-bounds.js';
import { contentErrorOf, failureOutcome, isBotChallenge } from './page-outcome.js';
import {
  conversionRequest,
  convertWithin,
  documentHead,
  type FetchedDocument,
  fetchDocument,
  noteFetched,
  type PageLimit,
  type PageSourceDeps,
  withFinalUrl,
  withPageLimit,
} from './page-source.js';
import { mapLimit } from './pool.js';

export interface ContentFetchDeps {
  pages: PageSourceDeps;
  clock: Clock;
  /** Whole include_content phase; pages still loading then get `timeout`. */
  deadlineMs: number;
  concurrency: number;
}

export interface ContentFetchResult {
  items: SearchResultItem[];
  requested: number;
  delivered: number;
}

/** Adds `content` or `content_error` to the first `count` results; the rest carry neither. */
export async function fetchContents(
  deps: ContentFetchDeps,
  results: SearchResultItem[],
  count: number,
  signal?: AbortSignal,
  org = '',
  trace?: CallTraceContext,
): Promise<ContentFetchResult> {
  const targets = results.slice(0, count);
  const deadline = clockDeadline(deps.clock, deps.deadlineMs, signal);
  try {
    const loaded = await mapLimit(targets, deps.concurrency, (item) =>
      pageContent(deps.pages, item.url, { signal: deadline.signal, org }, trace),
    );
    const fits = fitAnswer(
      loaded.map((c) => ('content' in c ? c.content.length : 0)),
      answerBudget(deps.pages.maxBytes),
    );
    const contents = loaded.map((c, i): PageContent => (fits[i] ? c : { error: 'too_large' }));
    const items = results.map((item, i) => {
      const c = contents[i];
      if (c === undefined) return item;
      return 'content' in c ? { ...item, content: c.content, metadata: c.metadata } : { ...item, content_error: c.error };
    });
    return { items, requested: targets.length, delivered: contents.filter((c) => 'content' in c).length };
  } finally {
    deadline.clear();
  }
}

type PageContent = { content: string; metadata: PageMetadata } | { error: ContentError };

function pageContent(
  pages: PageSourceDeps,
  url: string,
  request: { signal: AbortSignal; org: string },
  call: CallTraceContext | undefined,
): Promise<PageContent> {
  return withPageLimit(pages, request, (page) => limitedPageContent(pages, url, page), {
    url,
    call,
    outcome: (c) => ('content' in c ? 'success' : c.error),
  });
}

async function limitedPageContent(pages: PageSourceDeps, url: string, page: PageLimit): Promise<PageContent> {
  pages.warm?.(); // converted (and its metadata read) below, once the challenge check has passed
  let doc: FetchedDocument;
  try {
    doc = await fetchDocument(pages, { url, stealth: false, signal: page.signal });
    noteFetched(page, doc);
  } catch (error) {
    return { error: contentErrorOf(failureOutcome(page.signal.aborted ? (page.signal.reason ?? error) : error)) };
  }
  const isHtml = doc.mimeType === 'text/html' || doc.mimeType === 'application/xhtml+xml';
  if (isHtml && isBotChallenge(documentHead(doc))) return { error: 'blocked' };
  let content: string;
  let metadata: PageMetadata;
  try {
    const converted = await convertWithin(pages, conversionRequest(doc), page);
    content = withinPageCap(converted.markdown.trim(), pages.maxBytes, doc.status);
    metadata = withFinalUrl(converted, doc.finalUrl).metadata;
  } catch (error) {
    return { error: contentErrorOf(failureOutcome(error)) };
  }
  return content ? { content, metadata } : { error: 'empty' };
}
