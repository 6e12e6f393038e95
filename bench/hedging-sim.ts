// The hedging simulation behind bench/hedging.ts: two scripted sources with long-tailed latencies,
// 1,000 searches in virtual time (ManualClock), search latency measured on the clock.

import { createRouter } from '../src/core/router/router.js';
import { ManualClock } from '../src/testing/manual-clock.js';
import { scriptedSource } from '../src/testing/scripted-source.js';
import { seededRandom } from '../src/testing/seeded-random.js';
import type { SearchQuery } from '../src/types/index.js';

export interface LatencyModel {
  /** Median of the lognormal body, ms. */
  medianMs: number;
  /** Lognormal sigma of the body. */
  sigma: number;
  /** Share of calls in the tail. */
  tailShare: number;
  /** Latency of a tail call, ms. */
  tailMs: number;
}

export interface SimOptions {
  searches: number;
  /** Searches run first and not measured (default 0: the figures include the start without history). */
  warmup?: number;
  hedging: boolean;
  hedgePercentile?: number;
  seed: number;
  model: LatencyModel;
}

export interface SimResult {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** Calls made to sources per search (1 = no extra load). */
  callsPerSearch: number;
  hedges: number;
}

/** One latency draw: lognormal body (Box–Muller), or the tail. */
export function drawLatency(model: LatencyModel, random: () => number): number {
  if (random() < model.tailShare) return model.tailMs;
  const u = Math.max(random(), 1e-12);
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return Math.max(1, Math.round(model.medianMs * Math.exp(model.sigma * z)));
}

export const percentile = (sorted: number[], p: number): number => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;

export async function simulate(options: SimOptions): Promise<SimResult> {
  const clock = new ManualClock();
  // Each source draws from its own seeded stream, so hedging on/off see the same latencies per call index.
  const make = (id: string, seed: number) => {
    const random = seededRandom(seed);
    return scriptedSource(id, () => ({ results: [{ title: id, url: `https://${id}.example/`, snippet: '' }] }), {
      clock,
      latencyMs: () => drawLatency(options.model, random),
    });
  };
  const a = make('a', options.seed * 2 + 1);
  const b = make('b', options.seed * 2 + 2);
  let hedges = 0;
  const router = createRouter([a, b], {
    clock,
    hedging: options.hedging,
    random: seededRandom(options.seed),
    ...(options.hedgePercentile === undefined ? {} : { hedgePercentile: options.hedgePercentile }),
    onSourceAttempt: (e) => {
      if (e.hedged) hedges++;
    },
  });
  const latencies: number[] = [];
  const warmup = options.warmup ?? 0;
  for (let i = 0; i < warmup + options.searches; i++) {
    const query: SearchQuery = { q: `q${i}`, phrases: [], sites: [], excludedSites: [], filetypes: [], terms: [`q${i}`] };
    const started = clock.now();
    const p = router.route(query, { limit: 10 });
    let done = false;
    p.finally(() => {
      done = true;
    }).catch(() => {});
    while (!done) await clock.runAll();
    await p;
    if (i >= warmup) latencies.push(clock.now() - started);
    await clock.advance(1000); // searches one second apart: health fades a little between them
  }
  const sorted = [...latencies].sort((x, y) => x - y);
  return {
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
    mean: Math.round(latencies.reduce((s, x) => s + x, 0) / latencies.length),
    callsPerSearch: (a.calls.length + b.calls.length) / (warmup + options.searches),
    hedges,
  };
}
