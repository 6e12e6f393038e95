// /healthz and /readyz (the handlers' `health` option, over engine.readiness()): open without a key,
// 503 naming the failing check while the books' database or Redis is away, 200 again once it is back.
// Outages are made with a TCP proxy in front of the real PostgreSQL and Redis servers.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { createFetchHandler } from '../../src/http/index.js';
import { ManualClock } from '../../src/testing/index.js';
import type { Engine } from '../../src/types/index.js';
import { dropSchema, freshSchema, postgresProxy } from '../support/postgres.js';
import { REDIS_URL, serviceAvailable } from '../support/services.js';
import { type TcpProxy, tcpProxy } from '../support/tcp-proxy.js';
import { harness } from './harness.js';

const postgres = await serviceAvailable('PostgreSQL');
const redis = await serviceAvailable('Redis');

describe('health routes', () => {
  it('are off unless asked for', async () => {
    const h = await harness();
    expect((await h.call('/healthz', { key: null })).status).toBe(404);
    expect((await h.call('/readyz', { key: null })).status).toBe(404);
  });

  it('answer without a key: /healthz ok, /readyz ready with the database check; other methods 405', async () => {
    const h = await harness({ http: { health: true } });
    const live = await h.call('/healthz', { key: null });
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await h.call('/readyz', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.headers.get('x-request-id')).toBeTruthy();
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: { status: 'ok' } } });
    const post = await h.call('/readyz', { method: 'POST', key: null });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('live under basePath only', async () => {
    const h = await harness({ http: { health: true, basePath: '/v1' } });
    expect((await h.call('/v1/healthz', { key: null })).status).toBe(200);
    expect((await h.call('/healthz', { key: null })).status).toBe(404);
  });

  it('/readyz reuses an answer for 1 s of the clock, then is 503 naming the database once the engine is closed', async () => {
    const h = await harness({ http: { health: true } });
    expect((await h.call('/readyz', { key: null })).status).toBe(200);
    await h.engine.close();
    await h.clock.advance(999);
    expect((await h.call('/readyz', { key: null })).status).toBe(200); // the cached answer
    await h.clock.advance(2);
    const res = await h.call('/readyz', { key: null });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'not_ready', checks: { database: { status: 'failing' } } });
  });
});

describe('readiness through outages', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** Asks /readyz after moving past the cached answer, until `status` (the service comes back in real time). */
  async function readyzUntil(handle: (r: Request) => Promise<Response>, clock: ManualClock, status: number) {
    let body: any;
    await vi.waitFor(
      async () => {
        await clock.advance(1_001);
        const res = await handle(new Request('http://websift.test/readyz'));
        body = await res.json();
        expect(res.status).toBe(status);
      },
      { timeout: 15_000, interval: 100 },
    );
    return body;
  }

  function serve(engine: Engine) {
    return createFetchHandler(engine, { health: true });
  }

  it.skipIf(!postgres)(
    'PostgreSQL away: 503 naming database; back: 200',
    async () => {
      const { proxy, url } = await postgresProxy();
      const schema = freshSchema();
      const clock = new ManualClock('2026-03-01T12:00:00Z');
      const engine = createEngine({ database: url, postgres: { schema }, clock, rateLimit: false });
      cleanup.push(
        () => proxy.close(),
        () => dropSchema(schema),
        () => engine.close(),
      );
      const handle = serve(engine);
      expect((await readyzUntil(handle, clock, 200)).checks.database.status).toBe('ok');

      await proxy.stop();
      const down = await readyzUntil(handle, clock, 503);
      expect(down).toMatchObject({ status: 'not_ready', checks: { database: { status: 'failing' } } });
      expect(typeof down.checks.database.error).toBe('string');

      await proxy.start();
      expect(await readyzUntil(handle, clock, 200)).toMatchObject({ status: 'ready', checks: { database: { status: 'ok' } } });
    },
    60_000,
  );

  it.skipIf(!postgres)(
    'a partition (no reply, no reset) fails the check within its timeout',
    async () => {
      const { proxy, url } = await postgresProxy();
      const schema = freshSchema();
      const clock = new ManualClock('2026-03-01T12:00:00Z');
      const engine = createEngine({ database: url, postgres: { schema }, clock, rateLimit: false });
      cleanup.push(
        () => proxy.close(),
        () => dropSchema(schema),
        () => engine.close(),
      );
      const handle = serve(engine);
      await readyzUntil(handle, clock, 200);
      proxy.mode = 'partition';
      const down = await readyzUntil(handle, clock, 503);
      expect(down.checks.database.error).toMatch(/no answer within/);
      proxy.mode = 'forward';
    },
    60_000,
  );

  it.skipIf(!redis)(
    'Redis away: 503 naming redis (the database still ok); back: 200',
    async () => {
      const target = new URL(REDIS_URL);
      const proxy: TcpProxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
      const clock = new ManualClock('2026-03-01T12:00:00Z');
      const engine = createEngine({ redis: `redis://127.0.0.1:${proxy.port}`, redisPrefix: `websift_test_ready_${process.pid}:`, clock });
      cleanup.push(
        () => proxy.close(),
        () => engine.close(),
      );
      const handle = serve(engine);
      expect((await readyzUntil(handle, clock, 200)).checks).toMatchObject({ database: { status: 'ok' }, redis: { status: 'ok' } });

      await proxy.stop();
      const down = await readyzUntil(handle, clock, 503);
      expect(down.checks).toMatchObject({ database: { status: 'ok' }, redis: { status: 'failing' } });

      await proxy.start();
      expect((await readyzUntil(handle, clock, 200)).checks.redis.status).toBe('ok');
    },
    60_000,
  );
});
