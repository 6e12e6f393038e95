// Link lists beside a story, on any page (issue 31): blog sidebars and "most popular", "trending"
// and ticker lists that the classifier keeps (every word a link) sit outside the container of the
// page's prose. The story here is found from prose alone — the smallest container around the largest
// kept paragraph of prose holding half of the kept prose — so that a sidebar of 300 links cannot
// move it (findStory over every kept word would). When that container holds a story's worth of
// prose, a kept block outside it whose every word is a link goes, whatever share of the page the
// links make (story-links.ts's one-fifth gate, meant for listings, let a 45-link list through).
// A listing or a hub has no such body of prose: its links stay.

import type { BlockRows } from './block-features.js';
import { classTokens } from './class-tokens.js';
import { aboveRecords, recordAncestorTest, recordInside } from './record-walk.js';
import { singlePostBody } from './single-post.js';
import { findStory, isEntry, sibling } from './story.js';

/** A block of prose: this many words or more, few of them links. */
const PROSE_TOKENS = 12;
/** A story's worth of prose in the story's container. */
const STORY_PROSE = 150;

export function dropSideLinks(rows: BlockRows, kept: Set<number>, evidence: boolean): void {
  const blocks = rows.blocks;
  if (dropOutsidePost(rows, kept)) return;
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

/**
 * On a page that prints one post's body (single-post.ts) holding a kept paragraph of prose, the kept
 * blocks outside that post (its body's wrapper named post, entry or hentry, up to three levels up)
 * go, however short the post: the blog's sidebar, blogroll, archive and about-me box. But the
 * post's title and the lines just above it (an <h1> a few kept rows up, standfirst and byline
 * between). Not when the body holds several entries (a page's list of <article>s) or kept entries
 * sit outside it (a thread's posts). Returns whether the rule applied.
 */
function dropOutsidePost(rows: BlockRows, kept: Set<number>): boolean {
  const blocks = rows.blocks;
  const body = singlePostBody(blocks, rows.names);
  if (!body) return false;
  let first = -1;
  let prose = false;
  let entries = 0;
  for (let e = nextElement(body, body); e; e = nextElement(e, body)) if (isEntry(e) && ++entries > 1) return false;
  const inEntry = recordAncestorTest(
    rows,
    (a) => isEntry(a.el),
    (a) => a.el === body,
    aboveRecords(rows, isEntry, (e) => e === body),
  );
  const inBody = recordInside(rows, body);
  let post: Element = body;
  for (let e = body.parentElement, up = 0; e && up < 3; e = e.parentElement, up++) {
    if (isEntry(e) || classTokens(e).some((t) => POST_WORDS.has(t))) post = e;
  }
  const inPost = post === body ? inBody : recordInside(rows, post);
  for (let r = 0; r < blocks.length; r++) {
    const b = blocks[r]!;
    if (!kept.has(b.id)) continue;
    if (inBody(b.el)) {
      if (first < 0) first = r;
      if (b.tokens >= PROSE_TOKENS && b.linkTokens < 0.3 * b.tokens) prose = true;
    } else if (!inPost(b.el) && inEntry(b.el)) return false;
  }
  if (!prose) return false;
  let top = first - TITLE_REACH;
  for (let r = first - 1, seen = 0; r >= 0 && seen <= TITLE_REACH; r--) {
    const b = blocks[r]!;
    if (!kept.has(b.id)) continue;
    seen++;
    if (b.el.localName === 'h1') {
      top = Math.min(top, r);
      break;
    }
  }
  blocks.forEach((b, r) => {
    if (kept.has(b.id) && !inPost(b.el) && !(r < first && r >= top)) kept.delete(b.id);
  });
  return true;
}

/** The element after `e` in document order inside `root`, or null. */
function nextElement(e: Element, root: Element): Element | null {
  if (e.firstElementChild) return e.firstElementChild;
  for (let x: Element | null = e; x && x !== root; x = x.parentElement) if (x.nextElementSibling) return x.nextElementSibling;
  return null;
}

const POST_WORDS = new Set(['post', 'entry', 'hentry']);
