// A keyed search (one with an idempotency key: it does not go through the search scripts) writes its
// repeat window through redisCacheStore, before its charge. A write lost while Redis is up (commands time
// out on a live connection) must refuse the charge: a charge without its window makes the repeat pay
// again. Redis known down (the connection refused) is an outage: the search goes on and is charged, as
// without Redis (the window could not be read during the outage anyway). Through a TCP fault proxy.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RedisClientLike } from '../../src/adapters/redis/client.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { redisCacheStore } from '../../src/redis/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { Engine, SearchSource } from '../../src/types/index.js';
import { serviceAvailable } from '../support/services.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { deleteKeys, inspector, keysUnder, redisProxy, testPrefix } from './redis-kit.js';

const redis = await serviceAvailable('Redis');

describe.skipIf(!redis)('a keyed search’s window write on Redis', () => {
  let dir: string;
  let prefix: string;
  let admin: Redis;
  let proxy: TcpProxy;
  let engine: Engine;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'websift-window-writes-'));
    prefix = testPrefix('winwrite');
    admin = inspector();
    proxy = await redisProxy();
  });
  afterEach(async () => {
    await engine.close();
    await proxy.close();
    admin.disconnect();
    await deleteKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  /** An engine on Redis through the proxy; `onSearch` runs as the source is asked (before the window write). */
  async function instance(onSearch: () => Promise<void> | void): Promise<Engine> {
    const source: SearchSource = {
      id: 'web',
      async search() {
        await onSearch();
        return { results: [{ title: 'A', url: 'https://example.com/a', snippet: 'a' }] };
      },
    };
    engine = createEngine({
      database: join(dir, 'books.db'),
      redis: `redis://127.0.0.1:${proxy.port}`,
      redisPrefix: prefix,
      clock: new ManualClock(),
      sources: [source],
      router: { hedging: false },
      rateLimit: false,
    });
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.usage({ organization: 'acme' }); // opens the books before any fault
    return engine;
  }
  const keyed = (key: string) => engine.search({ q: 'keyed' }, { organization: 'acme', idempotencyKey: key });
  const balance = async () => (await engine.usage({ organization: 'acme' })).credits.balance;

  it('a window write lost while Redis is up: 503, nothing charged, no window left behind', async () => {
    await instance(() => {
      proxy.mode = 'partition'; // the connection stays up; every command from here times out
    });
    await expect(keyed('k1')).rejects.toMatchObject({ status: 503, code: 'search_unavailable' });
    // The held commands die with their connections: the SET never reaches Redis (a lost write).
    await proxy.stop();
    expect(await balance()).toBe(10);
    expect(await keysUnder(admin, `${prefix}repeat:`)).toEqual([]);
  });

  it('a window write that lands late, after its 503: deleted behind it, so the repeat is a fresh, charged search', async () => {
    let calls = 0;
    await instance(() => {
      if (calls++ === 0) proxy.mode = 'partition';
    });
    await expect(keyed('k1')).rejects.toMatchObject({ status: 503 });
    proxy.mode = 'forward'; // the held SETs reach Redis now, and the delete sent after them
    const repeat = await keyed('k2');
    expect(repeat.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(calls).toBe(2);
    expect(await balance()).toBe(9);
  });

  it('Redis known down: the keyed search is answered and charged, as without Redis', async () => {
    await instance(() => proxy.stop()); // refused at once: the client is not connected
    const answer = await keyed('k1');
    expect(answer.metadata.credits_used).toBe(1);
    expect(await balance()).toBe(9);
  });
});

/** A client whose first `failures` SETs fail (as a timeout), reporting `status`; counts SETs and DELs. */
function flakyClient(status: 'ready' | 'reconnecting', failures: number) {
  const sent = { set: 0, del: 0 };
  const client = {
    status,
    async set() {
      sent.set++;
      if (sent.set <= failures) throw new Error('Command timed out');
      return 'OK';
    },
    async del() {
      sent.del++;
      return 1;
    },
    on() {},
    off() {},
  } as unknown as RedisClientLike;
  return { client, sent };
}

describe('redisCacheStore: a required write (no server needed)', () => {
  const entry = { chargedAt: 0, value: 'answer' };

  it('failed once while Redis is up: written on the second try', async () => {
    const { client, sent } = flakyClient('ready', 1);
    await redisCacheStore({ client }).set('w', entry, 1_000, { required: true });
    expect(sent).toEqual({ set: 2, del: 0 });
  });

  it('failed twice while Redis is up: rejected, and a delete sent behind the writes', async () => {
    const { client, sent } = flakyClient('ready', 2);
    await expect(redisCacheStore({ client }).set('w', entry, 1_000, { required: true })).rejects.toThrow('Command timed out');
    expect(sent).toEqual({ set: 2, del: 1 });
  });

  it('Redis known down (not connected): dropped at once, as any write', async () => {
    const { client, sent } = flakyClient('reconnecting', 5);
    await redisCacheStore({ client }).set('w', entry, 1_000, { required: true });
    expect(sent).toEqual({ set: 1, del: 0 });
  });

  it('a write not required is dropped on its first failure, never retried', async () => {
    const { client, sent } = flakyClient('ready', 5);
    await redisCacheStore({ client }).set('w', entry, 1_000);
    expect(sent).toEqual({ set: 1, del: 0 });
  });
});
