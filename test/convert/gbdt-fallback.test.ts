// predictRows without WebAssembly (node --jitless): gbdt.ts walks the trees itself, with the same
// sums as the WebAssembly walk (test/convert/gbdt.test.ts) and the pointer walk.

import { describe, expect, it, vi } from 'vitest';
import { defaultClassifier } from '../../src/convert/model/block-model.js';
import { predictRaw, predictRows } from '../../src/convert/model/gbdt.js';

vi.mock('../../src/convert/model/gbdt-wasm.js', () => ({ walkTrees: () => false }));

describe('predictRows without WebAssembly', () => {
  it('scores the shipped trees as predictRaw does, NaN and values at thresholds included', () => {
    const model = defaultClassifier().stageOne!;
    const cols = model.features.length;
    const cuts: number[][] = Array.from({ length: cols }, () => [0]);
    for (const t of model.trees) t.feature.forEach((f, i) => f >= 0 && cuts[f]!.push(t.threshold[i]!));
    let seed = 11;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const rows = 61;
    const x = Float32Array.from({ length: rows * cols }, (_, i) => {
      const at = cuts[i % cols]!;
      const v = at[Math.floor(next() * at.length)]!;
      const u = next();
      return u < 0.05 ? Number.NaN : u < 0.35 ? v * (1 + 1e-7) : u < 0.65 ? v * (1 - 1e-7) : v;
    });
    const out = new Float64Array(rows);
    predictRows(model, x, cols, rows, out);
    for (let r = 0; r < rows; r++) expect(out[r]).toBe(predictRaw(model, x, r * cols));
  });
});
