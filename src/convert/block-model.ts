// The block classifier: a gradient-boosted tree model (gbdt.ts) trained on WCXB dev-train by
// bench/train-blocks.ts, stored in block-model-weights.ts. Until a model is present, or when the
// stored model was trained on another feature list, the heuristic choice decides alone.

import { FEATURES, type BlockRows } from './block-features.js';
import { predictRaw, type GbdtModel } from './gbdt.js';
import { BLOCK_MODEL, BLOCK_THRESHOLD } from './block-model-weights.js';

const model: GbdtModel | null =
  BLOCK_MODEL && BLOCK_MODEL.features.join(',') === FEATURES.join(',') ? (BLOCK_MODEL as GbdtModel) : null;

/** Raw scores (log-odds) per row; null without a usable model. */
export function blockScores(rows: BlockRows, m: GbdtModel | null = model): Float64Array | null {
  if (!m) return null;
  const cols = FEATURES.length;
  const out = new Float64Array(rows.blocks.length);
  for (let r = 0; r < out.length; r++) out[r] = predictRaw(m, rows.x, r * cols);
  return out;
}

/** Ids of the blocks to keep. */
export function keptBlocks(rows: BlockRows, m: GbdtModel | null = model, threshold = BLOCK_THRESHOLD): Set<number> {
  const scores = blockScores(rows, m);
  const kept = new Set<number>();
  const chosenCol = FEATURES.indexOf('in_chosen');
  rows.blocks.forEach((b, r) => {
    const keep = scores ? scores[r]! >= threshold : rows.x[r * FEATURES.length + chosenCol] === 1;
    if (keep) kept.add(b.id);
  });
  return kept;
}
