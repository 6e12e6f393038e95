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
 * order. About half predictRaw's CPU per row (bench/block-scores-speed.ts), with no generated code,
 * so a fresh thread pays no interpreter-to-compiler warm-up beyond one small function's:
 * - tree by tree over all rows, so one tree's nodes stay in cache for the rows (a caller with many
 *   rows passes them in chunks of a few hundred, so the rows stay in cache too);
 * - eight rows walk a tree together: eight independent chains of loads the CPU overlaps, and the
 *   step to a child is arithmetic on the comparison (`+(x <= t)`: 1, or 0 when false or NaN), not a
 *   branch, so no mispredictions (written in place: through a helper function, its 57 calls were not
 *   all inlined and took 1.3–1.5× as long, and a fresh thread paid them interpreted);
 * - a 6-deep tree (the trainer's) is walked unrolled; node indices are absolute (`j`: child
 *   2j - b + 1 or + 2 for a tree at `b`);
 * - thresholds rounded down to float32 (float32AtOrBelow), as exact as the float64 ones for
 *   float32 rows.
 */
export function predictRows(model: GbdtModel, x: Float32Array, stride: number, rows: number, out: Float64Array): void {
  const p = packedModels.get(model) ?? pack(model);
  const { depth, base: starts, feature, threshold32: threshold, value } = p;
  out.fill(p.baseScore, 0, rows);
  const eights = rows - (rows % 8);
  for (let t = 0; t < depth.length; t++) {
    const b = starts[t]!;
    const d = depth[t]!;
    let r = 0;
    for (; r < eights; r += 8) {
      const o0 = r * stride;
      const o1 = o0 + stride;
      const o2 = o1 + stride;
      const o3 = o2 + stride;
      const o4 = o3 + stride;
      const o5 = o4 + stride;
      const o6 = o5 + stride;
      const o7 = o6 + stride;
      let j0 = b,
        j1 = b,
        j2 = b,
        j3 = b,
        j4 = b,
        j5 = b,
        j6 = b,
        j7 = b;
      if (d === 6) {
        // Six levels written out: V8 does not unroll a loop of variable length.
        j0 = 2 * j0 - b + 2 - +(x[o0 + feature[j0]!]! <= threshold[j0]!);
        j1 = 2 * j1 - b + 2 - +(x[o1 + feature[j1]!]! <= threshold[j1]!);
        j2 = 2 * j2 - b + 2 - +(x[o2 + feature[j2]!]! <= threshold[j2]!);
        j3 = 2 * j3 - b + 2 - +(x[o3 + feature[j3]!]! <= threshold[j3]!);
        j4 = 2 * j4 - b + 2 - +(x[o4 + feature[j4]!]! <= threshold[j4]!);
        j5 = 2 * j5 - b + 2 - +(x[o5 + feature[j5]!]! <= threshold[j5]!);
        j6 = 2 * j6 - b + 2 - +(x[o6 + feature[j6]!]! <= threshold[j6]!);
        j7 = 2 * j7 - b + 2 - +(x[o7 + feature[j7]!]! <= threshold[j7]!);
        j0 = 2 * j0 - b + 2 - +(x[o0 + feature[j0]!]! <= threshold[j0]!);
        j1 = 2 * j1 - b + 2 - +(x[o1 + feature[j1]!]! <= threshold[j1]!);
        j2 = 2 * j2 - b + 2 - +(x[o2 + feature[j2]!]! <= threshold[j2]!);
        j3 = 2 * j3 - b + 2 - +(x[o3 + feature[j3]!]! <= threshold[j3]!);
        j4 = 2 * j4 - b + 2 - +(x[o4 + feature[j4]!]! <= threshold[j4]!);
        j5 = 2 * j5 - b + 2 - +(x[o5 + feature[j5]!]! <= threshold[j5]!);
        j6 = 2 * j6 - b + 2 - +(x[o6 + feature[j6]!]! <= threshold[j6]!);
        j7 = 2 * j7 - b + 2 - +(x[o7 + feature[j7]!]! <= threshold[j7]!);
        j0 = 2 * j0 - b + 2 - +(x[o0 + feature[j0]!]! <= threshold[j0]!);
        j1 = 2 * j1 - b + 2 - +(x[o1 + feature[j1]!]! <= threshold[j1]!);
        j2 = 2 * j2 - b + 2 - +(x[o2 + feature[j2]!]! <= threshold[j2]!);
        j3 = 2 * j3 - b + 2 - +(x[o3 + feature[j3]!]! <= threshold[j3]!);
        j4 = 2 * j4 - b + 2 - +(x[o4 + feature[j4]!]! <= threshold[j4]!);
        j5 = 2 * j5 - b + 2 - +(x[o5 + feature[j5]!]! <= threshold[j5]!);
        j6 = 2 * j6 - b + 2 - +(x[o6 + feature[j6]!]! <= threshold[j6]!);
        j7 = 2 * j7 - b + 2 - +(x[o7 + feature[j7]!]! <= threshold[j7]!);
        j0 = 2 * j0 - b + 2 - +(x[o0 + feature[j0]!]! <= threshold[j0]!);
        j1 = 2 * j1 - b + 2 - +(x[o1 + feature[j1]!]! <= threshold[j1]!);
        j2 = 2 * j2 - b + 2 - +(x[o2 + feature[j2]!]! <= threshold[j2]!);
        j3 = 2 * j3 - b + 2 - +(x[o3 + feature[j3]!]! <= threshold[j3]!);
        j4 = 2 * j4 - b + 2 - +(x[o4 + feature[j4]!]! <= threshold[j4]!);
        j5 = 2 * j5 - b + 2 - +(x[o5 + feature[j5]!]! <= threshold[j5]!);
        j6 = 2 * j6 - b + 2 - +(x[o6 + feature[j6]!]! <= threshold[j6]!);
        j7 = 2 * j7 - b + 2 - +(x[o7 + feature[j7]!]! <= threshold[j7]!);
        j0 = 2 * j0 - b + 2 - +(x[o0 + feature[j0]!]! <= threshold[j0]!);
        j1 = 2 * j1 - b + 2 - +(x[o1 + feature[j1]!]! <= threshold[j1]!);
        j2 = 2 * j2 - b + 2 - +(x[o2 + feature[j2]!]! <= threshold[j2]!);
        j3 = 2 * j3 - b + 2 - +(x[o3 + feature[j3]!]! <= threshold[j3]!);
        j4 = 2 * j4 - b + 2 - +(x[o4 + feature[j4]!]! <= threshold[j4]!);
        j5 = 2 * j5 - b + 2 - +(x[o5 + feature[j5]!]! <= threshold[j5]!);
        j6 = 2 * j6 - b + 2 - +(x[o6 + feature[j6]!]! <= threshold[j6]!);
        j7 = 2 * j7 - b + 2 - +(x[o7 + feature[j7]!]! <= threshold[j7]!);
        j0 = 2 * j0 - b + 2 - +(x[o0 + feature[j0]!]! <= threshold[j0]!);
        j1 = 2 * j1 - b + 2 - +(x[o1 + feature[j1]!]! <= threshold[j1]!);
        j2 = 2 * j2 - b + 2 - +(x[o2 + feature[j2]!]! <= threshold[j2]!);
        j3 = 2 * j3 - b + 2 - +(x[o3 + feature[j3]!]! <= threshold[j3]!);
        j4 = 2 * j4 - b + 2 - +(x[o4 + feature[j4]!]! <= threshold[j4]!);
        j5 = 2 * j5 - b + 2 - +(x[o5 + feature[j5]!]! <= threshold[j5]!);
        j6 = 2 * j6 - b + 2 - +(x[o6 + feature[j6]!]! <= threshold[j6]!);
        j7 = 2 * j7 - b + 2 - +(x[o7 + feature[j7]!]! <= threshold[j7]!);
      } else {
        for (let level = 0; level < d; level++) {
          j0 = 2 * j0 - b + 2 - +(x[o0 + feature[j0]!]! <= threshold[j0]!);
          j1 = 2 * j1 - b + 2 - +(x[o1 + feature[j1]!]! <= threshold[j1]!);
          j2 = 2 * j2 - b + 2 - +(x[o2 + feature[j2]!]! <= threshold[j2]!);
          j3 = 2 * j3 - b + 2 - +(x[o3 + feature[j3]!]! <= threshold[j3]!);
          j4 = 2 * j4 - b + 2 - +(x[o4 + feature[j4]!]! <= threshold[j4]!);
          j5 = 2 * j5 - b + 2 - +(x[o5 + feature[j5]!]! <= threshold[j5]!);
          j6 = 2 * j6 - b + 2 - +(x[o6 + feature[j6]!]! <= threshold[j6]!);
          j7 = 2 * j7 - b + 2 - +(x[o7 + feature[j7]!]! <= threshold[j7]!);
        }
      }
      out[r] = out[r]! + value[j0]!;
      out[r + 1] = out[r + 1]! + value[j1]!;
      out[r + 2] = out[r + 2]! + value[j2]!;
      out[r + 3] = out[r + 3]! + value[j3]!;
      out[r + 4] = out[r + 4]! + value[j4]!;
      out[r + 5] = out[r + 5]! + value[j5]!;
      out[r + 6] = out[r + 6]! + value[j6]!;
      out[r + 7] = out[r + 7]! + value[j7]!;
    }
    for (; r < rows; r++) {
      const o = r * stride;
      let j = b;
      for (let level = 0; level < d; level++) j = 2 * j - b + 2 - +(x[o + feature[j]!]! <= threshold[j]!);
      out[r] = out[r]! + value[j]!;
    }
  }
}
