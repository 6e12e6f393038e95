// Health of one source: error-rate and latency EWMAs, a window of recent latencies (for the hedge
// trigger), and the circuit breaker (closed → open after consecutive failures or a suspending error →
// half_open after the cool-down → closed on a good answer, open again on a failed trial).

import type { SourceHealth } from '../../types/index.js';
import { isSourceError } from './source-error.js';

/** Weight of the newest observation in the EWMAs: about the last ten calls matter. */
const EWMA_ALPHA = 0.2;
/** Recent latencies kept for the percentile. */
const LATENCY_WINDOW = 100;
/** Below this many latencies the percentile is noise: no hedging yet. */
export const HEDGE_MIN_SAMPLES = 20;
/**
 * Health is "recent": the error rate fades toward 0, and a latency toward the neutral prior, with this
 * half-life. Without it a source demoted once would never be asked again (nothing would re-measure it).
 */
export const HEALTH_HALF_LIFE_MS = 60_000;

/**
 * The hedge mark never exceeds this multiple of the recent median. When the slow tail is about as large as
 * the percentile's complement (5 % of calls slow, hedging at p95), the p95 of a window flips between the
 * body and the tail at random and, once in the tail, stays there (unhedged slow calls keep refilling it).
 */
export const HEDGE_MEDIAN_CAP = 3;
/** An answer above this multiple of the latency EWMA enters it capped (see #updateLatency). */
const OUTLIER_CAP = 4;

export interface HealthPolicy {
  failureThreshold: number;
  coolDownMs: number;
  suspendMs: number;
  /** The latency percentile that marks a call as slow enough to hedge. */
  hedgePercentile: number;
}

/**
 * How long a failure keeps the source out of use, or undefined for an ordinary failure (retried, counted
 * toward the breaker). The one place that reads a SourceError's reason:
 * - auth / quota / config need a person: Retry-After if given, else `suspendMs` (1 h);
 * - rate_limited: Retry-After if given, else the breaker cool-down (hammering a 429 or a CAPTCHA page makes
 *   it worse);
 * - any other reason with a Retry-After (say a 503 or Wikipedia's maxlag): that long.
 */
export function suspensionFor(error: unknown, policy: HealthPolicy): number | undefined {
  if (!isSourceError(error)) return undefined;
  if (error.suspends) return error.retryAfterMs ?? policy.suspendMs;
  if (error.reason === 'rate_limited') return error.retryAfterMs ?? policy.coolDownMs;
  return error.retryAfterMs;
}

export class SourceHealthTracker {
  readonly id: string;
  #policy: HealthPolicy;
  #errorRate = 0;
  #errorRateAt = 0;
  #latency: number | undefined;
  #latencyAt = 0;
  /** The window in arrival order, and the same values kept sorted (the percentile is read every search). */
  #samples: number[] = [];
  #sorted: number[] = [];
  #consecutiveFailures = 0;
  /** Set while the breaker is open or half-open: the time the cool-down ends. */
  #openUntil: number | undefined;
  /** A half-open trial call is in flight; no other call may go out. */
  #trialInFlight = false;

  constructor(id: string, policy: HealthPolicy) {
    this.id = id;
    this.#policy = policy;
  }

