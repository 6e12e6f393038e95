// Bounds on what the extractor hands to turndown, which recurses per element (RangeError near
// depth 5,000): depth is measured here and deep subtrees flattened before any later step.

import { descendants } from './dom-utils.js';
import { deepestElement, elementsAndDepth } from './linkedom-reads.js';

/** Elements deeper than this are flattened to their text; real pages rarely pass ~60. */
export const MAX_DEPTH = 100;

export interface DomStats {
  maxDepth: number;
}

/** Walks the tree iteratively (no recursion, so hostile depth cannot overflow the stack). */
export function measureDom(root: Element): DomStats {
  // linkedom's node list read in one pass (linkedom-reads.ts), else the walk below.
  const deepest = deepestElement(root);
  if (deepest !== undefined) return { maxDepth: deepest };
  let maxDepth = 0;
  const stack: Array<[Element, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [el, depth] = stack.pop()!;
    if (depth > maxDepth) maxDepth = depth;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push([c, depth + 1]);
  }
  return { maxDepth };
}

/**
 * descendants(doc), after its body is flattened past MAX_DEPTH (flattenDeepNodes): one walk reads the
 * body's depth and the element list when linkedom's list can be read and the body is not too deep.
 */
export function guardedElements(doc: Document): Element[] {
  const body = doc.body;
  const walked = elementsAndDepth(doc, body);
  if (walked && walked.depth <= MAX_DEPTH) return walked.elements;
  if (measureDom(body).maxDepth > MAX_DEPTH) flattenDeepNodes(body, MAX_DEPTH);
  return descendants(doc);
}

/**
 * Replaces every subtree that starts deeper than `maxDepth` with a paragraph holding its text, so
 * no text is lost but the tree becomes shallow enough for the recursive libraries.
 */
export function flattenDeepNodes(root: Element, maxDepth = MAX_DEPTH): number {
  let flattened = 0;
  const stack: Array<[Element, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [el, depth] = stack.pop()!;
    if (depth >= maxDepth) {
      const text = textOf(el);
      const doc = el.ownerDocument;
      const p = doc.createElement('p');
      p.textContent = text;
      el.replaceWith(p);
      flattened++;
      continue;
    }
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push([c, depth + 1]);
  }
  return flattened;
}

/** Text of a subtree, gathered iteratively (block boundaries become spaces). */
function textOf(root: Element): string {
  const parts: string[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      parts.push(node.nodeValue ?? '');
      continue;
    }
    if (node.nodeType !== 1) continue;
    const name = (node as Element).localName;
    if (name === 'script' || name === 'style' || name === 'noscript' || name === 'template') continue;
    parts.push(' ');
    const kids: Node[] = [];
    for (let c = node.firstChild; c; c = c.nextSibling) kids.push(c);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}
