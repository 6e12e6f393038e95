// A keyed search (one with an idempotency key: it does not go through the search scripts) reads its
// repeat window through redisCacheStore before it reserves anything. A read that fails while Redis is up
// (a command timeout on a live connection, a first connection still being made) must refuse the call
// (503, nothing charged): taken as a miss it charges a repeat that may be free. Redis known down (the
// client was connected and lost it) is an outage: the read is a miss, as without Redis. Through a TCP
// fault proxy in front of the real Redis, and a scripted client for the retry and the first connection.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RedisClientLike } from '../../src/adapters/redis/client.js';
import { createEngine } from '../../src/engine/create-engine.js';
import type { CacheStore } from '../../src/ports/cache.js';
import { redisCacheStore } from '../../src/redis/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { Engine, SearchSource } from '../../src/types/index.js';
import { serviceAvailable } from '../support/services.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { deleteKeys, REDIS_URL, redisProxy, testPrefix } from './redis-kit.js';

const redis = await serviceAvailable('Redis');

describe.skipIf(!redis)('a keyed search’s window read on Redis', () => {
  let dir: string;
  let prefix: string;
  let proxy: TcpProxy;
  const closers: (() => Promise<unknown> | undefined)[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'websift-window-reads-'));
    prefix = testPrefix('winread');
    proxy = await redisProxy();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await proxy.close();
    await deleteKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  /** An instance whose windows live in Redis (`via`: direct or through the proxy), with its own books and a counted source. */
  async function instance(name: string, via: 'direct' | 'proxy') {
    const url = via === 'direct' ? REDIS_URL : `redis://127.0.0.1:${proxy.port}`;
    const repeats: CacheStore<never> = redisCacheStore({ url, prefix: `${prefix}repeats:` });
    const source: SearchSource & { calls: number } = {
      id: 'web',
      calls: 0,
      async search() {
        source.calls++;
        return { results: [{ title: 'A', url: 'https://example.com/a', snippet: 'a' }] };
      },
    };
    const engine: Engine = createEngine({
      database: join(dir, `${name}.db`),
      clock: new ManualClock(),
      sources: [source],
      router: { hedging: false },
      rateLimit: false,
      caches: { repeats },
    });
    closers.push(
      () => repeats.close?.(),
      () => engine.close(),
    );
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.usage({ organization: 'acme' }); // opens the books before any fault
    const keyed = (key: string) => engine.search({ q: 'keyed' }, { organization: 'acme', idempotencyKey: key });
    const balance = async () => (await engine.usage({ organization: 'acme' })).credits.balance;
    return { engine, source, keyed, balance };
  }

  it('a window read that times out while Redis is up: 503 before anything is reserved, the sources never asked', async () => {
    const b = await instance('b', 'proxy');
    expect((await b.keyed('k1')).metadata.credits_used).toBe(1); // the window is written, the client ready
    proxy.mode = 'partition'; // the connection stays up; every command from here times out
    await expect(b.keyed('k2')).rejects.toMatchObject({ status: 503, code: 'search_unavailable' });
    expect(b.source.calls).toBe(1);
    expect(await b.balance()).toBe(9);
    proxy.mode = 'forward';
    // The refused call's key is free again: its retry is the free repeat.
    const retried = await b.keyed('k2');
    expect(retried.metadata).toMatchObject({ credits_used: 0, from_cache: true });
    expect(b.source.calls).toBe(1);
    expect(await b.balance()).toBe(9);
  });

  it('a fresh instance whose Redis client is still connecting: the repeat waits for it, never charged', async () => {
    const a = await instance('a', 'direct');
    expect((await a.keyed('k1')).metadata.credits_used).toBe(1);
    proxy.mode = 'partition'; // B's first connection is accepted, its ready check held
    const b = await instance('b', 'proxy');
    const repeat = b.keyed('k2');
    // Past the store's own connect wait (500 ms): a read that gave up there would have been a miss.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    proxy.mode = 'forward';
    // Free, or (when the first connection outlasts the store's wait for it) refused: never charged.
    const outcome = await repeat.then(
      (answer) => ({ answer: answer.metadata }),
      (error: { status?: number }) => ({ refused: error.status }),
    );
    if ('refused' in outcome) expect(outcome.refused).toBe(503);
    else expect(outcome.answer).toMatchObject({ credits_used: 0, from_cache: true });
    expect(b.source.calls).toBe(0);
    expect(await b.balance()).toBe(10);
  });

  it('a fresh instance while Redis refuses connections: an outage, the repeat is searched and charged', async () => {
    const a = await instance('a', 'direct');
    expect((await a.keyed('k1')).metadata.credits_used).toBe(1);
    await proxy.stop();
    const b = await instance('b', 'proxy');
    const repeat = await b.keyed('k2');
    expect(repeat.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(await b.balance()).toBe(9);
  });

  it('Redis known down (the connection lost): the read is a miss, the repeat is searched and charged, as without Redis', async () => {
    const b = await instance('b', 'proxy');
    expect((await b.keyed('k1')).metadata.credits_used).toBe(1);
    await proxy.stop(); // connections cut, new ones refused
    const repeat = await b.keyed('k2');
    expect(repeat.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(b.source.calls).toBe(2);
    expect(await b.balance()).toBe(8);
  });
});

/** A scripted client: its first `failures` GETs fail (as a timeout); a client not ready refuses at once, as ioredis without an offline queue. */
function scriptedClient(status: string, failures = 0, firstConnectWaitMs?: number) {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const sent = { get: 0, set: 0 };
  const client = {
    status,
    async connect() {},
    async get() {
      sent.get++;
      if (client.status !== 'ready') throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
      if (sent.get <= failures) throw new Error('Command timed out');
      return JSON.stringify({ chargedAt: 0, value: 'answer' });
    },
    async set() {
      sent.set++;
      if (client.status !== 'ready') throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
      return 'OK';
    },
    async del() {
      return 1;
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
    },
    off(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
    },
    /** Moves to `next` and tells the listeners of the event of that name, as ioredis does. */
    become(next: string) {
      client.status = next;
      for (const listener of [...(listeners.get(next) ?? [])]) listener();
    },
    /** A connection attempt failed with `code`: ioredis reports it and reconnects. */
    fail(code: string) {
      client.status = 'reconnecting';
      const error = Object.assign(new Error(code), { code });
      for (const listener of [...(listeners.get('error') ?? [])]) listener(error);
    },
  };
  const options = { client: client as unknown as RedisClientLike, ...(firstConnectWaitMs !== undefined ? { firstConnectWaitMs } : {}) };
  return { client, sent, store: redisCacheStore<{ value: string }>(options) };
}

/** A few turns of the event loop: the read has reached its wait. */
const turns = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('redisCacheStore: a required read (no server needed)', () => {
  const required = { required: true } as const;

  it('failed once while Redis is up: read on the second try', async () => {
    const { store, sent } = scriptedClient('ready', 1);
    expect(await store.get('w', required)).toMatchObject({ value: 'answer' });
    expect(sent.get).toBe(2);
  });

  it('failed twice while Redis is up: rejected', async () => {
    const { store, sent } = scriptedClient('ready', 2);
    await expect(store.get('w', required)).rejects.toThrow('Command timed out');
    expect(sent.get).toBe(2);
  });

  it('a read not required is a miss on its first failure, never retried', async () => {
    const { store, sent } = scriptedClient('ready', 5);
    expect(await store.get('w')).toBeUndefined();
    expect(sent.get).toBe(1);
  });

  it('a first connection in progress: waited for, then read', async () => {
    const { client, store, sent } = scriptedClient('connect');
    const read = store.get('w', required);
    await turns();
    expect(sent.get).toBe(0); // nothing is sent while it connects

    client.become('ready');
    expect(await read).toMatchObject({ value: 'answer' });
  });

  it('a first connection that outlasts firstConnectWaitMs: rejected, never a miss', async () => {
    const { store } = scriptedClient('connect', 0, 0);
    await expect(store.get('w', required)).rejects.toThrow();
  });

  it('a required write waits for a first connection too', async () => {
    const { client, store, sent } = scriptedClient('connecting');
    const write = store.set('w', { value: 'answer' }, 1_000, required);
    await turns();
    expect(sent.set).toBe(0);
    client.become('ready');
    await write;
    expect(sent.set).toBe(1);
  });

  it('firstConnectWaitMs must be a number ≥ 0', () => {
    expect(() => scriptedClient('ready', 0, -1)).toThrow(RangeError);
    expect(() => scriptedClient('ready', 0, Number.NaN)).toThrow(RangeError);
  });

  it('a first connection refused (nothing listening): an outage, a miss', async () => {
    const { client, store } = scriptedClient('connecting');
    const read = store.get('w', required);
    await turns();
    client.fail('ECONNREFUSED');
    expect(await read).toBeUndefined();
  });

  it('a first attempt that timed out (a late ready check): still waited for, then read', async () => {
    const { client, store, sent } = scriptedClient('connect');
    const read = store.get('w', required);
    await turns();
    client.fail('ETIMEDOUT'); // ioredis tries again
    client.become('connecting');
    await turns();
    expect(sent.get).toBe(0);
    client.become('ready');
    expect(await read).toMatchObject({ value: 'answer' });
  });

  it('a client that was ready and lost its connection: an outage, a miss at once', async () => {
    const { client, store, sent } = scriptedClient('ready');
    expect(await store.get('w', required)).toMatchObject({ value: 'answer' });
    client.become('connecting'); // reconnecting after the loss
    expect(await store.get('w', required)).toBeUndefined();
    expect(sent.get).toBe(2);
  });
});
