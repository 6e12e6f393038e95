// redisKeyEvents between two engines on one key store (a shared SQLite file): a key revoked on A is
// refused by B although B cached it for 5 s (on a Clock that never moves: only the announcement can
// end it), and while B's subscriber connection is down B does not trust its cache. Redis delivery
// takes real time, so these tests poll (never the Clock), with generous limits: they wait for an
// event, they do not time it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteKeyStore } from '../../src/adapters/sqlite/key-store.js';
import { keyDigest } from '../../src/core/books/api-keys.js';
import { createEngine } from '../../src/index.js';
import type { KeyStore } from '../../src/ports/key-store.js';
import { type RedisKeyEvents, redisKeyEvents } from '../../src/redis/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { Engine } from '../../src/types/index.js';
import { serviceAvailable } from '../support/services.js';
import { inspector, killSubscribers, namedUrl, REDIS_URL, redisProxy, testPrefix } from './redis-kit.js';

const redis = await serviceAvailable('Redis');

/** Polls `check` every 5 ms until it holds; resolves the milliseconds it took (fails after `limitMs`: it never came). */
async function within(limitMs: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - start;
}

/** Subscribers of this test's channel (one per live instance). */
async function subscribers(admin: Redis, channel: string): Promise<number> {
  const counts = (await admin.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
  return Number(counts[1]);
}

describe.skipIf(!redis)('redisKeyEvents', () => {
  let dir: string;
  let prefix: string;
  /** The name of this test's connections: the only ones it may cut. */
  let name: string;
  let admin: Redis;
  const open: { engine: Engine; events: RedisKeyEvents }[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'websift-redis-keys-'));
    prefix = testPrefix('keys');
    name = prefix.slice(0, -1);
    admin = inspector();
  });
  afterEach(async () => {
    for (const { engine, events } of open.splice(0)) {
      await engine.close();
      await events.close?.();
    }
    admin.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An engine on the shared database file with its own Redis key events (its own connections). */
  async function instance() {
    const events = redisKeyEvents({ url: namedUrl(name), prefix });
    const engine = createEngine({ database: join(dir, 'shared.db'), clock: new ManualClock(), keyEvents: events, rateLimit: false });
    open.push({ engine, events });
    await events.ready();
    return { engine, events };
  }

  it('a key revoked on A is refused by B, although B cached it for 5 s', async () => {
    const a = await instance();
    const b = await instance();
    await a.engine.admin.createOrganization('acme', { credits: 1 });
    const key = await a.engine.admin.createApiKey('acme');
    const other = await a.engine.admin.createApiKey('acme');
    expect(await b.engine.authenticate(key)).toEqual({ organization: 'acme' });
    expect(await b.engine.authenticate(other)).toEqual({ organization: 'acme' });
    expect(await a.engine.admin.revokeApiKey(key)).toBe(true);
    await within(10_000, async () => (await b.engine.authenticate(key)) === null);
    expect(await b.engine.authenticate(other)).toEqual({ organization: 'acme' }); // only that key
  });

  it("while B's subscriber is disconnected B reads the key store; after it reconnects its cache starts empty", async () => {
    const a = await instance();
    const b = await instance();
    await a.engine.admin.createOrganization('acme', { credits: 1 });
    const key = await a.engine.admin.createApiKey('acme');
    expect(await b.engine.authenticate(key)).toEqual({ organization: 'acme' }); // cached on B
    const channel = `${prefix}key-revoked`;
    expect(await subscribers(admin, channel)).toBe(2);

    // Drop both subscriber connections (this test's only); watch B notice, then revoke while B may still be away.
    let sawDown = false;
    const watch = setInterval(() => (sawDown ||= !b.events.live), 1);
    expect(await killSubscribers(admin, name)).toBe(2);
    await within(10_000, () => sawDown);
    await a.engine.admin.revokeApiKey(key); // the announcement may be lost on B
    // Whether B is still away (cache bypassed) or back (cache reset), it refuses the key at once.
    expect(await b.engine.authenticate(key)).toBeNull();
    await within(10_000, () => b.events.live);
    clearInterval(watch);
    expect(await b.engine.authenticate(key)).toBeNull();
    // Both resubscribe; A's reconnection runs on its own schedule, so wait for it too.
    await within(10_000, async () => a.events.live && (await subscribers(admin, channel)) === 2);
  });

  it('B never trusts its cache while its subscriber is down', async () => {
    // The caller's client, through a proxy that refuses connections while stopped: the subscriber stays
    // away for as long as the test looks (not for a retry delay the machine's load could outrun).
    const proxy = await redisProxy();
    const through = new URL(REDIS_URL);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    const client = new Redis(through.toString(), { lazyConnect: true, retryStrategy: () => 20, connectionName: name });
    const events = redisKeyEvents({ client, prefix });
    const file = join(dir, 'keys.db');
    const db = openSqlite({ database: file });
    const real = sqliteKeyStore(db);
    const finds: string[] = [];
    const keyStore: KeyStore = {
      insert: (...x) => real.insert(...x),
      revoke: (...x) => real.revoke(...x),
      find: (h) => (finds.push(h), real.find(h)),
    };
    const engine = createEngine({ database: file, clock: new ManualClock(), rateLimit: false, keyEvents: events, keyStore });
    open.push({ engine, events });
    try {
      await events.ready();
      await engine.admin.createOrganization('acme', { credits: 1 });
      const key = await engine.admin.createApiKey('acme');
      await engine.authenticate(key);
      await engine.authenticate(key);
      expect(finds).toHaveLength(1); // live: cached
      await proxy.stop();
      await within(10_000, () => !events.live);
      for (let i = 0; i < 3; i++) expect(await engine.authenticate(key)).toEqual({ organization: 'acme' });
      expect(events.live).toBe(false); // still away: the proxy refuses
      expect(finds).toHaveLength(4); // each lookup read the store
      await real.revoke(keyDigest(key), 0); // revoked behind the feed's back: seen at once
      expect(await engine.authenticate(key)).toBeNull();
      await proxy.start();
      await within(10_000, () => events.live);
    } finally {
      await engine.close();
      db.close();
      client.disconnect();
      await proxy.close();
    }
  });
});
