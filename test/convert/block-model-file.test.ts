// The shipped weights file: its header matches the code's feature lists, both stages load, and the
// trainer's format reads back as written.

import { describe, expect, it } from 'vitest';
import { defaultClassifier } from '../../src/convert/model/block-model.js';
import { featureHash, formatModelFile, MODEL_FORMAT, readModelFile } from '../../src/convert/model/block-model-file.js';

describe('block-model.json', () => {
  it('was trained on the feature lists the code computes, and both stages are used', () => {
    const file = readModelFile();
    expect(file.format).toBe(MODEL_FORMAT);
    expect(file.featureHash).toBe(featureHash());
    expect(file.command).toMatch(/^npx tsx tools\/train\/train-blocks\.ts .*--write$/);
    expect(file.trained).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const c = defaultClassifier();
    expect(c.stageOne).not.toBeNull();
    expect(c.stageTwo).not.toBeNull();
    expect(defaultClassifier()).toBe(c);
  });

  it('keeps its header on short lines and reads back as written', () => {
    const file = readModelFile();
    const text = formatModelFile(file);
    const lines = text.split('\n');
    expect(lines.slice(0, 7).every((l) => l.length < 200)).toBe(true);
    expect(JSON.parse(text)).toEqual(file);
  });
});
