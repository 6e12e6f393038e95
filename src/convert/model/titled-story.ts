// Link lists beside a short story (issue 31): a photo post, a video post or a three-line blog entry
// has no story's worth of prose, so side-links.ts (which finds the story from its prose) leaves the
// page alone, and the blogroll, category list and "recent posts" beside it make most of the output.
// Such a story still shows its title: a heading whose every word is in the document's <title>,
// followed by text that is not links (a site-name banner is followed by a menu or another heading).
// The story's container is the smallest element around that heading and the text after it; a kept
// block outside it whose every word is a link goes. Not on a page whose links are its content: a
// listing's or a hub's title heads its list, so the list sits inside the container.

import { type BlockRows, FEATURES } from './block-features.js';
import { recordInside } from './record-walk.js';
import { isEntry, sibling } from './story.js';
import { listsCards } from './story-area.js';

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

/**
 * Removes from `kept` the links-only blocks outside the titled story's container. Only where the page
 * shows a story (`evidence`: it declares one or has a comment thread) or the title heads one entry
 * (an <article>, an hAtom entry, Article microdata) that is not one of a list: a category page's title
 * heads a description box beside its cards of bare links (WCXB listings −0.0065 without this check).
 */
export function dropTitledSideLinks(rows: BlockRows, kept: Set<number>, evidence: boolean): void {
  // A shop's product page is no story: its title heads the offer, its links are the shop's.
  if (rows.offersProduct) return;
  const s = findTitledStory(rows, kept);
  if (!s) return;
  let entry: Element | null = null;
  for (let e: Element | null = rows.blocks[s.title]!.el; e && !entry; e = e.parentElement) if (isEntry(e)) entry = e;
  if (entry && (sibling(entry, -1) || sibling(entry, 1))) return;
  if (!evidence && !entry) return;
  // The body (or the page's one wrapper) is no story container: every block is inside.
  if (s.container.localName === 'body' || s.container.localName === 'html') return;
  // A listing's or a hub's title heads its description box, not its cards: when the kept blocks
  // outside the container lie in repeated cards (a heading or words beside the link) that outweigh
  // the container's own words, the cards are the page (WCXB listings lost 0.023 without this).
  const inContainer = recordInside(rows, s.container);
  const inside = rows.blocks.map((b) => kept.has(b.id) && inContainer(b.el));
  let wordsIn = 0;
  rows.blocks.forEach((b, r) => {
    if (inside[r]) wordsIn += b.tokens - b.linkTokens;
  });
  if (listsCards(rows.blocks, kept, inside, new Set(), wordsIn)) return;
  for (const b of rows.blocks) {
    if (!kept.has(b.id) || b.linkTokens < b.tokens || inContainer(b.el)) continue;
    kept.delete(b.id);
  }
}
