// Link lists beside a short story (issue 31): a photo post, a video post or a three-line blog entry
// has no story's worth of prose, so side-links.ts (which finds the story from its prose) leaves the
// page alone, and the blogroll, category list and "recent posts" beside it make most of the output.
// Such a story still shows its title: a heading whose every word is in the document's <title>,
// followed by text that is not links (a site-name banner is followed by a menu or another heading).
// The story's container is the smallest element around that heading and the text after it; a kept
// block outside it whose every word is a link goes. Not on a page whose links are its content: a
// listing's or a hub's title heads its list, so the list sits inside the container.

import { type BlockRows, FEATURES } from './block-features.js';

const TITLE_OVERLAP = FEATURES.indexOf('title_overlap');
const HEADING = /^h[1-6]$/;
/** A title has this many words or more (a one-word heading matches a title by chance). */
const TITLE_TOKENS = 2;
/** The text under the title: within this many rows below it (kept or not), mostly not links. */
const TEXT_REACH = 8;

/** Whether row `r` is a heading of two words or more, every one of them in the document's <title>. */
export function isTitleHeading(rows: BlockRows, r: number): boolean {
  const b = rows.blocks[r]!;
  return HEADING.test(b.el.localName) && b.tokens >= TITLE_TOKENS && rows.x[r * FEATURES.length + TITLE_OVERLAP]! >= 0.999;
}

/** The title heading's row and its container, or null when the page shows none. */
export function findTitledStory(rows: BlockRows, kept: ReadonlySet<number>): { title: number; container: Element } | null {
  const blocks = rows.blocks;
  let best = -1;
  let text = -1;
  blocks.forEach((b, r) => {
    if (!isTitleHeading(rows, r) || (best >= 0 && b.tokens <= blocks[best]!.tokens)) return;
    // The first kept row below it is the story's text: not a heading, mostly not links. The text
    // the container must hold is the largest such row close below (a byline may come first).
    let largest = -1;
    for (let n = r + 1; n < Math.min(blocks.length, r + 1 + TEXT_REACH); n++) {
      const next = blocks[n]!;
      if (!kept.has(next.id)) continue;
      if (HEADING.test(next.el.localName) || next.linkTokens >= 0.5 * next.tokens) break;
      if (largest < 0 || next.tokens > blocks[largest]!.tokens) largest = n;
    }
    if (largest >= 0) {
      best = r;
      text = largest;
    }
  });
  if (best < 0) return null;
  const textEl = blocks[text]!.el;
  let container: Element | null = blocks[best]!.el.parentElement;
  while (container && !container.contains(textEl)) container = container.parentElement;
  return container ? { title: best, container } : null;
}

/** Removes from `kept` the links-only blocks outside the titled story's container. */
export function dropTitledSideLinks(rows: BlockRows, kept: Set<number>): void {
  const s = findTitledStory(rows, kept);
  if (!s) return;
  // The body (or the page's one wrapper) is no story container: every block is inside.
  if (s.container.localName === 'body' || s.container.localName === 'html') return;
  for (const b of rows.blocks) {
    if (!kept.has(b.id) || b.linkTokens < b.tokens || s.container.contains(b.el)) continue;
    kept.delete(b.id);
  }
}
