// Adjacent inline boxes written with nothing between them (`<span>2026</span><span>1h 54m</span>`, a
// filter's label beside its link) are separate words on screen, set apart by CSS, but turndown joins
// their text into one word. A space goes between two such siblings when a word character meets a word
// character; text formatting (`<b>W</b>ord`, `<em>`) is not a box and is left as written, and code
// (highlighters wrap every token in a span) is never touched.

const BOXES = new Set(['span', 'a', 'label', 'time', 'data', 'output']);
const CODE = new Set(['pre', 'code', 'kbd', 'samp']);

const WORD = /[\p{L}\p{N}]/u;

export function separateInlineBoxes(root: Element): void {
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (CODE.has(c.localName)) continue;
      stack.push(c);
      const next = c.nextSibling;
      if (next?.nodeType !== 1 || !BOXES.has(c.localName) || !BOXES.has((next as Element).localName)) continue;
      if (WORD.test(edgeChar(c, true)) && WORD.test(edgeChar(next, false))) {
        el.insertBefore(el.ownerDocument.createTextNode(' '), next);
      }
    }
  }
}

/** The last (or first) character of a node's text, walking in from that edge only as far as needed. */
function edgeChar(node: Node, last: boolean): string {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.nodeType === 3) {
      const v = n.nodeValue ?? '';
      if (v !== '') return last ? v.charAt(v.length - 1) : v.charAt(0);
      continue;
    }
    // Children pushed so the edge-most child is popped first.
    if (last) for (let c = n.firstChild; c; c = c.nextSibling) stack.push(c);
    else for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
  }
  return '';
}
