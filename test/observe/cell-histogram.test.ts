// The request-duration histogram counted in plain cells (src/metrics/cell-histogram.ts) answers a scrape
// exactly as prom-client's own Histogram does for the same observations, through every way of reading it.

import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CellHistogram } from '../../src/metrics/cell-histogram.js';

const BUCKETS = [0.005, 0.01, 0.1, 1, 30];
const OBSERVED: [string, number][] = [
  ['/api/search', 0.004],
  ['/api/search', 0.005], // on a bound: counted in it (le is "less or equal")
  ['/api/search', 0.07],
  ['/api/crawl', 2.5],
  ['/api/search', 45], // above every bound: +Inf only
  ['/healthz', 0],
];

function both() {
  const theirs = new Registry();
  const ours = new Registry();
  const config = { name: 'd_seconds', help: 'A duration' };
  const reference = new Histogram({ ...config, labelNames: ['endpoint'], buckets: BUCKETS, registers: [theirs] });
  const cells = new CellHistogram({ ...config, labelName: 'endpoint', buckets: BUCKETS, registers: [ours] });
  return { theirs, ours, reference, cells };
}

describe('CellHistogram', () => {
  it('answers the text format, the JSON and get() as prom-client does', async () => {
    const { theirs, ours, reference, cells } = both();
    for (const [endpoint, value] of OBSERVED) {
      reference.labels(endpoint).observe(value);
      cells.record(endpoint, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    expect(await cells.get()).toEqual(await reference.get());
    expect(await ours.metrics()).toContain('d_seconds_bucket{le="0.005",endpoint="/api/search"} 2');
  });

  it('keeps its totals across scrapes and starts again on reset', async () => {
    const { theirs, ours, reference, cells } = both();
    reference.labels('/a').observe(0.2);
    cells.record('/a', 0.2);
    await ours.metrics();
    reference.labels('/a').observe(0.3);
    cells.record('/a', 0.3);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('d_seconds_count{endpoint="/a"} 2');
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    reference.labels('/a').observe(0.4); // the label recorded last before the reset: counted anew
    cells.record('/a', 0.4);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('d_seconds_count{endpoint="/a"} 1');
  });
});
