// redisRateLimiter: the RateLimiter port on Redis. Every instance runs the same GCRA script (one
// atomic EVALSHA per take; ioredis falls back to EVAL on NOSCRIPT), so N instances together admit
// exactly the policy. One key per organization, `<prefix>rate:<organization>`, expiring when the
// organization's bucket is full again.

import { checkRateLimitPolicy, gcraInterval, retryAfterSeconds } from '../../core/rate-limit.js';
import type { RateDecision, RateLimiter, RateLimitPolicy } from '../../ports/rate-limiter.js';
import { type RedisClientLike, RedisConnection, type RedisConnectionOptions } from './client.js';
import { GCRA_COMMAND, GCRA_LUA } from './gcra-script.js';

export interface RedisRateLimiterOptions extends RedisConnectionOptions {
  /**
   * Whose clock: 'caller' (default) uses the `now` the engine passes (its Clock, like every other time
   * rule, and what tests drive); instances on different machines then need synchronized clocks (NTP:
   * a skew of d ms lets about d × limit/window/1000 extra requests through). 'redis' reads Redis's
   * TIME in the script instead, one clock for all; `now` is then ignored.
   */
  time?: 'caller' | 'redis';
  /**
   * When Redis can't answer (down, slow past commandTimeoutMs): 'refuse' (default) rejects the take,
   * which the engine answers with 503 rate_limiter_unavailable; 'admit' lets the request through
   * unlimited (the ledger still bounds spending), reporting the error to onError.
   */
  whenUnavailable?: 'refuse' | 'admit';
}

type GcraClient = RedisClientLike &
  Record<typeof GCRA_COMMAND, (key: string, now: string, interval: string, limit: string) => Promise<[number, string?]>>;

const defined = new WeakSet<RedisClientLike>();

/** The organization's GCRA key (one place: the search scripts take the same limit). */
export const rateKey = (prefix: string, organization: string) => `${prefix}rate:${organization}`;

/** The GCRA script's reply as a decision: `[1]` admitted, `[0, ms until admitted]` refused. */
export function rateDecision(reply: [number, string?]): RateDecision {
  if (reply[0] === 1) return { ok: true };
  return { ok: false, retryAfter: retryAfterSeconds(Number(reply[1]), 0) };
}

/**
 * The per-organization rate limit (GCRA) on Redis: N instances together admit exactly `policy`. Pass it
 * as `createEngine({ rateLimiter })` (not together with `rateLimit`). When Redis can't answer, a take
 * rejects and the engine answers 503 `rate_limiter_unavailable` (retryable), unless
 * `whenUnavailable: 'admit'`.
 * Needs the optional peer `ioredis` (`npm install ioredis`), loaded on first use; give `url` or your own `client`.
 * @param policy `{ limit, window }`: burst `limit`, refilled over `window` seconds.
 * @throws {TypeError} at creation unless exactly one of `url` and `client` is given, or for a bad option (RangeError for numbers out of range).
 * @throws {RangeError} at creation for a policy that is not positive numbers.
 */
export function redisRateLimiter(policy: RateLimitPolicy, options: RedisRateLimiterOptions): RateLimiter {
  const checked = checkRateLimitPolicy(policy, 'redisRateLimiter');
  const connection = new RedisConnection(options, 'redisRateLimiter');
  if (options.time !== undefined && options.time !== 'caller' && options.time !== 'redis')
    throw new TypeError("redisRateLimiter: time must be 'caller' or 'redis'");
  const fallback = options.whenUnavailable ?? 'refuse';
  if (fallback !== 'refuse' && fallback !== 'admit') throw new TypeError("redisRateLimiter: whenUnavailable must be 'refuse' or 'admit'");
  const interval = String(gcraInterval(checked));
  const limit = String(checked.limit);
  const redisTime = options.time === 'redis';

  async function script(): Promise<GcraClient> {
    const client = await connection.client();
    if (!defined.has(client)) {
      client.defineCommand(GCRA_COMMAND, { numberOfKeys: 1, lua: GCRA_LUA });
      defined.add(client);
    }
    return client as GcraClient;
  }

  return {
    policy: checked,
    async take(organization, now): Promise<RateDecision> {
      let reply: [number, string?];
      try {
        const at = redisTime ? '' : String(now);
        reply = await (await script())[GCRA_COMMAND](rateKey(connection.prefix, organization), at, interval, limit);
      } catch (error) {
        if (fallback === 'refuse') throw error;
        connection.onError(error);
        return { ok: true };
      }
      return rateDecision(reply);
    },
    close: () => connection.close(),
  };
}
