// The paired comparison behind the per-type claims of docs/benchmarks.md (bench/quality-compare.ts).

import { describe, expect, it } from 'vitest';
import { formatPaired, pairedDiffs } from '../../bench/lib/paired.js';

const row = (id: string, pageType: string, split: 'train' | 'validation', f1: number, system: 'websift' | 'readability' = 'websift') => ({
  id,
  pageType,
  split,
  system,
  f1,
});

describe('pairedDiffs', () => {
  const before = [
    row('1', 'forum', 'train', 0.5),
    row('2', 'forum', 'train', 0.7),
    row('3', 'forum', 'validation', 0.9),
    row('4', 'listing', 'validation', 0.4),
    row('1', 'forum', 'train', 0.0, 'readability'),
  ];
  const after = [
    row('1', 'forum', 'train', 0.6),
    row('2', 'forum', 'train', 0.9),
    row('3', 'forum', 'validation', 0.6),
    row('4', 'listing', 'validation', 0.4),
    row('5', 'forum', 'train', 1.0), // not in the first run: unpaired, left out
    row('2', 'forum', 'train', 0.0, 'readability'),
  ];
  const p = pairedDiffs(before, after);

  it('pairs websift rows by page id, per split and type', () => {
    expect(p.train.forum!.pages).toBe(2);
    expect(p.train.forum!.mean).toBeCloseTo((0.1 + 0.2) / 2);
    // Differences 0.1 and 0.2: sample SD 0.0707, SE 0.05.
    expect(p.train.forum!.se).toBeCloseTo(0.05);
    expect(p.validation.listing).toEqual({ pages: 1, changed: 0, mean: 0, se: 0 });
    expect(p.validation.all!.mean).toBeCloseTo(-0.15);
  });

  it('pools both splits into dev', () => {
    expect(p.dev.forum!.pages).toBe(3);
    expect(p.dev.forum!.mean).toBeCloseTo((0.1 + 0.2 - 0.3) / 3);
    expect(p.dev.all!.pages).toBe(4);
    expect(p.dev.all!.changed).toBe(3);
  });

  it('formats one row per part, a dash for a type without pages', () => {
    const lines = formatPaired(p).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[2]).toMatch(/^\| train \(2\) \| \+0\.1500 ± 0\.0500 \|/);
    expect(lines[3]).toContain('| 0.0000 ± 0.0000 |');
    expect(lines[4]).toMatch(/^\| dev, both parts \(4\) /);
    expect(lines[2]).toContain('—');
  });
});
