// One turn of one source in a search (a "lane"): for a retry, wait until its backoff is over; make one
// call; report it to the health tracker and the observability hook; say whether, and from when, the
// source may be retried. Never throws. When a retry runs is the router's call: only once no untried
// source is left, so a failure hands over to the next source at once (docs/router.md, "Retries").

import {
  type CallTraceContext,
  callWorkRead,
  channels,
  noteAttempt,
  noteSource,
  noteTime,
  SourceTrace,
  type SourceTraceContext,
  traced,
} from '../../channels.js';
import type { SearchQuery, SearchSource, SourceResult } from '../../types/index.js';
import { type AttemptInput, type AttemptVerdict, runAttempt } from './attempt.js';
import { type SourceHealthTracker, suspensionFor } from './health.js';
import type { LaneAbort } from './lane-abort.js';
import type { ResolvedRouterOptions } from './options.js';

export interface LaneResult {
  /** cancelled: the router stopped the lane (hedge lost, deadline, caller) before it finished. */
  status: 'results' | 'empty' | 'failed' | 'cancelled';
  results: SourceResult[];
  noResultsNotice: boolean;
  error?: unknown;
  /** False when the lane was stopped while waiting for its retry: no call went out. */
  called: boolean;
  /** For a failure that may be retried in this search: the clock time from which the retry may go out. */
  retryAt?: number;
}

export interface LaneInput {
  source: SearchSource;
  tracker: SourceHealthTracker;
  query: SearchQuery;
  limit: number;
  hedged: boolean;
  /** Why the source is asked (websift:source): first, after another, early beside a slow one, or again. */
  role: SourceTraceContext['role'];
  /** 1-based number of this call to the source within the search. */
  attempt: number;
  /** Clock time before which the call must not go out (a retry's backoff); 0 for a first call. */
  notBefore: number;
  /** Clock time the router started the lane (runLane is called in the same turn: no second read). */
  startedAt: number;
  /** The lane's cancellation (aborted by the router, or by an attempt timeout); its signal is made on demand. */
  cancel: LaneAbort;
  /** Called before the lane waits on anything (a pending call, a backoff): starts the route deadline. */
  onWait: () => void;
  /** Clock time after which no retry is due. */
  deadlineAt: number;
  /** True once the router has decided this lane lost a hedge (its time still counts as a latency sample). */
  lostHedge: () => boolean;
  /** The search's websift:search context, when someone listens (websift:source names it). */
  call: CallTraceContext | undefined;
}

export async function runLane(options: ResolvedRouterOptions, lane: LaneInput): Promise<LaneResult> {
  const { clock } = options;
  let started = lane.startedAt;
  const wait = lane.notBefore - started;
  if (wait > 0) {
    lane.onWait();
    try {
      await clock.sleep(wait, lane.cancel.signal);
    } catch {
      // Stopped while waiting to retry (deadline, caller): the source stays failed as it was.
      lane.tracker.recordCancelled(0, false, clock.now()); // frees a half-open trial slot, if it held one
      return { ...NOTHING, status: 'cancelled', error: lane.cancel.reason, called: false };
    }
    started = clock.now();
  }
  // websift's own readers (metrics, otel) get the call's facts from a note, not from websift:source.
  const noted = lane.call !== undefined && callWorkRead();
  const noteStart = noted ? noteTime() : 0;
  const verdict = await tracedAttempt(lane, {
    source: lane.source,
    query: lane.query,
    limit: lane.limit,
    clock,
    timeoutMs: options.attemptTimeoutMs,
    cancel: lane.cancel,
    started,
    onWait: lane.onWait,
  });
  const now = verdict.endedAt; // the clock read that ended the attempt (its latency's end)
  const attempt = lane.attempt;
  if (lane.call) {
    noteSource(lane.call, lane.source.id, lane.role, verdict.kind === 'answer');
    if (noted) noteAttempt(lane.call, lane.source.id, attempt, lane.role, attemptOutcome(verdict), noteStart, noteTime());
  }

  if (verdict.kind === 'answer') {
    lane.tracker.recordAnswer(verdict.latencyMs, now);
    const results = verdict.answer.results;
    const status = results.length > 0 ? 'results' : 'empty';
    report(options, lane, { outcome: status, latencyMs: verdict.latencyMs, attempt });
    return { status, results, noResultsNotice: status === 'empty' && verdict.answer.noResultsNotice === true, called: true };
  }
  if (verdict.kind === 'cancelled') {
    lane.tracker.recordCancelled(verdict.latencyMs, lane.lostHedge(), now);
    report(options, lane, { outcome: 'aborted', latencyMs: verdict.latencyMs, attempt, error: verdict.error });
    return { ...NOTHING, status: 'cancelled', error: verdict.error, called: true };
  }
  lane.tracker.recordFailure(verdict.error, verdict.latencyMs, now, verdict.timedOut);
  report(options, lane, { outcome: 'failed', latencyMs: verdict.latencyMs, attempt, error: verdict.error });
  const retryAt = retryDue(options, lane, verdict, now);
  return { ...NOTHING, status: 'failed', error: verdict.error, called: true, ...(retryAt === undefined ? {} : { retryAt }) };
}

