// An extract reads each URL's repeat window through redisCacheStore before it reserves anything, and writes
// the charged URLs' windows before its charge. A read that fails while Redis is up (a command timeout on a
// live connection, a first connection still being made) must refuse the call, 503 cache_unavailable with
// nothing reserved and no page fetched: taken as a miss it charges a repeat that may be free. A write that
// fails while Redis is up refuses it too, nothing charged. Redis known down (the client was connected and
// lost it) is an outage: the read is a miss, as without Redis. Through a TCP fault proxy in front of the
// real Redis, and real pages on a loopback server (the search's rules: test/redis/window-reads.test.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { CacheUnavailableError } from '../../src/errors.js';
import type { CacheStore } from '../../src/ports/cache.js';
import { redisCacheStore, redisFlights } from '../../src/redis/index.js';
import { ManualClock, type PageServer, startPageServer } from '../../src/testing/index.js';
import type { Engine } from '../../src/types/index.js';
import { serviceAvailable } from '../support/services.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { deleteKeys, flightWaiters, inspector, REDIS_URL, redisProxy, testPrefix, until } from './redis-kit.js';

const redis = await serviceAvailable('Redis');
const page = `<!doctype html><html><head><title>Kept</title></head><body><article><h1>Kept</h1>
  <p>${'A paragraph long enough to be the main content of the page. '.repeat(8)}</p></article></body></html>`;

