// redisFlights: the Flights port across instances. Identical requests of one organization queue in
// this process first (SingleFlight, no Redis traffic); the one at the head then takes a Redis lock
// `<prefix>flight:<sha256 of the key>` (SET NX PX leaseMs, value: a random token). An instance that
// finds it taken waits for its release, announced on `<prefix>flight-released`, and re-checks every
// pollMs of the Clock in case the announcement was missed (or the holder died: the lease expires).
// The release deletes the lock only if it still holds our token (one Lua script, with the announcement).
// The holder renews the lock every leaseMs / 3 while its task runs, so the lease can be short: a holder
// that dies (SIGKILL) stops renewing and its waiters go on within leaseMs, however long requests run.
//
// Waiting is an optimization: Redis down, the task runs at once (per-process single flight only). A
// first connection still being made is not down: the lock waits for it (as a repeat window's required read
// does), or a fresh instance's repeat would run beside the charged call and pay before its window exists.

import { createHash, randomUUID } from 'node:crypto';
import { systemClock } from '../../adapters/system-clock.js';
import { SingleFlight } from '../../core/single-flight.js';
import type { Flights } from '../../ports/flights.js';
import { untilAborted } from '../../signals.js';
import type { Clock } from '../../types/index.js';
import { type RedisClientLike, RedisConnection, type RedisConnectionOptions } from './client.js';
import { type Subscription, subscribeChannel } from './subscription.js';

export interface RedisFlightsOptions extends RedisConnectionOptions {
  /** Paces the re-checks while waiting (default: the system clock); pass the engine's. */
  clock?: Clock;
  /**
   * Lock lifetime without renewal (default 5 s): how long waiters wait for a holder that died. A live
   * holder renews it every leaseMs / 3, however long its request runs.
   */
  leaseMs?: number;
  /** Re-check interval of a waiter (default 250 ms of the Clock), for missed announcements. */
  pollMs?: number;
  /**
   * How long taking a lock waits for a first connection still in progress before the task runs without
   * it; default 10 × `commandTimeoutMs` (5 s), as `redisCacheStore`'s.
   */
  firstConnectWaitMs?: number;
}

/** Releases the lock KEYS[1] if it holds token ARGV[1], announcing it on ARGV[2]; the search's leave script ends with it. */
export const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], KEYS[1])
  return 1
