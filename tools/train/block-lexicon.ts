// The class/id lexicon of the block classifier: for each word of class and id attributes seen on
// enough dev-train pages, how much more often the text below an element carrying it is main
// content than text in general (log-odds against the overall rate, shrunk towards 0 for rare
// words). Each page votes once per word, so one huge page cannot define a word.

import { loadPage, type WcxbIndexEntry } from '../../bench/lib/wcxb-data.js';
import { segmentHtml } from '../../src/convert/html-to-markdown.js';
import { classTokens } from '../../src/convert/model/class-tokens.js';
import { blockMatch, indexGroundTruth } from './block-labels.js';

export interface LexiconOptions {
  /** A word needs this many pages. */
  minPages: number;
  /** Pseudo-pages at the overall rate added to every word. */
  prior: number;
  /** Ancestor levels searched above each block. */
  levels: number;
}

export const LEXICON_DEFAULTS: LexiconOptions = { minPages: 12, prior: 8, levels: 10 };

export function buildLexicon(entries: readonly WcxbIndexEntry[], o: LexiconOptions = LEXICON_DEFAULTS): Record<string, number> {
  const perWord = new Map<string, { pages: number; shareSum: number }>();
  let overallSum = 0;
  let overallPages = 0;
  for (const entry of entries) {
    const page = loadPage(entry);
    const blocks = segmentHtml(page.html, page.url);
    if (!blocks) continue;
    const gt = indexGroundTruth(page.mainContent);
    const acc = new Map<string, [number, number]>();
    let content = 0;
    let total = 0;
    for (const b of blocks) {
      if (b.tokens === 0) continue;
      const m = blockMatch(b.text, gt);
      if (m === null) continue;
      const yes = m >= 0.5 ? b.tokens : 0;
      content += yes;
      total += b.tokens;
      const seen = new Set<string>();
      let el: Element | null = b.el;
      for (let level = 0; el && level <= o.levels; el = el.parentElement, level++) for (const t of classTokens(el)) seen.add(t);
      for (const t of seen) {
        const a = acc.get(t) ?? [0, 0];
        a[0] += yes;
        a[1] += b.tokens;
        acc.set(t, a);
      }
    }
    if (total === 0) continue;
    overallSum += content / total;
    overallPages++;
    for (const [t, [yes, all]] of acc) {
      const w = perWord.get(t) ?? { pages: 0, shareSum: 0 };
      w.pages++;
      w.shareSum += yes / all;
      perWord.set(t, w);
    }
  }
  const overall = overallSum / Math.max(1, overallPages);
  const logit = (p: number) => Math.log(Math.max(1e-3, p) / Math.max(1e-3, 1 - p));
  const out: Record<string, number> = {};
  for (const [t, w] of [...perWord].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (w.pages < o.minPages) continue;
    const rate = (w.shareSum + o.prior * overall) / (w.pages + o.prior);
    out[t] = Number((logit(rate) - logit(overall)).toFixed(3));
  }
  return out;
}