describe.skipIf(!redis)('an extract’s window reads and writes on Redis', () => {
  let dir: string;
  let prefix: string;
  let proxy: TcpProxy;
  let server: PageServer;
  let fetches = 0;
  /** Runs when /a is fetched (before the charged URL's window is written). */
  let onFetch: () => void = () => {};
  /** /held answers once this resolves. */
  let held: { fetches: number; gate: Promise<void>; open: () => void };
  const newGate = () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    held = { fetches: 0, gate, open };
  };
  const closers: (() => Promise<unknown> | undefined)[] = [];
  beforeAll(async () => {
    server = await startPageServer({});
    server.route('/a', (_req, res) => {
      fetches++;
      onFetch();
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    server.route('/held', async (_req, res) => {
      held.fetches++;
      await held.gate;
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
  });
  afterAll(async () => server.close());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'websift-extract-window-reads-'));
    prefix = testPrefix('extwin');
    proxy = await redisProxy();
    fetches = 0;
    onFetch = () => {};
    newGate();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await proxy.close();
    await deleteKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  /** An instance whose windows live in Redis (`via`: direct or through the proxy), with its own books. */
  async function instance(name: string, via: 'direct' | 'proxy', withFlights = false) {
    const url = via === 'direct' ? REDIS_URL : `redis://127.0.0.1:${proxy.port}`;
    const repeats: CacheStore<never> = redisCacheStore({ url, prefix: `${prefix}repeats:` });
    const flights = withFlights ? redisFlights({ url, prefix }) : undefined;
    const engine: Engine = createEngine({
      database: join(dir, `${name}.db`),
      clock: new ManualClock(),
      rateLimit: false,
      robots: false,
      allowEndpoints: [`127.0.0.1:${server.port}`],
      caches: { repeats },
      ...(flights ? { flights } : {}),
    });
    closers.push(
      () => repeats.close?.(),
      () => flights?.close?.(),
      () => engine.close(),
    );
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.usage({ organization: 'acme' }); // opens the books before any fault
    const keyed = (key: string) => engine.extract({ urls: [server.url('/a')] }, { organization: 'acme', idempotencyKey: key });
    const usage = async () => {
      const { credits, requests } = await engine.usage({ organization: 'acme' });
      return { balance: credits.balance, extracts: requests.extract };
    };
    return { engine, keyed, usage };
  }

  it('a window read that times out while Redis is up: 503 cache_unavailable before anything is reserved, no page fetched', async () => {
    const b = await instance('b', 'proxy');
    expect((await b.keyed('k1')).metadata.credits_used).toBe(1); // the window is written, the client ready
    proxy.mode = 'partition'; // the connection stays up; every command from here times out
    const refused = await b.keyed('k2').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CacheUnavailableError);
    expect((refused as CacheUnavailableError).body).toMatchObject({ status: 'error', code: 'cache_unavailable', retryable: true });
    expect((refused as CacheUnavailableError).status).toBe(503);
    expect(fetches).toBe(1);
    expect(await b.usage()).toEqual({ balance: 9, extracts: 1 }); // not reserved, not counted
    proxy.mode = 'forward';
    // The refused call's key is free again: its retry is the free repeat.
    const retried = await b.keyed('k2');
    expect(retried.metadata.credits_used).toBe(0);
    expect(retried.metadata.cached_free).toBe(1);
    expect(retried.results[0]).toMatchObject({ success: true });
    expect((await b.usage()).balance).toBe(9);
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
      (answer) => ({ credits: answer.metadata.credits_used }),
      (error: { status?: number; code?: string }) => ({ refused: `${error.status} ${error.code}` }),
    );
    if ('refused' in outcome) expect(outcome.refused).toBe('503 cache_unavailable');
    else expect(outcome.credits).toBe(0);
    expect((await b.usage()).balance).toBe(10);
  });

  it('a window write that times out while Redis is up: 503 cache_unavailable, nothing charged, no free window left', async () => {
    const b = await instance('b', 'proxy');
    await b.keyed('warm-up-read').catch(() => {}); // the client connected (charged once: balance 9)
    await b.engine.admin.addCredits('acme', 1);
    onFetch = () => {
      proxy.mode = 'partition'; // after the window read, before the window write
    };
    const other = server.url('/a?second');
    const refused = await b.engine.extract({ urls: [other] }, { organization: 'acme', idempotencyKey: 'w1' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 503, code: 'cache_unavailable', retryable: true });
    onFetch = () => {};
    proxy.mode = 'forward';
    expect(await b.usage()).toEqual({ balance: 10, extracts: 2 }); // an answered 503: counted, never charged
    // The SET that may land late is followed by a DEL on the same connection: the retry pays, once.
    const retried = await b.engine.extract({ urls: [other] }, { organization: 'acme', idempotencyKey: 'w1' });
    expect(retried.metadata.credits_used).toBe(1);
    expect((await b.usage()).balance).toBe(9);
  });

  it('a fresh instance’s repeat of an extract still running elsewhere: its flight lock waits for the first connection, the repeat is free', async () => {
    const a = await instance('a', 'direct', true);
    const b0 = { urls: [server.url('/held')] };
    const first = a.engine.extract(b0, { organization: 'acme' });
    await until(() => held.fetches === 1); // A holds the flight's lock and has not charged yet
    proxy.mode = 'partition'; // B's first connection is accepted, its ready check held
    const b = await instance('b', 'proxy', true);
    const repeat = b.engine.extract(b0, { organization: 'acme', idempotencyKey: 'r1' });
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // past the 500 ms a lock used to wait
    proxy.mode = 'forward';
    const redis = inspector();
    // B waits for A's flight (a B that ran without the lock never does: then the charge below tells).
    await until(async () => (await flightWaiters(redis, prefix)) > 0, 4_000).catch(() => {});
    redis.disconnect();
    held.open();
    expect((await first).metadata.credits_used).toBe(1);
    expect((await repeat).metadata.credits_used).toBe(0);
    expect((await b.usage()).balance).toBe(10);
  });

  it('a fresh instance while Redis refuses connections: an outage, the repeat is fetched and charged', async () => {
    const a = await instance('a', 'direct');
    expect((await a.keyed('k1')).metadata.credits_used).toBe(1);
    await proxy.stop();
    const b = await instance('b', 'proxy');
    expect((await b.keyed('k2')).metadata.credits_used).toBe(1);
    expect((await b.usage()).balance).toBe(9);
  });

  it('Redis known down (the connection lost): the read is a miss, the repeat is fetched and charged, as without Redis', async () => {
    const b = await instance('b', 'proxy');
    expect((await b.keyed('k1')).metadata.credits_used).toBe(1);
    await proxy.stop(); // connections cut, new ones refused
    expect((await b.keyed('k2')).metadata.credits_used).toBe(1);
    expect(fetches).toBe(2);
    expect((await b.usage()).balance).toBe(8);
  });
});

describe('redisFlights: firstConnectWaitMs (no server needed)', () => {
  it('must be a number ≥ 0', () => {
    expect(() => redisFlights({ url: REDIS_URL, firstConnectWaitMs: -1 })).toThrow(RangeError);
    expect(() => redisFlights({ url: REDIS_URL, firstConnectWaitMs: Number.NaN })).toThrow(RangeError);
    expect(() => redisFlights({ url: REDIS_URL, firstConnectWaitMs: 0 })).not.toThrow();
  });
});
