// Reading pages in parts (docs/extract.md, "Reading in parts"): the one place a call's `max_chars` is
// shared between its pages and each page's part is asked of src/passages/ (the cut, the markers, the
// query passages). Applied to the content as delivered, after every charging decision: the cached page
// and the stored search answer keep the full content, so a repeat with other parts is still a repeat.

import { pagePart, shareBudget, type PagePart, type PartOptions } from '../passages/index.js';

/** The reading-in-parts parameters of a call (each absent when not given). */
export interface PartRequest {
  maxChars?: number;
  startChar?: number;
  query?: string;
}

/** Whether the call reads in parts: then its delivered pages carry `total_chars` and `truncated`. */
export function readsInParts(request: PartRequest): boolean {
  return request.maxChars !== undefined || request.startChar !== undefined || request.query !== undefined;
}

/**
 * Each page's options, in order, given the full contents' lengths: `max_chars` shared fairly over
 * what each page has left after `start_char` (a short page's unused share goes to the others).
 * `query` without `max_chars`: each page its passages' own default (DEFAULT_PASSAGE_CHARS, 2,000).
 */
export function partOptions(lengths: readonly number[], request: PartRequest): PartOptions[] {
  const start = request.startChar ?? 0;
  const base: PartOptions = {
    ...(request.startChar !== undefined ? { startChar: start } : {}),
    ...(request.query !== undefined ? { query: request.query } : {}),
  };
  if (request.maxChars !== undefined) {
    const shares = shareBudget(lengths.map((n) => Math.max(0, n - start)), request.maxChars);
    return shares.map((maxChars) => ({ ...base, maxChars }));
  }
  return lengths.map(() => base);
}

/**
 * The parts of the pages one call delivers, by key, given in answer order. Entries with the same key (a
 * URL asked for twice) get one part, cut to the smaller of their shares: the duplicate answers the
 * same, and the answer stays within the budget.
 */
export function pageParts(
  pages: readonly { key: string; content: string }[],
  format: 'markdown' | 'html',
  request: PartRequest,
): Map<string, PagePart> {
  const options = partOptions(pages.map((p) => p.content.length), request);
  const chosen = new Map<string, { content: string; options: PartOptions }>();
  pages.forEach(({ key, content }, i) => {
    const mine = options[i] as PartOptions;
    const earlier = chosen.get(key);
    if (!earlier || (mine.maxChars ?? Infinity) < (earlier.options.maxChars ?? Infinity)) chosen.set(key, { content, options: mine });
  });
  return new Map([...chosen].map(([key, { content, options: o }]) => [key, pagePart(content, format, o)]));
}

export type { PagePart };
