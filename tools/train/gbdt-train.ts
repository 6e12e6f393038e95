// Trainer for the GBDT in src/convert/model/gbdt.ts: logistic loss, per-row weights, Newton leaves,
// histogram splits on pre-binned features (LightGBM/XGBoost-hist style, but level-wise only).
// Dev tooling: written for ~1M rows × 60 features in minutes on one core, with no dependencies.

import { type GbdtModel, type GbdtTree, predictRaw } from '../../src/convert/model/gbdt.js';
import { seededRandom } from '../../src/testing/seeded-random.js';

export interface GbdtData {
  /** Row-major: row r, column c at x[r * cols + c]. NaN means missing. */
  x: Float32Array;
  rows: number;
  cols: number;
  /** 0 or 1 per row. */
  y: Uint8Array;
  /** Non-negative; rows of weight 0 are left out of training entirely. */
  weight?: Float32Array;
}

export interface GbdtOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** Least hessian sum in each child of a split (XGBoost's min_child_weight). Default 1. */
  minLeafWeight?: number;
  /** Numeric bins per feature, 2..255 (a missing-value bin comes on top). Default 64. */
  bins?: number;
  /** Share of rows drawn (Bernoulli) per tree. Default 1. */
  rowSample?: number;
  /** Share of features drawn per tree. Default 1. */
  colSample?: number;
  /** L2 penalty on leaf values. Default 1. */
  l2?: number;
  seed?: number;
  featureNames: string[];
  onTree?: (i: number) => void;
}

/** Rows whose finite values set a feature's bin edges; quantiles barely move beyond this. */
const BIN_SAMPLE = 200_000;

interface Binned {
  /** Column-major bin per value: bins[c * rows + r]. Column-major so a histogram pass over one
   * feature streams one contiguous column. */
  bins: Uint8Array;
  /** Per feature, ascending thresholds: bin i holds edges[i-1] < v <= edges[i]. */
  edges: Float64Array[];
  /** Per feature, bins in use = edges + 2 (the last finite bin above every edge, then missing). */
  count: Int32Array;
  /** Per feature, offset of its first bin in a histogram. */
  offset: Int32Array;
  totalBins: number;
}

/** Bin edges from a sample's sorted finite values: every distinct value when few, else
 * quantiles; the maximum is never an edge (values above the last edge form the top finite bin). */
function binEdges(sorted: Float64Array, maxBins: number): Float64Array {
  const n = sorted.length;
  const edges: number[] = [];
  if (n === 0) return new Float64Array(0);
  const max = sorted[n - 1]!;
  let distinct = 1;
  for (let i = 1; i < n && distinct <= maxBins; i++) if (sorted[i] !== sorted[i - 1]) distinct++;
  if (distinct <= maxBins) {
    for (let i = 0; i < n; i++) {
      const v = sorted[i]!;
      if (v !== max && (edges.length === 0 || edges[edges.length - 1] !== v)) edges.push(v);
    }
  } else {
    for (let j = 1; j < maxBins; j++) {
      const v = sorted[Math.ceil((j * n) / maxBins) - 1]!;
      if (v < max && (edges.length === 0 || edges[edges.length - 1]! < v)) edges.push(v);
    }
  }
  return Float64Array.from(edges);
}