end
return 0
`;
const RELEASE_COMMAND = 'websiftFlightReleaseV1';
const RENEW_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;
const RENEW_COMMAND = 'websiftFlightRenewV1';
type ReleaseClient = RedisClientLike &
  Record<typeof RELEASE_COMMAND, (lock: string, token: string, channel: string) => Promise<number>> &
  Record<typeof RENEW_COMMAND, (lock: string, token: string, ms: number) => Promise<number>>;
const defined = new WeakSet<RedisClientLike>();

/** What the search scripts (search-coordination.ts) share with the flights: the queue, the lock, the hold. */
export interface RedisFlights extends Flights {
  /** This process's queue of identical requests (taken before any Redis lock). */
  readonly local: SingleFlight;
  /** The Redis lock of a flight key. */
  lockOf(key: string): string;
  /** The channel a release is announced on. */
  readonly channel: string;
  /** Lock lifetime without renewal. */
  readonly leaseMs: number;
  /** Waits for the lock of `key` across instances and runs `task` holding it (no local queueing: the caller is in it). */
  across<T>(key: string, task: () => Promise<T>, signal: AbortSignal | undefined): Promise<T>;
  /** Runs `task` holding `lock` (renewed meanwhile), then awaits `finish` (which must release it; its failure is told to onError). */
  holding<T>(lock: string, token: string, task: () => Promise<T>, finish: (lock: string, token: string) => Promise<unknown>): Promise<T>;
}

/**
 * Single flight across instances: identical requests of one organization wait for each other through
 * Redis (a lease plus an announcement), so a repeat is answered free from the first one's window instead
 * of being charged twice. Pass it as `createEngine({ flights })`; not closed by the engine. When Redis is
 * unreachable, calls proceed without waiting (per-process single flight still applies).
 * Needs the optional peer `ioredis` (`npm install ioredis`), loaded on first use; give `url` or your own `client`.
 * @throws {TypeError} at creation unless exactly one of `url` and `client` is given, or for a bad option (RangeError for numbers out of range).
 */
export function redisFlights(options: RedisFlightsOptions): Flights {
  return createRedisFlights(options);
}

/** redisFlights, with what the search scripts share (search-coordination.ts). */
export function createRedisFlights(options: RedisFlightsOptions): RedisFlights {
  const connection = new RedisConnection(options, 'redisFlights');
  const clock = options.clock ?? systemClock;
  const leaseMs = options.leaseMs ?? 5_000;
  const pollMs = options.pollMs ?? 250;
  if (!(Number.isSafeInteger(leaseMs) && leaseMs > 0)) throw new RangeError('redisFlights: leaseMs must be a positive integer');
  if (!(Number.isFinite(pollMs) && pollMs > 0)) throw new RangeError('redisFlights: pollMs must be positive');
  const firstWaitMs = options.firstConnectWaitMs ?? 10 * connection.timeoutMs;
  if (!(Number.isFinite(firstWaitMs) && firstWaitMs >= 0)) throw new RangeError('redisFlights: firstConnectWaitMs must be a number ≥ 0');
  const channel = `${connection.prefix}flight-released`;
  const local = new SingleFlight();
  /** Lock name → wake-up calls of this process's waiters. */
  const waiters = new Map<string, Set<() => void>>();
  let subscription: Subscription | undefined;

  const subscribed = () =>
    (subscription ??= subscribeChannel(connection, channel, {
      message: (lock) => waiters.get(lock)?.forEach((wake) => wake()),
      subscribed: () => waiters.forEach((wakes) => wakes.forEach((wake) => wake())), // may have missed some
    }));

  async function tryLock(lock: string, token: string): Promise<boolean> {
    const client = await connection.client();
    await connection.firstReady(client, firstWaitMs); // at once unless a first connection is in progress
    return (await client.set(lock, token, 'PX', leaseMs, 'NX')) === 'OK';
  }

  /** Resolves on the lock's release announcement or after pollMs; the caller then tries again. */
  async function nextChance(lock: string, token: string, signal: AbortSignal | undefined): Promise<boolean> {
    const sub = subscribed();
    if (!sub.live) await Promise.race([sub.ready, realTime(connection.timeoutMs)]).catch(() => {});
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const wakes = waiters.get(lock) ?? new Set();
    waiters.set(lock, wakes.add(wake));
    const pause = new AbortController();
    try {
      // Registered and subscribed: a release from now on wakes us; one just before, this try sees.
      if (await tryLock(lock, token)) return true;
      const paced = clock.sleep(pollMs, pause.signal).catch(() => {});
      await untilAborted(Promise.race([woken, paced]), signal);
      return false;
    } finally {
      pause.abort();
      wakes.delete(wake);
      if (wakes.size === 0) waiters.delete(lock);
    }
  }

  const lockOf = (key: string) => `${connection.prefix}flight:${createHash('sha256').update(key).digest('hex')}`;

  async function acrossInstances<T>(key: string, task: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const lock = lockOf(key);
    const token = randomUUID();
    try {
      let held = await tryLock(lock, token);
      while (!held) {
        signal?.throwIfAborted();
        held = await nextChance(lock, token, signal);
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      connection.onError(error); // can't coordinate: run now, as a single instance would
      return task();
    }
    // The release is not awaited: the answer need not wait for it (failed, the lease frees the lock).
    return holding(lock, token, task, async (l, t) => void release(l, t).catch(connection.onError));
  }

  async function holding<T>(
    lock: string,
    token: string,
    task: () => Promise<T>,
    finish: (lock: string, token: string) => Promise<unknown>,
  ): Promise<T> {
    // Renewal is a real-time matter (Redis expires the lock in real time), not a Clock rule.
    const renewal = setInterval(
      () => {
        scripts()
          .then((client) => client[RENEW_COMMAND](lock, token, leaseMs))
          .catch(connection.onError);
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    renewal.unref();
    try {
      return await task();
    } finally {
      clearInterval(renewal);
      await finish(lock, token).catch(connection.onError); // failed: the lease frees it
    }
  }

  async function scripts(): Promise<ReleaseClient> {
    const client = await connection.client();
    if (!defined.has(client)) {
      client.defineCommand(RELEASE_COMMAND, { numberOfKeys: 1, lua: RELEASE_LUA });
      client.defineCommand(RENEW_COMMAND, { numberOfKeys: 1, lua: RENEW_LUA });
      defined.add(client);
    }
    return client as ReleaseClient;
  }

  async function release(lock: string, token: string): Promise<void> {
    await (await scripts())[RELEASE_COMMAND](lock, token, channel);
  }

  return {
    local,
    lockOf,
    channel,
    leaseMs,
    across: acrossInstances,
    holding,
    run: (key, task, signal) => local.run(key, () => acrossInstances(key, task, signal), signal),
    async close() {
      await subscription?.close();
      await connection.close();
    },
  };
}

/** A bound in real time on a network wait (not a Clock rule); never keeps the process alive. */
function realTime(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
