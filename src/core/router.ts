// The search router: asks sources best-first (see router-order.ts), one lane per source (router-lane.ts),
// under a whole-route deadline on the Clock. With hedging, when the current source has not answered within
// its recent p95 latency, the next source is asked too; the first lane with results wins and the other is
// aborted. See docs/router.md for the policy and the rule for which sources count as routed to.

import type { SearchQuery, SearchSource, SourceHealth } from '../types.js';
import type { RouteOptions, RouteResult, Router, SourceOutcome } from './route-types.js';
import { resolveRouterOptions, type ResolvedRouterOptions, type RouterOptions } from './router-options.js';
import { SourceHealthTracker } from './router-health.js';
import { rankSources, type RankedSource } from './router-order.js';
import { runLane, type LaneResult } from './router-lane.js';
import { RouteDeadlineError } from './source-error.js';

export type { RouterOptions, SourceAttemptEvent, BreakerOptions } from './router-options.js';
export { ROUTER_DEFAULTS } from './router-options.js';

/** The Router port plus an operator hook. */
export interface SearchRouter extends Router {
  /** Clear a source's health (all sources without an id), e.g. after fixing its key or quota. */
  reset(sourceId?: string): void;
}

class HedgeLostError extends Error {
  override name = 'HedgeLostError' as const;
  constructor() {
    super('Another source answered with results first');
  }
}

interface Lane {
  seq: number;
  entry: RankedSource;
  controller: AbortController;
  lost: boolean;
  startedAt: number;
  done: Promise<{ lane: Lane; result: LaneResult }>;
}

export function createRouter(sources: SearchSource[], options: RouterOptions): SearchRouter {
  const opts = resolveRouterOptions(sources, options);
  const entries: RankedSource[] = sources.map((source, index) => ({
    source, index,
    tracker: new SourceHealthTracker(source.id, {
      failureThreshold: opts.failureThreshold, coolDownMs: opts.coolDownMs, suspendMs: opts.suspendMs,
      hedgePercentile: opts.hedgePercentile,
    }),
  }));

  return {
    route: (query, routeOptions) => route(opts, entries, query, routeOptions),
    health: (): SourceHealth[] => entries.map((e) => e.tracker.snapshot(opts.clock.now())),
    reset(sourceId?: string) {
      if (sourceId !== undefined && !entries.some((e) => e.source.id === sourceId)) {
        throw new RangeError(`router.reset: no source with id "${sourceId}"`);
      }
      for (const e of entries) if (sourceId === undefined || e.source.id === sourceId) e.tracker.reset();
    },
  };
}

async function route(
  opts: ResolvedRouterOptions, entries: RankedSource[], query: SearchQuery, routeOptions: RouteOptions,
): Promise<RouteResult> {
  const { clock } = opts;
  if (!query || typeof query !== 'object' || typeof query.q !== 'string') {
    throw new TypeError('router.route: query must be a parsed SearchQuery');
  }
  const limit = routeOptions?.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`router.route: limit must be a positive integer (got ${String(limit)})`);
  }
  const callerSignal = routeOptions.signal;
  if (callerSignal?.aborted) throw callerSignal.reason;

  // Everything this route starts hangs off one controller: the deadline and the caller both abort it.
  const routeController = new AbortController();
  const onCallerAbort = () => routeController.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const deadlineTimer = new AbortController();
  const deadlineAt = clock.now() + opts.deadlineMs;
  clock.sleep(opts.deadlineMs, deadlineTimer.signal).then(
    () => routeController.abort(new RouteDeadlineError(opts.deadlineMs)),
    () => {},
  );

  const queue = rankSources(entries, clock.now(), opts.attemptTimeoutMs);
  const active: Lane[] = [];
  const finished: { lane: Lane; result: LaneResult }[] = [];
  let seq = 0;
  let winner: LaneResult | undefined;

  /** Starts the next source whose breaker lets a call through; false when none is left. */
  const startNext = (hedged: boolean): boolean => {
    if (routeController.signal.aborted) return false;
    for (;;) {
      const entry = queue.shift();
      if (!entry) return false;
      if (!entry.tracker.acquire(clock.now())) continue; // opened (or its trial taken) since ranking
      const controller = new AbortController();
      routeController.signal.addEventListener('abort', () => controller.abort(routeController.signal.reason), { once: true });
      const lane: Lane = { seq: seq++, entry, controller, lost: false, startedAt: clock.now(), done: undefined! };
      lane.done = runLane(opts, {
        source: entry.source, tracker: entry.tracker, query, limit, hedged,
        signal: controller.signal, deadlineAt, lostHedge: () => lane.lost,
      }).then((result) => ({ lane, result }));
      active.push(lane);
      return true;
    }
  };
  const canHedge = () =>
    opts.hedging && active.length === 1 && !routeController.signal.aborted &&
    queue.some((e) => e.tracker.available(clock.now()));

  try {
    startNext(false);
    while (active.length > 0) {
      const waits: Promise<{ lane: Lane; result: LaneResult } | 'hedge'>[] = active.map((l) => l.done);
      const hedgeTimer = new AbortController();
      const current = active[0]!;
      const mark = canHedge() ? current.entry.tracker.hedgeMark() : undefined;
      if (mark !== undefined) {
        const wait = current.startedAt + mark - clock.now();
        // Already past its mark (the other lane just finished): hedge now rather than on the next tick.
        if (wait <= 0 && startNext(true)) continue;
        waits.push(clock.sleep(Math.max(0, wait), hedgeTimer.signal).then(() => 'hedge' as const, () => new Promise<never>(() => {})));
      }
      const event = await Promise.race(waits);
      hedgeTimer.abort();
      if (event === 'hedge') {
        startNext(true);
        continue;
      }
      active.splice(active.indexOf(event.lane), 1);
      finished.push(event);
      if (event.result.status === 'results') {
        winner = event.result;
        for (const loser of active) {
          loser.lost = true;
          loser.controller.abort(new HedgeLostError());
        }
        await Promise.all(active.map((l) => l.done)); // let losers report 'aborted' before we return
        break;
      }
      // Empty or failed: the search goes on, so that an empty can be confirmed or beaten elsewhere.
      if (active.length === 0) startNext(false);
    }
  } finally {
    deadlineTimer.abort();
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
  if (callerSignal?.aborted) throw callerSignal.reason;

  const outcomes = finished
    .sort((a, b) => a.lane.seq - b.lane.seq)
    .map(({ lane, result }) => toOutcome(lane.entry.source, result));
  return { outcomes, results: winner ? winner.results : [] };
}

/** A lane the router cut short (deadline) was consulted and did not finish: a failure for confirmation. */
function toOutcome(source: SearchSource, result: LaneResult): SourceOutcome {
  const status = result.status === 'cancelled' ? 'failed' : result.status;
  return {
    source: source.id,
    unreliableEmpties: source.unreliableEmpties === true,
    status,
    results: status === 'results' ? result.results : [],
    noResultsNotice: status === 'empty' && result.noResultsNotice,
    ...(status === 'failed' ? { error: result.error } : {}),
    attempts: result.attempts,
  };
}
