// Inference for gradient-boosted decision trees (binary, logistic), trained by
// tools/train/gbdt-train.ts. Trees are flat arrays so a model is plain JSON and a prediction walks
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

/** A model's trees packed into typed arrays, one node table for all trees, built on its first prediction
 * (a model is not changed once it predicts: the trainer predicts with finished models only). */
interface Packed {
  baseScore: number;
  /** Index of each tree's root in the node table. */
  roots: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
}

const packedModels = new WeakMap<GbdtModel, Packed>();

function pack(model: GbdtModel): Packed {
  let nodes = 0;
  for (const t of model.trees) nodes += t.feature.length;
  const p: Packed = {
    baseScore: model.baseScore,
    roots: new Int32Array(model.trees.length),
    feature: new Int32Array(nodes),
    threshold: new Float64Array(nodes),
    left: new Int32Array(nodes),
    right: new Int32Array(nodes),
    value: new Float64Array(nodes),
  };
  let o = 0;
  model.trees.forEach((t, k) => {
    p.roots[k] = o;
    for (let i = 0; i < t.feature.length; i++) {
      p.feature[o + i] = t.feature[i]!;
      p.threshold[o + i] = t.threshold[i]!;
      p.left[o + i] = o + t.left[i]!;
      p.right[o + i] = o + t.right[i]!;
      p.value[o + i] = t.value[i]!;
    }
    o += t.feature.length;
  });
  packedModels.set(model, p);
  return p;
}

/** Raw score (log-odds): baseScore plus one leaf value per tree. `offset` lets a caller score a
 * row inside a larger row-major buffer without slicing it. */
export function predictRaw(model: GbdtModel, x: ArrayLike<number>, offset = 0): number {
  const p = packedModels.get(model) ?? pack(model);
  const { roots, feature, threshold, left, right, value } = p;
  let score = p.baseScore;
  for (let t = 0; t < roots.length; t++) {
    let i = roots[t]!;
    let f = feature[i]!;
    while (f !== -1) {
      i = x[offset + f]! <= threshold[i]! ? left[i]! : right[i]!;
      f = feature[i]!;
    }
    score += value[i]!;
  }
  return score;
}

/** Probability of the positive class. */
export function predictProbability(model: GbdtModel, x: ArrayLike<number>, offset = 0): number {
  return 1 / (1 + Math.exp(-predictRaw(model, x, offset)));
}
