// Keeps the story to its Readability-style area (readability-area.ts), on any page but a thread
// (issue 31): kept blocks outside the area — blogrolls and sidebars, teaser rivers with a dek per
// link, sponsor boxes and link lists beside or under the story — go; the story's head (title, lead,
// byline, caption) just above the area stays. Readability's area is trusted only where it holds the
// page's largest kept paragraph of prose (else it picked a fact box, a disclosure or a review widget
// over the story: trafilatura-eval lost 3 points of recall without this check), not on a shop's
// product page, not in one of a list of entries (an infinite-scroll page of <article>s), and not on a
// listing whose repeated cards outweigh the area (its description box).

import { descendants, tagOf } from '../dom-utils.js';
import { firstElementBelow } from '../linkedom-reads.js';
import type { BlockRows, ElementRecord } from './block-features.js';
import { readabilityArea } from './readability-area.js';
import { aboveRecords, recordAncestorTest } from './record-walk.js';
import { isEntry, sibling } from './story.js';

/** A block of prose: this many words or more, few of them links. */
const PROSE_TOKENS = 12;
/** How many kept blocks above the area its head may hold. */
const HEAD_BLOCKS = 6;
const HEADING = /^h[1-6]$/;
/** A story's worth of prose, and the share of the page's prose a dominant area holds. */
const STORY_PROSE = 150;
const DOMINANT_SHARE = 0.8;
/** The least share of the kept words that are not links the area must hold. */
const TEXT_SHARE = 0.3;
/**
 * A listing's cards: kept words outside the area in this many repeated units (siblings of one tag and
 * class, each with a link) that weigh this share of the area's words mean the cards are the page and
 * the area its description box (WCXB listing and collection pages).
 */
const CARD_UNITS = 4;
const CARD_SHARE = 1;
const CARD_SIBLINGS = 4;

/**
 * `evidence`: the page declares a story or has a comment thread; `declared`: it declares one (else a
 * post in an <article> of its own outside the area, a link aggregator's reply, stays).
 */
export function keepStoryArea(rows: BlockRows, kept: Set<number>, evidence: boolean, declared: boolean): void {
  if (rows.offersProduct) return;
  const area = readabilityArea(rows);
  if (!area) return;
  let entry: Element | null = null;
  for (let e: Element | null = area.top; e && !entry; e = e.parentElement) if (isEntry(e)) entry = e;
  if (entry && (sibling(entry, -1) || sibling(entry, 1))) return;
  // An entry inside the area marks the story too.
  // The last one below the area's top: what querySelectorAll('article, .hentry, [itemprop="articleBody"]')
  // finds is an entry, found without compiling that selector per page.
  if (!entry) {
    const below = descendants(area.top);
    for (let i = below.length - 1; i >= 0 && !entry; i--) if (marksEntry(below[i]!)) entry = below[i]!;
  }
  const parts = new Set(area.parts);
  const inArea = recordAncestorTest(
    rows,
    (a) => parts.has(a.el),
    null,
    aboveRecords(rows, (e) => parts.has(e)),
  );
  const blocks = rows.blocks;
  const inside = blocks.map((b) => kept.has(b.id) && inArea(b.el));
  const first = inside.indexOf(true);
  if (first < 0) return;
  let largest = -1;
  blocks.forEach((b, r) => {
    if (!kept.has(b.id) || b.tokens < PROSE_TOKENS || b.linkTokens >= 0.3 * b.tokens) return;
    if (largest < 0 || b.tokens > blocks[largest]!.tokens) largest = r;
  });
  if (largest >= 0 && !inside[largest]) return;
  // Only where the page shows a story: it says so, it has a comment thread, the area is an entry,
  // or the area holds a story's worth of prose, most of the page's.
  let prose = 0;
  let proseIn = 0;
  blocks.forEach((b, r) => {
    if (!kept.has(b.id) || b.tokens < PROSE_TOKENS || b.linkTokens >= 0.3 * b.tokens) return;
    prose += b.tokens;
    if (inside[r]) proseIn += b.tokens;
  });
  const dominant = proseIn >= STORY_PROSE && proseIn >= DOMINANT_SHARE * prose;
  if (!evidence && !entry && !dominant) return;
  // And it holds a good part of the page's words that are not links: a sidebar of links may outweigh
  // the story, but an area with little of the page's text is a header or a box of a listing whose
  // cards are the page (WCXB listings: −0.019 without this check, −0.007 with it).
  let words = 0;
  let wordsIn = 0;
  blocks.forEach((b, r) => {
    if (!kept.has(b.id)) return;
    words += b.tokens - b.linkTokens;
    if (inside[r]) wordsIn += b.tokens - b.linkTokens;
  });
  if (wordsIn < TEXT_SHARE * words) return;
  // The story's head: the kept blocks right above the area, up to the first one that is all links
  // and no heading (a sidebar's or a menu's).
  const head = new Set<number>();
  for (let r = first - 1, n = 0; r >= 0 && n < HEAD_BLOCKS; r--) {
    const b = blocks[r]!;
    if (!kept.has(b.id)) continue;
    if (b.linkTokens >= b.tokens && !HEADING.test(b.el.localName)) break;
    head.add(r);
    n++;
  }
  if (listsCards(blocks, kept, inside, head, wordsIn)) return;
  const ownArticle = declared ? null : inOwnArticle(rows, area.top);
  blocks.forEach((b, r) => {
    if (kept.has(b.id) && !inside[r] && !head.has(r) && !ownArticle?.(b.el)) kept.delete(b.id);
  });
}

