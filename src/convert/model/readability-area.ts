// A Readability-style candidate for the story, computed on websift's own blocks (issue 31): no second
// parse and no DOM changes, one pass over the blocks and a few ancestors each. After Mozilla
// Readability's _grabArticle (Apache-2.0): every paragraph-like block of 25 characters or more
// scores 1 + its comma-separated parts + one per 100 characters (at most 3); the score goes whole to
// its parent, half to its grandparent and a third per level above that (five levels); each such
// container starts from its tag's and its class/id's weight; its total is scaled by 1 − its link
// density. The best container (moved up to a parent that scores higher, or to the common ancestor
// of close rivals) and those of its siblings that score near it, or are prose paragraphs, are the
// story's area. Blocks inside elements whose class/id says "sidebar", "comment", "related"… (and not
// "article", "content"…) are not scored, as Readability removes those first.

import { isSpace } from '../space.js';
import type { BlockRows, ElementNames, ElementRecord } from './block-features.js';

/** Tags whose own text Readability scores (its <div>s without block children count as <p>). */
const SCORED = new Set(['p', 'td', 'pre', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'div']);
const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE = /and|article|body|column|content|main|shadow/i;
const UNLIKELY_ROLES = new Set(['menu', 'menubar', 'complementary', 'navigation', 'alert', 'alertdialog', 'dialog']);
const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|foot|footer|footnote|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|widget/i;
const COMMAS = new Set([0x002c, 0x060c, 0xfe50, 0xfe10, 0xfe11, 0x2e41, 0x2e34, 0x2e32, 0xff0c]);

/**
 * The length of `text.replace(/\s+/g, ' ').trim()` and its commas (Readability's), counted without
 * building that string: one per block of the page, it was a share of the conversion's garbage.
 */
export function spacedText(text: string): { length: number; commas: number } {
  let length = 0;
  let commas = 0;
  let gap = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      gap = length > 0;
      continue;
    }
    if (gap) {
      length++;
      gap = false;
    }
    length++;
    if (c === 0x2c || (c > 127 && COMMAS.has(c))) commas++; // the Set asked of non-ASCII only
  }
  return { length, commas };
}

/** Readability's minimum paragraph length, in characters. */
const MIN_CHARS = 25;
const LEVELS = 5;
/** How many of the best candidates are looked at for close rivals. */
const RANKED = 5;

/** Readability's class weight, class and id each (no array of the two per candidate). */
const classWeight = (n: ElementNames): number => nameWeight(n.cls) + nameWeight(n.id);

function nameWeight(name: string): number {
  if (!name) return 0;
  return (NEGATIVE.test(name) ? -25 : 0) + (POSITIVE.test(name) ? 25 : 0);
}

function tagWeight(tag: string): number {
  if (tag === 'div') return 5;
  if (tag === 'pre' || tag === 'td' || tag === 'blockquote') return 3;
  if (/^(address|ol|ul|dl|dd|dt|li|form)$/.test(tag)) return -3;
  if (/^(h[1-6]|th)$/.test(tag)) return -5;
  return 0;
}

/** Readability's unlikely candidate, from the element's record (its role, class and id as getAttribute reads them). */
function unlikely(n: ElementRecord): boolean {
  const tag = n.el.localName;
  if (tag === 'body' || tag === 'a' || tag === 'html') return false;
  const role = n.role;
  if (role && UNLIKELY_ROLES.has(role)) return true;
  // Class and id asked apart (no pattern spans the space that would join them): no string per element.
  const cls = n.cls;
  const id = n.id;
  return (UNLIKELY.test(cls) || UNLIKELY.test(id)) && !MAYBE.test(cls) && !MAYBE.test(id);
}

export interface ReadabilityArea {
  /** The best container and its qualifying siblings: the story's area. */
  parts: Element[];
  top: Element;
  score: number;
}

