// Text blocks: the unit the block classifier keeps or drops. Every text node belongs to its nearest
// block-level ancestor (a <p>, <li>, <td>, heading, <div>…); a block's "own" content is its text and
// inline elements, not the blocks nested in it. Applying verdicts (block-filter.ts) tells a nested
// block from inline content by the blocks' elements (a set of them, not a mark on each: an
// attribute set and removed again per block was a share of segmentation and of applying, and a
// page's own attribute of that name passed for a block).

import { tagOf } from '../dom-utils.js';
import { countWords } from './text-stats.js';

export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'ul',
  'legend',
]);

export interface Block {
  id: number;
  el: Element;
  tokens: number;
  linkTokens: number;
  links: number;
  images: number;
  /** Own text, whitespace as in the page. */
  text: string;
  /** Rows (blocks with tokens) before this block in document order. */
  rowsBefore: number;
}

/** Segments `body` into blocks, in document order of their first content. */
export function segmentBlocks(body: Element): Block[] {
  const blocks: Block[] = [];
  let rows = 0;
  const open = (el: Element): Block => {
    const b: Block = { id: blocks.length, el, tokens: 0, linkTokens: 0, links: 0, images: 0, text: '', rowsBefore: rows };
    blocks.push(b);
    return b;
  };
  // Iterative walk; each frame (three parallel stacks, no tuple per node): node, its block, whether
  // inside a link. <pre> is one block.
  const nodes: Node[] = [];
  const owners: Block[] = [];
  const links: boolean[] = [];
  const root = open(body);
  for (let c = body.lastChild; c; c = c.previousSibling) {
    nodes.push(c);
    owners.push(root);
    links.push(false);
  }
  const texts = new Map<Block, string[]>();
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const block = owners.pop()!;
    const inLink = links.pop()!;
    if (node.nodeType === 3) {
      const value = node.nodeValue ?? '';
      const n = countWords(value, true);
      if (n === 0) continue;
      if (block.tokens === 0) {
        block.rowsBefore = rows;
        rows++;
      }
      block.tokens += n;
      if (inLink) block.linkTokens += n;
      let parts = texts.get(block);
      if (!parts) texts.set(block, (parts = []));
      parts.push(value);
      continue;
    }
    if (node.nodeType !== 1) continue;
    const el = node as Element;
    const tag = tagOf(el);
    let target = block;
    let link = inLink;
    if (tag === 'a') {
      block.links++;
      link = true;
    } else if (tag === 'img') block.images++;
    if (BLOCK_TAGS.has(tag) && block.el.localName !== 'pre') target = open(el);
    for (let c = el.lastChild; c; c = c.previousSibling) {
      nodes.push(c);
      owners.push(target);
      links.push(link);
    }
  }
  for (const [b, parts] of texts) b.text = parts.join(' ');
  return blocks;
}
