// The GBDT behind the block classifier: inference (src/convert/model/gbdt.ts) and its trainer
// (tools/train/gbdt-train.ts).

import { describe, expect, it } from 'vitest';
import { defaultClassifier } from '../../src/convert/model/block-model.js';
import { float32AtOrBelow, type GbdtModel, predictProbability, predictRaw, predictRows } from '../../src/convert/model/gbdt.js';
import { setPlacementLimit } from '../../src/convert/model/gbdt-wasm.js';
import { averageModels, type GbdtData, logLoss, trainGbdt } from '../../tools/train/gbdt-train.js';
import { rng, rowsAtThresholds } from './gbdt-rows.js';

/** XOR of the signs of features 0 and 1, plus `noise` irrelevant features. */
function xorData(rows: number, seed: number, noise = 3): GbdtData {
  const cols = 2 + noise;
  const r = rng(seed);
  const x = new Float32Array(rows * cols);
  const y = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    for (let c = 0; c < cols; c++) x[i * cols + c] = r() * 2 - 1;
    y[i] = x[i * cols]! > 0 !== x[i * cols + 1]! > 0 ? 1 : 0;
  }
  return { x, rows, cols, y };
}

const names = (cols: number): string[] => Array.from({ length: cols }, (_, i) => `f${i}`);

function accuracy(model: GbdtModel, d: GbdtData): number {
  let ok = 0;
  for (let r = 0; r < d.rows; r++) {
    const p = predictProbability(model, d.x.subarray(r * d.cols, (r + 1) * d.cols));
    if ((p > 0.5 ? 1 : 0) === d.y[r]) ok++;
  }
  return ok / d.rows;
}

describe('gbdt inference', () => {
  // Tree 0: f1 <= 0.5 ? (f0 <= 2 ? 1 : 2) : 3; tree 1: a single leaf of -0.25.
  const model: GbdtModel = {
    version: 1,
    features: ['a', 'b'],
    baseScore: 0.5,
    trees: [
      {
        feature: [1, 0, -1, -1, -1],
        threshold: [0.5, 2, 0, 0, 0],
        left: [1, 3, -1, -1, -1],
        right: [2, 4, -1, -1, -1],
        value: [0, 0, 3, 1, 2],
      },
      { feature: [-1], threshold: [0], left: [-1], right: [-1], value: [-0.25] },
    ],
  };

  it('sums baseScore and one leaf per tree, left on <=', () => {
    expect(predictRaw(model, [2, 0.5])).toBe(0.5 + 1 - 0.25);
    expect(predictRaw(model, [2.5, 0])).toBe(0.5 + 2 - 0.25);
    expect(predictRaw(model, [0, 0.6])).toBe(0.5 + 3 - 0.25);
    expect(predictProbability(model, [2, 0.5])).toBeCloseTo(1 / (1 + Math.exp(-1.25)), 12);
  });

  it('sends NaN right', () => {
    expect(predictRaw(model, [0, Number.NaN])).toBe(0.5 + 3 - 0.25);
    expect(predictRaw(model, [Number.NaN, 0])).toBe(0.5 + 2 - 0.25);
  });

  it('reads a row at an offset in a row-major buffer', () => {
    expect(predictRaw(model, [9, 9, 2.5, 0], 2)).toBe(predictRaw(model, [2.5, 0]));
  });

  it('reaches a shallow leaf whatever the padding below it reads (NaN included)', () => {
    // Tree 0's leaf 3 sits at depth 1 of a 2-deep tree: the packed walk pads it with a split on f0.
    for (const f0 of [-1e30, 0, 5, Infinity, Number.NaN]) expect(predictRaw(model, [f0, 0.6])).toBe(0.5 + 3 - 0.25);
  });

  it('refuses a tree deeper than the packed layout holds', () => {
    const deep = (n: number): GbdtModel['trees'][number] => ({
      // A chain: node i splits on f0, its left child is the next node, its right a leaf.
      feature: [...Array.from({ length: n }, () => 0), ...Array.from({ length: n + 1 }, () => -1)],
      threshold: Array.from({ length: 2 * n + 1 }, (_, i) => i),
      left: Array.from({ length: 2 * n + 1 }, (_, i) => (i < n - 1 ? i + 1 : i < n ? n : -1)),
      right: Array.from({ length: 2 * n + 1 }, (_, i) => (i < n ? n + 1 + i : -1)),
      value: Array.from({ length: 2 * n + 1 }, (_, i) => i),
    });
    expect(predictRaw({ ...model, trees: [deep(16)] }, [-1, 0])).toBe(0.5 + 16);
    expect(predictRaw({ ...model, trees: [deep(16)] }, [100, 0])).toBe(0.5 + 17);
    expect(() => predictRaw({ ...model, trees: [deep(17)] }, [0, 0])).toThrow(/deeper than 16/);
  });
});