/** The Readability-style story area of the page, or null when no block scores. */
export function readabilityArea(rows: BlockRows): ReadabilityArea | null {
  const blocks = rows.blocks;
  // Per element, by its record's number (BlockRows.names: every row's element and its ancestors up to
  // body, which is never unlikely, nor is <html> above it): whether it sits in an unlikely container
  // (0 not asked, 1 no, 2 yes), resolved top-down along each walk.
  const names = rows.names;
  const size = names.size;
  const unlikelyIn = new Uint8Array(size);
  const walked: ElementRecord[] = [];
  const inUnlikely = (n: ElementRecord): boolean => {
    let a: ElementRecord | null = n;
    let found = false;
    for (; a; a = a.up) {
      const m = unlikelyIn[a.index]!;
      if (m !== 0) {
        found = m === 2;
        break;
      }
      walked.push(a);
    }
    for (let i = walked.length - 1; i >= 0; i--) {
      const w = walked[i]!;
      found = found || unlikely(w);
      unlikelyIn[w.index] = found ? 2 : 1;
    }
    walked.length = 0;
    return found;
  };
  // Per candidate container (by record number): its score, in the order the candidates were met
  // (the ranking's ties keep that order).
  const score = new Float64Array(size);
  const isCandidate = new Uint8Array(size);
  const order: ElementRecord[] = [];
  const rowRecords = blocks.map((b) => names.get(b.el)!);
  for (let r = 0; r < blocks.length; r++) {
    const b = blocks[r]!;
    const rec = rowRecords[r]!;
    if (!SCORED.has(b.el.localName) || inUnlikely(rec)) continue;
    const { length, commas } = spacedText(b.text);
    if (length < MIN_CHARS) continue;
    const points = 1 + commas + 1 + Math.min(Math.floor(length / 100), 3);
    // A <div> that also holds blocks has its loose text wrapped in a <p> of its own by Readability:
    // that text's parent is the <div> itself.
    let a = b.el.localName === 'div' && holdsBlocks(b.el) ? rec : rec.up;
    // A candidate has a parent element: body's is <html>, which has none (and no record).
    for (let level = 0; a && (a.up !== null || a.el.parentElement !== null) && level < LEVELS; level++, a = a.up) {
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      const i = a.index;
      if (isCandidate[i] === 0) {
        isCandidate[i] = 1;
        score[i] = tagWeight(a.el.localName) + classWeight(a);
        order.push(a);
      }
      score[i] = score[i]! + points / divider;
    }
  }
  if (order.length === 0) return null;
  // Link density of each candidate over its whole subtree (blocks without words add nothing): each
  // row's words at its own element, summed up into the parents in one pass from the last record to
  // the first (a parent's record is made before its children's). Whole numbers: the order of the
  // additions does not change the sums.
  const words = new Float64Array(size);
  const linkWords = new Float64Array(size);
  for (let r = 0; r < blocks.length; r++) {
    const b = blocks[r]!;
    if (b.tokens === 0) continue;
    const i = rowRecords[r]!.index;
    words[i] = words[i]! + b.tokens;
    linkWords[i] = linkWords[i]! + b.linkTokens;
  }
  // Each record's parent's number (-1: none), in a typed array rather than an array of the records.
  const upOf = new Int32Array(size);
  names.forEach((a) => {
    upOf[a.index] = a.up === null ? -1 : a.up.index;
  });
  for (let i = size - 1; i >= 0; i--) {
    const up = upOf[i]!;
    if (up < 0) continue;
    words[up] = words[up]! + words[i]!;
    linkWords[up] = linkWords[up]! + linkWords[i]!;
  }
  // The final scores, in `score`; the five best in the order a stable sort by score gives (ties in
  // the order the candidates were met), without sorting them all.
  const ranked: ElementRecord[] = [];
  for (const a of order) {
    const i = a.index;
    const s = score[i]! * (1 - (words[i] === 0 ? 0 : linkWords[i]! / words[i]!));
    score[i] = s;
    let at = ranked.length;
    while (at > 0 && score[ranked[at - 1]!.index]! < s) at--;
    if (at < RANKED) {
      ranked.splice(at, 0, a);
      if (ranked.length > RANKED) ranked.pop();
    }
  }
  const scores = {
    get: (e: Element): number | undefined => {
      const a = names.get(e);
      return a !== undefined && isCandidate[a.index] === 1 ? score[a.index] : undefined;
    },
  };
  let top = ranked[0]!.el;
  let topScore = score[ranked[0]!.index]!;
  // Close rivals (three or more of the top five within 75 %) split one story: their common ancestor.
  const rivals = ranked
    .slice(1)
    .filter((a) => score[a.index]! >= 0.75 * topScore)
    .map((a) => a.el);
  if (rivals.length >= 3) {
    for (let p = top.parentElement; p && p.localName !== 'body'; p = p.parentElement) {
      if (rivals.filter((r) => p!.contains(r)).length >= 3) {
        top = p;
        break;
      }
    }
  }
  // Up to a parent that scores higher (the story's paragraphs spread over sibling containers).
  let last = scores.get(top) ?? 0;
  const threshold = last / 3;
  for (let p = top.parentElement; p && p.localName !== 'body'; p = p.parentElement) {
    const s = scores.get(p);
    if (s === undefined) continue;
    if (s < threshold) break;
    if (s > last) {
      top = p;
      break;
    }
    last = s;
  }
  for (let p = top.parentElement; p && p.localName !== 'body' && onlyChild(p); p = p.parentElement) top = p;
  topScore = scores.get(top) ?? topScore;
  const parts: Element[] = [];
  const parent = top.parentElement;
  if (!parent) return { parts: [top], top, score: topScore };
  const siblingThreshold = Math.max(10, topScore * 0.2);
  const topClass = top.getAttribute('class') ?? '';
  for (let sib = parent.firstElementChild; sib; sib = sib.nextElementSibling) {
    if (sib === top) {
      parts.push(sib);
      continue;
    }
    const bonus = topClass !== '' && sib.getAttribute('class') === topClass ? topScore * 0.2 : 0;
    const s = scores.get(sib);
    if (s !== undefined && s + bonus >= siblingThreshold) parts.push(sib);
    else if (sib.localName === 'p' && proseParagraph(sib)) parts.push(sib);
  }
  return { parts, top, score: topScore };
}

/** `p.children.length === 1`, without the array linkedom builds for `children`. */
function onlyChild(p: Element): boolean {
  const first = p.firstElementChild;
  return first !== null && first.nextElementSibling === null;
}

/** Readability's DIV_TO_P_ELEMS: a <div> with one of these inside is not a paragraph. */
const DIV_BLOCKS = new Set(['blockquote', 'dl', 'div', 'img', 'ol', 'p', 'pre', 'table', 'ul']);

/** Its children only (Readability looks deeper; inline wrappers around blocks are rare, and a walk per <div> would not be linear). */
function holdsBlocks(el: Element): boolean {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (DIV_BLOCKS.has(c.localName)) return true;
  return false;
}

/** Readability's test for a sibling paragraph: long with few links, or a short link-free sentence. */
function proseParagraph(p: Element): boolean {
  const text = (p.textContent ?? '').replace(/\s+/g, ' ').trim();
  let linked = 0;
  for (const a of Array.from(p.querySelectorAll('a'))) linked += (a.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  const linkDensity = text.length === 0 ? 0 : linked / text.length;
  if (text.length > 80) return linkDensity < 0.25;
  return text.length > 0 && linkDensity === 0 && /\.( |$)/.test(text);
}
