// shareBudget: one max_chars shared fairly between the pages of a call (water-filling).

import { describe, expect, it } from 'vitest';
import { shareBudget } from '../../src/passages/index.js';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('shareBudget', () => {
  it('equal shares when every page needs more than its share', () => {
    expect(shareBudget([1000, 1000, 1000], 300)).toEqual([100, 100, 100]);
  });

  it('a short page keeps only what it needs and the rest goes to the others', () => {
    expect(shareBudget([10, 100, 1000], 300)).toEqual([10, 100, 190]);
    expect(shareBudget([1000, 10, 1000], 300)).toEqual([145, 10, 145]);
  });

  it('everything fits: each page its whole length', () => {
    expect(shareBudget([5, 0, 7], 100)).toEqual([5, 0, 7]);
  });

  it('the odd units go to the first pages still short, in page order', () => {
    expect(shareBudget([10, 10, 10], 10)).toEqual([4, 3, 3]);
    expect(shareBudget([50, 3, 50], 10)).toEqual([4, 3, 3]);
  });

  it('never more than max_chars in all, never more than a page needs, and no share is wasted', () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 500; round++) {
      const lengths = Array.from({ length: 1 + rand(10) }, () => (rand(3) === 0 ? rand(20) : rand(5000)));
      const max = rand(8000);
      const shares = shareBudget(lengths, max);
      expect(shares).toHaveLength(lengths.length);
      expect(sum(shares)).toBe(Math.min(max, sum(lengths)));
      shares.forEach((s, i) => {
        expect(Number.isInteger(s) && s >= 0 && s <= lengths[i]!).toBe(true);
        // Fair: a page left short got at least as much as any other page, less one unit of remainder.
        if (s < lengths[i]!) for (const t of shares) expect(s).toBeGreaterThanOrEqual(t - 1);
      });
    }
  });

  it('no pages, or no budget', () => {
    expect(shareBudget([], 100)).toEqual([]);
    expect(shareBudget([10, 20], 0)).toEqual([0, 0]);
  });
});