/** The plain pointer walk the packed layout must agree with, bit for bit. */
function walk(m: GbdtModel, x: ArrayLike<number>, offset = 0): number {
  let s = m.baseScore;
  for (const t of m.trees) {
    let i = 0;
    while (t.feature[i] !== -1) i = x[offset + t.feature[i]!]! <= t.threshold[i]! ? t.left[i]! : t.right[i]!;
    s += t.value[i]!;
  }
  return s;
}

describe('gbdt training', () => {
  const train = xorData(4000, 1);
  const test = xorData(2000, 2);
  const opts = { trees: 60, depth: 3, learningRate: 0.3, featureNames: names(train.cols) };

  it('learns XOR, which an additive (depth-1) model cannot', () => {
    const model = trainGbdt(train, opts);
    expect(accuracy(model, test)).toBeGreaterThan(0.95);
    const stumps = trainGbdt(train, { ...opts, depth: 1 });
    expect(accuracy(stumps, test)).toBeLessThan(0.65);
    // More trees fit better.
    expect(logLoss(model, train)).toBeLessThan(logLoss(trainGbdt(train, { ...opts, trees: 5 }), train));
  });

  it('ignores rows of weight 0', () => {
    // The clean rows, then the same with 2000 interleaved rows of flipped labels and odd values.
    const clean = xorData(2000, 3);
    const cols = clean.cols;
    const rows = 4000;
    const x = new Float32Array(rows * cols);
    const y = new Uint8Array(rows);
    const weight = new Float32Array(rows);
    for (let i = 0; i < 2000; i++) {
      x.set(clean.x.subarray(i * cols, (i + 1) * cols), 2 * i * cols);
      y[2 * i] = clean.y[i]!;
      weight[2 * i] = 1;
      for (let c = 0; c < cols; c++) x[(2 * i + 1) * cols + c] = (c + 1) * 7 * (i % 3) - 5;
      y[2 * i + 1] = 1 - clean.y[i]!;
    }
    const o = { ...opts, rowSample: 0.7, colSample: 0.8, seed: 5 };
    const a = trainGbdt(clean, o);
    const b = trainGbdt({ x, rows, cols, y, weight }, o);
    expect(b).toEqual(a);
    // Weights count: doubling one class's weight raises its predicted share.
    const w2 = new Float32Array(clean.rows).map((_, i) => (clean.y[i] ? 2 : 1));
    const heavy = trainGbdt({ ...clean, weight: w2 }, opts);
    expect(heavy.baseScore).toBeGreaterThan(a.baseScore);
  });

  it('is deterministic for a seed', () => {
    const o = { ...opts, trees: 10, rowSample: 0.5, colSample: 0.6, seed: 42 };
    const a = trainGbdt(train, o);
    expect(trainGbdt(train, o)).toEqual(a);
    expect(trainGbdt(train, { ...o, seed: 43 })).not.toEqual(a);
  });

  it('learns from missing values, routed as at inference', () => {
    const rows = 2000;
    const r = rng(9);
    const x = new Float32Array(rows * 2);
    const y = new Uint8Array(rows);
    for (let i = 0; i < rows; i++) {
      const missing = r() < 0.5;
      x[i * 2] = missing ? Number.NaN : r();
      x[i * 2 + 1] = r();
      y[i] = missing ? 1 : 0;
    }
    const model = trainGbdt({ x, rows, cols: 2, y }, { ...opts, trees: 10, featureNames: ['a', 'b'] });
    expect(predictProbability(model, [Number.NaN, 0.5])).toBeGreaterThan(0.9);
    expect(predictProbability(model, [0.5, 0.5])).toBeLessThan(0.1);
  });

  it('predicts exactly what the pointer walk does, missing values included', () => {
    const model = trainGbdt(train, { ...opts, trees: 30, depth: 5, minLeafWeight: 40 });
    const x = Float32Array.from(test.x, (v, i) => (i % 7 === 3 ? Number.NaN : v));
    for (let r = 0; r < test.rows; r++) expect(predictRaw(model, x, r * test.cols)).toBe(walk(model, x, r * test.cols));
  });

  it('averages models: the raw score is the mean of theirs', () => {
    const o = { ...opts, trees: 10, rowSample: 0.7, colSample: 0.8 };
    const models = [1, 2, 3].map((seed) => trainGbdt(train, { ...o, seed }));
    const mean = averageModels(models);
    expect(mean.trees).toHaveLength(30);
    for (let r = 0; r < 50; r++) {
      const each = models.map((m) => predictRaw(m, test.x, r * test.cols));
      expect(predictRaw(mean, test.x, r * test.cols)).toBeCloseTo(each.reduce((a, b) => a + b, 0) / 3, 10);
    }
    expect(() => averageModels([models[0]!, { ...models[1]!, features: ['other'] }])).toThrow(/features/);
  });

  it('round-trips through JSON with identical predictions', () => {
    const model = trainGbdt(train, { ...opts, trees: 20, depth: 4 });
    const copy = JSON.parse(JSON.stringify(model)) as GbdtModel;
    expect(copy).toEqual(model);
    for (let r = 0; r < test.rows; r++) {
      expect(predictRaw(copy, test.x, r * test.cols)).toBe(predictRaw(model, test.x, r * test.cols));
    }
    expect(predictRaw(copy, [Number.NaN, 0.3, 0, 0, 0])).toBe(predictRaw(model, [Number.NaN, 0.3, 0, 0, 0]));
  });
});

