// include_content read in parts (docs/extract.md, "Reading in parts"): `max_chars` shared over the
// pages' content, each page giving its passages most relevant to the search query. Applied at delivery,
// to the charged answer and to its free repeats alike: the stored answer keeps the full content, so a
// repeat with another budget is still free and cut afresh.

import type { SearchResultItem } from '../../types/index.js';
import { type Offload, pageParts } from '../read-parts.js';
import { parseQuery } from './query.js';

/** The results as delivered under `maxChars` (as they are without it); `offload` as pageParts takes it. */
export async function withContentParts(
  results: SearchResultItem[],
  q: string,
  maxChars: number | undefined,
  offload?: Offload,
): Promise<SearchResultItem[]> {
  if (maxChars === undefined) return results;
  const pages = results.flatMap((r) => (r.content === undefined ? [] : [{ key: r.url, content: r.content }]));
  if (pages.length === 0) return results;
  const query = passageQuery(q);
  const parts = await pageParts(pages, 'markdown', { maxChars, ...(query ? { query } : {}) }, offload);
  return results.map((r) => {
    const part = r.content === undefined ? undefined : parts.get(r.url);
    return part ? { ...r, content: part.text, total_chars: part.totalChars, truncated: part.truncated } : r;
  });
}

/**
 * The words of a search query that pick passages: its phrases and plain terms, without operators
 * (`site:`, `filetype:`) and excluded `-words`. None left (`site:example.com`): the pages are cut from the top.
 */
export function passageQuery(q: string): string {
  const { phrases, terms } = parseQuery(q);
  return [...phrases, ...terms.filter((t) => !t.startsWith('-'))].join(' ');
}
