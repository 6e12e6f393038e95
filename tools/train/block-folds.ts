// The k folds of dev-train for the block classifier's out-of-fold figures, and the fold models
// saved by `tools/train/train-blocks.ts --write` so `bench/quality.ts --oof` can convert every dev-train
// page with a model that never saw it.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BlockClassifier, blockClassifier, type Calibration } from '../../src/convert/model/block-model.js';
import type { GbdtModel } from '../../src/convert/model/gbdt.js';

export const FOLD_FILE = resolve(fileURLToPath(new URL('.', import.meta.url)), '.cache', 'fold-classifiers.json');

/** FNV-1a of the page id: a page's fold never depends on file order. */
export function foldOf(id: string, folds: number): number {
  let h = 2166136261;
  for (const ch of `fold:${id}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h % folds;
}

interface FoldFile {
  folds: number;
  calibration: Calibration;
  lexicon: Record<string, number>;
  models: Array<{ stageOne: GbdtModel; stageTwo: GbdtModel | null }>;
}

export function saveFoldClassifiers(f: FoldFile): void {
  writeFileSync(FOLD_FILE, JSON.stringify(f));
}

/** Classifier per page id, or null when no fold models were saved. */
export function loadFoldClassifiers(): ((id: string) => BlockClassifier) | null {
  if (!existsSync(FOLD_FILE)) return null;
  const f = JSON.parse(readFileSync(FOLD_FILE, 'utf8')) as FoldFile;
  const classifiers = f.models.map((m) =>
    blockClassifier({ stageOne: m.stageOne, stageTwo: m.stageTwo, calibration: f.calibration, lexicon: f.lexicon }),
  );
  return (id) => classifiers[foldOf(id, f.folds)]!;
}
