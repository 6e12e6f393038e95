// redisFlights: an identical search of one organization on another instance waits for the first and
// becomes a free repeat (one paid source call instead of two), measured against the per-process
// default, which calls the source twice. Plus: the lock is released by token only, a waiter that
// aborts stops waiting, and Redis down the task runs at once.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Flights } from '../../src/ports/flights.js';
import { redisFlights } from '../../src/redis/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { SearchSource } from '../../src/types/index.js';
import { serviceAvailable } from '../support/services.js';
import { deleteKeys, flightWaiters, heldSource, inspector, keysUnder, REDIS_URL, redisInstance, testPrefix, until } from './redis-kit.js';

const redis = await serviceAvailable('Redis');

describe.skipIf(!redis)('redisFlights', () => {
  let dir: string;
  let prefix: string;
  let admin: Redis;
  const closers: (() => Promise<unknown> | undefined)[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'websift-redis-flights-'));
    prefix = testPrefix('flights');
    admin = inspector();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    admin.disconnect();
    await deleteKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  const instance = (clock: ManualClock, source: SearchSource, shared: boolean) =>
    redisInstance({ dir, prefix, closers }, clock, [source], { adapters: { flights: shared } });

  async function race(shared: boolean) {
    const clock = new ManualClock();
    const { source, release } = heldSource();
    const [a, b] = [instance(clock, source, shared), instance(clock, source, shared)];
    await a.admin.createOrganization('acme', { credits: 10 });
    const first = a.search({ q: 'same question' }, { organization: 'acme' });
    await until(() => source.calls === 1);
    const second = b.search({ q: 'same question' }, { organization: 'acme' });
    // B is waiting once its subscriber listens for the release (or, per process, once it called the source).
    await until(async () => (shared ? (await flightWaiters(admin, prefix)) === 1 : source.calls === 2));
    release();
    const [one, two] = await Promise.all([first, second]);
    return { source, one, two, balance: (await a.usage({ organization: 'acme' })).credits.balance };
  }

  it('the identical request on another instance waits and is a free repeat: one paid source call', async () => {
    const { source, one, two, balance } = await race(true);
    expect(source.calls).toBe(1);
    expect(one.metadata.credits_used).toBe(1);
    expect(two.metadata.credits_used).toBe(0);
    expect(two.results).toEqual(one.results);
    expect(balance).toBe(9);
    expect(await keysUnder(admin, `${prefix}flight:`)).toEqual([]); // released
  });

  it('measured against the per-process default: two source calls, two charges', async () => {
    const { source, one, two, balance } = await race(false);
    expect(source.calls).toBe(2);
    expect([one.metadata.credits_used, two.metadata.credits_used]).toEqual([1, 1]);
    expect(balance).toBe(8);
  });

  it('a live holder renews its lock past the lease: a waiter on another instance does not run meanwhile', async () => {
    const clock = new ManualClock();
    const flights = redisFlights({ url: REDIS_URL, prefix, clock, leaseMs: 150, pollMs: 50 });
    const other = redisFlights({ url: REDIS_URL, prefix, clock, leaseMs: 150, pollMs: 50 });
    closers.push(
      () => flights.close?.(),
      () => other.close?.(),
    );
    let finish!: () => void;
    const running = flights.run('long', () => new Promise<string>((resolve) => (finish = () => resolve('first'))));
    await until(async () => (await keysUnder(admin, `${prefix}flight:`)).length === 1);
    let ran = false;
    const waiting = other.run('long', async () => void (ran = true));
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 100)); // 600 ms of real time: 4 leases
      await clock.advance(50); // the waiter re-checks
    }
    expect(ran).toBe(false);
    expect((await keysUnder(admin, `${prefix}flight:`)).length).toBe(1);
    finish();
    expect(await running).toBe('first');
    await waiting;
    expect(ran).toBe(true);
  });

  it('a lock is released only by its holder; a waiter gives up when aborted; a lost holder frees it after the lease', async () => {
    const clock = new ManualClock();
    const flights = redisFlights({ url: REDIS_URL, prefix, clock, leaseMs: 300, pollMs: 100 });
    closers.push(() => flights.close?.());
    let finish!: () => void;
    const running = flights.run('k', () => new Promise<string>((resolve) => (finish = () => resolve('first'))));
    await until(async () => (await keysUnder(admin, `${prefix}flight:`)).length === 1);
    const [lock] = await keysUnder(admin, `${prefix}flight:`);
    // Another instance waits; aborting it rejects with the reason and runs nothing.
    const other = redisFlights({ url: REDIS_URL, prefix, clock, pollMs: 100 });
    closers.push(() => other.close?.());
    const abort = new AbortController();
    let ran = false;
    const waiting = other.run('k', async () => void (ran = true), abort.signal);
    await until(async () => (await flightWaiters(admin, prefix)) === 1);
    abort.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    expect(ran).toBe(false);
    // Someone else's token in the lock: our release leaves it alone.
    await admin.set(lock!, 'not-ours', 'PX', 300);
    finish();
    expect(await running).toBe('first');
    await until(async () => (await admin.get(lock!)) === 'not-ours' || (await admin.exists(lock!)) === 0);
    expect(await admin.get(lock!)).toBe('not-ours');
    // The stale lock expires with its lease; a waiter re-checking on the Clock then runs.
    const later = other.run('k', async () => 'after the lease');
    await until(async () => (await admin.exists(lock!)) === 0);
    await clock.advance(100);
    expect(await later).toBe('after the lease');
  });

  it('Redis down: the task runs at once', async () => {
    // "At once", not a duration: Redis's bound (the command timeout) is ten minutes, far past the
    // test's budget, so a task that waited for Redis would not have run by then.
    const flights: Flights = redisFlights({ url: 'redis://127.0.0.1:1', prefix, commandTimeoutMs: 10 * 60_000 });
    closers.push(() => flights.close?.());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise((resolve) => (timer = setTimeout(() => resolve('waited for Redis'), 10_000)));
    expect(await Promise.race([flights.run('k', async () => 42), late])).toBe(42);
    clearTimeout(timer);
  });
});
