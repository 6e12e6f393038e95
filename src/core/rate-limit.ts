// Per-organization rate limit: GCRA (one theoretical-arrival timestamp per organization, no refill
// timer). Equivalent to a token bucket of `limit` tokens refilled at limit/window per second. The
// in-process limiter here serves one process; the Redis one (src/adapters/redis/rate-limiter.ts)
// runs the same arithmetic in Lua so that many instances share one bucket.

import { RateLimitError, RateLimiterUnavailableError } from '../errors.js';
import type { RateDecision, RateLimiter, RateLimitPolicy } from '../ports/rate-limiter.js';

// Re-exported: the package root has always exported the policy type from here.
export type { RateDecision, RateLimiter, RateLimitPolicy } from '../ports/rate-limiter.js';

/** Contract default: 10 requests/s sustained, burst 20. */
export const DEFAULT_RATE_LIMIT: RateLimitPolicy = { limit: 20, window: 2 };

/** A validated copy of `policy`; throws a TypeError naming `what` for a bad one. */
export function checkRateLimitPolicy(policy: RateLimitPolicy, what = 'rateLimit'): RateLimitPolicy {
  if (!(Number.isInteger(policy?.limit) && policy.limit >= 1) || !(policy.window > 0 && Number.isFinite(policy.window))) {
    throw new TypeError(`${what}: limit must be an integer ≥ 1 and window a positive number of seconds`);
  }
  return { limit: policy.limit, window: policy.window };
}

/** Milliseconds of clock time per request. */
export const gcraInterval = (policy: RateLimitPolicy): number => (policy.window * 1000) / policy.limit;

/** Whole seconds until `allowAt`, at least 1 (the Retry-After header has no fractions or zero). */
export const retryAfterSeconds = (allowAt: number, now: number): number => Math.max(1, Math.ceil((allowAt - now) / 1000));

export class InProcessRateLimiter implements RateLimiter {
  readonly policy: RateLimitPolicy;
  readonly #interval: number;
  readonly #tat = new Map<string, number>();

  constructor(policy: RateLimitPolicy) {
    this.policy = checkRateLimitPolicy(policy);
    this.#interval = gcraInterval(this.policy);
  }

  async take(organization: string, now: number): Promise<RateDecision> {
    const tat = Math.max(this.#tat.get(organization) ?? now, now);
    const next = tat + this.#interval;
    const allowAt = next - this.policy.limit * this.#interval;
    if (now < allowAt) return { ok: false, retryAfter: retryAfterSeconds(allowAt, now) };
    this.#tat.set(organization, next);
    return { ok: true };
  }
}

/**
 * Admits one request of `organization` or throws: RateLimitError (429) on refusal,
 * RateLimiterUnavailableError (503) when the limiter could not decide (a shared limiter's store is down).
 */
export async function admit(limiter: RateLimiter, organization: string, now: number): Promise<void> {
  let decision: RateDecision;
  try {
    decision = await limiter.take(organization, now);
  } catch (cause) {
    throw new RateLimiterUnavailableError(cause);
  }
  if (!decision.ok)
    throw new RateLimitError({ retryAfter: decision.retryAfter, limit: limiter.policy.limit, window: limiter.policy.window });
}
