// The engine's use of the RateLimiter port: an injected limiter decides (its policy is reported), a
// refusal is a 429 with its retryAfter, a limiter that can't decide is a 503, and the engine's Clock
// is the time it is asked at.

import { describe, expect, it } from 'vitest';
import { createEngine, RateLimitError, RateLimiterUnavailableError } from '../../src/index.js';
import type { RateDecision, RateLimiter } from '../../src/ports/rate-limiter.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { rejection } from './helpers.js';

function scriptedLimiter(decide: (organization: string, now: number) => Promise<RateDecision>) {
  const calls: [string, number][] = [];
  const limiter: RateLimiter = {
    policy: { limit: 3, window: 9 },
    take(organization, now) {
      calls.push([organization, now]);
      return decide(organization, now);
    },
  };
  return { limiter, calls };
}

async function engineWith(limiter: RateLimiter) {
  const clock = new ManualClock();
  const engine = createEngine({ clock, rateLimiter: limiter, sources: [] });
  await engine.admin.createOrganization('acme', { credits: 5 });
  return { engine, clock };
}

describe('rateLimiter option', () => {
  it('asks the injected limiter at the Clock time and reports its policy', async () => {
    const { limiter, calls } = scriptedLimiter(async () => ({ ok: true }));
    const { engine, clock } = await engineWith(limiter);
    await clock.advance(1_234);
    await engine.usage({ organization: 'acme' });
    expect(calls).toEqual([['acme', clock.now()]]);
    expect(engine.rateLimit).toEqual({ limit: 3, window: 9 });
    await engine.close();
  });

  it('a refusal is a 429 carrying the limiter retryAfter and policy', async () => {
    const { limiter } = scriptedLimiter(async () => ({ ok: false, retryAfter: 7 }));
    const { engine } = await engineWith(limiter);
    const error = await rejection(engine.usage({ organization: 'acme' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.rateLimit).toEqual({ retryAfter: 7, limit: 3, window: 9 });
    await engine.close();
  });

  it('a limiter that rejects is a retryable 503 rate_limiter_unavailable, with the cause kept', async () => {
    const down = new Error('connect ECONNREFUSED');
    const { limiter } = scriptedLimiter(() => Promise.reject(down));
    const { engine } = await engineWith(limiter);
    const error = await rejection(engine.usage({ organization: 'acme' }));
    expect(error).toBeInstanceOf(RateLimiterUnavailableError);
    expect(error.status).toBe(503);
    expect(error.body).toMatchObject({ code: 'rate_limiter_unavailable', retryable: true });
    expect(error.cause).toBe(down);
    await engine.close();
  });

  it('rateLimit and rateLimiter together are refused at construction', () => {
    const { limiter } = scriptedLimiter(async () => ({ ok: true }));
    expect(() => createEngine({ rateLimit: { limit: 1, window: 1 }, rateLimiter: limiter })).toThrow(/rateLimit or rateLimiter/);
    expect(() => createEngine({ rateLimit: false, rateLimiter: limiter })).toThrow(/rateLimit or rateLimiter/);
    expect(() => createEngine({ rateLimiter: {} as RateLimiter })).toThrow(/take/);
  });
});