/**
 * Whether a row's element sits in an <article> (the nearest one, or itself) that does not hold `top`:
 * `el.closest('article')` and its `contains(top)`, memoised per element over the rows' records (no
 * <article> above body).
 */
function inOwnArticle(rows: BlockRows, top: Element): (el: Element) => boolean {
  const names = rows.names;
  // Per record: its nearest <article>'s record, null for none (undefined: not asked).
  const nearest = new Array<ElementRecord | null | undefined>(names.size).fill(undefined);
  // Per <article> record: 0 not asked, 1 holds `top`, 2 does not.
  const holdsTop = new Uint8Array(names.size);
  const walked: ElementRecord[] = [];
  return (el) => {
    let found: ElementRecord | null = null;
    for (let a: ElementRecord | null = names.get(el)!; a; a = a.up) {
      const m = nearest[a.index];
      if (m !== undefined) {
        found = m;
        break;
      }
      walked.push(a);
      if (tagOf(a.el) === 'article') {
        found = a;
        break;
      }
    }
    for (const w of walked) nearest[w.index] = found;
    walked.length = 0;
    if (found === null) return false;
    const i = found.index;
    if (holdsTop[i] === 0) holdsTop[i] = found.el.contains(top) ? 1 : 2;
    return holdsTop[i] === 2;
  };
}

/** Matches `article, .hentry, [itemprop="articleBody"]` in an HTML document (a class word edged by `\s`, as css-select reads it). */
const marksEntry = (e: Element): boolean =>
  tagOf(e) === 'article' || /(?:^|\s)hentry(?:$|\s)/.test(e.getAttribute('class') ?? '') || e.getAttribute('itemprop') === 'articleBody';

const classes = (e: Element): string[] => (e.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
/** Both classless, or one class in common (a WordPress post's classes differ by its id and categories). */
const alike = (a: string[], b: string[]): boolean => (a.length === 0 ? b.length === 0 : a.some((c) => b.includes(c)));

/** Per parent, per sibling's tag and class value: how many of its children are alike (tag, class) with a link. */
type AlikeCounts = Map<Element, Map<string, number>>;

/** The nearest ancestor of `el` (or itself) that is one of CARD_SIBLINGS or more alike siblings (tag, class), with a link. */
function cardOf(el: Element, memo: Map<Element, boolean>, split: Map<Element, string[]>, counts: AlikeCounts): Element | null {
  // Each element's classes split once: a list's items each compare themselves with all the others.
  const classesOf = (e: Element) => {
    let c = split.get(e);
    if (!c) split.set(e, (c = classes(e)));
    return c;
  };
  for (let e: Element | null = el; e?.parentElement && e.localName !== 'body'; e = e.parentElement) {
    let repeated = memo.get(e);
    if (repeated === undefined) {
      // Siblings of one tag and class value count alike siblings the same: a list of n alike items
      // is counted once, not n times over n items.
      const parent = e.parentElement;
      let byValue = counts.get(parent);
      if (!byValue) counts.set(parent, (byValue = new Map()));
      const key = `${e.localName} ${e.getAttribute('class') ?? ''}`;
      let n = byValue.get(key);
      if (n === undefined) {
        const cls = classesOf(e);
        n = 0;
        for (let s = parent.firstElementChild; s; s = s.nextElementSibling)
          if (s.localName === e.localName && alike(cls, classesOf(s))) n++;
        byValue.set(key, n);
      }
      repeated = n >= CARD_SIBLINGS && firstElementBelow(e, isLink) !== null;
      memo.set(e, repeated);
    }
    if (repeated) return e;
  }
  return null;
}

/** What `querySelector('a[href]')` finds, in an HTML document. */
const isLink = (e: Element) => tagOf(e) === 'a' && e.hasAttribute('href');

/**
 * The kept blocks the area would drop lie in repeated cards that weigh as much as the area: a listing.
 * A card holds some words that are not links or a heading (a blogroll's bare links are no cards).
 * Also the titled-story rule's listing guard (titled-story.ts), with its container as the area.
 */
export function listsCards(blocks: BlockRows['blocks'], kept: Set<number>, inside: boolean[], head: Set<number>, wordsIn: number): boolean {
  const memo = new Map<Element, boolean>();
  const split = new Map<Element, string[]>();
  const counts: AlikeCounts = new Map();
  const cards = new Map<Element, { words: number; card: boolean }>();
  blocks.forEach((b, r) => {
    if (!kept.has(b.id) || inside[r] || head.has(r)) return;
    const el = cardOf(b.el, memo, split, counts);
    if (!el) return;
    const c = cards.get(el) ?? { words: 0, card: false };
    c.words += b.tokens;
    c.card ||= b.linkTokens < b.tokens || HEADING.test(b.el.localName);
    cards.set(el, c);
  });
  let n = 0;
  let cardWords = 0;
  for (const c of cards.values())
    if (c.card) {
      n++;
      cardWords += c.words;
    }
  return n >= CARD_UNITS && cardWords >= CARD_SHARE * wordsIn;
}