/** The attempt on the websift:source channel (when someone listens), with its outcome. */
function tracedAttempt(lane: LaneInput, input: AttemptInput): Promise<AttemptVerdict> {
  // Nobody listens (websift's own subscribers read the notes): the attempt alone, without traced's two closures.
  if (!channels.source.hasSubscribers) return runAttempt(input);
  return traced(
    channels.source,
    (): SourceTraceContext => new SourceTrace(lane.source.id, lane.attempt, lane.role, lane.call),
    () => runAttempt(input),
    finishAttempt,
  );
}

/** The attempt's latency and outcome on its websift:source context, before its end is published. */
function finishAttempt(context: SourceTraceContext, failed: boolean, value: unknown): void {
  if (failed) return;
  const verdict = value as AttemptVerdict;
  context.latencyMs = verdict.latencyMs;
  context.outcome = attemptOutcome(verdict);
}

/** How an attempt ended, as websift:source and its notes say it. */
function attemptOutcome(verdict: AttemptVerdict): NonNullable<SourceTraceContext['outcome']> {
  if (verdict.kind === 'answer') return verdict.answer.results.length > 0 ? 'answered' : 'empty';
  if (verdict.kind === 'cancelled') return 'cancelled';
  return verdict.timedOut ? 'timeout' : 'failed';
}

/**
 * When a failed source may be asked again in this search (its jittered backoff after this failure), or
 * undefined for not at all: retries used up; a timeout (with the defaults three of them, 3 × 5 s, would eat
 * the 15 s deadline); an opened breaker or a suspending error (leave the source alone); or a backoff
 * that would end at or after the deadline.
 */
function retryDue(
  options: ResolvedRouterOptions,
  lane: LaneInput,
  verdict: AttemptVerdict & { kind: 'failed' },
  now: number,
): number | undefined {
  if (lane.attempt > options.retries || verdict.timedOut) return undefined;
  if (lane.tracker.state(now) !== 'closed' || suspensionFor(verdict.error, options) !== undefined) return undefined;
  const at = now + backoffDelay(lane.attempt, options);
  return at < lane.deadlineAt ? at : undefined;
}

/** base × 2^(n−1), scaled by a random factor in [0.5, 1) so that many searches don't retry in step. */
export function backoffDelay(failedAttempts: number, options: ResolvedRouterOptions): number {
  const jitter = 0.5 + 0.5 * clamp01(options.random());
  return Math.round(options.backoffMs * 2 ** (failedAttempts - 1) * jitter);
}

const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0.5);

const NOTHING = { results: [] as SourceResult[], noResultsNotice: false } as const;

function report(
  options: ResolvedRouterOptions,
  lane: LaneInput,
  event: { outcome: 'results' | 'empty' | 'failed' | 'aborted'; latencyMs: number; attempt: number; error?: unknown },
): void {
  if (!options.onSourceAttempt) return;
  try {
    options.onSourceAttempt({
      source: lane.source.id,
      outcome: event.outcome,
      latencyMs: event.latencyMs,
      hedged: lane.hedged,
      attempt: event.attempt,
      ...(event.error === undefined ? {} : { error: event.error }),
    });
  } catch {
    // An observer's bug must not change a search's outcome.
  }
}
