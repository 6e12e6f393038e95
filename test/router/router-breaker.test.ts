// Circuit breaker and suspensions: open after consecutive failures, half-open after the cool-down with a
// single trial, closed again on a good answer; auth / quota / config suspend; rate limits honour Retry-After.

import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/core/router/router.js';
import { SourceError } from '../../src/core/router/source-error.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type ScriptedAnswer, scriptedSource } from '../../src/testing/scripted-source.js';
import { hit, query } from './helpers.js';

const T0 = Date.UTC(2026, 0, 1);

/** A source whose answer the test switches at will. */
function switchable(id: string, initial: ScriptedAnswer | Error) {
  let next: ScriptedAnswer | Error = initial;
  const source = scriptedSource(id, () => (next instanceof Error ? { fail: '' } : next));
  const search = source.search.bind(source);
  return {
    source: {
      ...source,
      calls: source.calls,
      search: async (...args: Parameters<typeof search>) => {
        if (next instanceof Error) {
          source.calls.push(args[0]);
          throw next;
        }
        return search(...args);
      },
    },
    set: (answer: ScriptedAnswer | Error) => {
      next = answer;
    },
  };
}

describe('router: circuit breaker', () => {
  it('opens after failureThreshold consecutive failures, skips the source, half-opens, closes', async () => {
    const clock = new ManualClock(T0);
    const a = switchable('a', new Error('down'));
    const b = scriptedSource('b', () => ({ results: [], noResultsNotice: true }));
    const router = createRouter([a.source, b], { clock, retries: 0, breaker: { failureThreshold: 3, coolDownMs: 10_000 } });
    for (let i = 0; i < 3; i++) await router.route(query('q'), { limit: 10 });
    expect(a.source.calls).toHaveLength(3);
    expect(router.health()[0]).toEqual({
      id: 'a',
      state: 'open',
      errorRate: expect.any(Number),
      latencyMs: 0,
      consecutiveFailures: 3,
      suspendedUntil: new Date(T0 + 10_000).toISOString(),
    });

    // Open: not asked at all; only b is consulted.
    const skipped = await router.route(query('q'), { limit: 10 });
    expect(a.source.calls).toHaveLength(3);
    expect(skipped.outcomes.map((o) => o.source)).toEqual(['b']);

    await clock.advance(9_999);
    await router.route(query('q'), { limit: 10 });
    expect(a.source.calls).toHaveLength(3);

    // Cool-down over: half-open, one trial; it fails → open for another cool-down.
    await clock.advance(1);
    expect(router.health()[0]!.state).toBe('half_open');
    expect(router.health()[0]!.suspendedUntil).toBeUndefined();
    await router.route(query('q'), { limit: 10 });
    expect(a.source.calls).toHaveLength(4);
    expect(router.health()[0]).toMatchObject({ state: 'open', suspendedUntil: new Date(clock.now() + 10_000).toISOString() });

    // Next trial succeeds → closed, failures reset.
    await clock.advance(10_000);
    a.set({ results: [hit(1, 'a')] });
    const healed = await router.route(query('q'), { limit: 10 });
    expect(healed.results).toEqual([hit(1, 'a')]);
    expect(router.health()[0]).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('a single failure in half-open reopens it even below the threshold; success in between resets the count', async () => {
    const clock = new ManualClock(T0);
    const a = switchable('a', new Error('down'));
    const router = createRouter([a.source], { clock, retries: 0, breaker: { failureThreshold: 2, coolDownMs: 1000 } });
    await router.route(query('q'), { limit: 10 });
    a.set({ results: [] });
    await router.route(query('q'), { limit: 10 });
    a.set(new Error('down'));
    await router.route(query('q'), { limit: 10 });
    expect(router.health()[0]).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
    await router.route(query('q'), { limit: 10 });
    expect(router.health()[0]!.state).toBe('open');
  });

  it('stops retrying within a search once the breaker opens', async () => {
    const clock = new ManualClock(T0);
    const a = scriptedSource('a', () => ({ fail: 'down' }));
    const router = createRouter([a], { clock, retries: 5, backoffMs: 0, breaker: { failureThreshold: 2 } });
    const r = await router.route(query('q'), { limit: 10 });
    expect(a.calls).toHaveLength(2);
    expect(r.outcomes).toMatchObject([{ status: 'failed', attempts: 2 }]);
  });

  it('lets exactly one trial through while half-open, even for concurrent searches', async () => {
    const clock = new ManualClock(T0);
    let fail = true;
    const a = scriptedSource('a', () => (fail ? { fail: 'down' } : { results: [hit(1, 'a')] }), { latencyMs: 50, clock });
    const b = scriptedSource('b', () => ({ results: [], noResultsNotice: true }));
    const router = createRouter([a, b], { clock, retries: 0, breaker: { failureThreshold: 1, coolDownMs: 1000 } });
    const first = router.route(query('q'), { limit: 10 });
    await clock.advance(50);
    await first;
    await clock.advance(1000);
    fail = false;
    const p1 = router.route(query('q1'), { limit: 10 });
    const p2 = router.route(query('q2'), { limit: 10 });
    await clock.advance(50);
    const [r1, r2] = await Promise.all([p1, p2]);
    expect(a.calls.map((c) => c.q)).toEqual(['q', 'q1']);
    expect(r1.results).toEqual([hit(1, 'a')]);
    // The second search finds the trial slot taken: a is not asked.
    expect(r2.outcomes.map((o) => o.source)).toEqual(['b']);
    expect(router.health()[0]!.state).toBe('closed');
  });

  it('returns no outcomes when every source is open', async () => {
    const clock = new ManualClock(T0);
    const a = scriptedSource('a', () => ({ fail: 'down' }));
    const router = createRouter([a], { clock, retries: 0, breaker: { failureThreshold: 1 } });
    await router.route(query('q'), { limit: 10 });
    expect(await router.route(query('q'), { limit: 10 })).toEqual({ outcomes: [], results: [] });
  });
});

describe('router: provider errors with reasons', () => {
  for (const reason of ['auth', 'quota', 'config'] as const) {
    it(`${reason}: no retry within the search, suspended for suspendMs (default 1 h)`, async () => {
      const clock = new ManualClock(T0);
      const a = switchable('a', new SourceError('nope', { reason, status: 401 }));
      const b = scriptedSource('b', () => ({ results: [], noResultsNotice: true }));
      const router = createRouter([a.source, b], { clock, retries: 3 });
      const r = await router.route(query('q'), { limit: 10 });
      expect(a.source.calls).toHaveLength(1);
      expect(r.outcomes[0]).toMatchObject({ source: 'a', status: 'failed', attempts: 1 });
      expect(router.health()[0]).toMatchObject({ state: 'open', suspendedUntil: new Date(T0 + 3_600_000).toISOString() });
      await clock.advance(3_599_999);
      await router.route(query('q'), { limit: 10 });
      expect(a.source.calls).toHaveLength(1);
      await clock.advance(1);
      a.set({ results: [hit(1, 'a')] });
      expect((await router.route(query('q'), { limit: 10 })).results).toEqual([hit(1, 'a')]);
    });
  }

  it('a suspension uses retryAfterMs when given, and breaker.suspendMs otherwise', async () => {
    const clock = new ManualClock(T0);
    const q = scriptedSource('q', () => ({ fail: 'x' }));
    q.search = async () => {
      throw new SourceError('quota', { reason: 'quota', retryAfterMs: 60_000 });
    };
    const au = scriptedSource('au', () => ({ fail: 'x' }));
    au.search = async () => {
      throw new SourceError('bad key', { reason: 'auth' });
    };
    const router = createRouter([q, au], { clock, breaker: { suspendMs: 120_000 } });
    await router.route(query('x'), { limit: 10 });
    expect(router.health().map((h) => h.suspendedUntil)).toEqual([
      new Date(T0 + 60_000).toISOString(),
      new Date(T0 + 120_000).toISOString(),
    ]);
  });

  it('reset(id) lifts a suspension after the source is reconfigured', async () => {
    const clock = new ManualClock(T0);
    const a = switchable('a', new SourceError('bad key', { reason: 'auth' }));
    const router = createRouter([a.source], { clock });
    await router.route(query('q'), { limit: 10 });
    expect(router.health()[0]!.state).toBe('open');
    a.set({ results: [hit(1)] });
    router.reset('a');
    expect(router.health()[0]).toEqual({ id: 'a', state: 'closed', errorRate: 0, latencyMs: 0, consecutiveFailures: 0 });
    expect((await router.route(query('q'), { limit: 10 })).results).toHaveLength(1);
    expect(() => router.reset('zzz')).toThrow(/zzz/);
  });

  it('rate_limited with retryAfterMs: not retried, skipped until Retry-After passes', async () => {
    const clock = new ManualClock(T0);
    const a = switchable('a', new SourceError('slow down', { reason: 'rate_limited', retryAfterMs: 5000, status: 429 }));
    const b = scriptedSource('b', () => ({ results: [], noResultsNotice: true }));
    const router = createRouter([a.source, b], { clock, retries: 2 });
    await router.route(query('q'), { limit: 10 });
    expect(a.source.calls).toHaveLength(1);
    expect(router.health()[0]).toMatchObject({ state: 'open', suspendedUntil: new Date(T0 + 5000).toISOString() });
    await clock.advance(5000);
    a.set({ results: [hit(1, 'a')] });
    expect((await router.route(query('q'), { limit: 10 })).results).toEqual([hit(1, 'a')]);
  });

  it('rate_limited without retryAfterMs: not retried, left alone for the breaker cool-down', async () => {
    const clock = new ManualClock(T0);
    const a = switchable('a', new SourceError('captcha', { reason: 'rate_limited' }));
    const router = createRouter([a.source], { clock, retries: 2, breaker: { coolDownMs: 7000 } });
    await router.route(query('q'), { limit: 10 });
    expect(a.source.calls).toHaveLength(1);
    expect(router.health()[0]).toMatchObject({ state: 'open', suspendedUntil: new Date(T0 + 7000).toISOString() });
  });

  it('any other reason with retryAfterMs (a 503, maxlag): not retried, left alone that long', async () => {
    const clock = new ManualClock(T0);
    const a = switchable('a', new SourceError('maxlag', { reason: 'unavailable', retryAfterMs: 5000, status: 200 }));
    const router = createRouter([a.source], { clock, retries: 2 });
    await router.route(query('q'), { limit: 10 });
    expect(a.source.calls).toHaveLength(1);
    expect(router.health()[0]).toMatchObject({ state: 'open', suspendedUntil: new Date(T0 + 5000).toISOString() });
  });

  it('unavailable and bad_response without retryAfterMs are ordinary failures (retried)', async () => {
    const clock = new ManualClock(T0);
    for (const reason of ['unavailable', 'bad_response'] as const) {
      const a = switchable('a', new SourceError('x', { reason }));
      const router = createRouter([a.source], { clock, retries: 2, backoffMs: 0 });
      await router.route(query('q'), { limit: 10 });
      expect(a.source.calls).toHaveLength(3);
      expect(router.health()[0]!.state).toBe('closed');
    }
  });

  it('counts a per-attempt timeout as a failure toward the breaker', async () => {
    const clock = new ManualClock(T0);
    const a = scriptedSource('a', {}, { fallback: { hang: true } });
    const router = createRouter([a], { clock, retries: 0, attemptTimeoutMs: 100, breaker: { failureThreshold: 2 } });
    for (let i = 0; i < 2; i++) {
      const p = router.route(query('q'), { limit: 10 });
      await clock.advance(100);
      expect((await p).outcomes[0]!.status).toBe('failed');
    }
    expect(router.health()[0]).toMatchObject({ state: 'open', consecutiveFailures: 2 });
    expect(router.health()[0]!.errorRate).toBeCloseTo(0.36, 2); // EWMA α = 0.2: 0.2, then 0.2 + 0.2 × 0.8
  });
});
