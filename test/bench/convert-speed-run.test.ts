// bench/lib/convert-speed-run.ts: which pages convert-speed's children convert, and in which order they run.

import { describe, expect, it } from 'vitest';
import { everyKth, PAIRS, roundOrder, warmupPages } from '../../bench/lib/convert-speed-run.js';

const pages = Array.from({ length: 10 }, (_, i) => i);

describe('convert-speed children', () => {
  it('measure every k-th page, all of them without a limit', () => {
    expect(everyKth(pages, 4)).toEqual([0, 2, 5, 7]);
    expect(everyKth(pages, undefined)).toEqual(pages);
    expect(everyKth(pages, 20)).toEqual(pages);
  });

  it('warm up on the pages between the measured ones, so the window has no page the memos just saw', () => {
    expect(warmupPages(pages, 4)).toEqual([1, 3, 6, 8]);
    for (const limit of [2, 3, 4, 5]) {
      const measured = new Set(everyKth(pages, limit));
      expect(warmupPages(pages, limit).filter((p) => measured.has(p))).toEqual([]);
      expect(warmupPages(pages, limit)).toHaveLength(limit);
    }
    // No other pages to warm up on: the measured ones.
    expect(warmupPages(pages, 6)).toEqual(everyKth(pages, 6));
    expect(warmupPages(pages, undefined)).toEqual(pages);
  });

  it("swap each pair's sides every round and the pairs every other round", () => {
    const orders = [0, 1, 2, 3].map((r) => roundOrder(PAIRS, r));
    expect(orders).toEqual([
      ['websift', 'readability', 'parse-lazy', 'parse-stock'],
      ['readability', 'websift', 'parse-stock', 'parse-lazy'],
      ['parse-lazy', 'parse-stock', 'websift', 'readability'],
      ['parse-stock', 'parse-lazy', 'readability', 'websift'],
    ]);
    // Over two rounds each side of each pair runs first once.
    for (const [a, b] of PAIRS) {
      const first = [0, 1].map((r) => {
        const o = roundOrder(PAIRS, r);
        return o.indexOf(a) < o.indexOf(b) ? a : b;
      });
      expect(new Set(first)).toEqual(new Set([a, b]));
    }
    expect(roundOrder(PAIRS.slice(0, 1), 1)).toEqual(['readability', 'websift']);
  });
});
