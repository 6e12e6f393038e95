// An engine built with `redis: url` enters a search in one Redis script (rate limit, repeat window,
// flight lock, confirmed-empty entry), writes a charged search's window before its charge (one SET) and
// leaves in another script (lock release): the same rules as the separate adapters, which still serve
// every path the scripts decline. The window's order against the charge: search-window-order.test.ts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPEAT_WINDOW_MS } from '../../src/core/books/billing.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { scriptedSource } from '../../src/testing/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { SearchSource } from '../../src/types/index.js';
import { serviceAvailable } from '../support/services.js';
import { deleteKeys, flightWaiters, heldSource, inspector, keysUnder, redisInstance, redisProxy, testPrefix, until } from './redis-kit.js';

const redis = await serviceAvailable('Redis');

/** Rejects after `ms` of real time: a search that would wait forever on a ManualClock fails instead. */
const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))]);

/** Counts the Redis commands the process sends (every ioredis client goes through sendCommand). */
function commandCounter() {
  const original = Redis.prototype.sendCommand;
  const names: string[] = [];
  Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<typeof original>) {
    names.push(String(args[0]?.name));
    return original.apply(this, args);
  };
  return { names, restore: () => (Redis.prototype.sendCommand = original) };
}

describe.skipIf(!redis)('one script in, one script out', () => {
  let dir: string;
  let prefix: string;
  let admin: Redis;
  const closers: (() => Promise<unknown> | undefined)[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'websift-redis-coordination-'));
    prefix = testPrefix('coord');
    admin = inspector();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    admin.disconnect();
    await deleteKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  const instance = (clock: ManualClock, sources: SearchSource[], options: EngineOptions = {}) =>
    redisInstance({ dir, prefix, closers }, clock, sources, options);
  const one = () => scriptedSource('web', () => ({ results: [{ title: 'A', url: 'https://example.com/a', snippet: 'a' }] }));

  it('a charged search sends 3 Redis commands (enter, window, leave), a free repeat 1; the lock is gone after', async () => {
    const clock = new ManualClock();
    const engine = instance(clock, [one()], { rateLimit: { limit: 100, window: 600 } }); // the rate key lives 18 s
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.search({ q: 'warm up' }, { organization: 'acme' }); // connects, loads the scripts
    const counter = commandCounter();
    try {
      const charged = await engine.search({ q: 'counted' }, { organization: 'acme' });
      expect(charged.metadata.credits_used).toBe(1);
      expect(counter.names).toEqual(['evalsha', 'set', 'evalsha']);
      counter.names.length = 0;
      const repeat = await engine.search({ q: 'counted' }, { organization: 'acme' });
      expect(repeat.metadata.credits_used).toBe(0);
      expect(counter.names).toEqual(['evalsha']);
    } finally {
      counter.restore();
    }
    expect(await keysUnder(admin, `${prefix}flight:`)).toEqual([]);
    expect(await keysUnder(admin, `${prefix}repeat:`)).toHaveLength(2);
    expect(await keysUnder(admin, `${prefix}rate:`)).toEqual([`${prefix}rate:acme`]);
  });

  it('the rate limit is the GCRA of the separate limiter: same key, same refusals, same Retry-After', async () => {
    const clock = new ManualClock();
    const engine = instance(clock, [one()], { rateLimit: { limit: 2, window: 60 } });
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.search({ q: 'a' }, { organization: 'acme' }); // the script's take
    await engine.usage({ organization: 'acme' }); // the limiter's take, on the same key
    await expect(engine.search({ q: 'b' }, { organization: 'acme' })).rejects.toMatchObject({
      status: 429,
      rateLimit: { retryAfter: 30, limit: 2, window: 60 },
    });
    await clock.advance(29_999);
    await expect(engine.search({ q: 'b' }, { organization: 'acme' })).rejects.toMatchObject({ status: 429, rateLimit: { retryAfter: 1 } });
    await clock.advance(1);
    expect((await engine.search({ q: 'b' }, { organization: 'acme' })).metadata.credits_used).toBe(1);
    await clock.advance(30_000);
    expect((await engine.usage({ organization: 'acme' })).credits).toEqual({ balance: 8, used: 2 }); // refusals cost nothing
  });

  /** One charged search of 'held' done (charged 1), and the key its flight's lock had. */
  async function searchedOnce() {
    const { source, release } = heldSource();
    const engine = instance(new ManualClock(), [source], { rateLimit: false });
    await engine.admin.createOrganization('acme', { credits: 10 });
    const first = engine.search({ q: 'held' }, { organization: 'acme' });
    await until(() => source.calls === 1);
    const [lock] = await keysUnder(admin, `${prefix}flight:`);
    release();
    expect((await first).metadata.credits_used).toBe(1);
    return { engine, source, lock };
  }

  it('a window under a held lock may still be settling: the repeat waits for the release, then is free', async () => {
    const { engine, source, lock } = await searchedOnce();
    await admin.set(lock!, 'another instance', 'PX', 60_000); // as if a search of it were still settling elsewhere
    const repeat = engine.search({ q: 'held' }, { organization: 'acme' });
    await until(async () => (await flightWaiters(admin, prefix)) === 1);
    await admin.del(lock!);
    await admin.publish(`${prefix}flight-released`, lock!);
    expect((await within(10_000, repeat)).metadata).toMatchObject({ credits_used: 0, from_cache: true });
    expect(source.calls).toBe(1);
  });

  it('a lock held elsewhere: the search waits for its release, then runs (and is charged) once', async () => {
    const { engine, source, lock } = await searchedOnce();
    await admin.del(...(await keysUnder(admin, `${prefix}repeat:`))); // no window: the next one must run
    await admin.set(lock!, 'another instance', 'PX', 60_000);
    const waiting = engine.search({ q: 'held' }, { organization: 'acme' });
    await until(async () => (await flightWaiters(admin, prefix)) === 1);
    expect(source.calls).toBe(1); // waiting, not searching
    await admin.del(lock!);
    await admin.publish(`${prefix}flight-released`, lock!);
    expect((await within(10_000, waiting)).metadata.credits_used).toBe(1);
    expect(source.calls).toBe(2);
    expect(await keysUnder(admin, `${prefix}flight:`)).toEqual([]);
  });

  it('two instances, the same search at once: one source call, one charge, the other a free repeat', async () => {
    const clock = new ManualClock();
    const { source, release } = heldSource();
    const [a, b] = [instance(clock, [source], { rateLimit: false }), instance(clock, [source], { rateLimit: false })];
    await a.admin.createOrganization('acme', { credits: 10 });
    const first = a.search({ q: 'same' }, { organization: 'acme' });
    await until(() => source.calls === 1);
    const second = b.search({ q: 'same' }, { organization: 'acme' });
    await until(async () => (await flightWaiters(admin, prefix)) >= 1);
    release();
    const [x, y] = await Promise.all([first, second]);
    expect([x.metadata.credits_used, y.metadata.credits_used]).toEqual([1, 0]);
    expect(y.results).toEqual(x.results);
    expect(source.calls).toBe(1);
  });

  it('the repeat window lasts 5 minutes of the Clock, although its Redis key lives on', async () => {
    const clock = new ManualClock();
    const source = one();
    const engine = instance(clock, [source], { rateLimit: false });
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.search({ q: 'timed' }, { organization: 'acme' });
    await clock.advance(REPEAT_WINDOW_MS - 1);
    expect((await engine.search({ q: 'timed' }, { organization: 'acme' })).metadata.credits_used).toBe(0);
    await clock.advance(1);
    expect(await keysUnder(admin, `${prefix}repeat:`)).toHaveLength(1); // still in Redis (real time)
    expect((await within(10_000, engine.search({ q: 'timed' }, { organization: 'acme' }))).metadata.credits_used).toBe(1);
    expect(source.calls).toHaveLength(2);
  });

  it('a confirmed empty read on entering: another organization is charged from the cache, no source asked', async () => {
    const clock = new ManualClock();
    const [s1, s2] = [scriptedSource('one', {}), scriptedSource('two', {})]; // empty, with a no-results notice
    const engine = instance(clock, [s1, s2], { rateLimit: false });
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.admin.createOrganization('other', { credits: 10 });
    const first = await engine.search({ q: 'nothing here' }, { organization: 'acme' });
    expect(first.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    const cached = await engine.search({ q: 'nothing here' }, { organization: 'other' });
    expect(cached.metadata).toMatchObject({ credits_used: 1, from_cache: true });
    expect(s1.calls).toHaveLength(1);
    await clock.advance(15 * 60_000); // the confirmation is over by the Clock: asked again
    const third = await engine.search({ q: 'nothing here' }, { organization: 'acme' }); // its window is over too
    expect(third.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(s1.calls).toHaveLength(2);
  });

  it('Redis down on entering: 503 rate_limiter_unavailable, nothing charged, no source asked', async () => {
    const proxy = await redisProxy();
    closers.push(() => proxy.close());
    const clock = new ManualClock();
    const source = one();
    const engine = instance(clock, [source], { redis: `redis://127.0.0.1:${proxy.port}`, rateLimit: { limit: 100, window: 1 } });
    await engine.admin.createOrganization('acme', { credits: 10 });
    await proxy.stop();
    await expect(engine.search({ q: 'refused' }, { organization: 'acme' })).rejects.toMatchObject({
      status: 503,
      code: 'rate_limiter_unavailable',
    });
    expect(source.calls).toHaveLength(0);
    const unlimited = instance(clock, [source], { redis: `redis://127.0.0.1:${proxy.port}`, rateLimit: false });
    // Without a rate limit nothing needs Redis: the search runs as a single instance would.
    expect((await unlimited.search({ q: 'alone' }, { organization: 'acme' })).metadata.credits_used).toBe(1);
    await proxy.start();
    await until(async () => (await engine.readiness()).ready, 5_000);
    expect((await engine.usage({ organization: 'acme' })).credits).toEqual({ balance: 9, used: 1 }); // only the unlimited one
  });

  it('Redis gone before the window write: 503, nothing charged (a charge without its window would make the repeat pay)', async () => {
    const proxy = await redisProxy();
    closers.push(() => proxy.close());
    const clock = new ManualClock();
    const { source, release } = heldSource();
    const engine = instance(clock, [source], { redis: `redis://127.0.0.1:${proxy.port}`, rateLimit: { limit: 100, window: 1 } });
    await engine.admin.createOrganization('acme', { credits: 10 });
    const search = engine.search({ q: 'cut' }, { organization: 'acme' });
    await until(() => source.calls === 1);
    const [lock] = await keysUnder(admin, `${prefix}flight:`);
    await proxy.stop();
    release();
    await expect(search).rejects.toMatchObject({ status: 503, code: 'search_unavailable' });
    const books = instance(clock, [source], { rateLimit: false }); // the same books, Redis reached directly
    expect((await books.usage({ organization: 'acme' })).credits).toEqual({ balance: 10, used: 0 });
    expect(await keysUnder(admin, `${prefix}repeat:`)).toEqual([]);
    expect(Number(await admin.pttl(lock!))).toBeGreaterThan(0); // left to its lease
    expect(Number(await admin.pttl(lock!))).toBeLessThanOrEqual(5_000);
  });
});
