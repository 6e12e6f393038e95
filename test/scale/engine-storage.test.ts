// createEngine({ database: 'postgres://…', redis: 'redis://…' }): the options a user types select the
// PostgreSQL books and the Redis shared state; two engines built that way act as one service.

import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { ManualClock, scriptedSource } from '../../src/testing/index.js';
import type { Engine } from '../../src/types/index.js';
import { deleteKeys } from '../redis/redis-kit.js';
import { dropSchema } from '../support/postgres.js';
import { POSTGRES_URL, REDIS_URL, serviceAvailable, uniqueName } from '../support/services.js';

const available = (await serviceAvailable('PostgreSQL')) && (await serviceAvailable('Redis'));

describe('createEngine storage options', () => {
  it.each([
    [{ redis: 'http://cache:6379' }, /redis must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ postgres: { schema: 'x' } }, /postgres settings need a postgres:\/\/ database URL/],
    [{ database: 'postgres://db/x', durability: 'normal' as const }, /durability and lockWaitMs apply to a SQLite database/],
    [{ redisPrefix: 'x:' }, /redisPrefix is a string, and needs redis/],
  ])('refuses %j at construction', (options, message) => {
    expect(() => createEngine(options)).toThrow(message);
  });
});

describe.skipIf(!available)('two engines on one PostgreSQL and one Redis', () => {
  const schema = uniqueName('ws_engine');
  const redisPrefix = `${uniqueName('ws_engine')}:`;
  const engines: Engine[] = [];
  const open = () => {
    const source = scriptedSource('web', (query) => ({ results: [{ title: query.q, url: 'https://example.com/', snippet: 'x' }] }));
    const engine = createEngine({
      database: POSTGRES_URL,
      postgres: { schema },
      redis: REDIS_URL,
      redisPrefix,
      sources: [source],
      rateLimit: { limit: 3, window: 60 },
      // A clock that never moves: B's 5 s key cache never expires, so only A's announcement can end it.
      clock: new ManualClock(),
    });
    engines.push(engine);
    return { engine, source };
  };

  afterAll(async () => {
    await Promise.all(engines.map((e) => e.close()));
    await dropSchema(schema);
    await deleteKeys(redisPrefix);
  });

  it('share the books, the repeat windows, the rate limit and revocations', async () => {
    const a = open();
    const b = open();
    await a.engine.admin.createOrganization('acme', { credits: 10 });
    const key = await a.engine.admin.createApiKey('acme');
    expect(await b.engine.authenticate(key)).toEqual({ organization: 'acme' }); // B caches the live key

    const first = await a.engine.search({ q: 'shared' }, { organization: 'acme' });
    expect(first.metadata.credits_used).toBe(1);
    const repeat = await b.engine.search({ q: 'shared' }, { organization: 'acme' });
    expect(repeat.metadata.credits_used).toBe(0); // the window is in Redis: free on the other engine
    expect(b.source.calls).toHaveLength(0);
    expect((await b.engine.usage({ organization: 'acme' })).credits).toEqual({ balance: 9, used: 1 });

    // Policy 3 per minute: two calls made, one more is admitted on either engine, then 429 on both.
    await b.engine.usage({ organization: 'acme' }).catch(() => undefined);
    await expect(a.engine.usage({ organization: 'acme' })).rejects.toMatchObject({ status: 429 });
    await expect(b.engine.usage({ organization: 'acme' })).rejects.toMatchObject({ status: 429 });

    expect(await a.engine.admin.revokeApiKey(key)).toBe(true);
    // Polled for up to 10 s of real time (a wait for the announcement, not a bound on it).
    const deadline = Date.now() + 10_000;
    while ((await b.engine.authenticate(key)) !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await b.engine.authenticate(key)).toBeNull(); // although B's key cache holds keys for 5 s (of a clock that never moves)
  }, 30_000);
});
