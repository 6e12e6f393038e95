// Where a piece of at most `allowance` characters ends: never mid-word, never inside a surrogate pair,
// and for HTML never inside a tag. The cut goes back to the last whitespace at or before the limit; in
// scripts written without spaces (Chinese, Japanese, Thai…) a word boundary of Intl.Segmenter counts as
// well, or a line of Chinese would have nowhere to break. Only a single word longer than the whole
// allowance is cut inside, at a code-point boundary. Cost: linear in the allowance, never in the page.

import { isHighSurrogate, isLowSurrogate, isSpace, NO_SPACE_SCRIPT } from './text.js';

export type CutFormat = 'markdown' | 'html';

/** How far back a segmenter looks for a word boundary in text without spaces (and ahead, for context). */
const SEGMENT_BACK = 256;
const SEGMENT_AHEAD = 32;

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** The end (exclusive) of the piece that starts at `start` and holds at most `allowance` characters. */
export function cutEnd(content: string, start: number, allowance: number, format: CutFormat = 'markdown'): number {
  const limit = start + Math.max(0, Math.floor(allowance));
  if (limit >= content.length) return content.length;
  if (limit <= start) return start;
  let end = lastBreak(content, start, limit, format);
  if (format === 'html') end = outsideTag(content, start, end);
  if (end > start) return end;
  // A single word (or tag) longer than the allowance: cut at the limit, but not between a surrogate pair.
  return isLowSurrogate(content.charCodeAt(limit)) && isHighSurrogate(content.charCodeAt(limit - 1)) ? limit - 1 : limit;
}

/** The last word-safe position in (start, limit], or start when there is none. */
function lastBreak(content: string, start: number, limit: number, format: CutFormat): number {
  let p = limit;
  for (; p > start; p--) {
    if (isSpace(content.charCodeAt(p)) || isSpace(content.charCodeAt(p - 1))) break;
    // In HTML a tag's edge is a boundary too ("text<b>" may be cut before the tag).
    if (format === 'html' && (content[p] === '<' || content[p - 1] === '>')) break;
  }
  const spaced = p;
  const from = Math.max(spaced, limit - SEGMENT_BACK);
  if (limit - from < 1 || !NO_SPACE_SCRIPT.test(content.slice(from, limit + 1))) return spaced;
  // Text without spaces after the last space: its last word boundary, if one is later.
  const windowEnd = Math.min(content.length, limit + SEGMENT_AHEAD);
  let best = spaced;
  for (const { index } of wordSegmenter.segment(content.slice(from, windowEnd))) {
    const b = from + index;
    if (b > limit) break;
    // The window's own start is no boundary unless it is the space found above.
    if (b > best && b > from) best = b;
  }
  return best;
}

/** `end`, or the start of the tag it falls in (scanning back no further than `start`). */
function outsideTag(content: string, start: number, end: number): number {
  for (let i = end - 1; i >= start; i--) {
    const c = content[i];
    if (c === '>') return end;
    if (c === '<') return i;
  }
  return end;
}
