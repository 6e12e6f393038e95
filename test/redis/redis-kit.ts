// What the Redis tests share: a plain ioredis client of their own (to inspect and clean up), a unique
// key prefix per test whose keys are deleted afterwards, and connections named after the test, so that
// a test that cuts connections cuts only its own (never another program's on the same server). And the
// instances of the multi-instance engine tests (redisInstance), with their polling and held source.

import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createEngine } from '../../src/engine/create-engine.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { redisCacheStore, redisFlights } from '../../src/redis/index.js';
import type { ManualClock } from '../../src/testing/manual-clock.js';
import type { Engine, SearchSource, SourceAnswer } from '../../src/types/index.js';
import { REDIS_URL, uniqueName } from '../support/services.js';
import { type TcpProxy, tcpProxy } from '../support/tcp-proxy.js';

export { REDIS_URL };

/** A test's own connection (not websift's), closed by the caller. */
export const inspector = () => new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });

/** A TCP fault proxy in front of the test Redis (test/support/tcp-proxy.ts), closed by the caller. */
export function redisProxy(): Promise<TcpProxy> {
  const url = new URL(REDIS_URL);
  return tcpProxy({ host: url.hostname, port: Number(url.port || 6379) });
}

/** A unique prefix for one test's keys and channels (only [a-z0-9_:], safe in a SCAN pattern). */
export const testPrefix = (what: string) => `${uniqueName(`websift_test_${what}`)}:`;

/** Every key under `prefix`. */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1_000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

export async function deleteKeys(prefix: string): Promise<void> {
  const redis = inspector();
  try {
    const keys = await keysUnder(redis, prefix);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  } finally {
    redis.disconnect();
  }
}

/** REDIS_URL with a connection name: every connection opened from it (duplicates too) carries the name. */
export function namedUrl(name: string): string {
  const url = new URL(REDIS_URL);
  url.searchParams.set('connectionName', name);
  return url.toString();
}

/** Kills the pub/sub connections named `name` (this test's own) and resolves how many it killed. */
export async function killSubscribers(redis: Redis, name: string): Promise<number> {
  const list = (await redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
  const ids = list
    .split('\n')
    .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=', 2) as [string, string])))
    .filter((client) => client['name'] === name)
    .map((client) => client['id']!);
  for (const id of ids) await redis.call('CLIENT', 'KILL', 'ID', id);
  return ids.length;
}

/** Polls `check` (real time: Redis) until it holds, failing after `limitMs`. */
export async function until(check: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<void> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** How many wait for a flight's release under `prefix` (searches queued behind a held lock, one subscriber per process). */
export async function flightWaiters(redis: Redis, prefix: string): Promise<number> {
  return Number(((await redis.call('PUBSUB', 'NUMSUB', `${prefix}flight-released`)) as [string, number])[1]);
}

/** A source whose answers wait until released: a first search is still running when the next arrives. */
export function heldSource() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const source: SearchSource & { calls: number } = {
    id: 'held',
    calls: 0,
    async search(): Promise<SourceAnswer> {
      source.calls++;
      await gate;
      return { results: [{ title: 'One', url: 'https://example.com/1', snippet: 'one' }] };
    },
  };
  return { source, release };
}

/** What one test's instances share: the books' directory, the Redis key prefix, what the test closes after. */
export interface InstanceSetup {
  dir: string;
  prefix: string;
  closers: (() => Promise<unknown> | undefined)[];
}

export interface InstanceOptions extends EngineOptions {
  /**
   * The separate adapters, injected, instead of the engine's own `redis` URL (and its search scripts): a
   * redisCacheStore for the windows, and redisFlights when `flights` (else the per-process single flight).
   */
  adapters?: { flights: boolean };
}

/**
 * One instance of a multi-instance test: an engine on the SQLite books in `setup.dir` and the test's Redis
 * keys (ManualClock, no hedging), closed with the test; `options` win over these.
 */
export function redisInstance(setup: InstanceSetup, clock: ManualClock, sources: SearchSource[], options: InstanceOptions = {}): Engine {
  const { adapters, ...rest } = options;
  const { prefix, closers } = setup;
  const repeats = adapters ? redisCacheStore<never>({ url: REDIS_URL, prefix: `${prefix}repeats:` }) : undefined;
  const flights = adapters?.flights ? redisFlights({ url: REDIS_URL, prefix, clock }) : undefined;
  const engine = createEngine({
    database: join(setup.dir, 'shared.db'),
    clock,
    sources,
    router: { hedging: false },
    ...(adapters ? { rateLimit: false, caches: { repeats: repeats! } } : { redis: REDIS_URL, redisPrefix: prefix }),
    ...(flights ? { flights } : {}),
    ...rest,
  });
  closers.push(
    () => repeats?.close?.(),
    () => flights?.close?.(),
    () => engine.close(),
  );
  return engine;
}
