// bench/lib/rounds.ts: the figure every bench prints is the median and the whole range of its rounds.

import { describe, expect, it } from 'vitest';
import { median, rotated, spread } from '../../bench/lib/rounds.js';

describe('bench rounds', () => {
  it('the median is the middle round, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(RangeError);
  });

  it('prints the median with the lowest and the highest round, not the best one alone', () => {
    expect(spread([3.04, 1, 9.96])).toBe('3.0 (1.0–10.0)');
    expect(spread([0.5, 0.25], 2)).toBe('0.38 (0.25–0.50)');
    expect(spread([2, 4, 3], (x) => `${x}×`)).toBe('3× (2×–4×)');
  });

  it('rotates the order one place per round, so each variant runs first in turn', () => {
    expect([0, 1, 2].map((r) => rotated(['a', 'b', 'c'], r))).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'a'],
      ['c', 'a', 'b'],
    ]);
  });
});
