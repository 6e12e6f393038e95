// include_content: the top result pages fetched through the extract pipeline under one deadline.

import type { Clock, ContentError, PageMetadata, SearchResultItem } from '../../types/index.js';
import { clockDeadline } from './deadline.js';
import { answerBudget, fitAnswer, withinPageCap } from './output-bounds.js';
import { contentErrorOf, failureOutcome, isBotChallenge } from './page-outcome.js';
import { loadPage, withFinalUrl, withPageLimit, type PageSourceDeps } from './page-source.js';
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
): Promise<ContentFetchResult> {
  const targets = results.slice(0, count);
  const deadline = clockDeadline(deps.clock, deps.deadlineMs, signal);
  try {
    const loaded = await mapLimit(targets, deps.concurrency, (item) => pageContent(deps.pages, item.url, deadline.signal));
    const fits = fitAnswer(loaded.map((c) => ('content' in c ? c.content.length : 0)), answerBudget(deps.pages.maxBytes));
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

function pageContent(pages: PageSourceDeps, url: string, request: AbortSignal): Promise<PageContent> {
  return withPageLimit(pages, request, (signal) => limitedPageContent(pages, url, signal));
}

async function limitedPageContent(pages: PageSourceDeps, url: string, signal: AbortSignal): Promise<PageContent> {
  pages.warm?.(); // fetched as HTML (for the challenge check), then converted (and its metadata read) below
  const raw = await loadPage(pages, { url, format: 'html', stealth: false, raw: true, signal });
  if (!raw.ok) return { error: contentErrorOf(raw) };
  const isHtml = raw.mimeType === 'text/html' || raw.mimeType === 'application/xhtml+xml';
  if (isHtml && isBotChallenge(raw.text)) return { error: 'blocked' };
  let content: string;
  let metadata: PageMetadata;
  try {
    const task = { mimeType: raw.mimeType, text: raw.text, finalUrl: raw.finalUrl };
    const converted = await pages.convert(raw.contentLanguage === undefined ? task : { ...task, contentLanguage: raw.contentLanguage }, signal);
    content = withinPageCap(converted.markdown.trim(), pages.maxBytes, raw.status);
    metadata = withFinalUrl(converted, raw.finalUrl).metadata;
  } catch (error) {
    return { error: contentErrorOf(failureOutcome(error)) };
  }
  return content ? { content, metadata } : { error: 'empty' };
}
