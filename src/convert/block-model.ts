// The block classifier, in two stages of gradient-boosted trees (gbdt.ts) trained on WCXB
// dev-train by bench/train-blocks.ts and stored in block-model-weights.ts: stage one scores each
// block from its own features, stage two adds what stage one thought of its neighbours and
// containers (block-context.ts). Without a usable model (none stored, or trained on another
// feature list) rule-based clean-up (boilerplate.ts) decides alone.

import { CONTEXT_FEATURES, contextFeatures } from './block-context.js';
import { FEATURES, type BlockRows, type Lexicon } from './block-features.js';
import { predictRaw, type GbdtModel } from './gbdt.js';
import { BLOCK_LEXICON, BLOCK_MARGIN, BLOCK_MODEL, BLOCK_THRESHOLD, CONTEXT_MODEL } from './block-model-weights.js';

export interface BlockClassifier {
  stageOne: GbdtModel | null;
  stageTwo: GbdtModel | null;
  threshold: number;
  margin: number;
  lexicon: Lexicon;
}

const usable = (m: GbdtModel | null, names: readonly string[]) => (m && m.features.join(',') === names.join(',') ? m : null);

/** A classifier from stored parts; a stage trained on another feature list is left out. */
export function blockClassifier(parts: BlockClassifier): BlockClassifier {
  const stageOne = usable(parts.stageOne, FEATURES);
  return { ...parts, stageOne, stageTwo: stageOne && usable(parts.stageTwo, [...FEATURES, ...CONTEXT_FEATURES]) };
}

/** The shipped model. */
export const DEFAULT_CLASSIFIER = blockClassifier({
  stageOne: BLOCK_MODEL, stageTwo: CONTEXT_MODEL, threshold: BLOCK_THRESHOLD, margin: BLOCK_MARGIN, lexicon: BLOCK_LEXICON,
});

/** Final log-odds per row; null without a usable model. */
export function blockScores(rows: BlockRows, c: BlockClassifier = DEFAULT_CLASSIFIER): Float64Array | null {
  if (!c.stageOne) return null;
  const cols = FEATURES.length;
  const n = rows.blocks.length;
  const first = new Float64Array(n);
  for (let r = 0; r < n; r++) first[r] = predictRaw(c.stageOne, rows.x, r * cols);
  if (!c.stageTwo) return first;
  const context = contextFeatures(rows, first, rows.blocks.map((b) => b.tokens));
  const cc = CONTEXT_FEATURES.length;
  const both = new Float32Array(cols + cc);
  const out = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    both.set(rows.x.subarray(r * cols, (r + 1) * cols), 0);
    both.set(context.subarray(r * cc, (r + 1) * cc), cols);
    out[r] = predictRaw(c.stageTwo, both);
  }
  return out;
}

/**
 * Below this score (p ≈ 0.27) a block is never kept, whatever the page: the margin rule must not
 * bring a menu back on a small page. Fixed by design; on dev-train out of fold, -1 scored 0.001
 * below the best floor (-2), and the same on validation.
 */
export const SCORE_FLOOR = -1;

/**
 * The rows kept: those scoring at least `threshold`, and those within `margin` of the page's best
 * score (never below SCORE_FLOOR) — on a page where the classifier is less sure everywhere, its
 * best region is still the page's content (otherwise such pages came out nearly empty).
 */
export function selectRows(scores: ArrayLike<number>, threshold: number, margin: number): boolean[] {
  let best = -Infinity;
  for (let r = 0; r < scores.length; r++) best = Math.max(best, scores[r]!);
  // A page with text never comes out empty: when nothing reaches the floor, its best region stays
  // (within 1 of its best score: the classifier is sure of nothing there, so only the best).
  const cut = best < SCORE_FLOOR ? best - 1 : Math.max(SCORE_FLOOR, Math.min(threshold, best - margin));
  return Array.from({ length: scores.length }, (_, r) => scores[r]! >= cut);
}

/** Ids of the blocks to keep. */
export function keptBlocks(rows: BlockRows, c: BlockClassifier = DEFAULT_CLASSIFIER): Set<number> {
  const scores = blockScores(rows, c);
  const kept = new Set<number>();
  if (!scores) {
    const cleanedCol = FEATURES.indexOf('in_cleaned');
    rows.blocks.forEach((b, r) => rows.x[r * FEATURES.length + cleanedCol] === 1 && kept.add(b.id));
    return kept;
  }
  const keep = selectRows(scores, c.threshold, c.margin);
  keepLeadingTitle(rows, keep);
  keepCodeAfterContent(rows, keep);
  rows.blocks.forEach((b, r) => keep[r] && kept.add(b.id));
  return kept;
}

/**
 * The page's first <h1>, when it comes before the first kept block, heads the content: kept. WCXB's
 * ground truth leaves titles out (the model learned to drop them, on 701 of 1,197 dev-train pages),
 * but an extract result has no title field, so without it a product page would lose its name.
 * Measured cost: −0.001 F1 on dev-train and on validation.
 */
function keepLeadingTitle(rows: BlockRows, keep: boolean[]): void {
  const col = FEATURES.indexOf('heading_level');
  const h1 = keep.findIndex((_, r) => rows.x[r * FEATURES.length + col] === 1);
  const first = keep.indexOf(true);
  if (h1 >= 0 && first >= 0 && h1 < first) keep[h1] = true;
}

/**
 * A code block right after a kept block is the content's code (the model, trained on pages where
 * code is rare, sometimes scores it just under the cut). Neutral on dev-train (38 blocks changed,
 * F1 −0.0001) and validation (3 blocks, ±0).
 */
function keepCodeAfterContent(rows: BlockRows, keep: boolean[]): void {
  const col = FEATURES.indexOf('tag_pre');
  for (let r = 1; r < keep.length; r++) if (!keep[r] && keep[r - 1] && rows.x[r * FEATURES.length + col] === 1) keep[r] = true;
}
