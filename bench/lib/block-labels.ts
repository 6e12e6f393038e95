// Labels for the block classifier: a block is main content when most of its word trigrams occur in
// the page's ground truth (blocks of one or two words: when the whole block occurs there, as a
// token sequence). Tokens as the WCXB metric takes them: lower-cased `\w+` runs.

import { tokens } from './wcxb-metric.js';

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
  const t = tokens(text);
  if (t.length === 0) return null;
  if (t.length < 3) return gt.joined.includes(` ${t.join(' ')} `) ? 1 : 0;
  let found = 0;
  for (let i = 0; i + 2 < t.length; i++) if (gt.trigrams.has(`${t[i]} ${t[i + 1]} ${t[i + 2]}`)) found++;
  return found / (t.length - 2);
}
