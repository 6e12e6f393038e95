// Link lists beside a story, on any page (issue 31): blog sidebars and "most popular", "trending"
// and ticker lists that the classifier keeps (every word a link) sit outside the container of the
// page's prose. The story here is found from prose alone — the smallest container around the largest
// kept paragraph of prose holding half of the kept prose — so that a sidebar of 300 links cannot
// move it (findStory over every kept word would). When that container holds a story's worth of
// prose, a kept block outside it whose every word is a link goes, whatever share of the page the
// links make (story-links.ts's one-fifth gate, meant for listings, let a 45-link list through).
// A listing or a hub has no such body of prose: its links stay.

import type { BlockRows } from './block-features.js';
import { findStory, isEntry, sibling } from './story.js';

/** A block of prose: this many words or more, few of them links. */
const PROSE_TOKENS = 12;
/** A story's worth of prose in the story's container. */
const STORY_PROSE = 150;

export function dropSideLinks(rows: BlockRows, kept: Set<number>, evidence: boolean): void {
  const blocks = rows.blocks;
  const prose = new Set<number>();
  for (const b of blocks) if (kept.has(b.id) && b.tokens >= PROSE_TOKENS && b.linkTokens < 0.3 * b.tokens) prose.add(b.id);
  const s = findStory(rows, prose);
  if (!s) return;
  // Only on a page that shows a story: it says so, it has a reader-comment thread, or its prose sits
  // in one entry (an <article>, hentry, Article microdata) that is not one of a list of entries.
  const entry = s.chain.find(isEntry);
  if (!evidence && !(entry && !sibling(entry, -1) && !sibling(entry, 1))) return;
  let inside = 0;
  blocks.forEach((b, r) => {
    if (prose.has(b.id) && s.rowLca[r]! <= s.story) inside += b.tokens;
  });
  if (inside < STORY_PROSE) return;
  blocks.forEach((b, r) => {
    if (!kept.has(b.id) || s.rowLca[r]! <= s.story || b.linkTokens < b.tokens) return;
    // The story's own title, linked to its permalink as blogs print it, stands just above its prose.
    if (HEADING.test(b.el.localName) && r < s.start && r >= s.start - TITLE_REACH) return;
    kept.delete(b.id);
  });
}

const HEADING = /^h[1-6]$/;
/** How many rows above the story's first paragraph its title may stand (byline, date, share bar between). */
const TITLE_REACH = 6;