/** Smallest i with v <= edges[i], else edges.length; NaN and +Infinity get the missing bin. */
function binOf(v: number, edges: Float64Array): number {
  if (!(v <= Number.MAX_VALUE)) return edges.length + 1;
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v <= edges[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function binData(data: GbdtData, active: Uint32Array, maxBins: number): Binned {
  const { x, rows, cols } = data;
  const bins = new Uint8Array(rows * cols);
  const edges: Float64Array[] = [];
  const count = new Int32Array(cols);
  const offset = new Int32Array(cols);
  // An even stride over the weighted rows: deterministic, and zero-weight rows cannot move edges.
  const sampleN = Math.min(active.length, BIN_SAMPLE);
  const sample = new Float64Array(sampleN);
  let totalBins = 0;
  for (let c = 0; c < cols; c++) {
    let n = 0;
    for (let s = 0; s < sampleN; s++) {
      const v = x[active[Math.floor((s * active.length) / sampleN)]! * cols + c]!;
      if (Number.isFinite(v)) sample[n++] = v;
    }
    const e = binEdges(sample.subarray(0, n).sort(), maxBins);
    edges.push(e);
    count[c] = e.length + 2;
    offset[c] = totalBins;
    totalBins += e.length + 2;
    const col = bins.subarray(c * rows, (c + 1) * rows);
    for (let r = 0; r < rows; r++) col[r] = binOf(x[r * cols + c]!, e);
  }
  return { bins, edges, count, offset, totalBins };
}

interface Split {
  gain: number;
  feature: number;
  bin: number;
  gl: number;
  hl: number;
}

/** Best split of one node from its histogram (interleaved g, h per bin). Left = bins <= bin. */
function bestSplit(
  hist: Float64Array,
  b: Binned,
  features: Int32Array,
  g: number,
  h: number,
  l2: number,
  minLeafWeight: number,
): Split | undefined {
  const parent = (g * g) / (h + l2);
  // A child whose weight is rounding noise of the parent's is empty, not a tiny leaf.
  const eps = 1e-12 * h;
  let best: Split | undefined;
  let bestGain = 1e-12; // a split must actually reduce the loss
  for (let k = 0; k < features.length; k++) {
    const c = features[k]!;
    const base = 2 * b.offset[c]!;
    const nb = b.count[c]!;
    let gl = 0;
    let hl = 0;
    for (let bin = 0; bin < nb - 1; bin++) {
      gl += hist[base + 2 * bin]!;
      hl += hist[base + 2 * bin + 1]!;
      const hr = h - hl;
      if (hl < minLeafWeight || hl <= eps) continue;
      if (hr < minLeafWeight || hr <= eps) break; // hr only shrinks from here
      const gr = g - gl;
      const gain = (gl * gl) / (hl + l2) + (gr * gr) / (hr + l2) - parent;
      if (gain > bestGain) {
        bestGain = gain;
        best = { gain, feature: c, bin, gl, hl };
      }
    }
  }
  return best;
}

/** A node still to be split: its rows are order[start, end). */
interface Open {
  node: number;
  start: number;
  end: number;
  g: number;
  h: number;
  /** Undefined on the last level, whose nodes become leaves without a histogram. */
  hist: Float64Array | undefined;
}

function validate(data: GbdtData, o: GbdtOptions, maxBins: number): void {
  const { rows, cols } = data;
  if (data.x.length !== rows * cols) throw new Error('gbdt: x.length must be rows * cols');
  if (data.y.length !== rows) throw new Error('gbdt: y.length must be rows');
  if (data.weight && data.weight.length !== rows) throw new Error('gbdt: weight.length must be rows');
  if (o.featureNames.length !== cols) throw new Error('gbdt: featureNames.length must be cols');
  if (!(maxBins >= 2 && maxBins <= 255)) throw new Error('gbdt: bins must be in 2..255');
  if (!(o.depth >= 0) || !(o.trees >= 0)) throw new Error('gbdt: trees and depth must be >= 0');
}

export function trainGbdt(data: GbdtData, options: GbdtOptions): GbdtModel {
  const maxBins = options.bins ?? 64;
  validate(data, options, maxBins);
  const { rows, cols, y, weight } = data;
  const { depth: maxDepth, learningRate } = options;
  const minLeafWeight = options.minLeafWeight ?? 1;
  const l2 = options.l2 ?? 1;
  const rowSample = options.rowSample ?? 1;
  const colSample = options.colSample ?? 1;
  const rand = seededRandom(options.seed ?? 1);

  // Zero-weight rows add nothing to any sum, so dropping them up front makes them provably inert
  // (no say in bin edges, row sampling or which child is "smaller") and saves their time.
  let nActive = 0;
  for (let r = 0; r < rows; r++) {
    const w = weight ? weight[r]! : 1;
    if (!(w >= 0)) throw new Error(`gbdt: weight of row ${r} is not a non-negative number`);
    if (w > 0) nActive++;
  }
  const active = new Uint32Array(nActive);
  let sw = 0;
  let swy = 0;
  for (let r = 0, k = 0; r < rows; r++) {
    const w = weight ? weight[r]! : 1;
    if (w > 0) {
      active[k++] = r;
      sw += w;
      swy += w * y[r]!;
    }
  }
  if (sw <= 0) throw new Error('gbdt: no rows with positive weight');
  const p0 = Math.min(Math.max(swy / sw, 1e-7), 1 - 1e-7);
  const baseScore = Math.log(p0 / (1 - p0));

  const b = binData(data, active, maxBins);
  const score = new Float64Array(rows).fill(baseScore);
  const grad = new Float64Array(rows);
  const hess = new Float64Array(rows);
  const order = new Uint32Array(nActive); // node row ranges, partitioned in place
  const spill = new Uint32Array(nActive); // right-hand rows during a stable partition
  const gs = new Float64Array(nActive); // a node's gradients gathered in row order
  const hs = new Float64Array(nActive);
  const pool: Float64Array[] = [];
  const takeHist = (): Float64Array => pool.pop()?.fill(0) ?? new Float64Array(2 * b.totalBins);
  const allFeatures = Int32Array.from({ length: cols }, (_, i) => i);
  const nCols = Math.max(1, Math.min(cols, Math.round(cols * colSample)));

  const buildHist = (hist: Float64Array, start: number, end: number, features: Int32Array): void => {
    const n = end - start;
    for (let i = 0; i < n; i++) {
      const r = order[start + i]!;
      gs[i] = grad[r]!;
      hs[i] = hess[r]!;
    }
    for (let k = 0; k < features.length; k++) {
      const c = features[k]!;
      const col = b.bins.subarray(c * rows, (c + 1) * rows);
      const base = 2 * b.offset[c]!;
      for (let i = 0; i < n; i++) {
        const j = base + 2 * col[order[start + i]!]!;
        hist[j]! += gs[i]!;
        hist[j + 1]! += hs[i]!;
      }
    }
  };

  const trees: GbdtTree[] = [];
  for (let t = 0; t < options.trees; t++) {
    for (let k = 0; k < nActive; k++) {
      const r = active[k]!;
      const w = weight ? weight[r]! : 1;
      const p = 1 / (1 + Math.exp(-score[r]!));
      grad[r] = w * (p - y[r]!);
      hess[r] = w * p * (1 - p);
    }
    // Per-tree feature subset: a partial Fisher–Yates shuffle, then sorted for a stable scan order.
    let features = allFeatures;
    if (nCols < cols) {
      const perm = allFeatures.slice();
      for (let i = 0; i < nCols; i++) {
        const j = i + Math.floor(rand() * (cols - i));
        const tmp = perm[i]!;
        perm[i] = perm[j]!;
        perm[j] = tmp;
      }
      features = perm.subarray(0, nCols).sort();
    }
    let n = 0;
    for (let k = 0; k < nActive; k++) if (rowSample >= 1 || rand() < rowSample) order[n++] = active[k]!;

    const tree: GbdtTree = { feature: [], threshold: [], left: [], right: [], value: [] };
    const splitBin: number[] = []; // the split as a bin, to route training rows without raw x
    const addNode = (): number => {
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      tree.value.push(0);
      splitBin.push(-1);
      return tree.feature.length - 1;
    };
    const setLeaf = (node: number, g: number, h: number): void => {
      tree.value[node] = h + l2 > 0 ? (-g / (h + l2)) * learningRate : 0;
    };

    let g0 = 0;
    let h0 = 0;
    for (let i = 0; i < n; i++) {
      g0 += grad[order[i]!]!;
      h0 += hess[order[i]!]!;
    }
    let level: Open[] = [{ node: addNode(), start: 0, end: n, g: g0, h: h0, hist: undefined }];
    if (maxDepth > 0 && n > 0) {
      const hist = takeHist();
      buildHist(hist, 0, n, features);
      level[0]!.hist = hist;
    }
    for (let d = 0; level.length > 0; d++) {
      const next: Open[] = [];
      for (const o of level) {
        const split = o.hist && bestSplit(o.hist, b, features, o.g, o.h, l2, minLeafWeight);
        if (!split) {
          setLeaf(o.node, o.g, o.h);
          if (o.hist) pool.push(o.hist);
          continue;
        }
        // Stable partition keeps each child's rows ascending, so column reads stay sequential.
        const col = b.bins.subarray(split.feature * rows, (split.feature + 1) * rows);
        let mid = o.start;
        let nr = 0;
        for (let i = o.start; i < o.end; i++) {
          const r = order[i]!;
          if (col[r]! <= split.bin) order[mid++] = r;
          else spill[nr++] = r;
        }
        order.set(spill.subarray(0, nr), mid);

        const l = addNode();
        const r = addNode();
        const e = b.edges[split.feature]!;
        tree.feature[o.node] = split.feature;
        tree.threshold[o.node] = split.bin < e.length ? e[split.bin]! : Number.MAX_VALUE;
        tree.left[o.node] = l;
        tree.right[o.node] = r;
        splitBin[o.node] = split.bin;
        const left: Open = { node: l, start: o.start, end: mid, g: split.gl, h: split.hl, hist: undefined };
        const right: Open = { node: r, start: mid, end: o.end, g: o.g - split.gl, h: o.h - split.hl, hist: undefined };
        if (d + 1 < maxDepth) {
          // Histogram subtraction: scan only the smaller child; the sibling is parent − child,
          // computed in the parent's buffer.
          const [small, large] = mid - o.start <= o.end - mid ? [left, right] : [right, left];
          const hist = takeHist();
          buildHist(hist, small.start, small.end, features);
          const parent = o.hist!;
          for (let j = 0; j < parent.length; j++) parent[j]! -= hist[j]!;
          small.hist = hist;
          large.hist = parent;
        } else {
          pool.push(o.hist!);
        }
        next.push(left, right);
      }
      level = next;
    }

    // Every weighted row (sampled or not) moves by its leaf; routed by bins, equal to raw x.
    for (let k = 0; k < nActive; k++) {
      const row = active[k]!;
      let i = 0;
      while (tree.feature[i] !== -1) {
        const c = tree.feature[i]!;
        i = b.bins[c * rows + row]! <= splitBin[i]! ? tree.left[i]! : tree.right[i]!;
      }
      score[row]! += tree.value[i]!;
    }
    trees.push(tree);
    options.onTree?.(t);
  }
  return { version: 1, features: options.featureNames.slice(), baseScore, trees };
}

/** Weighted mean logistic loss (natural log) of the model on the data. */
export function logLoss(model: GbdtModel, data: GbdtData): number {
  const { x, rows, cols, y, weight } = data;
  let sum = 0;
  let sw = 0;
  for (let r = 0; r < rows; r++) {
    const w = weight ? weight[r]! : 1;
    if (w === 0) continue;
    const z = predictRaw(model, x, r * cols);
    // −log σ(z) for y = 1, −log(1 − σ(z)) for y = 0, as a stable softplus.
    const m = y[r] ? -z : z;
    sum += w * (Math.max(m, 0) + Math.log1p(Math.exp(-Math.abs(m))));
    sw += w;
  }
  return sw > 0 ? sum / sw : 0;
}

/**
 * One model whose raw score is the mean of the given models' raw scores: their trees side by side,
 * each leaf divided by the count, and the mean base score. Averaging models trained on other row and
 * feature samples (other seeds) cuts the variance one seed's sampling leaves in the verdicts.
 */
export function averageModels(models: GbdtModel[]): GbdtModel {
  if (models.length === 0) throw new Error('gbdt: nothing to average');
  const features = models[0]!.features;
  if (models.some((m) => m.features.join(',') !== features.join(','))) throw new Error('gbdt: models differ in features');
  const k = models.length;
  return {
    version: 1,
    features: features.slice(),
    baseScore: models.reduce((s, m) => s + m.baseScore, 0) / k,
    trees: models.flatMap((m) => m.trees.map((t) => ({ ...t, value: t.value.map((v) => v / k) }))),
  };
}
