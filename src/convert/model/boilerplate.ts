// Boilerplate removal that generalizes: page chrome by element and ARIA role, widgets by class/id
// words (cookie banners, share bars, related-content boxes…), control labels by their whole
// text ("Register", "Add to cart"), and navigation-like link lists. (Removing widget sections by
// their heading — "Comments", "Related posts" — was measured and cost forum posts; not done.)
// An element holding most of the root's text is never boilerplate: a page that names its main
// wrapper "page-header-layout" must not lose its content to a word in a class name. The result is
// evidence for the block classifier (block-features.ts), not a removal.

import { isChrome } from '../clean-dom.js';
import { descendants, tagOf } from '../dom-utils.js';
import { elementNames, readNames } from '../linkedom-reads.js';
import { countElements, type ElementCounts } from './segment-page.js';
import type { TextStats } from './text-stats.js';

const BOILERPLATE_WORDS =
  /(?:^|[-_\s])(nav|navbar|navigation|menu|breadcrumbs?|sidebar|side-bar|footer|masthead|cookies?|consent|gdpr|newsletter|subscribe|subscription|signup|sign-up|social|share|sharing|sharedaddy|related|recommended|recommendations|promo|promotion|advert|advertisement|ads|adsbygoogle|ad-slot|popup|modal|overlay|toolbar|pagination|pager|skip-link|sponsor|sponsored|outbrain|taboola|disqus|author-bio|print|login|searchform|search-form)(?:[-_\s]|$)/i;

/** Whole-element texts that are controls or labels, never content. */
const CONTROL_TEXT =
  /^(register|log ?in|sign ?in|sign ?up|ask question|add to (cart|bag|basket|wishlist)|out of stock|in stock|read more|continue reading|share|tweet|pin it|print|email|reply|quote|report|like|follow|back to top|skip to (main )?content|filter( & sort)?|sort by|compare|previous|next|load more|show more|view all)$/i;

/** Elements whose id is a fragment anchor (docs' `<section id="cookies">`), not a widget name. */
const ANCHOR_TAGS = new Set(['section', 'article', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'a']);

/** State modifiers: `sidebar-enabled--false` describes the layout, it is not a sidebar. */
const STATE_TOKEN = /--|(?:^|[-_])(?:enabled|disabled|false|true|active|open|closed|has|no|with|without|is)(?:[-_]|$)/i;

export function looksLikeBoilerplate(el: Element): boolean {
  return namedLikeBoilerplate(el, el.getAttribute('class') ?? '', el.getAttribute('id') ?? '');
}

/** looksLikeBoilerplate, given el's class and id ('' for none). */
function namedLikeBoilerplate(el: Element, cls: string, id: string): boolean {
  return classLikeBoilerplate(cls) || idLikeBoilerplate(el.localName, id);
}

/**
 * The class's part of looksLikeBoilerplate (a class value's answer, which callers keep per value):
 * one of its tokens names a widget and is no state modifier.
 */
export function classLikeBoilerplate(cls: string): boolean {
  // A token can only match where the whole attribute does (token edges are spaces or its ends):
  // most values are rejected here without splitting.
  if (!BOILERPLATE_WORDS.test(cls)) return false;
  return cls.split(/\s+/).some((t) => t !== '' && !STATE_TOKEN.test(t) && BOILERPLATE_WORDS.test(t));
}

/** The id's part of looksLikeBoilerplate for an element named `localName` (its parts counted in place, not split). */
export function idLikeBoilerplate(localName: string, id: string): boolean {
  if (id === '' || ANCHOR_TAGS.has(localName) || !BOILERPLATE_WORDS.test(id)) return false;
  // An id of many words is a slug or heading anchor ("menu-innovation-strategies-…"), not a widget.
  let parts = 1;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c === 45 || c === 95) parts++;
  }
  return parts <= 3 && !STATE_TOKEN.test(id);
}

