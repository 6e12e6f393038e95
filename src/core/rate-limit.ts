// Per-organization rate limit: GCRA (one theoretical-arrival timestamp per organization, no refill
// timer), read from the injected Clock. Equivalent to a token bucket of `limit` tokens refilled at
// limit/window per second.

import { RateLimitError } from '../errors.js';
import type { Clock } from '../types.js';

export interface RateLimitPolicy {
  /** Burst: requests admitted at once from a full bucket. */
  limit: number;
  /** Seconds to refill the whole bucket (sustained rate: limit / window per second). */
  window: number;
}

/** Contract default: 10 requests/s sustained, burst 20. */
export const DEFAULT_RATE_LIMIT: RateLimitPolicy = { limit: 20, window: 2 };

export class RateLimiter {
  readonly policy: RateLimitPolicy;
  readonly #clock: Clock;
  /** Milliseconds of clock time per request. */
  readonly #interval: number;
  readonly #tat = new Map<string, number>();

  constructor(policy: RateLimitPolicy, clock: Clock) {
    if (!(Number.isInteger(policy.limit) && policy.limit >= 1) || !(policy.window > 0 && Number.isFinite(policy.window))) {
      throw new TypeError('rateLimit: limit must be an integer ≥ 1 and window a positive number of seconds');
    }
    this.policy = { limit: policy.limit, window: policy.window };
    this.#clock = clock;
    this.#interval = (policy.window * 1000) / policy.limit;
  }

  /** Admits one request of `organization` or throws RateLimitError. */
  take(organization: string): void {
    const now = this.#clock.now();
    const tat = Math.max(this.#tat.get(organization) ?? now, now);
    const next = tat + this.#interval;
    const allowAt = next - this.policy.limit * this.#interval;
    if (now < allowAt) {
      const retryAfter = Math.max(1, Math.ceil((allowAt - now) / 1000));
      throw new RateLimitError({ retryAfter, limit: this.policy.limit, window: this.policy.window });
    }
    this.#tat.set(organization, next);
  }
}
