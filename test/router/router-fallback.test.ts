// Fall back first, retry later: a failed source hands over to the next untried source at once; failed
// sources are retried (with backoff, under the same deadline) only when no untried source is left.

import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/core/router/router.js';
import { RouteDeadlineError } from '../../src/core/router/source-error.js';
import { SearchUnavailableError } from '../../src/errors.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import { hits, rejection, testEngine } from '../core/helpers.js';
import { eventLog, hit, query, seeded, settle } from './helpers.js';

describe('router: fall back first, retry later', () => {
  it('[a fails, b answers]: b is asked at once, no clock time passes, a is not retried', async () => {
    const clock = new ManualClock();
    const start = clock.now();
    const a = scriptedSource('a', () => ({ fail: 'connection refused' }));
    const b = scriptedSource('b', () => ({ results: [hit(1, 'b')] }));
    const router = createRouter([a, b], { clock, retries: 2, random: seeded(1) });
    // Resolves without the clock being moved: no backoff sleep stands between a's failure and b.
    const r = await router.route(query('q'), { limit: 10 });
    expect(clock.now()).toBe(start);
    expect(clock.pending).toBe(0);
    expect(r.results).toEqual([hit(1, 'b')]);
    expect(a.calls).toHaveLength(1);
    expect(r.outcomes.map((o) => [o.source, o.status, o.attempts])).toEqual([
      ['a', 'failed', 1],
      ['b', 'results', 1],
    ]);
    expect((r.outcomes[0]!.error as Error).message).toBe('connection refused');
  });

  it('[a fails, b fails]: both still get their retries, in turn, with backoff on the clock', async () => {
    const clock = new ManualClock();
    const log = eventLog();
    const a = scriptedSource('a', () => ({ fail: 'a down' }));
    const b = scriptedSource('b', () => ({ fail: 'b down' }));
    const router = createRouter([a, b], { clock, retries: 2, backoffMs: 200, random: () => 0, onSourceAttempt: log.onSourceAttempt });
    const p = router.route(query('q'), { limit: 10 });
    await clock.advance(0);
    expect([a.calls.length, b.calls.length]).toEqual([1, 1]); // both asked before any wait
    await clock.advance(99);
    expect([a.calls.length, b.calls.length]).toEqual([1, 1]);
    await clock.advance(1); // 100 ms: both first backoffs (200 × 0.5) are over
    expect([a.calls.length, b.calls.length]).toEqual([2, 2]);
    await clock.advance(200); // second backoffs (400 × 0.5)
    const r = await p;
    expect([a.calls.length, b.calls.length]).toEqual([3, 3]);
    expect(r.outcomes.map((o) => [o.source, o.status, o.attempts])).toEqual([
      ['a', 'failed', 3],
      ['b', 'failed', 3],
    ]);
    expect(log.events.map((e) => [e.source, e.attempt])).toEqual([
      ['a', 1],
      ['b', 1],
      ['a', 2],
      ['b', 2],
      ['a', 3],
      ['b', 3],
    ]);
    expect(r.results).toEqual([]);
  });

  it('a source that succeeds on its retry still wins', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', (_q, call) => (call === 0 ? { fail: 'flaky' } : { results: [hit(1, 'a')] }));
    const b = scriptedSource('b', () => ({ fail: 'b down' }));
    const r = await settle(clock, createRouter([a, b], { clock, retries: 2, random: () => 0 }).route(query('q'), { limit: 10 }));
    expect(r.results).toEqual([hit(1, 'a')]);
    expect(r.outcomes.map((o) => [o.source, o.status, o.attempts])).toEqual([
      ['a', 'results', 2],
      ['b', 'failed', 1],
    ]);
    expect(b.calls).toHaveLength(1); // a's retry was due first (a tie goes to the source asked first)
  });

  it('an empty answer moves on as before; the failed source is then retried and can still beat it', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', (_q, call) => (call === 0 ? { fail: 'flaky' } : { results: [hit(1, 'a')] }));
    const b = scriptedSource('b', () => ({ results: [], noResultsNotice: true }));
    const p = createRouter([a, b], { clock, retries: 2, random: () => 0 }).route(query('q'), { limit: 10 });
    await clock.advance(0);
    expect(b.calls).toHaveLength(1); // b answered before a's retry
    const r = await settle(clock, p);
    expect(r.outcomes.map((o) => [o.source, o.status, o.attempts])).toEqual([
      ['a', 'results', 2],
      ['b', 'empty', 1],
    ]);
    expect(r.results).toEqual([hit(1, 'a')]);
  });

  it('retries run under the same deadline: no backoff past it, a retry in flight is cut by it', async () => {
    const clock = new ManualClock();
    const start = clock.now();
    const a = scriptedSource('a', () => ({ fail: 'a down' }), { latencyMs: 500, clock });
    const b = scriptedSource('b', () => ({ fail: 'b down' }), { latencyMs: 400, clock });
    const router = createRouter([a, b], { clock, retries: 3, backoffMs: 200, random: () => 0, deadlineMs: 1000 });
    const r = await settle(clock, router.route(query('q'), { limit: 10 }));
    // a fails at 500 (retry due at 600); b fails at 900 (its retry would be due at 1000: none);
    // a's retry starts at 900 and is cut by the deadline at 1000.
    expect([a.calls.length, b.calls.length]).toEqual([2, 1]);
    expect(r.outcomes.map((o) => [o.source, o.status, o.attempts])).toEqual([
      ['a', 'failed', 2],
      ['b', 'failed', 1],
    ]);
    expect(r.outcomes[0]!.error).toBeInstanceOf(RouteDeadlineError);
    expect(clock.now() - start).toBe(1000);
  });
});

describe('engine: fallback costs nothing, the 503 path still retries and never charges', () => {
  const acme = { organization: 'acme' };

  it('[a fails, b answers] through engine.search: answered with no clock time passing, 1 credit', async () => {
    const a = scriptedSource('a', () => ({ fail: 'connection refused' }));
    const b = scriptedSource('b', () => hits(2));
    const t = testEngine({ sources: [a, b] });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    const start = t.clock.now();
    const r = await t.engine.search({ q: 'news' }, acme); // not driven: nothing may sleep
    expect(t.clock.now()).toBe(start);
    expect(r.results).toHaveLength(2);
    expect(r.metadata.credits_used).toBe(1);
    expect(a.calls).toHaveLength(1);
  });

  it('[a fails, b fails]: every source retried, then the 503, nothing charged', async () => {
    const a = scriptedSource('a', () => ({ fail: 'a down' }));
    const b = scriptedSource('b', () => ({ fail: 'b down' }));
    const t = testEngine({ sources: [a, b], router: { retries: 2 } });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    const error = await rejection(t.run(t.engine.search({ q: 'news' }, acme)));
    expect(error).toBeInstanceOf(SearchUnavailableError);
    expect([a.calls.length, b.calls.length]).toEqual([3, 3]);
    expect((await t.engine.usage(acme)).credits).toEqual({ balance: 3, used: 0 });
  });
});
