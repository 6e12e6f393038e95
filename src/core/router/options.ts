// Router options: the public shape, the defaults, and validation (bad options fail at construction
// with a message naming the option, never later inside a search).

import type { Clock, SearchSource } from '../../types/index.js';

export interface SourceAttemptEvent {
  source: string;
  outcome: 'results' | 'empty' | 'failed' | 'aborted';
  latencyMs: number;
  /** The attempt belongs to a hedge: a source asked early because the one before it was slow. */
  hedged: boolean;
  /** 1-based attempt number for this source within the search. */
  attempt: number;
  error?: unknown;
}

export interface BreakerOptions {
  /** Consecutive failed calls that open the breaker (default 5). */
  failureThreshold?: number;
  /** How long an opened breaker stays open before one trial call is let through (default 30 s). */
  coolDownMs?: number;
  /** How long an auth / quota / config failure suspends a source without a Retry-After (default 1 h). */
  suspendMs?: number;
}

/** Router tuning: `createEngine({ router })` takes these without `clock` (the engine's is used). */
export interface RouterOptions {
  /** The clock every router timer runs on (supplied by the engine). */
  clock: Clock;
  /** Source of jitter; seeded in tests. Default Math.random. */
  random?: () => number;
  /** Per call to a source (default 5000). */
  attemptTimeoutMs?: number;
  /** Extra attempts per source after a failure (default 2). */
  retries?: number;
  /** Base of the jittered exponential backoff (default 200). */
  backoffMs?: number;
  /** Whole-route deadline (default 15000). */
  deadlineMs?: number;
  /** Ask the next source too when the current one is slower than its recent p95 (default true). */
  hedging?: boolean;
  /** Latency percentile that triggers a hedge, in (0, 1] (default 0.95). */
  hedgePercentile?: number;
  /** Circuit breaker per source: failures before it opens, cool-down, suspension. */
  breaker?: BreakerOptions;
  /** Told of every call to a source (id, outcome, latency, attempt, hedged), for logs and metrics; its exceptions are ignored. */
  onSourceAttempt?: (event: SourceAttemptEvent) => void;
}

export interface ResolvedRouterOptions {
  clock: Clock;
  random: () => number;
  attemptTimeoutMs: number;
  retries: number;
  backoffMs: number;
  deadlineMs: number;
  hedging: boolean;
  hedgePercentile: number;
  failureThreshold: number;
  coolDownMs: number;
  suspendMs: number;
  onSourceAttempt: ((event: SourceAttemptEvent) => void) | undefined;
}

export const ROUTER_DEFAULTS = {
  attemptTimeoutMs: 5_000,
  retries: 2,
  backoffMs: 200,
  deadlineMs: 15_000,
  hedging: true,
  hedgePercentile: 0.95,
  failureThreshold: 5,
  coolDownMs: 30_000,
  suspendMs: 3_600_000,
} as const;

function number(name: string, value: unknown, fallback: number, check: (n: number) => boolean, rule: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || !check(value)) {
    throw new RangeError(`createRouter: ${name} must be ${rule} (got ${String(value)})`);
  }
  return value;
}

const positive = (n: number) => n > 0;
const nonNegative = (n: number) => n >= 0;

export function resolveRouterOptions(sources: unknown, options: RouterOptions): ResolvedRouterOptions {
  if (!Array.isArray(sources)) throw new TypeError('createRouter: sources must be an array of SearchSource');
  const ids = new Set<string>();
  sources.forEach((s: Partial<SearchSource> | null, i) => {
    if (!s || typeof s.id !== 'string' || s.id === '' || typeof s.search !== 'function') {
      throw new TypeError(`createRouter: sources[${i}] must have a non-empty string id and a search() method`);
    }
    if (ids.has(s.id)) throw new TypeError(`createRouter: duplicate source id "${s.id}"`);
    ids.add(s.id);
  });
  if (!options || typeof options !== 'object') throw new TypeError('createRouter: options with a clock are required');
  const { clock } = options;
  if (!clock || typeof clock.now !== 'function' || typeof clock.sleep !== 'function') {
    throw new TypeError('createRouter: options.clock must implement now() and sleep()');
  }
  if (options.random !== undefined && typeof options.random !== 'function') {
    throw new TypeError('createRouter: options.random must be a function returning [0, 1)');
  }
  if (options.onSourceAttempt !== undefined && typeof options.onSourceAttempt !== 'function') {
    throw new TypeError('createRouter: options.onSourceAttempt must be a function');
  }
  const b = options.breaker ?? {};
  const d = ROUTER_DEFAULTS;
  return {
    clock,
    random: options.random ?? Math.random,
    attemptTimeoutMs: number('attemptTimeoutMs', options.attemptTimeoutMs, d.attemptTimeoutMs, positive, 'a positive number'),
    retries: number('retries', options.retries, d.retries, (n) => n >= 0 && Number.isInteger(n), 'a non-negative integer'),
    backoffMs: number('backoffMs', options.backoffMs, d.backoffMs, nonNegative, 'a non-negative number'),
    deadlineMs: number('deadlineMs', options.deadlineMs, d.deadlineMs, positive, 'a positive number'),
    hedging: options.hedging ?? d.hedging,
    hedgePercentile: number('hedgePercentile', options.hedgePercentile, d.hedgePercentile, (n) => n > 0 && n <= 1, 'in (0, 1]'),
    failureThreshold: number(
      'breaker.failureThreshold',
      b.failureThreshold,
      d.failureThreshold,
      (n) => n >= 1 && Number.isInteger(n),
      'an integer of at least 1',
    ),
    coolDownMs: number('breaker.coolDownMs', b.coolDownMs, d.coolDownMs, nonNegative, 'a non-negative number'),
    suspendMs: number('breaker.suspendMs', b.suspendMs, d.suspendMs, nonNegative, 'a non-negative number'),
    onSourceAttempt: options.onSourceAttempt,
  };
}
