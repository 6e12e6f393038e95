// Labels for the block classifier from Trafilatura's evaluation corpus, whose ground truth is
// snippets, not the whole main text: a block holding part of a `with` snippet is content (1), one
// holding part of a `without` snippet is not (0), every other block is unknown (-1, weight 0).
// Snippets are matched as the corpus metric matches them (whitespace collapsed, verbatim) against
// the page's blocks joined in document order, so a snippet spanning two blocks labels both.
// A `with` snippet found more than once is ambiguous (a headline also in a teaser list) and labels
// nothing; a `without` snippet labels every copy, since any copy that is kept is a leak.

import { collapse } from '../../bench/lib/trafilatura-run.js';

export function snippetLabels(texts: readonly string[], withs: readonly string[], withouts: readonly string[]): number[] {
  const labels = texts.map(() => -1);
  const collapsed = texts.map(collapse);
  let hay = '';
  const starts: number[] = [];
  for (const t of collapsed) {
    starts.push(hay.length);
    hay += `${t} `;
  }
  // The block holding character `pos` of `hay`.
  const blockAt = (pos: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const spans = (snippet: string): Array<[number, number]> => {
    const s = collapse(snippet);
    const out: Array<[number, number]> = [];
    if (s === '') return out;
    for (let i = hay.indexOf(s); i >= 0; i = hay.indexOf(s, i + 1)) out.push([blockAt(i), blockAt(i + s.length - 1)]);
    return out;
  };
  const mark = ([a, b]: [number, number], label: number) => {
    for (let k = a; k <= b; k++) if (collapsed[k] !== '') labels[k] = label; // `without` runs last: it wins
  };
  for (const s of withs) {
    const found = spans(s);
    if (found.length === 1) mark(found[0]!, 1);
  }
  for (const s of withouts) for (const span of spans(s)) mark(span, 0);
  return labels;
}
