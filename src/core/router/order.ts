// The order in which a search asks its sources: by expected cost (faded latency EWMA plus faded error
// rate × attempt timeout), in factor-of-two buckets so that sources of similar health keep the configured
// order, which breaks every tie. Open breakers are left out. A half-open source keeps its place by cost:
// ranking it last would starve it of the one trial call that can close it again.

import type { SearchSource } from '../../types/index.js';
import type { SourceHealthTracker } from './health.js';

export interface RankedSource {
  source: SearchSource;
  tracker: SourceHealthTracker;
  /** Position in the configured list. */
  index: number;
}

/** Width of the smallest bucket: latencies under this are all "fast". */
const BUCKET_BASE_MS = 25;

/**
 * Expected cost of asking a source, in ms: its latency, plus a failure's price (about a timeout) weighted by
 * its error rate. A never-answered source borrows the best known latency (the prior), so it neither jumps
 * ahead of a measured fast source nor falls behind a measured slow one; old measurements fade to the prior.
 */
export function expectedCost(tracker: SourceHealthTracker, now: number, priorLatencyMs: number, failureCostMs: number): number {
  return tracker.latencyEstimate(now, priorLatencyMs) + tracker.errorRate(now) * failureCostMs;
}

/** 0 below 25 ms, then one bucket per doubling. */
export function costBucket(costMs: number): number {
  return Math.floor(Math.log2(1 + Math.max(0, costMs) / BUCKET_BASE_MS));
}

export function rankSources(entries: RankedSource[], now: number, failureCostMs: number): RankedSource[] {
  // One source: nothing to order (its costs and the arrays below were ~0.5 µs of a search).
  if (entries.length === 1) return entries[0]!.tracker.state(now) === 'open' ? [] : [entries[0]!];
  const known = entries.map((e) => e.tracker.latencyMs).filter((l): l is number => l !== undefined);
  const prior = known.length > 0 ? Math.min(...known) : 0;
  return entries
    .filter((e) => e.tracker.state(now) !== 'open')
    .map((e) => ({ e, bucket: costBucket(expectedCost(e.tracker, now, prior, failureCostMs)) }))
    .sort((a, b) => a.bucket - b.bucket || a.e.index - b.e.index)
    .map((x) => x.e);
}
