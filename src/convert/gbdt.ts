// Inference for gradient-boosted decision trees (binary, logistic), trained by
// bench/lib/gbdt-train.ts. Trees are flat arrays so a model is plain JSON and a prediction walks
// numbers without allocating.
//
// Split rule: go left when `x[feature] <= threshold`, else right. Any comparison with NaN is
// false, so a missing value (NaN) always goes right; the trainer bins NaN (and +Infinity) into a
// top bin that is right of every split, so training and inference agree.

export interface GbdtTree {
  /** Feature index per node; -1 marks a leaf. */
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  /** A leaf's raw-score contribution (learning rate already applied); 0 on inner nodes. */
  value: number[];
}

export interface GbdtModel {
  version: 1;
  features: string[];
  baseScore: number;
  trees: GbdtTree[];
}

/** Raw score (log-odds): baseScore plus one leaf value per tree. `offset` lets a caller score a
 * row inside a larger row-major buffer without slicing it. */
export function predictRaw(model: GbdtModel, x: ArrayLike<number>, offset = 0): number {
  let score = model.baseScore;
  const trees = model.trees;
  for (let t = 0; t < trees.length; t++) {
    const tree = trees[t]!;
    const { feature, threshold, left, right } = tree;
    let i = 0;
    let f = feature[0]!;
    while (f !== -1) {
      i = x[offset + f]! <= threshold[i]! ? left[i]! : right[i]!;
      f = feature[i]!;
    }
    score += tree.value[i]!;
  }
  return score;
}

/** Probability of the positive class. */
export function predictProbability(model: GbdtModel, x: ArrayLike<number>, offset = 0): number {
  return 1 / (1 + Math.exp(-predictRaw(model, x, offset)));
}
