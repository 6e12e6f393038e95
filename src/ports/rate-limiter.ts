// The RateLimiter port: admits or refuses one request of an organization under a GCRA policy. The
// in-process limiter (src/core/rate-limit.ts) serves one process; a shared one (Redis) makes N
// instances together admit exactly the policy. Time comes from the caller (the engine's Clock).

export interface RateLimitPolicy {
  /** Burst: requests admitted at once from a full bucket. */
  limit: number;
  /** Seconds to refill the whole bucket (sustained rate: limit / window per second). */
  window: number;
}

export type RateDecision = { ok: true } | { ok: false /** Seconds until one request would be admitted (≥ 1). */; retryAfter: number };

export interface RateLimiter {
  readonly policy: RateLimitPolicy;
  /** Takes one request of `organization` at clock time `now` (ms) if the policy admits it. */
  take(organization: string, now: number): Promise<RateDecision>;
  close?(): Promise<void>;
}
