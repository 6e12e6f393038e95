// Word counts per element, computed in one post-order pass (no per-element textContent calls,
// which made boilerplate scoring quadratic on large pages).

import { descendants } from '../dom-utils.js';

export interface TextStats {
  /** \w+ words in the element's text. */
  words: number;
  /** Of those, words inside <a> elements. */
  linkWords: number;
  /** <a> elements inside. */
  links: number;
}

/** Lower-cased words, letters and digits of any script ("café", "слово", "4090"). */
export function wordsOf(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/**
 * Number of `\w+` runs, counted without allocating the matches (this runs over every text node).
 * `otherScripts`: any non-ASCII character counts as a word character too, so text in other
 * scripts has words (the block classifier's token counts).
 */
export function countWords(s: string, otherScripts = false): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const w = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (otherScripts && c > 127);
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}

/**
 * Stats of `root` and every element below it. `elements`, when given, must be `descendants(root)`
 * (callers that walk the tree anyway pass theirs). Reverse pre-order visits children before
 * their parent, so one pass totals everything up.
 */
export function computeTextStats(root: Element, elements: readonly Element[] = descendants(root)): Map<Element, TextStats> {
  const stats = new Map<Element, TextStats>();
  for (let i = elements.length; i >= 0; i--) {
    const el = i === 0 ? root : elements[i - 1]!;
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
