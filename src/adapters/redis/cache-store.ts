// redisCacheStore: the CacheStore port on Redis, shared by every instance (repeat windows, confirmed
// empties, the extract page cache). One string key per entry, `<prefix>cache:<key>` holding the
// value's JSON, always with a PX expiry from the core's ttl hint (capped), and values bounded in bytes.
//
// Redis trouble degrades, never fails a request: a get that errors or times out is a miss, a set or
// delete that fails is dropped (each reported to onError). A miss costs a charge or a source call
// the cache would have saved; failing the request instead would cost the answer. One exception, a
// `required` read or write (a repeat window: read before a charge, written before it): failed while the
// connection is up (a timeout, an error reply) it is tried once more, then rejected, so the call is
// refused instead of charging a free repeat or charging without its window (docs/redis.md, "Redis
// down"); a first connection still in progress is waited for. With Redis known down (the client was
// connected and is not, or its first attempt failed) it degrades as any read or write: no one can
// read the window during the outage anyway.

import type { CacheStore } from '../../ports/cache.js';
import { type RedisClientLike, RedisConnection, type RedisConnectionOptions } from './client.js';

export interface RedisCacheStoreOptions extends RedisConnectionOptions {
  /** Values whose JSON is larger are not stored (and the key's older value is deleted); default 1 MiB. */
  maxValueBytes?: number;
  /** Upper bound of every key's expiry, whatever the hint (default 1 hour; the core hints ≤ 15 minutes). */
  maxTtlMs?: number;
  /**
   * How long a required read or write (a repeat window) waits for a first connection still in progress
   * before it is refused; default 10 × `commandTimeoutMs` (5 s).
   */
  firstConnectWaitMs?: number;
}

const DEFAULT_MAX_VALUE_BYTES = 1024 * 1024;
const DEFAULT_MAX_TTL_MS = 60 * 60 * 1000;
const FIRST_CONNECT_WAIT_FACTOR = 10;

/** The Redis key of a cache entry (one place: the search scripts read and write the same entries). */
export const cacheKey = (prefix: string, key: string) => `${prefix}cache:${key}`;

/** Whole milliseconds in [1, maxTtl]: PX takes integers, and a key without expiry is never written. */
export const cachePx = (ttlMs: number, maxTtl = DEFAULT_MAX_TTL_MS) =>
  Number.isFinite(ttlMs) ? Math.min(maxTtl, Math.max(1, Math.ceil(ttlMs))) : maxTtl;

/** A value's stored text, or undefined when it is too large to share (then the key's older value must go). */
export function cacheText(value: unknown, maxBytes = DEFAULT_MAX_VALUE_BYTES): string | undefined {
  const text = JSON.stringify(value);
  return text === undefined || Buffer.byteLength(text) > maxBytes ? undefined : text;
}

/** A stored text as a value; not JSON (another writer under our prefix) is a miss, told to onError. */
export function cacheValue<V>(text: string | null | undefined, onError: (error: unknown) => void): V | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(text) as V;
  } catch (error) {
    onError(error);
    return undefined;
  }
}

/**
 * A `CacheStore` on Redis, shared by every instance: pass it as `createEngine({ caches: { repeats,
 * confirmedEmpty, pages } })` (one prefix each), or set `redis` on createEngine to get all of them.
 * Redis trouble never fails a request: a failed read is a miss, a failed write is dropped (both told to
 * `onError`); but a `required` read or write (a repeat window) failed while Redis is up is tried once
 * more, then rejected (the engine refuses the call: 503, nothing charged).
 * Needs the optional peer `ioredis` (`npm install ioredis`), loaded on first use; give `url` or your own `client`.
 * @throws {TypeError} at creation unless exactly one of `url` and `client` is given, or for a bad option (RangeError for numbers out of range).
 * @throws {RangeError} at creation for `maxValueBytes`/`maxTtlMs`/`firstConnectWaitMs` out of range.
 */
export function redisCacheStore<V>(options: RedisCacheStoreOptions): CacheStore<V> {
  const connection = new RedisConnection(options, 'redisCacheStore');
  const maxBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
  const maxTtl = options.maxTtlMs ?? DEFAULT_MAX_TTL_MS;
  if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) throw new RangeError('redisCacheStore: maxValueBytes must be a positive integer');
  if (!(Number.isFinite(maxTtl) && maxTtl >= 1)) throw new RangeError('redisCacheStore: maxTtlMs must be at least 1');
  const wait = options.firstConnectWaitMs;
  if (wait !== undefined && !(Number.isFinite(wait) && wait >= 0))
    throw new RangeError('redisCacheStore: firstConnectWaitMs must be a number ≥ 0');
  const keyOf = (key: string) => cacheKey(connection.prefix, key);
  const pxOf = (ttlMs: number) => cachePx(ttlMs, maxTtl);
  const absorb = (error: unknown) => connection.onError(error);
  // A required read or write on a client still making its first connection waits for it (a fresh
  // instance is not an outage), at most this long; a failed first attempt is an outage.
  const firstWaitMs = options.firstConnectWaitMs ?? FIRST_CONNECT_WAIT_FACTOR * connection.timeoutMs;
  async function live(wait: boolean | undefined): Promise<RedisClientLike> {
    const client = await connection.client();
    if (wait) await connection.firstReady(client, firstWaitMs);
    return client;
  }
  /**
   * Redis known down: a client that is not connected (ioredis refuses commands at once without an
   * offline queue; a connection lost under a command leaves it reconnecting), unless it is still making
   * its first connection (then a required call is refused, not degraded). A closed adapter (no client)
   * is not an outage: its required calls reject.
   */
  const down = (client: RedisClientLike | undefined) =>
    client !== undefined && client.status !== 'ready' && !connection.firstConnecting(client);

  async function remove(key: string): Promise<void> {
    try {
      await (await connection.client()).del(keyOf(key));
    } catch (error) {
      absorb(error);
    }
  }

  return {
    async get(key, options) {
      let client: RedisClientLike | undefined;
      const read = async (wait = options?.required) => {
        client = await live(wait);
        return client.get(keyOf(key));
      };
      let text: string | null;
      try {
        text = await read();
      } catch (error) {
        absorb(error);
        if (!options?.required || down(client)) return undefined;
        try {
          text = await read(false); // once more, as a required write: one timeout under load need not cost the call
        } catch (again) {
          absorb(again);
          if (down(client)) return undefined;
          throw again; // Redis is up: a miss here would charge a repeat that may be free
        }
      }
      return cacheValue<V>(text, absorb);
    },
    async set(key, value, ttlMs, options) {
      const text = cacheText(value, maxBytes);
      // Too large to share: skipped, and the older value goes so a get never answers a stale one.
      if (text === undefined) return remove(key);
      let client: RedisClientLike | undefined;
      const write = async (wait = options?.required) => {
        client = await live(wait);
        await client.set(keyOf(key), text, 'PX', pxOf(ttlMs));
      };
      try {
        await write();
        return;
      } catch (error) {
        absorb(error);
        if (!options?.required || down(client)) return;
      }
      try {
        await write(false); // once more: one timeout under load need not cost the answer
      } catch (error) {
        absorb(error);
        if (down(client)) return;
        // A late SET (a timeout is not a refusal) must not leave a free window for a refused charge:
        // the delete follows it on the same connection, so Redis runs it after.
        void remove(key);
        throw error;
      }
    },
    delete: remove,
    close: () => connection.close(),
  };
}
