// redisCacheStore: the CacheStore port on Redis, shared by every instance (repeat windows, confirmed
// empties, the extract page cache). One string key per entry, `<prefix>cache:<key>` holding the
// value's JSON, always with a PX expiry from the core's ttl hint (capped), and values bounded in bytes.
//
// Redis trouble degrades, never fails a request: a get that errors or times out is a miss, a set or
// delete that fails is dropped (each reported to onError). A miss costs a charge or a source call
// the cache would have saved; failing the request instead would cost the answer.

import type { CacheStore } from '../../ports/cache.js';
import { RedisConnection, type RedisConnectionOptions } from './client.js';

export interface RedisCacheStoreOptions extends RedisConnectionOptions {
  /** Values whose JSON is larger are not stored (and the key's older value is deleted); default 1 MiB. */
  maxValueBytes?: number;
  /** Upper bound of every key's expiry, whatever the hint (default 1 hour; the core hints ≤ 15 minutes). */
  maxTtlMs?: number;
}

const DEFAULT_MAX_VALUE_BYTES = 1024 * 1024;
const DEFAULT_MAX_TTL_MS = 60 * 60 * 1000;

/**
 * A `CacheStore` on Redis, shared by every instance: pass it as `createEngine({ caches: { repeats,
 * confirmedEmpty, pages } })` (one prefix each), or set `redis` on createEngine to get all of them.
 * Redis trouble never fails a request: a failed read is a miss, a failed write is dropped (both told to
 * `onError`).
 * Needs the optional peer `ioredis` (`npm install ioredis`), loaded on first use; give `url` or your own `client`.
 * @throws {TypeError} at creation unless exactly one of `url` and `client` is given, or for a bad option (RangeError for numbers out of range).
 * @throws {RangeError} at creation for `maxValueBytes`/`maxTtlMs` out of range.
 */
export function redisCacheStore<V>(options: RedisCacheStoreOptions): CacheStore<V> {
  const connection = new RedisConnection(options, 'redisCacheStore');
  const maxBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
  const maxTtl = options.maxTtlMs ?? DEFAULT_MAX_TTL_MS;
  if (!(Number.isSafeInteger(maxBytes) && maxBytes > 0)) throw new RangeError('redisCacheStore: maxValueBytes must be a positive integer');
  if (!(Number.isFinite(maxTtl) && maxTtl >= 1)) throw new RangeError('redisCacheStore: maxTtlMs must be at least 1');
  const keyOf = (key: string) => `${connection.prefix}cache:${key}`;
  /** Whole milliseconds in [1, maxTtl]: PX takes integers, and a key without expiry is never written. */
  const pxOf = (ttlMs: number) => (Number.isFinite(ttlMs) ? Math.min(maxTtl, Math.max(1, Math.ceil(ttlMs))) : maxTtl);
  const absorb = (error: unknown) => connection.onError(error);

  async function remove(key: string): Promise<void> {
    try {
      await (await connection.client()).del(keyOf(key));
    } catch (error) {
      absorb(error);
    }
  }

  return {
    async get(key) {
      let text: string | null;
      try {
        text = await (await connection.client()).get(keyOf(key));
      } catch (error) {
        absorb(error);
        return undefined;
      }
      if (text === null) return undefined;
      try {
        return JSON.parse(text) as V;
      } catch (error) {
        absorb(error); // not ours (another writer under our prefix): a miss
        return undefined;
      }
    },
    async set(key, value, ttlMs) {
      const text = JSON.stringify(value);
      // Too large to share: skipped, and the older value goes so a get never answers a stale one.
      if (text === undefined || Buffer.byteLength(text) > maxBytes) return remove(key);
      try {
        await (await connection.client()).set(keyOf(key), text, 'PX', pxOf(ttlMs));
      } catch (error) {
        absorb(error);
      }
    },
    delete: remove,
    close: () => connection.close(),
  };
}
