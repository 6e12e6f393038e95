// Reading pages in parts (docs/extract.md, "Reading in parts"): the one place a call's `max_chars` is
// shared between its pages and each page's part is asked of src/passages/ (the cut, the markers, the
// query passages). Applied to the content as delivered, after every charging decision: the cached page
// and the stored search answer keep the full content, so a repeat with other parts is still a repeat.

import { DEFAULT_PASSAGE_CHARS, type PagePart, type PartOptions, pagePart, shareBudget } from '../passages/index.js';

/**
 * Cuts one page's part off the event loop (the engine's: a conversion worker, in the organization's
 * turn). Query passages cost tens of ms per 100 KiB of Markdown, ~3 s for 10 MiB (bench/read-parts.ts).
 */
export type PartOffload = (
  task: { content: string; format: 'markdown' | 'html'; options: PartOptions },
  call: { org: string; signal?: AbortSignal | undefined },
) => Promise<PagePart>;

/** The offload and the call it works for (its organization's turn; its signal stops the work). */
export interface Offload {
  run: PartOffload;
  org: string;
  signal?: AbortSignal | undefined;
}

/**
 * Query passages over more content than this (after start_char) go to the offload: below it they
 * take a few milliseconds on the host thread. A cut without query is a slice, always done here.
 */
export const HOST_PASSAGE_CHARS = 32 * 1024;

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
 * `query` without `max_chars`: DEFAULT_PASSAGE_CHARS per page.
 */
export function partOptions(lengths: readonly number[], request: PartRequest): PartOptions[] {
  const start = request.startChar ?? 0;
  const base: PartOptions = {
    ...(request.startChar !== undefined ? { startChar: start } : {}),
    ...(request.query !== undefined ? { query: request.query } : {}),
  };
  if (request.maxChars !== undefined) {
    const shares = shareBudget(
      lengths.map((n) => Math.max(0, n - start)),
      request.maxChars,
    );
    return shares.map((maxChars) => ({ ...base, maxChars }));
  }
  return lengths.map(() => (request.query !== undefined ? { ...base, maxChars: DEFAULT_PASSAGE_CHARS } : base));
}

/**
 * The parts of the pages one call delivers, by key, given in answer order. Entries with the same key (a
 * URL asked for twice) get one part, cut to the smaller of their shares: the duplicate answers the
 * same, and the answer stays within the budget. Long pages' query passages go to `offload` when given;
 * should it fail (the organization's conversion backlog full, the pool closed), that page is cut from
 * `start_char` instead, here, as cheap as a slice.
 */
export async function pageParts(
  pages: readonly { key: string; content: string }[],
  format: 'markdown' | 'html',
  request: PartRequest,
  offload?: Offload,
): Promise<Map<string, PagePart>> {
  const options = partOptions(
    pages.map((p) => p.content.length),
    request,
  );
  const chosen = new Map<string, { content: string; options: PartOptions }>();
  pages.forEach(({ key, content }, i) => {
    const mine = options[i] as PartOptions;
    const earlier = chosen.get(key);
    if (!earlier || (mine.maxChars ?? Infinity) < (earlier.options.maxChars ?? Infinity)) chosen.set(key, { content, options: mine });
  });
  const parts = await Promise.all(
    [...chosen].map(async ([key, { content, options: o }]) => [key, await partOf(content, format, o, offload)] as const),
  );
  return new Map(parts);
}

async function partOf(content: string, format: 'markdown' | 'html', options: PartOptions, offload?: Offload): Promise<PagePart> {
  const long = content.length - (options.startChar ?? 0) > HOST_PASSAGE_CHARS;
  if (options.query === undefined || !long || !offload) return pagePart(content, format, options);
  try {
    return await offload.run({ content, format, options }, { org: offload.org, signal: offload.signal });
  } catch {
    const { query: _passages, ...cut } = options;
    return pagePart(content, format, cut);
  }
}

export type { PagePart };