/** Share of an element's words that sit inside links. */
export function linkDensity(s: TextStats): number {
  return s.words === 0 ? 0 : Math.min(1, s.linkWords / s.words);
}

export interface BoilerplateOptions {
  /** Remove page chrome: nav, header, footer, aside, forms, landmark roles (default true). */
  chrome?: boolean;
  /** Remove elements whose class/id names a widget (default true). */
  hints?: boolean;
  /** Remove control labels ("Register", "Add to cart", "Read more") by their text (default true). */
  phrases?: boolean;
  /** Remove lists and blocks that are nearly all short links (default true). */
  linkLists?: boolean;
}

const NEVER_BY_HINT = new Set(['body', 'main', 'article', 'html']);
const PHRASE_TAGS = new Set(['a', 'button', 'span', 'li', 'p', 'div', 'label']);
const LINK_LIST_TAGS = new Set(['ul', 'ol', 'div', 'section', 'p', 'table']);

/** Whether `el`, or an ancestor of it below `root`, is in `set`. */
export function insideAny(el: Element, set: ReadonlySet<Element>, root: Element): boolean {
  for (let e: Element | null = el; e && e !== root; e = e.parentElement) if (set.has(e)) return true;
  return false;
}

/**
 * The outermost elements below `root` that are boilerplate, in document order; nothing is changed
 * (the block classifier reads "inside boilerplate" as evidence, it does not remove by rule).
 */
export function findBoilerplate(
  root: Element,
  options: BoilerplateOptions = {},
  all: readonly Element[] = descendants(root),
): Set<Element> {
  return boilerplateCover(countElements(root, [], all), options).found;
}

/**
 * findBoilerplate's elements (`found`) and, by element number (ElementCounts), every element inside
 * one of them (`covered`, the found ones too: 1): whether an element is inside boilerplate is one
 * look-up, not a walk up.
 */
export function boilerplateCover(counts: ElementCounts, options: BoilerplateOptions): { found: Set<Element>; covered: Uint8Array } {
  const { elements: all, words, linkWords, links, last } = counts;
  const total = Math.max(1, words[0]!);
  const { chrome = true, hints = true, phrases = true, linkLists = true } = options;
  const found = new Set<Element>();
  // What was found and everything below it (its subtree, numbers n to last[n]): an element inside
  // is neither tested nor found (what the page loses is the union of the found subtrees, whichever
  // test found each). One pass in document order (a parent before its children), where four passes
  // each walked the page and walked up from every hit.
  const covered = new Uint8Array(all.length + 1);
  // Each element's class, id and role from one read (the tests below ask up to five times).
  const names = elementNames();
  for (let n = 1; n <= all.length; n++) {
    const el = all[n - 1]!;
    if (boilerplateHere(el, n)) {
      found.add(el);
      covered.fill(1, n, last[n]! + 1);
      n = last[n]!;
    }
  }
  return { found, covered };

  function boilerplateHere(el: Element, n: number): boolean {
    const tag = tagOf(el);
    const w = words[n]!;
    // An element holding most of the page's words is never boilerplate, whatever its name says.
    if (w <= 0.4 * total) {
      const { className, hasClass, id, role } = readNames(el, names);
      if (chrome && isChrome(el, role)) return true;
      if (hints && (hasClass || id !== null) && !NEVER_BY_HINT.has(tag) && namedLikeBoilerplate(el, className, id ?? '')) return true;
      // Menus and link farms: nearly all link text, and every link short.
      const l = links[n]!;
      const lw = linkWords[n]!;
      if (linkLists && LINK_LIST_TAGS.has(tag) && w > 0 && l > 0 && Math.min(1, lw / w) > 0.8 && lw / l < 6) return true;
    }
    if (!phrases || !PHRASE_TAGS.has(tag)) return false;
    if (w === 0 || w > 5 || (el.firstElementChild && el.firstElementChild.localName !== 'span')) return false;
    return CONTROL_TEXT.test((el.textContent ?? '').replace(/\s+/g, ' ').trim());
  }
}
