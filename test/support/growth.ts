// The growth check of the linear-time tests (issue 32): time at 4n over time at n, a ratio over 10 fails.
// n·log n grows ~4.5× from n to 4n, a quadratic step 16×. Sizes grow until the time at n is measurable
// (≥ 25 ms; a time at 4n under 250 ms passes whatever the ratio), each time is the median of 5
// interleaved runs less the time of a tiny input, and a shape is measured again (up to 3 times) before
// it fails, so a busy machine slows both sizes alike and does not fail the test; a quadratic step fails
// every time.

import { expect } from 'vitest';

export type Shape = (n: number) => string;

const MAX_RATIO = 10;
const MIN_BASE_MS = 25;
const RUNS = 5;
const SLOW_MS = 250;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function timeOf(run: (input: string) => unknown, input: string): number {
  const start = performance.now();
  run(input);
  return performance.now() - start;
}

/**
 * Time at 4n over time at n, less the time of a tiny input (a page's fixed cost: parsing, the
 * classifier), n grown until the time at n is measurable and mostly the input's own.
 */
function growth(run: (input: string) => unknown, shape: Shape, start: number, max: number): { n: number; ratio: number; largeMs: number } {
  const tiny = shape(16);
  const fixed = median(Array.from({ length: RUNS }, () => timeOf(run, tiny)));
  let n = start;
  while (2 * n <= max && median([0, 1, 2].map(() => timeOf(run, shape(n)))) < Math.max(MIN_BASE_MS, 4 * fixed)) n *= 2;
  const small = shape(n);
  const large = shape(4 * n);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(timeOf(run, small));
    b.push(timeOf(run, large));
  }
  return { n, ratio: (median(b) - fixed) / Math.max(median(a) - fixed, 0.01), largeMs: median(b) - fixed };
}

export function expectLinear(run: (input: string) => unknown, shape: Shape, start = 2_000, max = 400_000): void {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const { n, ratio, largeMs } = growth(run, shape, start, max);
    // A step still this fast at 4n is no attack (a quadratic one measured from 25 ms takes 400 ms).
    if (ratio <= MAX_RATIO || largeMs < SLOW_MS) return;
    seen.push(`n=${n}: ×${ratio.toFixed(1)}`);
  }
  expect.fail(`time grew faster than n·log n from n to 4n (${seen.join(', ')})`);
}
