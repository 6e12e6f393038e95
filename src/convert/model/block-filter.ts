// Applies the block classifier's verdicts to the page in place: the own content (text and inline
// elements) of every dropped block is removed, nested blocks are judged on their own, and whatever
// is left empty is pruned, so headings, lists, tables and code keep their structure for turndown.
// Blocks with no text (a <figure> holding only an image) follow the nearest text block.

import { descendants, tagOf } from '../dom-utils.js';
import { firstElementBelow } from '../linkedom-reads.js';
import { isSpace } from '../space.js';
import { BLOCK_TAGS, type Block } from './blocks.js';

/**
 * `blocks`: every block of the page in id order, `el` inside `root`; `kept`: ids of kept text
 * blocks. Changes `root` in place; returns the elements left below it, in document order (descendants).
 */
export function keepBlocks(root: Element, blocks: readonly Block[], kept: ReadonlySet<number>): Element[] {
  const rows = blocks.filter((b) => b.tokens > 0);
  for (const b of blocks) {
    if (b.tokens > 0) {
      if (!kept.has(b.id)) removeOwnContent(b.el);
    } else if (b.images > 0) {
      // Rows before this block: rowsBefore; the row after it is the next one.
      const before = rows[b.rowsBefore - 1];
      const after = rows[b.rowsBefore];
      if (!(before && kept.has(before.id)) && !(after && kept.has(after.id))) removeOwnContent(b.el);
    }
  }
  return pruneEmpty(root);
}

/**
 * Below a block that is not a <pre>, the blocks are the BLOCK_TAGS elements (segmentBlocks opens one
 * for each; the walks below stop at the first, so none is inside another <pre>): read from the tag,
 * not a Set of every block's element built per page. A <pre> holds no blocks.
 */
const isBlockTag = (e: Element) => BLOCK_TAGS.has(tagOf(e));
const noBlock = () => false;

/** Removes text and inline elements directly owned by block `el`; nested blocks stay. */
function removeOwnContent(el: Element): void {
  removeOwned(el, el.localName === 'pre' ? noBlock : isBlockTag);
}

function removeOwned(el: Element, isBlock: (e: Element) => boolean): void {
  for (let c = el.firstChild; c; ) {
    const next = c.nextSibling;
    if (c.nodeType === 1) {
      const child = c as Element;
      if (!isBlock(child)) {
        if (firstElementBelow(child, isBlock)) removeOwned(child, isBlock);
        else child.remove();
      }
    } else c.parentNode?.removeChild(c);
    c = next;
  }
}

const KEEP_EMPTY = new Set(['img', 'picture', 'br', 'hr', 'td', 'th']);

/**
 * Removes elements left with no text and no image (children before their parent). One holding only
 * whitespace gives way to that whitespace: it separates words (`from<span> </span>typing` in
 * highlighted code, `a<span> </span>b` in text), which removing it would join.
 */
function pruneEmpty(root: Element): Element[] {
  const order = descendants(root);
  // What stays, from the end: only elements without element children go, so the rest keep their order.
  let left = order.length;
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i]!;
    // Element children first: most elements have some, and that test reads one field.
    if (!el.firstElementChild && !KEEP_EMPTY.has(tagOf(el))) {
      const text = leafText(el);
      if (text === '') {
        el.remove();
        continue;
      }
      if (text !== null && el.parentNode) {
        // replaceWith, without the fragment linkedom wraps the one node in; the element's one text
        // node itself when that is all it holds (most do), not a new node of the same text.
        const only = el.firstChild;
        const node = only !== null && only.nodeType === 3 && only.nextSibling === null ? only : el.ownerDocument.createTextNode(text);
        el.parentNode.insertBefore(node, el);
        el.remove();
        continue;
      }
    }
    order[--left] = el;
  }
  return order.slice(left);
}

/**
 * The text of an element without element children when it is blank (`''` for none), null when it
 * holds a non-space character: its `textContent`, read from its own text nodes without joining them
 * first (most elements left hold text, and the first text node usually says so).
 */
function leafText(el: Element): string | null {
  let blank = '';
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 3 && c.nodeType !== 4) continue; // text and CDATA, as textContent reads
    const value = (c as CharacterData).data;
    if (!allSpace(value)) return null;
    blank += value;
  }
  return blank;
}

/** `!/\S/.test(s)`, read in place (the regex flattened a text built in pieces, a copy per leaf). */
function allSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}
