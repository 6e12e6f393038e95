// The search router: asks sources best-first (see order.ts), one lane per call (lane.ts),
// under a whole-route deadline on the Clock. A failure hands over to the next untried source at once;
// failed sources are retried, after their backoff, only once no untried source is left. With hedging, when the current source has not answered within
// its recent p95 latency, the next source is asked too; the first lane with results wins and the other is
// aborted. See docs/router.md for the policy and the rule for which sources count as routed to.

import type { SearchQuery, SearchSource, SourceHealth } from '../../types/index.js';
import { SourceHealthTracker } from './health.js';
import { type LaneResult, runLane } from './lane.js';
import { LaneAbort } from './lane-abort.js';
import { type ResolvedRouterOptions, type RouterOptions, resolveRouterOptions } from './options.js';
import { type RankedSource, rankSources } from './order.js';
import type { RouteOptions, RouteResult, Router, SourceOutcome } from './route-types.js';
import { RouteDeadlineError } from './source-error.js';
import { ClockTimer } from './timer.js';

export type { BreakerOptions, RouterOptions, SourceAttemptEvent } from './options.js';
export { ROUTER_DEFAULTS } from './options.js';

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

/** One source's part of this search: its calls so far and how the last one ended. */
interface SourceRun {
  entry: RankedSource;
  /** Calls made to the source in this search. */
  attempts: number;
  /** The last lane that finished; none for a hedge loser (not routed to). */
  last?: LaneResult;
  /** Set while the source failed and may be retried: the clock time from which the retry may go out. */
  retryAt?: number;
}

interface Lane {
  run: SourceRun;
  cancel: LaneAbort;
  lost: boolean;
  startedAt: number;
  done: Promise<{ lane: Lane; result: LaneResult }>;
  /** Set, and resolved, when the lane first waits (a pending call, a backoff): only then can a hedge be due. */
  isWaiting: boolean;
  waiting: Promise<'waiting'>;
}

