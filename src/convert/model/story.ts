// The story on a page (article-tail.ts adjusts what is kept around it): the smallest container around
// the largest kept block that holds half of the kept words, the entries (<article>, hentry, Article
// microdata) that mark one story or a list of them, and whether the page declares one story.

import { declaresArticle, NON_ARTICLE_TYPES, type StructuredData } from '../structured-data.js';
import type { BlockRows, ElementRecord } from './block-features.js';

/** The story on the page: the smallest container around the largest kept block with half the kept words. */
export interface Story {
  /** The largest kept block's ancestors, innermost first, and their indexes. */
  chain: Element[];
  chainIndex: Map<Element, number>;
  /** Index in `chain` of the story's container. */
  story: number;
  /** Per row: index in `chain` of the row's lowest common ancestor with the largest kept block. */
  rowLca: Int32Array;
  /** First and last kept rows inside the story. */
  start: number;
  end: number;
}

export function findStory(rows: BlockRows, kept: ReadonlySet<number>): Story | null {
  const blocks = rows.blocks;
  let total = 0;
  let largest = -1;
  blocks.forEach((b, r) => {
    if (!kept.has(b.id)) return;
    total += b.tokens;
    if (largest < 0 || b.tokens > blocks[largest]!.tokens) largest = r;
  });
  if (largest < 0) return null;
  // Each block's lowest common ancestor with the largest kept block, memoised per element (by its
  // record's number, BlockRows.names: every row's element and its ancestors up to body) so the walks
  // up are linear in the page. The chain goes on above body (to <html>): where no record is met on it,
  // a row's ancestor on the chain is the outermost.
  const chain: Element[] = [];
  const chainIndex = new Map<Element, number>();
  for (let e: Element | null = blocks[largest]!.el; e; e = e.parentElement) {
    chainIndex.set(e, chain.length);
    chain.push(e);
  }
  const names = rows.names;
  // Per record: 1 + the index in `chain` of its lowest common ancestor with the largest block (0: not known yet).
  const lcaOf = new Int32Array(names.size);
  for (let a: ElementRecord | null = names.get(blocks[largest]!.el)!, i = 0; a !== null; a = a.up, i++) lcaOf[a.index] = i + 1;
  const walked: ElementRecord[] = [];
  const lca = (el: Element): number => {
    let found = chain.length - 1;
    for (let a: ElementRecord | null = names.get(el)!; a; a = a.up) {
      const known = lcaOf[a.index]!;
      if (known !== 0) {
        found = known - 1;
        break;
      }
      walked.push(a);
    }
    for (const w of walked) lcaOf[w.index] = found + 1;
    walked.length = 0;
    return found;
  };
  const within = new Float64Array(chain.length);
  const rowLca = new Int32Array(blocks.length);
  for (let r = 0; r < blocks.length; r++) {
    const b = blocks[r]!;
    const i = lca(b.el);
    rowLca[r] = i;
    if (kept.has(b.id)) within[i] = within[i]! + b.tokens;
  }
  let story = 0;
  for (let acc = 0; story < chain.length - 1; story++) {
    acc += within[story]!;
    if (acc >= 0.5 * total) break;
  }
  let start = -1;
  let end = -1;
  blocks.forEach((b, r) => {
    if (kept.has(b.id) && rowLca[r]! <= story) {
      if (start < 0) start = r;
      end = r;
    }
  });
  return { chain, chainIndex, story, rowLca, start, end };
}

/**
 * An element that marks one entry: an <article>, a microformats `hentry`, or schema.org microdata of
 * an Article or BlogPosting (`itemtype`) or its body (`itemprop="articleBody"`).
 */
export function isEntry(e: Element): boolean {
  if (e.localName === 'article') return true;
  const cls = e.getAttribute('class');
  if (cls !== null && /(?:^|\s)hentry(?:\s|$)/.test(cls)) return true;
  const type = e.getAttribute('itemtype');
  if (type !== null && /schema\.org\/\w*(Article|BlogPosting)\b/i.test(type)) return true;
  return /^(articleBody|blogPost)$/.test(e.getAttribute('itemprop') ?? '');
}

/** The nearest entry sibling of `el` before (-1) or after (1) it, within a few elements. */
export function sibling(el: Element, dir: -1 | 1): boolean {
  let e: Element | null = el;
  for (let i = 0; i < 3; i++) {
    e = dir < 0 ? e.previousElementSibling : e.nextElementSibling;
    if (!e) return false;
    if (isEntry(e)) return true;
  }
  return false;
}

/**
 * The page says it is one story: JSON-LD declares an Article (NewsArticle, BlogPosting…) and no
 * many-item type, or Open Graph's `og:type` is `article` and JSON-LD declares nothing else.
 */
export function declaresStory(data: StructuredData): boolean {
  if (declaresArticle(data)) return true;
  for (const t of data.types) if (NON_ARTICLE_TYPES.has(t)) return false;
  return /^article\b/.test(data.openGraphType);
}
