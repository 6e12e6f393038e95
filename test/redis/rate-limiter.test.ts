// redisRateLimiter: the RateLimiter conformance suite on Redis (with a second instance on the same
// prefix), several separate connections firing at once, Redis's own clock, the key's expiry.

import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import { redisRateLimiter } from '../../src/redis/index.js';
import { describeRateLimiterConformance } from '../../src/testing/index.js';
import { GCRA_GAPS } from '../conformance/rate-limiter-gaps.js';
import { serviceAvailable } from '../support/services.js';
import { deleteKeys, inspector, REDIS_URL, testPrefix } from './redis-kit.js';

const redis = await serviceAvailable('Redis');
const T0 = Date.UTC(2026, 0, 1);

describe.skipIf(!redis)('redisRateLimiter', () => {
  describeRateLimiterConformance(
    'redisRateLimiter',
    async (policy) => {
      const prefix = testPrefix('rate');
      return {
        limiter: redisRateLimiter(policy, { url: REDIS_URL, prefix }),
        openAnother: async () => redisRateLimiter(policy, { url: REDIS_URL, prefix }),
        cleanup: () => deleteKeys(prefix),
      };
    },
    { knownGaps: GCRA_GAPS },
  );

  describe('across instances', () => {
    let prefix: string;
    const opened: RateLimiter[] = [];
    const clients: Redis[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((l) => l.close?.()));
      for (const c of clients.splice(0)) c.disconnect();
      await deleteKeys(prefix);
    });

    it('eight instances, each on its own connection, firing 400 takes at once admit exactly the limit', async () => {
      prefix = testPrefix('rate8');
      const policy = { limit: 25, window: 60 };
      // Half on websift's own clients, half on callers' clients: the script is defined on each.
      for (let i = 0; i < 8; i++) {
        if (i % 2) {
          const client = new Redis(REDIS_URL, { lazyConnect: true });
          clients.push(client);
          opened.push(redisRateLimiter(policy, { client, prefix }));
        } else opened.push(redisRateLimiter(policy, { url: REDIS_URL, prefix }));
      }
      const decisions = await Promise.all(Array.from({ length: 400 }, (_, i) => opened[i % 8]!.take('acme', T0 + (i % 3))));
      expect(decisions.filter((d) => d.ok)).toHaveLength(25);
      const other = await Promise.all(opened.map((l) => l.take('globex', T0)));
      expect(other.filter((d) => d.ok)).toHaveLength(8);
    });

    it("time: 'redis' reads Redis's clock, ignoring the caller's now", async () => {
      prefix = testPrefix('ratetime');
      const limiter = redisRateLimiter({ limit: 3, window: 3_600 }, { url: REDIS_URL, prefix, time: 'redis' });
      opened.push(limiter);
      // Callers with wildly different clocks still share one bucket.
      const decisions = [];
      for (const now of [0, T0, T0 + 86_400_000, 5]) decisions.push(await limiter.take('acme', now));
      expect(decisions.map((d) => d.ok)).toEqual([true, true, true, false]);
      const last = decisions[3]!;
      expect(last.ok ? 0 : last.retryAfter).toBeGreaterThan(1_190); // ~1,200 s per request
    });

    it('the organization key expires when its bucket would be full again', async () => {
      prefix = testPrefix('ratettl');
      const admin = inspector();
      clients.push(admin);
      const limiter = redisRateLimiter({ limit: 10, window: 20 }, { url: REDIS_URL, prefix }); // 2 s per request
      opened.push(limiter);
      for (let i = 0; i < 3; i++) await limiter.take('acme', T0);
      expect(await admin.get(`${prefix}rate:acme`)).toBe(String(T0 + 6_000));
      const ttl = await admin.pttl(`${prefix}rate:acme`);
      expect(ttl).toBeGreaterThan(5_000);
      expect(ttl).toBeLessThanOrEqual(6_000);
    });
  });

  it('rejects a bad policy or options at construction', () => {
    expect(() => redisRateLimiter({ limit: 0, window: 1 }, { url: REDIS_URL })).toThrow(/redisRateLimiter: limit/);
    expect(() => redisRateLimiter({ limit: 1, window: 1 }, {})).toThrow(/url or client/);
    expect(() => redisRateLimiter({ limit: 1, window: 1 }, { url: REDIS_URL, time: 'wall' as never })).toThrow(/time/);
  });
});
