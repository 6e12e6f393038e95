// predictRows without WebAssembly (node --jitless): gbdt.ts walks the trees itself, with the same
// sums as the WebAssembly walk (test/convert/gbdt.test.ts) and the pointer walk.

import { describe, expect, it, vi } from 'vitest';
import { defaultClassifier } from '../../src/convert/model/block-model.js';
import { predictRaw, predictRows } from '../../src/convert/model/gbdt.js';
import { rowsAtThresholds } from './gbdt-rows.js';

vi.mock('../../src/convert/model/gbdt-wasm.js', () => ({ walkTrees: () => false }));

describe('predictRows without WebAssembly', () => {
  it('scores the shipped trees as predictRaw does, NaN and values at thresholds included', () => {
    const model = defaultClassifier().stageOne!;
    const cols = model.features.length;
    const rows = 61;
    const x = rowsAtThresholds(model, rows, 11);
    const out = new Float64Array(rows);
    predictRows(model, x, cols, rows, out);
    for (let r = 0; r < rows; r++) expect(out[r]).toBe(predictRaw(model, x, r * cols));
  });
});