export function createRouter(sources: SearchSource[], options: RouterOptions): SearchRouter {
  const opts = resolveRouterOptions(sources, options);
  const entries: RankedSource[] = sources.map((source, index) => ({
    source,
    index,
    tracker: new SourceHealthTracker(source.id, {
      failureThreshold: opts.failureThreshold,
      coolDownMs: opts.coolDownMs,
      suspendMs: opts.suspendMs,
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
  opts: ResolvedRouterOptions,
  entries: RankedSource[],
  query: SearchQuery,
  routeOptions: RouteOptions,
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

  const active: Lane[] = [];
  // The deadline and the caller stop the route: every lane in flight is aborted, no new lane starts.
  let stopped = false;
  const stop = (reason: unknown) => {
    if (stopped) return;
    stopped = true;
    for (const lane of active) lane.cancel.abort(reason);
  };
  const onCallerAbort = () => stop(callerSignal?.reason);
  // The caller's signal is listened to from the first wait on (as the deadline is armed): a route whose
  // sources answer at once never yields to the event loop, where a client's disconnect would arrive, and
  // an add + remove of a listener on every search cost ~2 µs (Node 20). Without a wait, an abort is still
  // seen: no lane starts after it (startNext), and the route throws its reason at the end.
  let listening = false;
  const listen = () => {
    if (listening || !callerSignal) return;
    listening = true;
    if (callerSignal.aborted) stop(callerSignal.reason);
    else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  };
  // One clock read for the route's start: its deadline, the ranking, the first lane's start (all in this turn).
  const routeStart = clock.now();
  const deadlineAt = routeStart + opts.deadlineMs;
  // Armed by the first wait (a pending call, a backoff, a hedge mark): a route whose sources all answer
  // at once never waits, so the deadline could not have fired during it.
  const deadline = new ClockTimer(clock, deadlineAt, () => stop(new RouteDeadlineError(opts.deadlineMs)));

  const queue = rankSources(entries, routeStart, opts.attemptTimeoutMs);
  const runs: SourceRun[] = []; // in the order the sources were first asked
  let winner: LaneResult | undefined;

  const startLane = (run: SourceRun, hedged: boolean, notBefore: number, now: number) => {
    const cancel = new LaneAbort();
    let markWaiting!: (w: 'waiting') => void;
    const waiting = new Promise<'waiting'>((resolve) => (markWaiting = resolve));
    const lane: Lane = { run, cancel, lost: false, startedAt: now, done: undefined!, isWaiting: false, waiting };
    const onLaneWait = () => {
      deadline.arm();
      listen();
      lane.isWaiting = true;
      markWaiting('waiting');
    };
    lane.done = runLane(opts, {
      source: run.entry.source,
      tracker: run.entry.tracker,
      query,
      limit,
      hedged,
      attempt: run.attempts + 1,
      notBefore,
      startedAt: now,
      role: hedged ? 'hedge' : run.attempts > 0 ? 'retry' : runs[0] === run ? 'primary' : 'fallback',
      cancel,
      onWait: onLaneWait,
      deadlineAt,
      lostHedge: () => lane.lost,
      call: routeOptions.trace,
    }).then((result) => ({ lane, result }));
    active.push(lane);
  };

  /**
   * Starts the next untried source whose breaker lets a call through; failing that (and never for a
   * hedge), retries the failed source whose retry is due first. False when there is nothing to start.
   * `now`: the clock's time, when the caller has just read it in this turn.
   */
  const startNext = (hedged: boolean, now = clock.now()): boolean => {
    if (!listening && callerSignal?.aborted) stop(callerSignal.reason);
    if (stopped) return false;
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      if (!entry.tracker.acquire(now)) continue; // opened (or its trial taken) since ranking
      const run: SourceRun = { entry, attempts: 0 };
      runs.push(run);
      startLane(run, hedged, 0, now);
      return true;
    }
    if (hedged) return false;
    for (let run = dueFirst(runs); run; run = dueFirst(runs)) {
      const notBefore = run.retryAt!;
      delete run.retryAt;
      if (!run.entry.tracker.acquire(now)) continue; // opened by other searches meanwhile
      startLane(run, false, notBefore, now);
      return true;
    }
    return false;
  };
  const canHedge = () => opts.hedging && active.length === 1 && !stopped && queue.some((e) => e.tracker.available(clock.now()));

  try {
    startNext(false, routeStart);
    while (active.length > 0) {
      let event: { lane: Lane; result: LaneResult } | 'hedge';
      const current = active[0]!;
      const mark = canHedge() ? current.run.entry.tracker.hedgeMark() : undefined;
      if (mark === undefined) {
        event = active.length === 1 ? await current.done : await Promise.race(active.map((l) => l.done));
      } else {
        // Waiting and already past its mark (the other lane just finished): hedge now, not on the next tick.
        // A lane that has not waited yet is never hedged at once, even with a mark of 0 (a source that
        // answers within the clock's resolution): that would call the next source on every search.
        if (current.isWaiting && current.startedAt + mark <= clock.now() && startNext(true)) continue;
        // A lane that finishes without waiting needs no hedge timer: the timer starts when the lane waits,
        // and still fires at `startedAt + mark`.
        const first = await Promise.race([current.done, current.waiting]);
        if (first === 'waiting') {
          let hedgeTimer: ClockTimer | undefined;
          const hedge = new Promise<'hedge'>((resolve) => {
            hedgeTimer = new ClockTimer(clock, current.startedAt + mark, () => resolve('hedge'));
            hedgeTimer.arm();
          });
          event = await Promise.race([current.done, hedge]);
          hedgeTimer?.clear();
        } else {
          event = first;
        }
      }
      if (event === 'hedge') {
        startNext(true);
        continue;
      }
      active.splice(active.indexOf(event.lane), 1);
      record(event.lane.run, event.result);
      if (event.result.status === 'results') {
        winner = event.result;
        for (const loser of active) {
          loser.lost = true;
          loser.cancel.abort(new HedgeLostError());
        }
        await Promise.all(active.map((l) => l.done)); // let losers report 'aborted' before we return
        break;
      }
      // Empty or failed: the search goes on at once, so that an empty can be confirmed or beaten elsewhere
      // and a failure costs no wait while an untried source is left.
      if (active.length === 0) startNext(false);
    }
  } finally {
    deadline.clear();
    if (listening) callerSignal?.removeEventListener('abort', onCallerAbort);
  }
  if (callerSignal?.aborted) throw callerSignal.reason;

  const outcomes = runs.filter((run) => run.last !== undefined).map(toOutcome);
  return { outcomes, results: winner ? winner.results : [] };
}

/** A lane stopped while waiting for its retry made no call: the source keeps its last failure. */
function record(run: SourceRun, result: LaneResult): void {
  if (!result.called) return;
  run.attempts++;
  run.last = result;
  if (result.retryAt !== undefined) run.retryAt = result.retryAt;
}

/** The failed source whose retry is due first (ties: the one asked first), if any. */
function dueFirst(runs: SourceRun[]): SourceRun | undefined {
  let first: SourceRun | undefined;
  for (const run of runs) {
    if (run.retryAt !== undefined && (first === undefined || run.retryAt < first.retryAt!)) first = run;
  }
  return first;
}

/** A lane the router cut short (deadline) was consulted and did not finish: a failure for confirmation. */
function toOutcome({ entry: { source }, attempts, last }: SourceRun): SourceOutcome {
  const result = last!;
  const status = result.status === 'cancelled' ? 'failed' : result.status;
  return {
    source: source.id,
    unreliableEmpties: source.unreliableEmpties === true,
    status,
    results: status === 'results' ? result.results : [],
    noResultsNotice: status === 'empty' && result.noResultsNotice,
    ...(status === 'failed' ? { error: result.error } : {}),
    attempts,
  };
}
