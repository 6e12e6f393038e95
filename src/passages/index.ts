// Pages in parts (issue 29): a budgeted piece of a page's content to read on from, or the passages most
// relevant to a query, and one budget shared between the pages of a call. Pure, no I/O; how the
// passages are built and ranked is docs/passages.md.

import { cutEnd } from './cut.js';
import { cutMarker } from './markers.js';
import { queryPassages } from './select.js';

export { shareBudget } from './share.js';

export interface PartOptions {
  /** Skip this many characters (UTF-16 units, like String.length) of the content first. Default 0. */
  startChar?: number;
  /** At most this many characters of content in `text` (the marker lines are extra, each short). */
  maxChars?: number;
  /** Return the passages most relevant to this query (in reading order) instead of the text from startChar. */
  query?: string;
}

export interface PagePart {
  /** What to deliver: content, plus a short marker line where it was cut or passages were skipped. */
  text: string;
  /** The full content's length (content.length). */
  totalChars: number;
  /** Whether content exists that `text` does not show (after the cut, or between/around passages). */
  truncated: boolean;
  /** Without query: where the next piece starts (pass it as startChar to read on); absent when nothing remains. */
  nextStart?: number;
}

/** Characters of query passages per page when the caller gives no max_chars (the engine passes it explicitly: read-parts.ts). */
export const DEFAULT_PASSAGE_CHARS = 2_000;

/** A whole count of characters; absent (or not a finite number: no bound) as undefined. The schema checks the API's values. */
const count = (x: number | undefined): number | undefined =>
  x === undefined || !Number.isFinite(x) ? undefined : Math.max(0, Math.floor(x));

/** One page's part. `format` 'html' is cut only between tags (never inside `<…>`), with an HTML-comment marker. */
export function pagePart(content: string, format: 'markdown' | 'html', options: PartOptions): PagePart {
  const totalChars = content.length;
  const start = Math.min(totalChars, count(options.startChar) ?? 0);
  const maxChars = count(options.maxChars);
  if (options.query !== undefined && options.query.trim() !== '') {
    const { text, truncated } = queryPassages(content, start, options.query, maxChars ?? DEFAULT_PASSAGE_CHARS);
    return { text, totalChars, truncated };
  }
  if (maxChars === undefined) return { text: start === 0 ? content : content.slice(start), totalChars, truncated: false };
  const end = cutEnd(content, start, maxChars, format);
  const piece = content.slice(start, end);
  if (end >= totalChars) return { text: piece, totalChars, truncated: false };
  return { text: piece + cutMarker(format, end, totalChars), totalChars, truncated: true, nextStart: end };
}
