// Word counts per element, computed in one post-order pass (no per-element textContent calls,
// which made boilerplate scoring quadratic on large pages).

export interface TextStats {
  /** \w+ words in the element's text. */
  words: number;
  /** Of those, words inside <a> elements. */
  linkWords: number;
  /** <a> elements inside. */
  links: number;
}

/** Number of `\w+` runs, counted without allocating the matches (this runs over every text node). */
export function countWords(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const w = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}

export function computeTextStats(root: Element): Map<Element, TextStats> {
  const stats = new Map<Element, TextStats>();
  // Iterative post-order: push (el, false) to expand, (el, true) to total up after the children.
  const stack: Array<[Element, boolean]> = [[root, false]];
  while (stack.length > 0) {
    const [el, done] = stack.pop()!;
    if (!done) {
      stack.push([el, true]);
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push([c, false]);
      continue;
    }
    const s: TextStats = { words: 0, linkWords: 0, links: 0 };
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) s.words += countWords(n.nodeValue ?? '');
      else if (n.nodeType === 1) {
        const cs = stats.get(n as Element);
        if (!cs) continue;
        s.words += cs.words;
        s.linkWords += cs.linkWords;
        s.links += cs.links;
      }
    }
    if (el.localName === 'a') {
      s.linkWords = s.words;
      s.links += 1;
    }
    stats.set(el, s);
  }
  return stats;
}
