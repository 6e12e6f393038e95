// The page's blocks (blocks.ts), its elements' word counts (text-stats.ts) and its element list, in
// one pass over linkedom's node list: segmentBlocks and computeTextStats each walked every node
// through the sibling getters and counted the words of every text node, and descendants walked the
// elements a third time. The same answers as those three (test/convert/segment-page.test.ts compares
// them); without linkedom's fast paths (linkedom-reads.ts) it is those three.

import { descendants, tagOf } from '../dom-utils.js';
import { nodeListLinks } from '../linkedom-reads.js';
import { BLOCK_TAGS, type Block, segmentBlocks } from './blocks.js';
import { computeTextStats, type TextStats } from './text-stats.js';

export interface PageText {
  /** segmentBlocks(root). */
  blocks: Block[];
  /** computeTextStats(root). */
  stats: Map<Element, TextStats>;
  /** descendants(root). */
  elements: Element[];
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const NODE_END = -1;

interface Linked {
  nodeType: number;
  [key: symbol]: Linked;
}

/** countWords(s) of the last wordCounts call (the second of its two answers, without an object per text). */
let asciiWords = 0;

/** countWords(s, true), and countWords(s) into asciiWords, in one loop over the text. */
function wordCounts(s: string): number {
  let all = 0;
  let ascii = 0;
  let inAll = false;
  let inAscii = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const a = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    const w = a || c > 127;
    if (a && !inAscii) ascii++;
    if (w && !inAll) all++;
    inAscii = a;
    inAll = w;
  }
  asciiWords = ascii;
  return all;
}

/** segmentBlocks, computeTextStats and descendants of `root`, from one walk when linkedom's list can be read. */
export function segmentPage(root: Element): PageText {
  const links = nodeListLinks();
  const stop = links ? (root as unknown as Linked)[links.end] : undefined;
  if (!links || !stop) {
    const elements = descendants(root);
    return { blocks: segmentBlocks(root), stats: computeTextStats(root, elements), elements };
  }
  const { next } = links;
  const blocks: Block[] = [];
  const texts: (string[] | undefined)[] = [];
  const elements: Element[] = [];
  const stats = new Map<Element, TextStats>();
  let rows = 0;
  const open = (el: Element): Block => {
    const b: Block = { id: blocks.length, el, tokens: 0, linkTokens: 0, links: 0, images: 0, text: '', rowsBefore: rows };
    blocks.push(b);
    return b;
  };
  // The open elements (parallel stacks): the element, its word counts so far, the block its
  // children's text goes to, whether its children are inside a link. <pre> is one block.
  const open_: Element[] = [root];
  const counts: TextStats[] = [{ words: 0, linkWords: 0, links: 0 }];
  const owners: Block[] = [open(root)];
  const inLink: boolean[] = [false];
  let top = 0;
  for (let n = (root as unknown as Linked)[next]; n && n !== stop; n = n[next]) {
    const type = n.nodeType;
    if (type === TEXT_NODE) {
      const value = (n as unknown as Text).nodeValue ?? '';
      const words = wordCounts(value);
      counts[top]!.words += asciiWords;
      if (words === 0) continue;
      const block = owners[top]!;
      if (block.tokens === 0) {
        block.rowsBefore = rows;
        rows++;
      }
      block.tokens += words;
      if (inLink[top]) block.linkTokens += words;
      const parts = texts[block.id];
      if (parts) parts.push(value);
      else texts[block.id] = [value];
    } else if (type === ELEMENT_NODE) {
      const el = n as unknown as Element;
      elements.push(el);
      const tag = tagOf(el);
      const block = owners[top]!;
      let target = block;
      let link = inLink[top]!;
      if (tag === 'a') {
        block.links++;
        link = true;
      } else if (tag === 'img') block.images++;
      if (BLOCK_TAGS.has(tag) && block.el.localName !== 'pre') target = open(el);
      top++;
      open_[top] = el;
      counts[top] = { words: 0, linkWords: 0, links: 0 };
      owners[top] = target;
      inLink[top] = link;
    } else if (type === NODE_END) {
      // An element's end (the list nests: it is the innermost open one's): its counts go up.
      const s = close(open_[top]!, counts[top]!, stats);
      top--;
      const up = counts[top]!;
      up.words += s.words;
      up.linkWords += s.linkWords;
      up.links += s.links;
    }
  }
  close(root, counts[0]!, stats);
  for (let id = 0; id < texts.length; id++) {
    const parts = texts[id];
    if (parts) blocks[id]!.text = parts.join(' ');
  }
  return { blocks, stats, elements };
}

/** computeTextStats' last step for an element: a link's words are all link words. */
function close(el: Element, s: TextStats, stats: Map<Element, TextStats>): TextStats {
  if (el.localName === 'a') {
    s.linkWords = s.words;
    s.links += 1;
  }
  stats.set(el, s);
  return s;
}
