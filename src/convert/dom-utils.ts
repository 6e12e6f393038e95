// Small DOM helpers. linkedom's querySelectorAll compiles the selector and matches it against
// every element on each call (it was ~10 % of conversion time), so the passes of src/convert/
// collect elements with one plain walk (`descendants`, an array: removal while iterating is safe)
// and test tag names and attributes themselves.

import { elementsBelow } from './linkedom-reads.js';
import { lowerName } from './tag-name.js';

/** Lower-cased tag name, as CSS type selectors match it in an HTML document. */
export const tagOf = (el: Element): string => lowerName(el.localName);

/** Every element below `root` in document order (what `querySelectorAll('*')` returns), iteratively. */
export const descendants = (root: ParentNode): Element[] => elementsBelow(root);

/**
 * descendants(el), cut from `list`: the elements below one of el's ancestors in document order, as
 * descendants returned them, none moved since (a pass's list serves the next ones without a walk):
 * those after `el` up to the first element following its subtree. An `el` not in the list is walked.
 */
export function descendantsIn(list: readonly Element[], el: Element): Element[] {
  const start = list.indexOf(el);
  if (start < 0) return descendants(el);
  let following: Element | null = null;
  for (let e: Element | null = el; e && !following; e = e.parentElement) following = e.nextElementSibling;
  const end = following ? list.indexOf(following, start) : -1;
  return list.slice(start + 1, end < 0 ? list.length : end);
}

/** Whether any text node below `root` holds a non-space character (stops at the first). */
export function hasText(root: Node): boolean {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      if (/\S/.test(node.nodeValue ?? '')) return true;
    } else if (node.nodeType === 1 || node.nodeType === 9 || node.nodeType === 11) {
      for (let c = node.firstChild; c; c = c.nextSibling) stack.push(c);
    }
  }
  return false;
}

/**
 * A test of whether `el` or one of its ancestors matches `match`, stopping below the first ancestor
 * for which `stop` holds. Memoised per element: asked of every block on a page, each element is
 * walked once, so the rules that use it stay linear.
 */
export function memoizedAncestorTest(
  match: (e: Element) => boolean,
  stop: (e: Element) => boolean = () => false,
): (el: Element) => boolean {
  const memo = new Map<Element, boolean>();
  // One list for every walk (emptied after each): no array per question.
  const walked: Element[] = [];
  return (el) => {
    let result = false;
    for (let e: Element | null = el; e && !stop(e); e = e.parentElement) {
      const m = memo.get(e);
      if (m !== undefined) {
        result = m;
        break;
      }
      walked.push(e);
      if (match(e)) {
        result = true;
        break;
      }
    }
    for (const w of walked) memo.set(w, result);
    walked.length = 0;
    return result;
  };
}