  state(now: number): SourceHealth['state'] {
    if (this.#openUntil === undefined) return 'closed';
    return now < this.#openUntil ? 'open' : 'half_open';
  }

  /** Whether a call may go out now; in half_open this takes the single trial slot. */
  acquire(now: number): boolean {
    const state = this.state(now);
    if (state === 'closed') return true;
    if (state === 'open' || this.#trialInFlight) return false;
    this.#trialInFlight = true;
    return true;
  }

  /** Whether a call could go out now, without taking a slot. */
  available(now: number): boolean {
    const state = this.state(now);
    return state === 'closed' || (state === 'half_open' && !this.#trialInFlight);
  }

  /** The source finished a call with an answer (results or empty): it is healthy. */
  recordAnswer(latencyMs: number, now: number): void {
    this.#updateErrorRate(0, now);
    this.#updateLatency(latencyMs, now);
    this.#pushSample(latencyMs);
    this.#consecutiveFailures = 0;
    this.#openUntil = undefined;
    this.#trialInFlight = false;
  }

  /** A call failed (error, timeout, bad answer); see suspensionFor for errors that suspend. */
  recordFailure(error: unknown, latencyMs: number, now: number, timedOut: boolean): void {
    const wasTrial = this.#trialInFlight;
    this.#trialInFlight = false;
    this.#updateErrorRate(1, now);
    this.#consecutiveFailures++;
    // A timeout says the source takes at least this long: keep it in the percentile window.
    if (timedOut) this.#pushSample(latencyMs);
    const suspension = suspensionFor(error, this.#policy);
    if (suspension !== undefined) {
      this.#openFor(now, suspension);
    } else if (wasTrial || this.#consecutiveFailures >= this.#policy.failureThreshold) {
      this.#openFor(now, this.#policy.coolDownMs);
    }
  }

  /**
   * The router cancelled a call (deadline, caller, or `lostRace`: another source had results first). Not
   * the source's fault, so no failure. A race loser is only known to be slower than `latencyMs`; if that
   * is above its latency EWMA the EWMA takes it, so a source that keeps losing races gets demoted. The
   * percentile window takes nothing: with the tail cut off at the hedge mark plus the winner's latency it
   * settles near the body's percentile, while recording losers at any value at or above the mark would
   * pin the percentile there once a few of them fill the window's top 5 %.
   */
  recordCancelled(latencyMs: number, lostRace: boolean, now: number): void {
    this.#trialInFlight = false;
    if (lostRace && this.#latency !== undefined && latencyMs > this.#latency) this.#updateLatency(latencyMs, now);
  }

  /** How long a call may run before the next source is asked too; undefined without enough history. */
  hedgeMark(): number | undefined {
    const mark = this.latencyPercentile(this.#policy.hedgePercentile);
    const median = this.latencyPercentile(0.5);
    return mark === undefined || median === undefined ? undefined : Math.min(mark, HEDGE_MEDIAN_CAP * median);
  }

  /** Recent latency at `percentile` (nearest rank), or undefined with too few samples. */
  latencyPercentile(percentile: number): number | undefined {
    if (this.#samples.length < HEDGE_MIN_SAMPLES) return undefined;
    const sorted = this.#sorted;
    const rank = Math.max(1, Math.ceil(percentile * sorted.length));
    return sorted[rank - 1];
  }

  /** Error-rate EWMA (share of failed calls), faded by its age. */
  errorRate(now: number): number {
    return this.#errorRate * fade(now - this.#errorRateAt);
  }

  /** Latency EWMA of answered calls; undefined before the first answer. */
  get latencyMs(): number | undefined {
    return this.#latency;
  }

  /** The latency EWMA faded toward `prior` by its age; `prior` itself before the first answer. */
  latencyEstimate(now: number, prior: number): number {
    if (this.#latency === undefined) return prior;
    return prior + (this.#latency - prior) * fade(now - this.#latencyAt);
  }

  /** Forget everything: the source was reconfigured. */
  reset(): void {
    this.#errorRate = 0;
    this.#latency = undefined;
    this.#samples = [];
    this.#sorted = [];
    this.#consecutiveFailures = 0;
    this.#openUntil = undefined;
    this.#trialInFlight = false;
  }

  snapshot(now: number): SourceHealth {
    const state = this.state(now);
    return {
      id: this.id,
      state,
      errorRate: round(this.errorRate(now), 4),
      latencyMs: Math.round(this.#latency ?? 0),
      consecutiveFailures: this.#consecutiveFailures,
      ...(state === 'open' && this.#openUntil !== undefined ? { suspendedUntil: new Date(this.#openUntil).toISOString() } : {}),
    };
  }

  #openFor(now: number, ms: number): void {
    // A longer suspension already in force (say, a 1 h auth suspension) is not shortened.
    const until = now + ms;
    this.#openUntil = this.#openUntil !== undefined && this.#openUntil > until ? this.#openUntil : until;
  }

  /**
   * Latency EWMA with outliers capped at 4× the current value: one tail call (a hedge's business) must not
   * reorder the sources, while a source that stays slow still climbs fast (×1.6 per call at most).
   */
  #updateLatency(latencyMs: number, now: number): void {
    const prev = this.#latency;
    this.#latency = prev === undefined ? latencyMs : ewma(prev, Math.min(latencyMs, Math.max(prev, 1) * OUTLIER_CAP));
    this.#latencyAt = now;
  }

  #updateErrorRate(value: 0 | 1, now: number): void {
    this.#errorRate = ewma(this.errorRate(now), value);
    this.#errorRateAt = now;
  }

  #pushSample(latencyMs: number): void {
    this.#samples.push(latencyMs);
    this.#sorted.splice(lowerBound(this.#sorted, latencyMs), 0, latencyMs);
    if (this.#samples.length > LATENCY_WINDOW) {
      const oldest = this.#samples.shift()!;
      this.#sorted.splice(lowerBound(this.#sorted, oldest), 1);
    }
  }
}

/** Index of the first element of `sorted` that is not below `value`. */
function lowerBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const ewma = (previous: number, value: number) => previous + EWMA_ALPHA * (value - previous);
const fade = (ageMs: number) => 0.5 ** (Math.max(0, ageMs) / HEALTH_HALF_LIFE_MS);
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
