// What one page and one answer may carry, counted in characters (String.length, UTF-16 code units;
// 1–3 bytes each in a UTF-8 JSON answer). A page's content is capped at the page size cap
// (`maxBytes`, 10 MiB by default), so the Markdown of a page is never larger than the page could be;
// a whole answer at ANSWER_CHARS. Over either, the page fails alone as `too_large`, uncharged
// (docs/operating.md, "Memory").

import { FetchFailure } from '../../ports/fetcher.js';

/** The most characters of page content one answer carries (extract: every result; search: every `content`). */
export const ANSWER_CHARS = 32 * 1024 * 1024;

/** One answer's budget: ANSWER_CHARS, and never less than one page may be. */
export const answerBudget = (maxBytes: number): number => Math.max(ANSWER_CHARS, maxBytes);

/** The page's content as it is, or FetchFailure('too_large') when it is longer than `maxBytes` characters. */
export function withinPageCap(content: string, maxBytes: number, status: number): string {
  if (content.length <= maxBytes) return content;
  throw new FetchFailure('too_large', `The page's content is ${content.length} characters, over the ${maxBytes}-character limit`, status);
}

/**
 * Which pages fit in the answer, in request order: a page that would take the total past `budget`
 * does not (it fails alone as `too_large`); a later, smaller one still may. Size 0: not content.
 */
export function fitAnswer(sizes: readonly number[], budget: number): boolean[] {
  let used = 0;
  return sizes.map((size) => {
    if (used + size > budget) return false;
    used += size;
    return true;
  });
}

/** Why a page was left out of the answer. */
export const answerFullMessage = (budget: number): string =>
  `The answer would carry more than ${budget} characters of page content; this page was left out`;
