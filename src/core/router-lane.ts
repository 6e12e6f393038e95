// One source's part of a search (a "lane"): attempts with jittered exponential backoff between failures,
// each attempt reported to the health tracker and the observability hook. Never throws.

import type { SearchQuery, SearchSource, SourceResult } from '../types.js';
import type { ResolvedRouterOptions } from './router-options.js';
import { suspensionFor, type SourceHealthTracker } from './router-health.js';
import { runAttempt } from './router-attempt.js';

export interface LaneResult {
  /** cancelled: the router stopped the lane (hedge lost, deadline, caller) before it finished. */
  status: 'results' | 'empty' | 'failed' | 'cancelled';
  results: SourceResult[];
  noResultsNotice: boolean;
  error?: unknown;
  attempts: number;
}

export interface LaneInput {
  source: SearchSource;
  tracker: SourceHealthTracker;
  query: SearchQuery;
  limit: number;
  hedged: boolean;
  /** The lane's controller (aborted by the router, or by an attempt timeout) and its signal. */
  controller: AbortController;
  signal: AbortSignal;
  /** Called before the lane waits on anything (a pending call, a backoff): starts the route deadline. */
  onWait: () => void;
  /** Clock time after which no new attempt or backoff starts. */
  deadlineAt: number;
  /** True once the router has decided this lane lost a hedge (its time still counts as a latency sample). */
  lostHedge: () => boolean;
}

export async function runLane(options: ResolvedRouterOptions, lane: LaneInput): Promise<LaneResult> {
  const { clock } = options;
  let attempts = 0;
  for (;;) {
    attempts++;
    const verdict = await runAttempt({
      source: lane.source, query: lane.query, limit: lane.limit, clock,
      timeoutMs: options.attemptTimeoutMs, controller: lane.controller, signal: lane.signal, onWait: lane.onWait,
    });
    const now = clock.now();

    if (verdict.kind === 'answer') {
      lane.tracker.recordAnswer(verdict.latencyMs, now);
      const results = verdict.answer.results;
      const status = results.length > 0 ? 'results' : 'empty';
      report(options, lane, { outcome: status, latencyMs: verdict.latencyMs, attempt: attempts });
      return { status, results, noResultsNotice: status === 'empty' && verdict.answer.noResultsNotice === true, attempts };
    }
    if (verdict.kind === 'cancelled') {
      lane.tracker.recordCancelled(verdict.latencyMs, lane.lostHedge(), now);
      report(options, lane, { outcome: 'aborted', latencyMs: verdict.latencyMs, attempt: attempts, error: verdict.error });
      return cancelled(verdict.error, attempts);
    }

    lane.tracker.recordFailure(verdict.error, verdict.latencyMs, now, verdict.timedOut);
    report(options, lane, { outcome: 'failed', latencyMs: verdict.latencyMs, attempt: attempts, error: verdict.error });
    const failed: LaneResult = { status: 'failed', results: [], noResultsNotice: false, error: verdict.error, attempts };
    // A timeout is not retried: with the defaults three of them (3 × 5 s) would eat the whole 15 s deadline
    // and leave nothing for the next source, which is the better bet after a source went quiet.
    if (attempts > options.retries || verdict.timedOut) return failed;
    // An opened breaker (threshold reached, a suspension, a rate limit) means: leave this source alone.
    if (lane.tracker.state(now) !== 'closed' || suspensionFor(verdict.error, options) !== undefined) return failed;
    const delay = backoffDelay(attempts, options);
    if (now + delay >= lane.deadlineAt) return failed;
    try {
      if (delay > 0) {
        lane.onWait();
        await clock.sleep(delay, lane.signal);
      }
    } catch {
      // Stopped while waiting to retry: the source was consulted and failed, and stays failed.
      return lane.lostHedge() ? cancelled(lane.signal.reason, attempts) : failed;
    }
  }
}

/** base × 2^(n−1), scaled by a random factor in [0.5, 1) so that many searches don't retry in step. */
export function backoffDelay(failedAttempts: number, options: ResolvedRouterOptions): number {
  const jitter = 0.5 + 0.5 * clamp01(options.random());
  return Math.round(options.backoffMs * 2 ** (failedAttempts - 1) * jitter);
}

const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0.5);

const cancelled = (error: unknown, attempts: number): LaneResult => ({
  status: 'cancelled', results: [], noResultsNotice: false, error, attempts,
});

function report(
  options: ResolvedRouterOptions,
  lane: LaneInput,
  event: { outcome: 'results' | 'empty' | 'failed' | 'aborted'; latencyMs: number; attempt: number; error?: unknown },
): void {
  if (!options.onSourceAttempt) return;
  try {
    options.onSourceAttempt({
      source: lane.source.id, outcome: event.outcome, latencyMs: event.latencyMs, hedged: lane.hedged,
      attempt: event.attempt, ...(event.error === undefined ? {} : { error: event.error }),
    });
  } catch {
    // An observer's bug must not change a search's outcome.
  }
}
