// Two engines (one ledger file, one Redis) sharing free-repeat windows and the extract page cache
// through redisCacheStore: a repeat on the other instance is free, served from the shared page
// cache without fetching the page again, and a second Redis-limited engine shares the rate limit.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, RateLimitError } from '../../src/index.js';
import type { CacheStore } from '../../src/ports/cache.js';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';
import { redisCacheStore, redisRateLimiter } from '../../src/redis/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import type { Engine } from '../../src/types/index.js';
import { article, html } from '../extract/helpers.js';
import { serviceAvailable } from '../support/services.js';
import { deleteKeys, inspector, keysUnder, REDIS_URL, testPrefix } from './redis-kit.js';

const redis = await serviceAvailable('Redis');

describe.skipIf(!redis)('engines sharing Redis', () => {
  let dir: string;
  let prefix: string;
  let server: PageServer;
  const closers: (() => Promise<unknown> | undefined)[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'websift-redis-shared-'));
    prefix = testPrefix('shared');
    server = await startPageServer({ '/a': html(article('Page A')) });
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await server.close();
    await deleteKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  function instance(clock: ManualClock, rateLimiter?: RateLimiter): Engine {
    // One prefix per cache: their key spaces are separate in memory, so they must be in Redis too.
    const repeats = redisCacheStore<never>({ url: REDIS_URL, prefix: `${prefix}repeats:` });
    const empties = redisCacheStore<never>({ url: REDIS_URL, prefix: `${prefix}empties:` });
    const pages = redisCacheStore<never>({ url: REDIS_URL, prefix: `${prefix}pages:`, maxValueBytes: 8 * 1024 * 1024 });
    const engine = createEngine({
      database: join(dir, 'shared.db'),
      clock,
      allowPrivateNetwork: true,
      robots: false,
      ...(rateLimiter ? { rateLimiter } : { rateLimit: false as const }),
      caches: { repeats: repeats as CacheStore<never>, confirmedEmpty: empties as CacheStore<never>, pages: pages as CacheStore<never> },
    });
    closers.push(
      () => repeats.close?.(),
      () => empties.close?.(),
      () => pages.close?.(),
      () => engine.close(),
    );
    return engine;
  }

  it('a repeat on the other instance within 5 minutes is free and served from the shared page cache', async () => {
    const clock = new ManualClock('2026-10-01T00:00:00Z');
    const [a, b] = [instance(clock), instance(clock)];
    await a.admin.createOrganization('acme', { credits: 10 });
    const url = server.url('/a');
    expect((await a.extract({ urls: [url] }, { organization: 'acme' })).metadata.credits_used).toBe(1);
    await clock.advance(60_000);
    const repeat = await b.extract({ urls: [url] }, { organization: 'acme' });
    expect(repeat.metadata.credits_used).toBe(0);
    expect(repeat.metadata.cached_free).toBe(1);
    expect(repeat.results[0]?.markdown).toContain('Page A');
    expect(server.requests.filter((r) => r.path === '/a')).toHaveLength(1);
    expect((await b.usage({ organization: 'acme' })).credits.balance).toBe(9);
  });

  it("the shared page cache is per organization: a repeat gets its own organization's copy, under its own key", async () => {
    let edition = 0;
    await server.close();
    server = await startPageServer({
      '/news': (_req, res) => {
        edition++;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(article(`Edition ${edition}`));
      },
    });
    const clock = new ManualClock('2026-10-01T00:00:00Z');
    const [a, b] = [instance(clock), instance(clock)];
    await a.admin.createOrganization('acme', { credits: 10 });
    await a.admin.createOrganization('globex', { credits: 10 });
    const url = server.url('/news');
    expect((await a.extract({ urls: [url] }, { organization: 'acme' })).results[0]?.markdown).toContain('Edition 1');
    expect((await b.extract({ urls: [url] }, { organization: 'globex' })).results[0]?.markdown).toContain('Edition 2');
    await clock.advance(60_000);
    const repeat = await b.extract({ urls: [url] }, { organization: 'acme' });
    expect(repeat.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
    expect(repeat.results[0]?.markdown).toContain('Edition 1');
    expect(edition).toBe(2);
    const client = inspector();
    try {
      const keys = await keysUnder(client, `${prefix}pages:`);
      expect(keys.map((k) => k.slice(`${prefix}pages:cache:`.length).split('\u0000')[0]).sort()).toEqual(['acme', 'globex']);
    } finally {
      client.disconnect();
    }
  });

  it('two instances with one Redis rate limiter admit one burst together', async () => {
    const clock = new ManualClock('2026-10-01T00:00:00Z');
    const policy = { limit: 4, window: 60 };
    const limiters = [redisRateLimiter(policy, { url: REDIS_URL, prefix }), redisRateLimiter(policy, { url: REDIS_URL, prefix })];
    closers.push(...limiters.map((l) => () => l.close?.()));
    const [a, b] = [instance(clock, limiters[0]), instance(clock, limiters[1])];
    await a.admin.createOrganization('acme', { credits: 10 });
    const calls = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).usage({ organization: 'acme' })));
    expect(calls.filter((c) => c.status === 'fulfilled')).toHaveLength(4);
    for (const c of calls) if (c.status === 'rejected') expect(c.reason).toBeInstanceOf(RateLimitError);
    expect(a.rateLimit).toEqual(policy);
  });
});
