// redisCacheStore: the CacheStore conformance suite (generic values and pages), then what only it
// promises: key names under the prefix, an expiry on every key, the value-size bound.

import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CachedPage } from '../../src/core/extract/run-extract.js';
import { redisCacheStore } from '../../src/redis/index.js';
import { describeCacheStoreConformance, type SampleValue } from '../../src/testing/index.js';
import { serviceAvailable } from '../support/services.js';
import { deleteKeys, inspector, keysUnder, REDIS_URL, testPrefix } from './redis-kit.js';

const redis = await serviceAvailable('Redis');

describe.skipIf(!redis)('redisCacheStore', () => {
  describeCacheStoreConformance('redisCacheStore', async () => {
    const prefix = testPrefix('cache');
    return { store: redisCacheStore<SampleValue>({ url: REDIS_URL, prefix }), cleanup: () => deleteKeys(prefix) };
  });

  const page = (seed: number): CachedPage => ({
    status: seed % 2 ? 200 : 404,
    text: `# Page ${seed}\n\ncafé 東京 ${'·'.repeat(seed % 50)}`,
  });
  describeCacheStoreConformance(
    'redisCacheStore of pages (8 MiB per value)',
    async () => {
      const prefix = testPrefix('pages');
      return {
        store: redisCacheStore<CachedPage>({ url: REDIS_URL, prefix, maxValueBytes: 8 * 1024 * 1024 }),
        cleanup: () => deleteKeys(prefix),
      };
    },
    { value: page },
  );

  describe('bounds and key names', () => {
    let admin: Redis;
    let prefix: string;
    beforeAll(() => {
      admin = inspector();
    });
    afterAll(() => admin.disconnect());
    afterEach(() => deleteKeys(prefix));

    it('stores JSON under <prefix>cache:<key> with a PX expiry from the hint, capped by maxTtlMs', async () => {
      prefix = testPrefix('cachekeys');
      const store = redisCacheStore<{ a: number }>({ url: REDIS_URL, prefix, maxTtlMs: 60_000 });
      await store.set('search\u0000acme\u0000q', { a: 1 }, 300_000.5);
      await store.set('short', { a: 2 }, 0.2); // below 1 ms: still an expiry, never a key without one
      await store.set('bad', { a: 3 }, Number.NaN);
      expect(await admin.get(`${prefix}cache:search\u0000acme\u0000q`)).toBe('{"a":1}');
      const ttl = await admin.pttl(`${prefix}cache:search\u0000acme\u0000q`);
      expect(ttl).toBeGreaterThan(59_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await admin.pttl(`${prefix}cache:bad`)).toBeGreaterThan(0);
      for (const key of await keysUnder(admin, prefix)) expect(await admin.pttl(key)).not.toBe(-1);
      await store.close?.();
    });

    it('a value larger than maxValueBytes is not stored, and the key older value is removed', async () => {
      prefix = testPrefix('cachebound');
      const store = redisCacheStore<{ text: string }>({ url: REDIS_URL, prefix, maxValueBytes: 100 });
      await store.set('k', { text: 'small' }, 60_000);
      await store.set('k', { text: 'é'.repeat(45) }, 60_000); // 90 characters, 101 bytes of JSON
      expect(await store.get('k')).toBeUndefined();
      expect(await keysUnder(admin, prefix)).toEqual([]);
      await store.set('k', { text: 'x'.repeat(89) }, 60_000); // exactly 100 bytes
      expect(await store.get('k')).toEqual({ text: 'x'.repeat(89) });
      await store.close?.();
    });

    it('a value that is not JSON (another writer under the prefix) reads as a miss, reported', async () => {
      prefix = testPrefix('cachejunk');
      const errors: unknown[] = [];
      const store = redisCacheStore({ url: REDIS_URL, prefix, onError: (e) => errors.push(e) });
      await admin.set(`${prefix}cache:k`, 'not json', 'PX', 60_000);
      expect(await store.get('k')).toBeUndefined();
      expect(errors).toHaveLength(1);
      await store.close?.();
    });

    it('never closes a client it was given', async () => {
      prefix = testPrefix('cacheclient');
      const client = inspector();
      const store = redisCacheStore<number>({ client, prefix });
      await store.set('n', 7, 60_000);
      await store.close?.();
      expect(await client.get(`${prefix}cache:n`)).toBe('7');
      expect(client.status).toBe('ready');
      client.disconnect();
    });
  });
});
