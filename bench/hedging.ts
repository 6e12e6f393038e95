// Hedging benchmark (virtual time): p50 / p99 search latency with hedging on vs off.
// Usage: npx tsx bench/hedging.ts [--searches 1000] [--seeds 5] [--median 100] [--sigma 0.25]
//                                 [--tail-share 0.05] [--tail-ms 2000] [--percentile 0.95]
//                                 [--warmup 0]   (searches run first and not measured)
// Virtual time: each seed's figures are exact and repeatable. Each seed runs hedging off (the baseline)
// and on with the same latencies; a row per seed, then the median (min–max) over seeds.

import { type LatencyModel, type SimResult, simulate } from './hedging-sim.js';
import { spread } from './lib/rounds.js';

function parse(argv: string[]) {
  const o = { searches: 1000, seeds: 5, median: 100, sigma: 0.25, tailShare: 0.05, tailMs: 2000, percentile: 0.95, warmup: 0 };
  const keys: Record<string, keyof typeof o> = {
    '--searches': 'searches',
    '--seeds': 'seeds',
    '--median': 'median',
    '--sigma': 'sigma',
    '--tail-share': 'tailShare',
    '--tail-ms': 'tailMs',
    '--percentile': 'percentile',
    '--warmup': 'warmup',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = keys[argv[i]!];
    const value = Number(argv[i + 1]);
    if (!key || !Number.isFinite(value)) throw new Error(`bad argument ${argv[i]} ${argv[i + 1] ?? ''}`);
    o[key] = value;
  }
  return o;
}

const o = parse(process.argv.slice(2));
const model: LatencyModel = { medianMs: o.median, sigma: o.sigma, tailShare: o.tailShare, tailMs: o.tailMs };
const row = (label: string, r: SimResult) =>
  `| ${label} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} | ${r.mean} | ${(r.p99 / r.p50).toFixed(2)} | ${r.callsPerSearch.toFixed(3)} |`;

console.log(`model: lognormal body median ${o.median} ms, sigma ${o.sigma}; ${o.tailShare * 100}% of calls at ${o.tailMs} ms`);
console.log(`${o.searches} searches per run (after ${o.warmup} unmeasured), ${o.seeds} seeds, hedge at p${o.percentile * 100}\n`);
console.log('| run | p50 ms | p95 ms | p99 ms | max ms | mean ms | p99/p50 | calls/search |');
console.log('|---|---|---|---|---|---|---|---|');
const runs = { off: [] as SimResult[], on: [] as SimResult[] };
for (let seed = 1; seed <= o.seeds; seed++) {
  const off = await simulate({ searches: o.searches, warmup: o.warmup, hedging: false, seed, model });
  const on = await simulate({ searches: o.searches, warmup: o.warmup, hedging: true, hedgePercentile: o.percentile, seed, model });
  runs.off.push(off);
  runs.on.push(on);
  console.log(row(`seed ${seed}, hedging off`, off));
  console.log(row(`seed ${seed}, hedging on`, on));
}
for (const mode of ['off', 'on'] as const) {
  const of = (f: (r: SimResult) => number, digits = 0) => spread(runs[mode].map(f), digits);
  console.log(
    `| median (min–max) of ${o.seeds} seeds, hedging ${mode} | ${of((r) => r.p50)} | ${of((r) => r.p95)} | ${of((r) => r.p99)} | ${of((r) => r.max)} | ${of((r) => r.mean)} | ${of((r) => r.p99 / r.p50, 2)} | ${of((r) => r.callsPerSearch, 3)} |`,
  );
}
