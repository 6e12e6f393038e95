// The page's blocks (blocks.ts), its elements' word counts (text-stats.ts) and its element list, in
// one pass over linkedom's node list: segmentBlocks and computeTextStats each walked every node
// through the sibling getters and counted the words of every text node, and descendants walked the
// elements a third time. The same answers as those three (test/convert/segment-page.test.ts compares
// them); without linkedom's fast paths (linkedom-reads.ts) it is those three.
// The counts are typed arrays indexed by an element's number (its place in the element list), with
// each element's parent and subtree end: a Map of an object per element was a tenth of what the
// model allocated per page, and the passes after (boilerplate.ts, block-features.ts) walk by number.

import { descendants, tagOf } from '../dom-utils.js';
import { nodeListLinks } from '../linkedom-reads.js';
import { BLOCK_TAGS, type Block, segmentBlocks } from './blocks.js';
import { computeTextStats } from './text-stats.js';

/**
 * computeTextStats(root) by element number: 0 is `root`, i + 1 is `elements[i]` (descendants(root)),
 * with each element's parent and the end of its subtree, for walks by number.
 */
export interface ElementCounts {
  readonly root: Element;
  /** descendants(root). */
  readonly elements: readonly Element[];
  /** TextStats' words, linkWords and links. */
  readonly words: Int32Array;
  readonly linkWords: Int32Array;
  readonly links: Int32Array;
  /** The parent's number (-1 for the root). */
  readonly parent: Int32Array;
  /** The number of the last element below (the element's own when it has none): its children are n + 1, last[n + 1] + 1, … up to last[n]. */
  readonly last: Int32Array;
  /** The number of each block's element, by block id (the blocks segmentPage gave with these counts). */
  readonly blockNode: Int32Array;
}

export interface PageText {
  /** segmentBlocks(root). */
  blocks: Block[];
  /** computeTextStats(root) and the elements' shape, by number. */
  counts: ElementCounts;
  /** descendants(root). */
  elements: Element[];
}

/** ElementCounts of `root` from its element list and its blocks (a walk and a Map: segmentPage's fallback, tests and benchmarks). */
export function countElements(root: Element, blocks: readonly Block[], elements: readonly Element[] = descendants(root)): ElementCounts {
  const n = elements.length + 1;
  const stats = computeTextStats(root, elements);
  const number = new Map<Element, number>([[root, 0]]);
  elements.forEach((e, i) => number.set(e, i + 1));
  const c = newCounts(root, elements, n, blocks.length);
  for (let i = 0; i < n; i++) {
    const el = i === 0 ? root : elements[i - 1]!;
    const s = stats.get(el)!;
    c.words[i] = s.words;
    c.linkWords[i] = s.linkWords;
    c.links[i] = s.links;
    c.parent[i] = i === 0 ? -1 : number.get(el.parentElement!)!;
  }
  // Reverse order: an element's subtree ends where its last child's does.
  for (let i = n - 1; i >= 0; i--) {
    const l = c.last[i] === 0 ? i : c.last[i]!;
    c.last[i] = l;
    const p = c.parent[i]!;
    if (p >= 0 && c.last[p] === 0) c.last[p] = l;
  }
  for (const b of blocks) c.blockNode[b.id] = number.get(b.el) ?? -1;
  return c;
}

function newCounts(root: Element, elements: readonly Element[], n: number, blocks: number) {
  return {
    root,
    elements,
    words: new Int32Array(n),
    linkWords: new Int32Array(n),
    links: new Int32Array(n),
    parent: new Int32Array(n),
    last: new Int32Array(n),
    blockNode: new Int32Array(blocks),
  };
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
    const blocks = segmentBlocks(root);
    return { blocks, counts: countElements(root, blocks, elements), elements };
  }
  const { next } = links;
  // The elements first (a pointer walk): the counts are sized once, not grown.
  let size = 1;
  for (let n = (root as unknown as Linked)[next]; n && n !== stop; n = n[next]) if (n.nodeType === ELEMENT_NODE) size++;
  const blocks: Block[] = [];
  const nodes: number[] = [];
  const texts: (string[] | undefined)[] = [];
  const elements: Element[] = [];
  const words = new Int32Array(size);
  const linkWords = new Int32Array(size);
  const linkCount = new Int32Array(size);
  const parent = new Int32Array(size);
  const last = new Int32Array(size);
  let rows = 0;
  const open = (el: Element, node: number): Block => {
    const b: Block = { id: blocks.length, el, tokens: 0, linkTokens: 0, links: 0, images: 0, text: '', rowsBefore: rows };
    blocks.push(b);
    nodes.push(node);
    return b;
  };
  // The open elements (parallel stacks): the element's number, the block its children's text goes
  // to, whether its children are inside a link. <pre> is one block.
  const open_: number[] = [0];
  const owners: Block[] = [open(root, 0)];
  const inLink: boolean[] = [false];
  parent[0] = -1;
  let top = 0;
  for (let n = (root as unknown as Linked)[next]; n && n !== stop; n = n[next]) {
    const type = n.nodeType;
    if (type === TEXT_NODE) {
      const value = (n as unknown as Text).nodeValue ?? '';
      const count = wordCounts(value);
      words[open_[top]!]! += asciiWords;
      if (count === 0) continue;
      const block = owners[top]!;
      if (block.tokens === 0) {
        block.rowsBefore = rows;
        rows++;
      }
      block.tokens += count;
      if (inLink[top]) block.linkTokens += count;
      // One text is the block's text as it is; a second starts the parts joined at the end.
      if (block.text === '') block.text = value;
      else {
        const parts = texts[block.id];
        if (parts) parts.push(value);
        else texts[block.id] = [block.text, value];
      }
    } else if (type === ELEMENT_NODE) {
      const el = n as unknown as Element;
      elements.push(el);
      const number = elements.length;
      parent[number] = open_[top]!;
      const tag = tagOf(el);
      const block = owners[top]!;
      let target = block;
      let link = inLink[top]!;
      if (tag === 'a') {
        block.links++;
        link = true;
      } else if (tag === 'img') block.images++;
      if (BLOCK_TAGS.has(tag) && block.el.localName !== 'pre') target = open(el, number);
      top++;
      open_[top] = number;
      owners[top] = target;
      inLink[top] = link;
    } else if (type === NODE_END) {
      // An element's end (the list nests: it is the innermost open one's): its counts go up.
      const e = open_[top]!;
      close(e === 0 ? root : elements[e - 1]!, e, words, linkWords, linkCount);
      last[e] = elements.length;
      top--;
      const up = open_[top]!;
      words[up]! += words[e]!;
      linkWords[up]! += linkWords[e]!;
      linkCount[up]! += linkCount[e]!;
    }
  }
  close(root, 0, words, linkWords, linkCount);
  last[0] = elements.length;
  for (let id = 0; id < texts.length; id++) {
    const parts = texts[id];
    if (parts) blocks[id]!.text = parts.join(' ');
  }
  const counts: ElementCounts = { root, elements, words, linkWords, links: linkCount, parent, last, blockNode: Int32Array.from(nodes) };
  return { blocks, counts, elements };
}

/** computeTextStats' last step for an element: a link's words are all link words. */
function close(el: Element, e: number, words: Int32Array, linkWords: Int32Array, links: Int32Array): void {
  if (el.localName === 'a') {
    linkWords[e] = words[e]!;
    links[e]! += 1;
  }
}
