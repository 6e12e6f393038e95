// Inference for gradient-boosted decision trees (binary, logistic), trained by
// tools/train/gbdt-train.ts. Trees are flat arrays so a model is plain JSON and a prediction walks
// numbers without allocating.
//
// Split rule: go left when `x[feature] <= threshold`, else right. Any comparison with NaN is
// false, so a missing value (NaN) always goes right; the trainer bins NaN (and +Infinity) into a
// top bin that is right of every split, so training and inference agree.

import { walkTrees } from './gbdt-wasm.js';

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

/**
 * A model's trees packed into typed arrays, built on its first prediction (a model is not changed once
 * it predicts: the trainer predicts with finished models only). Each tree is laid out complete, in
 * heap order (the children of node i are 2i+1 and 2i+2, the leaves the last 2^depth nodes): a walk is
 * `depth` steps of one load and one comparison, with no child pointers to read, about a third faster
 * than following them. A leaf above the tree's depth is padded with splits whose every descendant
 * holds its value, so any direction (NaN included) reaches the same sum, in the same order, as the
 * pointer walk.
 */
interface Packed {
  baseScore: number;
  depth: Int32Array;
  /** Per tree, the offset of its node 0 in the node tables. */
  base: Int32Array;
  /** Inner nodes: feature and threshold; leaves: value. */
  feature: Int32Array;
  threshold: Float64Array;
  /** Per node, the largest float32 at or below its threshold (predictRows: float32 rows). */
  threshold32: Float32Array;
  value: Float64Array;
}

const packedModels = new WeakMap<GbdtModel, Packed>();
const MAX_DEPTH = 16;

function treeDepth(t: GbdtTree, i = 0): number {
  return t.feature[i] === -1 ? 0 : 1 + Math.max(treeDepth(t, t.left[i]!), treeDepth(t, t.right[i]!));
}

function pack(model: GbdtModel): Packed {
  const depths = model.trees.map((t) => treeDepth(t));
  // The complete layout holds 2^depth leaves a tree; the trainer's trees are 6 deep.
  if (depths.some((d) => d > MAX_DEPTH)) throw new Error(`gbdt: a tree deeper than ${MAX_DEPTH}`);
  let nodes = 0;
  for (const d of depths) nodes += 2 ** (d + 1) - 1;
  const p: Packed = {
    baseScore: model.baseScore,
    depth: Int32Array.from(depths),
    base: new Int32Array(model.trees.length),
    feature: new Int32Array(nodes),
    threshold: new Float64Array(nodes),
    threshold32: new Float32Array(nodes),
    value: new Float64Array(nodes),
  };
  let base = 0;
  model.trees.forEach((t, k) => {
    const depth = depths[k]!;
    p.base[k] = base;
    const place = (node: number, pos: number, d: number): void => {
      if (d === depth) {
        p.value[base + pos] = t.value[node]!;
        return;
      }
      const leaf = t.feature[node] === -1;
      p.feature[base + pos] = leaf ? 0 : t.feature[node]!;
      p.threshold[base + pos] = leaf ? Infinity : t.threshold[node]!;
      p.threshold32[base + pos] = float32AtOrBelow(p.threshold[base + pos]!);
      place(leaf ? node : t.left[node]!, 2 * pos + 1, d + 1);
      place(leaf ? node : t.right[node]!, 2 * pos + 2, d + 1);
    };
    place(0, 0, 0);
    base += 2 ** (depth + 1) - 1;
  });
  packedModels.set(model, p);
  return p;
}

/** Raw score (log-odds): baseScore plus one leaf value per tree. `offset` lets a caller score a
 * row inside a larger row-major buffer without slicing it. */
export function predictRaw(model: GbdtModel, x: ArrayLike<number>, offset = 0): number {
  const p = packedModels.get(model) ?? pack(model);
  const { depth, base, feature, threshold, value } = p;
  let score = p.baseScore;
  for (let t = 0; t < depth.length; t++) {
    const b = base[t]!;
    const d = depth[t]!;
    let i = 0;
    for (let level = 0; level < d; level++) i = 2 * i + (x[offset + feature[b + i]!]! <= threshold[b + i]! ? 1 : 2);
    score += value[b + i]!;
  }
  return score;
}

/** Probability of the positive class. */
export function predictProbability(model: GbdtModel, x: ArrayLike<number>, offset = 0): number {
  return 1 / (1 + Math.exp(-predictRaw(model, x, offset)));
}

const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);

/**
 * The largest float32 at or below `v`: for a float32 `x`, `x <= v` exactly when `x <= float32AtOrBelow(v)`
 * (NaN false for both), so float32 rows compare against float32 thresholds with the same outcome.
 */
export function float32AtOrBelow(v: number): number {
  const f = Math.fround(v);
  if (!(f > v)) return f; // exact, rounded down, or NaN
  f32[0] = f;
  // One float32 step toward -Infinity; from zero, the negative float32 closest to it.
  if (f === 0) f32Bits[0] = 0x80000001;
  else f32Bits[0] = f32Bits[0]! + (f > 0 ? -1 : 1);
  return f32[0]!;
}

/**
 * Raw scores (as predictRaw) of `rows` rows of float32 features, row r at `x[r * stride]`, into
 * `out[0, rows)`. Bit-identical to predictRaw: each row's sum is baseScore, then tree 0, 1, … in
 * order, with thresholds rounded down to float32 (float32AtOrBelow: as exact as the float64 ones for
 * float32 rows). The walk itself is gbdt-wasm.ts' (eight rows walking each tree together, ~0.5× the
 * JavaScript walk it replaced, which was ~0.5× predictRaw); where WebAssembly cannot run (node
 * --jitless) the same walk a row at a time here.
 */
export function predictRows(model: GbdtModel, x: Float32Array, stride: number, rows: number, out: Float64Array): void {
  const p = packedModels.get(model) ?? pack(model);
  out.fill(p.baseScore, 0, rows);
  if (walkTrees(p, x, stride, rows, out)) return;
  const { depth, base, feature, threshold32, value } = p;
  for (let r = 0; r < rows; r++) {
    const o = r * stride;
    let sum = out[r]!;
    for (let t = 0; t < depth.length; t++) {
      const b = base[t]!;
      const d = depth[t]!;
      let i = 0;
      for (let level = 0; level < d; level++) i = 2 * i + 2 - +(x[o + feature[b + i]!]! <= threshold32[b + i]!);
      sum += value[b + i]!;
    }
    out[r] = sum;
  }
}