describe('gbdt inference over many float32 rows (predictRows)', () => {
  const train = xorData(4000, 1);
  const test = xorData(503, 2); // not a multiple of the eight rows walked together
  const opts = { trees: 12, learningRate: 0.3, featureNames: names(train.cols), minLeafWeight: 20 };
  const x = Float32Array.from(test.x, (v, i) => (i % 7 === 3 ? Number.NaN : v));

  const rowsOf = (m: GbdtModel, data: Float32Array, stride: number, rows: number): Float64Array => {
    const out = new Float64Array(rows);
    predictRows(m, data, stride, rows, out);
    return out;
  };

  it('scores every row exactly as the pointer walk does, on trees shallower than six', () => {
    const model = trainGbdt(train, { ...opts, depth: 4 });
    const out = rowsOf(model, x, test.cols, test.rows);
    for (let r = 0; r < test.rows; r++) expect(out[r]).toBe(walk(model, x, r * test.cols));
  });

  it('scores the shipped classifier’s 6-deep trees (walked written out) exactly as the pointer walk does', () => {
    const model = defaultClassifier().stageOne!;
    const cols = model.features.length;
    const rows = 203;
    const data = rowsAtThresholds(model, rows, 7);
    const out = rowsOf(model, data, cols, rows);
    for (let k = 0; k < rows; k++) expect(out[k]).toBe(walk(model, data, k * cols));
  });

  it('reads rows at a wider stride than the model’s features', () => {
    const model = trainGbdt(train, { ...opts, depth: 6 });
    const stride = test.cols + 2;
    const wide = new Float32Array(test.rows * stride).fill(1e9);
    for (let r = 0; r < test.rows; r++) wide.set(x.subarray(r * test.cols, (r + 1) * test.cols), r * stride);
    const out = rowsOf(model, wide, stride, test.rows);
    for (let r = 0; r < test.rows; r++) expect(out[r]).toBe(walk(model, x, r * test.cols));
  });

  it('compares float32 values with thresholds between float32 values as the float64 walk does', () => {
    // One split a tree on f0, at thresholds off the float32 grid (and on it), each tree's leaves
    // distinct; the rows hold each threshold's nearest float32 values, zeros, infinities and NaN.
    const thresholds = [0.1, -0.1, 1 / 3, -1 / 3, 1e-50, -1e-50, 1e39, -1e39, 0.5, 0, 3.4e38];
    const trees = thresholds.map((t, k) => ({
      feature: [0, -1, -1],
      threshold: [t, 0, 0],
      left: [1, -1, -1],
      right: [2, -1, -1],
      value: [0, 2 ** -k, 3 * 2 ** -k],
    }));
    const model: GbdtModel = { version: 1, features: ['f0'], baseScore: 0.25, trees };
    const near = (v: number): number[] => {
      const f = new Float32Array([v]);
      const bits = new Int32Array(f.buffer);
      const out = [f[0]!];
      bits[0]! += 1;
      out.push(f[0]!);
      bits[0]! -= 2;
      out.push(f[0]!);
      return out;
    };
    const values = [...thresholds.flatMap(near), 0, -0, Infinity, -Infinity, Number.NaN, 1.4e-45, -1.4e-45];
    const rows = Float32Array.from(values);
    const out = rowsOf(model, rows, 1, rows.length);
    for (let r = 0; r < rows.length; r++) expect(out[r]).toBe(walk(model, rows, r));
  });

  it('scores 0 to 17 rows (a last group of fewer than eight) and leaves out past them untouched', () => {
    const model = trainGbdt(train, { ...opts, depth: 6 });
    for (let rows = 0; rows <= 17; rows++) {
      const out = new Float64Array(rows + 3).fill(7);
      predictRows(model, x, test.cols, rows, out);
      for (let r = 0; r < rows; r++) expect(out[r]).toBe(walk(model, x, r * test.cols));
      expect(Array.from(out.subarray(rows))).toEqual([7, 7, 7]);
    }
  });

  it('walks trees deeper than six (a loop, not the written-out levels)', () => {
    const model = trainGbdt(train, { ...opts, trees: 4, depth: 9, minLeafWeight: 1 });
    const depthOf = (t: GbdtModel['trees'][number], i = 0): number =>
      t.feature[i] === -1 ? 0 : 1 + Math.max(depthOf(t, t.left[i]), depthOf(t, t.right[i]));
    expect(Math.max(...model.trees.map((t) => depthOf(t)))).toBeGreaterThan(6);
    const out = rowsOf(model, x, test.cols, test.rows);
    for (let r = 0; r < test.rows; r++) expect(out[r]).toBe(walk(model, x, r * test.cols));
  });

  it('scores a call larger than its memory, and models placed before it, and after the placement starts over', () => {
    const small = trainGbdt(train, { ...opts, depth: 3 });
    const deep = trainGbdt(train, { ...opts, depth: 6 });
    const big = xorData(120_000, 3); // 2.4 MB of rows: the walker's memory grows, and walks them in pieces
    const bigOut = rowsOf(deep, big.x, big.cols, big.rows);
    for (let r = 0; r < big.rows; r += 97) expect(bigOut[r]).toBe(walk(deep, big.x, r * big.cols));
    expect(bigOut[big.rows - 1]).toBe(walk(deep, big.x, (big.rows - 1) * big.cols));
    const before = setPlacementLimit(1); // every new model starts the placement over
    try {
      for (const m of [small, deep, trainGbdt(train, { ...opts, depth: 5 }), small, deep]) {
        const out = rowsOf(m, x, test.cols, test.rows);
        for (let r = 0; r < test.rows; r++) expect(out[r]).toBe(walk(m, x, r * test.cols));
      }
    } finally {
      setPlacementLimit(before);
    }
  });

  it('rounds a threshold down to the float32 grid', () => {
    for (const v of [0.1, -0.1, 1e-50, -1e-50, 1e39, -1e39, 0.5, -0, 1.4e-45, Infinity, -Infinity]) {
      const f = float32AtOrBelow(v);
      expect(Math.fround(f)).toBe(f);
      expect(f <= v).toBe(true);
      const above = new Float32Array([f]);
      const bits = new Int32Array(above.buffer);
      if (f === Infinity) continue;
      if (Object.is(f, -0) || f === 0) above[0] = 1.4e-45;
      else bits[0]! += f > 0 ? 1 : -1;
      expect(above[0]! > v).toBe(true);
    }
    expect(float32AtOrBelow(Number.NaN)).toBeNaN();
  });
});
