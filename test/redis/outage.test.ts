// Redis unreachable (a closed port): nothing hangs. The cache degrades (get → miss, set/delete
// dropped, each reported), the rate limiter rejects at once (the engine answers 503) or, if told,
// admits; key events stay not live. Needs no Redis server, so it always runs.
//
// No wall-time bounds (the machine's load is not the rule): "at once" is shown by a command timeout far
// longer than the test's budget, so a call that waited for Redis (an offline queue, a retry) could
// only settle by that timeout and misses the budget; "never hangs" by settling within the budget.

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

/** Longer than any budget below: a call that waits for Redis settles only after this. */
const PATIENT_MS = 10 * 60_000;
/** Generous on a loaded machine, far below PATIENT_MS. */
const BUDGET_MS = 10_000;

/** How `work` settled; fails if it did not within `budgetMs` (it waited for Redis, or hangs). */
async function settled<T>(work: () => Promise<T>, budgetMs = BUDGET_MS): Promise<PromiseSettledResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), budgetMs)));
  try {
    const result = await Promise.race([Promise.allSettled([work()]).then(([r]) => r!), late]);
    if (result === 'late') throw new Error(`not settled within ${budgetMs} ms: it waited for Redis`);
    return result;
  } finally {
    clearTimeout(timer);
  }
}

describe('Redis unreachable', () => {
  it('the cache store answers misses and drops writes at once, reporting each error', async () => {
    const errors: unknown[] = [];
    const store = redisCacheStore<number>({ url: await closedPort(), commandTimeoutMs: PATIENT_MS, onError: (e) => errors.push(e) });
    const ops: (() => Promise<unknown>)[] = [
      () => store.get('k'),
      () => store.set('k', 1, 60_000),
      () => store.delete('k'),
      () => store.get('k'),
    ];
    for (const op of ops) expect(await settled(op)).toEqual({ status: 'fulfilled', value: undefined });
    expect(errors.length).toBeGreaterThanOrEqual(4);
    await store.close?.();
  });

  it('the rate limiter rejects at once; the engine answers 503 rate_limiter_unavailable', async () => {
    const limiter = redisRateLimiter({ limit: 5, window: 1 }, { url: await closedPort(), commandTimeoutMs: PATIENT_MS });
    for (let i = 0; i < 3; i++) expect((await settled(() => limiter.take('acme', 0))).status).toBe('rejected');
    const engine = createEngine({ clock: new ManualClock(), rateLimiter: limiter, sources: [] });
    await engine.admin.createOrganization('acme');
    const result = await settled(() => engine.usage({ organization: 'acme' }));
    expect(result.status === 'rejected' && result.reason).toBeInstanceOf(RateLimiterUnavailableError);
    await engine.close();
    await limiter.close?.();
  });

  it("whenUnavailable: 'admit' lets requests through, reporting the error", async () => {
    const errors: unknown[] = [];
    const limiter = redisRateLimiter(
      { limit: 1, window: 60 },
      { url: await closedPort(), commandTimeoutMs: PATIENT_MS, whenUnavailable: 'admit', onError: (e) => errors.push(e) },
    );
    for (let i = 0; i < 3; i++) expect(await settled(() => limiter.take('acme', 0))).toEqual({ status: 'fulfilled', value: { ok: true } });
    expect(errors.length).toBeGreaterThanOrEqual(3);
    await limiter.close?.();
  });

  it('key events stay not live, publishing rejects at once, and close does not hang', async () => {
    const events = redisKeyEvents({ url: await closedPort(), commandTimeoutMs: PATIENT_MS });
    let resets = 0;
    events.subscribe(
      () => {},
      () => resets++,
    );
    expect((await settled(() => events.publishRevoked('00'))).status).toBe('rejected');
    expect(events.live).toBe(false);
    expect(resets).toBe(0);
    expect((await settled(() => events.close!())).status).toBe('fulfilled');
    await expect(events.ready()).rejects.toThrow(/closed/);
  });
});

describe('Redis accepting connections but never answering', () => {
  it('cache and limiter calls end by the command timeout, never hang', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((socket) => void sockets.add(socket)); // reads, never replies
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
    const store = redisCacheStore<number>({ url, commandTimeoutMs: 200 });
    const limiter = redisRateLimiter({ limit: 5, window: 1 }, { url, commandTimeoutMs: 200 });
    try {
      // connect + ready check + command, each bounded by the 200 ms: without those bounds they never settle.
      expect(await settled(() => store.get('k'))).toEqual({ status: 'fulfilled', value: undefined });
      expect((await settled(() => limiter.take('acme', 0))).status).toBe('rejected');
      expect(await settled(() => store.get('k'))).toEqual({ status: 'fulfilled', value: undefined });
    } finally {
      await store.close?.();
      await limiter.close?.();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("the first call ends when the adapter's connect wait gives up, before ioredis times out its ready check", async () => {
    // An order, not a duration: both bounds are the same 200 ms, the adapter's started first. Without it
    // the call would wait for ioredis to time the ready check out and close the connection.
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { Redis } = await import('ioredis');
    const client = new Redis(`redis://127.0.0.1:${(server.address() as { port: number }).port}`, {
      lazyConnect: true,
      enableOfflineQueue: false,
      commandTimeout: 200,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    const events: string[] = [];
    client.on('close', () => events.push('closed'));
    const store = redisCacheStore<number>({ client, commandTimeoutMs: 200 });
    try {
      expect(await settled(() => store.get('k').finally(() => events.push('answered')))).toEqual({ status: 'fulfilled', value: undefined });
      expect(events[0]).toBe('answered');
    } finally {
      client.disconnect();
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
