// Redis unreachable (a closed port): nothing hangs. The cache degrades (get → miss, set/delete
// dropped, each reported), the rate limiter rejects at once (the engine answers 503) or, if told,
// admits; key events stay not live. Needs no Redis server, so it always runs.

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadIoredis } from '../../src/adapters/redis/client.js';
import { createEngine, RateLimiterUnavailableError } from '../../src/index.js';
import { redisCacheStore, redisKeyEvents, redisRateLimiter } from '../../src/redis/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `redis://127.0.0.1:${port}`;
}

/** Milliseconds `work` took; outage calls must settle well under a second. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const start = performance.now();
  const [result] = await Promise.allSettled([work()]);
  return { ms: performance.now() - start, result: result! };
}

describe('Redis unreachable', () => {
  it('the cache store answers misses and drops writes at once, reporting each error', async () => {
    const errors: unknown[] = [];
    const store = redisCacheStore<number>({ url: await closedPort(), onError: (e) => errors.push(e) });
    const ops: (() => Promise<unknown>)[] = [
      () => store.get('k'),
      () => store.set('k', 1, 60_000),
      () => store.delete('k'),
      () => store.get('k'),
    ];
    for (const op of ops) {
      const { ms, result } = await timed(op);
      expect(result).toEqual({ status: 'fulfilled', value: undefined });
      expect(ms).toBeLessThan(300);
    }
    expect(errors.length).toBeGreaterThanOrEqual(4);
    await store.close?.();
  });

  it('the rate limiter rejects at once; the engine answers 503 rate_limiter_unavailable', async () => {
    const limiter = redisRateLimiter({ limit: 5, window: 1 }, { url: await closedPort() });
    for (let i = 0; i < 3; i++) {
      const { ms, result } = await timed(() => limiter.take('acme', 0));
      expect(result.status).toBe('rejected');
      expect(ms).toBeLessThan(300);
    }
    const engine = createEngine({ clock: new ManualClock(), rateLimiter: limiter, sources: [] });
    await engine.admin.createOrganization('acme');
    const { ms, result } = await timed(() => engine.usage({ organization: 'acme' }));
    expect(result.status === 'rejected' && result.reason).toBeInstanceOf(RateLimiterUnavailableError);
    expect(ms).toBeLessThan(300);
    await engine.close();
    await limiter.close?.();
  });

  it("whenUnavailable: 'admit' lets requests through, reporting the error", async () => {
    const errors: unknown[] = [];
    const limiter = redisRateLimiter(
      { limit: 1, window: 60 },
      { url: await closedPort(), whenUnavailable: 'admit', onError: (e) => errors.push(e) },
    );
    for (let i = 0; i < 3; i++) expect(await limiter.take('acme', 0)).toEqual({ ok: true });
    expect(errors.length).toBeGreaterThanOrEqual(3);
    await limiter.close?.();
  });

  it('key events stay not live, publishing rejects at once, and close does not hang', async () => {
    const events = redisKeyEvents({ url: await closedPort() });
    let resets = 0;
    events.subscribe(
      () => {},
      () => resets++,
    );
    const { ms, result } = await timed(() => events.publishRevoked('00'));
    expect(result.status).toBe('rejected');
    expect(ms).toBeLessThan(300);
    expect(events.live).toBe(false);
    expect(resets).toBe(0);
    const closing = await timed(() => events.close!());
    expect(closing.result.status).toBe('fulfilled');
    expect(closing.ms).toBeLessThan(300);
    await expect(events.ready()).rejects.toThrow(/closed/);
  });
});

describe('Redis accepting connections but never answering', () => {
  it('cache and limiter calls settle within the command timeout (here 200 ms), never hang', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((socket) => void sockets.add(socket)); // reads, never replies
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
    const store = redisCacheStore<number>({ url, commandTimeoutMs: 200 });
    const limiter = redisRateLimiter({ limit: 5, window: 1 }, { url, commandTimeoutMs: 200 });
    try {
      const get = await timed(() => store.get('k'));
      expect(get.result).toEqual({ status: 'fulfilled', value: undefined });
      const take = await timed(() => limiter.take('acme', 0));
      expect(take.result.status).toBe('rejected');
      for (const { ms } of [get, take]) expect(ms).toBeLessThan(1_000); // connect + ready check + command, each bounded
      const again = await timed(() => store.get('k'));
      expect(again.ms).toBeLessThan(1_000);
    } finally {
      await store.close?.();
      await limiter.close?.();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('ioredis missing', () => {
  it('says which package to install', async () => {
    await expect(loadIoredis('ioredis-not-installed-websift')).rejects.toThrow(/npm install ioredis/);
  });
});
