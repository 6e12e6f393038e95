import { describe, expect, it } from 'vitest';
import { contentPrice, searchPrice, searchReserve } from '../../src/core/books/billing.js';

describe('search prices', () => {
  it('bills include_content by pages delivered: 0 → 1, 1–5 → 3, 6–10 → 6', () => {
    expect([0, 1, 5, 6, 10].map(contentPrice)).toEqual([1, 3, 3, 6, 6]);
  });

  it('charges 1 for a success or a confirmed empty (also with content), 0 for an unconfirmed empty', () => {
    expect(searchPrice('success')).toBe(1);
    expect(searchPrice('confirmed_empty')).toBe(1);
    expect(searchPrice('unconfirmed_empty')).toBe(0);
    expect(searchPrice('success', 6)).toBe(6);
  });

  it('reserves the worst case: 1 plain, 3 for ≤5 pages requested, 6 for ≥6', () => {
    expect(searchReserve(false, 10)).toBe(1);
    expect(searchReserve(true, 5)).toBe(3);
    expect(searchReserve(true, 1)).toBe(3);
    expect(searchReserve(true, 6)).toBe(6);
  });
});
