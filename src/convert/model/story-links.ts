// Links on a story page (after article-tail.ts has found the story): a site's mega-menu kept as a
// list, and blocks whose every word is a link. Page evidence only; linear (the walk up to a list is
// memoised per element).

import type { BlockRows } from './block-features.js';
import type { Story } from './story.js';

/** A story page's links-only blocks go unless they make more than this share of its kept words. */
const LINK_LINE_SHARE = 0.2;
/** A menu: a list away from the story's prose with this many kept items or more, nearly all links. */
const MENU_ITEMS = 20;
const MENU_LINK_SHARE = 0.9;

/**
 * On a story page:
 * - a long list away from the story's prose (its outermost <ul>, <ol> or <menu>, not beside the
 *   largest kept block, with at least 20 kept items, 90 % of its words links) is the site's
 *   navigation (a mega-menu of 150 links);
 * - a kept block whose every word is a link (a teaser title, a "related" line, a breadcrumb, a
 *   tag, a menu item) points elsewhere: dropped, wherever it sits (but a heading inside the story's
 *   container: a linked section title) — unless such blocks hold more
 *   than a fifth of the kept words: then the links are the page (a listing, a hub, a
 *   documentation index that says og:type article).
 */
export function dropLinkLines(rows: BlockRows, kept: Set<number>, s: Story): void {
  const blocks = rows.blocks;
  // The outermost list around each block, below the story's chain (the largest kept block's ancestors).
  const memo = new Map<Element, Element | null>();
  const outerList = (el: Element): Element | null => {
    const walked: Element[] = [];
    let found: Element | null = null;
    let e: Element | null = el;
    for (; e && !s.chainIndex.has(e); e = e.parentElement) {
      const m = memo.get(e);
      if (m !== undefined) {
        if (m) found = m;
        break;
      }
      walked.push(e);
    }
    // Walked innermost first: the last list in the walk is the outermost (unless the memo held one
    // above, then every walked element is inside it). Elements above that list are in none.
    let top = -1;
    if (!found) walked.forEach((w, i) => LIST_TAGS.has(w.localName) && (top = i));
    if (top >= 0) found = walked[top]!;
    walked.forEach((w, i) => memo.set(w, top < 0 || i <= top ? found : null));
    return found;
  };
  const menus = new Map<Element, { items: number; tokens: number; links: number; rows: number[] }>();
  blocks.forEach((b, r) => {
    // Not beside the largest kept block (a list in the story's body is the story's); a kept menu can
    // outweigh the story, so the story's container (half the kept words) may hold it: not a test.
    if (!kept.has(b.id) || s.rowLca[r]! <= 1) return;
    const list = outerList(b.el);
    if (!list) return;
    let m = menus.get(list);
    if (!m) menus.set(list, (m = { items: 0, tokens: 0, links: 0, rows: [] }));
    if (b.el.localName === 'li') m.items++;
    m.tokens += b.tokens;
    m.links += b.linkTokens;
    m.rows.push(r);
  });
  for (const m of menus.values()) {
    if (m.items >= MENU_ITEMS && m.links >= MENU_LINK_SHARE * m.tokens) for (const r of m.rows) kept.delete(blocks[r]!.id);
  }

  let total = 0;
  let links = 0;
  for (const b of blocks) {
    if (!kept.has(b.id)) continue;
    total += b.tokens;
    if (b.linkTokens >= b.tokens) links += b.tokens;
  }
  if (links > LINK_LINE_SHARE * total) return;
  blocks.forEach((b, r) => {
    if (!kept.has(b.id) || b.linkTokens < b.tokens) return;
    // A linked heading inside the story's container (or beside its largest block) may be one of its
    // section titles: it stays.
    if (s.rowLca[r]! <= Math.max(s.story, 1) && HEADING.test(b.el.localName)) return;
    kept.delete(b.id);
  });
}

const LIST_TAGS = new Set(['ul', 'ol', 'menu']);
const HEADING = /^h[1-6]$/;
