// Rows for the GBDT inference tests (gbdt.test.ts, gbdt-fallback.test.ts): seeded, so every run
// scores the same rows.

import type { GbdtModel } from '../../src/convert/model/gbdt.js';

/** Seeded uniform [0, 1), so the synthetic data is the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `rows` rows of values at, just above and just below the model's own thresholds per feature, NaN in some. */
export function rowsAtThresholds(model: GbdtModel, rows: number, seed: number): Float32Array {
  const cols = model.features.length;
  const cuts: number[][] = Array.from({ length: cols }, () => [0]);
  for (const t of model.trees) t.feature.forEach((f, i) => f >= 0 && cuts[f]!.push(t.threshold[i]!));
  const r = rng(seed);
  return Float32Array.from({ length: rows * cols }, (_, i) => {
    const at = cuts[i % cols]!;
    const v = at[Math.floor(r() * at.length)]!;
    const u = r();
    return u < 0.05 ? Number.NaN : u < 0.35 ? v * (1 + 1e-7) : u < 0.65 ? v * (1 - 1e-7) : v;
  });
}
