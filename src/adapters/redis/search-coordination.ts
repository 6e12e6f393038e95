// The SearchCoordination port on Redis: a charged search's coordination in two round trips instead of
// six. Entering (one script): the rate limit's GCRA take, the repeat-window read, and, when there is no
// window (or its search still holds the lock), the flight lock and the confirmed-empty read. A charged
// search writes its window (one SET) before its settlement, so a charge never lands without it. Leaving
// (one script): the window's withdrawal when the charge did not happen, and the lock's release. Same keys, values and rules as redisRateLimiter, redisFlights and redisCacheStore,
// which keep serving every other path (a flight this process already runs, a lock held elsewhere, a
// window the Clock says is over, extract): both kinds of call interoperate.
//
// Redis down on entering: with a rate limit, 503 rate_limiter_unavailable (nothing charged), as
// redisRateLimiter refuses; without one, the search runs uncoordinated (the ports then miss). Redis gone
// before the window write: 503, nothing charged (a charge without its window would make the repeat pay).
// Redis gone after it: the answer is still delivered and the lease frees the lock.

import { randomUUID } from 'node:crypto';
import { gcraInterval } from '../../core/rate-limit.js';
import { RateLimitError, RateLimiterUnavailableError } from '../../errors.js';
import type { RateLimitPolicy } from '../../ports/rate-limiter.js';
import type { SearchCoordination, SearchEntry, SearchEntryRequest } from '../../ports/search-coordination.js';
import { cacheKey, cachePx, cacheText, cacheValue } from './cache-store.js';
import { type RedisClientLike, RedisConnection, type RedisConnectionOptions } from './client.js';
import type { RedisFlights } from './flights.js';
import { rateDecision, rateKey } from './rate-limiter.js';
import { ENTER_COMMAND, ENTER_LUA, LEAVE_COMMAND, LEAVE_LUA } from './search-scripts.js';

export interface RedisSearchCoordinationOptions extends RedisConnectionOptions {
  /** The flights whose queue, locks and hold this shares. */
  flights: RedisFlights;
  /** The rate limit (the GCRA key under `prefix`), or undefined for none. */
  policy: RateLimitPolicy | undefined;
  /** Prefixes of the repeat-window and confirmed-empty cache stores (their keys are read and written as theirs). */
  windowsPrefix: string;
  emptiesPrefix: string;
}

type EnterReply = [0, string] | [1, 'window', string] | [1, 'busy'] | [1, 'held', string?];
type ScriptClient = RedisClientLike &
  Record<typeof ENTER_COMMAND, (...args: string[]) => Promise<EnterReply>> &
  Record<typeof LEAVE_COMMAND, (...args: string[]) => Promise<number>>;
const defined = new WeakSet<RedisClientLike>();

export function redisSearchCoordination(options: RedisSearchCoordinationOptions): SearchCoordination {
  const { flights, policy } = options;
  // Not auto-pipelined (ioredis's enableAutoPipelining): at 32 searches in flight it cost more CPU than
  // the write syscalls it saves (docs/benchmarks.md "Issue 33, c32").
  const connection = new RedisConnection(options, 'redisSearchCoordination');
  const interval = policy ? String(gcraInterval(policy)) : '';
  const limit = policy ? String(policy.limit) : '';

  /** The client once its scripts are defined: three calls per search skip an async hop each. */
  let ready: ScriptClient | undefined;
  async function connect(): Promise<ScriptClient> {
    const client = await connection.client();
    if (!defined.has(client)) {
      client.defineCommand(ENTER_COMMAND, { numberOfKeys: 4, lua: ENTER_LUA });
      client.defineCommand(LEAVE_COMMAND, { numberOfKeys: 2, lua: LEAVE_LUA });
      defined.add(client);
    }
    return (ready = client as ScriptClient);
  }

  async function enter<T>(request: SearchEntryRequest, task: (entry: SearchEntry) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const { flightKey } = request;
    const lock = flights.lockOf(flightKey);
    const token = randomUUID();
    const windowKey = cacheKey(options.windowsPrefix, request.windowKey);
    let reply: EnterReply;
    try {
      reply = await (ready ?? (await connect()))[ENTER_COMMAND](
        rateKey(connection.prefix, request.organization),
        windowKey,
        lock,
        cacheKey(options.emptiesPrefix, request.emptyKey),
        String(request.now),
        interval,
        limit,
        policy ? '1' : '0',
        token,
        String(flights.leaseMs),
      );
    } catch (error) {
      if (policy) throw new RateLimiterUnavailableError(error);
      connection.onError(error); // no limit to keep: run as a single instance would
      return task({ kind: 'plain' });
    }
    if (reply[0] === 0) {
      const decision = rateDecision(reply);
      throw new RateLimitError({ retryAfter: decision.ok ? 1 : decision.retryAfter, limit: policy!.limit, window: policy!.window });
    }
    const plain = () => flights.across(flightKey, () => task({ kind: 'plain' }), signal);
    if (reply[1] === 'window') {
      const window = cacheValue(reply[2], connection.onError);
      // Present but over by the Clock (or unreadable): a miss, which needs the lock like any other.
      return window !== undefined && request.fresh(window) ? task({ kind: 'window', window }) : plain();
    }
    if (reply[1] === 'busy') return plain();
    let withdrawn = false;
    const entry: SearchEntry = {
      kind: 'held',
      empty: cacheValue(reply[2], connection.onError),
      async open(window, ttlMs) {
        const client = ready ?? (await connect());
        const text = cacheText(window);
        // Too large to share: no window (a repeat on any instance pays), and an older one must not answer.
        if (text === undefined) await client.del(windowKey);
        else await client.set(windowKey, text, 'PX', cachePx(ttlMs));
      },
      withdraw() {
        withdrawn = true;
      },
    };
    return flights.holding(
      lock,
      token,
      () => task(entry),
      () => leave(lock, token, windowKey, withdrawn),
    );
  }

  async function leave(lock: string, token: string, windowKey: string, withdrawn: boolean): Promise<void> {
    await (ready ?? (await connect()))[LEAVE_COMMAND](lock, windowKey, token, flights.channel, withdrawn ? 'del' : '', '', '');
  }

  return {
    start(request, task, signal) {
      // A flight of this key already runs here: the caller queues behind it (its window is then known).
      if (flights.local.has(request.flightKey)) return undefined;
      return flights.local.run(request.flightKey, () => enter(request, task, signal), signal);
    },
    close() {
      ready = undefined; // later calls fail as the closed connection's do
      return connection.close();
    },
  };
}
