// Labels for the block classifier: a block is main content when most of its word trigrams occur in
// the page's ground truth (blocks of one or two words: when the whole block occurs there, as a
// token sequence). A block repeated on the page (a thread's reply previews copy its posts) is
// content only as many times as the ground truth holds its text; the first copies are. Tokens as
// the WCXB metric takes them: lower-cased `\w+` runs.

import { tokens } from '../../bench/lib/wcxb-metric.js';

export interface GroundTruthIndex {
  trigrams: Set<string>;
  /** " t1 t2 … tn " for whole-sequence tests of short blocks. */
  joined: string;
}

export function indexGroundTruth(text: string): GroundTruthIndex {
  const t = tokens(text);
  const trigrams = new Set<string>();
  for (let i = 0; i + 2 < t.length; i++) trigrams.add(`${t[i]} ${t[i + 1]} ${t[i + 2]}`);
  return { trigrams, joined: ` ${t.join(' ')} ` };
}

/** Share of the block's text found in the ground truth, 0..1 (null: the block has no metric tokens). */
export function blockMatch(text: string, gt: GroundTruthIndex): number | null {
  return matchTokens(tokens(text), gt);
}

function matchTokens(t: readonly string[], gt: GroundTruthIndex): number | null {
  if (t.length === 0) return null;
  if (t.length < 3) return gt.joined.includes(` ${t.join(' ')} `) ? 1 : 0;
  let found = 0;
  for (let i = 0; i + 2 < t.length; i++) if (gt.trigrams.has(`${t[i]} ${t[i + 1]} ${t[i + 2]}`)) found++;
  return found / (t.length - 2);
}

/** blockMatch for every block of a page, in order, with repeats beyond the ground truth's count at 0. */
export function blockMatches(texts: readonly string[], gt: GroundTruthIndex): (number | null)[] {
  const seen = new Map<string, number>();
  return texts.map((text) => {
    const t = tokens(text);
    const m = matchTokens(t, gt);
    if (m === null || t.length < 3) return m;
    const key = ` ${t.join(' ')} `;
    const copy = (seen.get(key) ?? 0) + 1;
    seen.set(key, copy);
    return copy > 1 && copy > occurrences(gt.joined, key) ? 0 : m;
  });
}

function occurrences(hay: string, needle: string): number {
  let n = 0;
  // Joined sequences share their boundary space, so step past all but the last character.
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length - 1)) n++;
  return n;
}
