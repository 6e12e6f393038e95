// Sequential routing: best-first, fallback on failure (retries: router-fallback.test.ts), continue after empty, stop at the first results,
// per-attempt timeout, retries with backoff and the whole-route deadline, all on a manual clock.

import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/core/router/router.js';
import { RouteDeadlineError, SourceError, SourceTimeoutError } from '../../src/core/router/source-error.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { SearchSource, SourceContext } from '../../src/types/index.js';
import { eventLog, hit, query, seeded, settle } from './helpers.js';

describe('router: sequential routing', () => {
  it('stops at the first source with results and passes the limit on', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', () => ({ results: [hit(1, 'a')] }));
    const b = scriptedSource('b', () => ({ results: [hit(1, 'b')] }));
    let seenLimit = 0;
    const spy: SearchSource = {
      id: 'spy',
      search: async (_q, ctx) => {
        seenLimit = ctx.limit;
        return { results: [hit(1)] };
      },
    };
    const router = createRouter([a, b], { clock });
    const r = await router.route(query('cats'), { limit: 10 });
    expect(r.results).toEqual([hit(1, 'a')]);
    expect(r.outcomes).toEqual([
      { source: 'a', unreliableEmpties: false, status: 'results', results: [hit(1, 'a')], noResultsNotice: false, attempts: 1 },
    ]);
    expect(b.calls).toHaveLength(0);
    await createRouter([spy], { clock }).route(query('x'), { limit: 7 });
    expect(seenLimit).toBe(7);
  });

  it('continues after an empty answer and reports notices and unreliableEmpties', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', () => ({ results: [], noResultsNotice: true }), { unreliableEmpties: true });
    const b = scriptedSource('b', () => ({ results: [] }));
    const c = scriptedSource('c', () => ({ results: [hit(2, 'c')] }));
    const r = await createRouter([a, b, c], { clock }).route(query('q'), { limit: 10 });
    expect(r.outcomes.map((o) => [o.source, o.status, o.noResultsNotice, o.unreliableEmpties])).toEqual([
      ['a', 'empty', true, true],
      ['b', 'empty', false, false],
      ['c', 'results', false, false],
    ]);
    expect(r.results).toEqual([hit(2, 'c')]);
  });

  it('asks every source when all are empty and returns no results', async () => {
    const clock = new ManualClock();
    const sources = ['a', 'b', 'c'].map((id) => scriptedSource(id, () => ({ results: [], noResultsNotice: true })));
    const r = await createRouter(sources, { clock }).route(query('q'), { limit: 10 });
    expect(r.outcomes.map((o) => o.status)).toEqual(['empty', 'empty', 'empty']);
    expect(r.results).toEqual([]);
  });

  it('retries a failing source (retries + 1 calls) once no other source is left to ask', async () => {
    const clock = new ManualClock();
    const log = eventLog();
    const a = scriptedSource('a', () => ({ fail: 'boom' }));
    const router = createRouter([a], { clock, retries: 2, random: seeded(1), onSourceAttempt: log.onSourceAttempt });
    const r = await settle(clock, router.route(query('q'), { limit: 10 }));
    expect(a.calls).toHaveLength(3);
    expect(r.outcomes).toMatchObject([{ source: 'a', status: 'failed', attempts: 3 }]);
    expect((r.outcomes[0]!.error as Error).message).toBe('boom');
    expect(log.events.map((e) => [e.source, e.outcome, e.attempt, e.hedged])).toEqual([
      ['a', 'failed', 1, false],
      ['a', 'failed', 2, false],
      ['a', 'failed', 3, false],
    ]);
  });

  it('honours retries: 0', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', () => ({ fail: 'boom' }));
    const r = await createRouter([a], { clock, retries: 0 }).route(query('q'), { limit: 10 });
    expect(a.calls).toHaveLength(1);
    expect(r.outcomes).toMatchObject([{ status: 'failed', attempts: 1 }]);
  });

  it('waits a jittered exponential backoff on the clock between attempts', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', (_q, call) => (call < 2 ? { fail: 'flaky' } : { results: [hit(1)] }));
    // random() = 0 → jitter factor 0.5: delays are 100 ms, then 200 ms.
    const router = createRouter([a], { clock, backoffMs: 200, retries: 2, random: () => 0 });
    const p = router.route(query('q'), { limit: 10 });
    await clock.advance(0);
    expect(a.calls).toHaveLength(1);
    await clock.advance(99);
    expect(a.calls).toHaveLength(1);
    await clock.advance(1);
    expect(a.calls).toHaveLength(2);
    await clock.advance(199);
    expect(a.calls).toHaveLength(2);
    await clock.advance(1);
    expect(a.calls).toHaveLength(3);
    expect((await p).outcomes).toMatchObject([{ status: 'results', attempts: 3 }]);
  });

  it('scales the jitter with random(): factor in [0.5, 1)', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', (_q, call) => (call < 1 ? { fail: 'flaky' } : { results: [hit(1)] }));
    const p = createRouter([a], { clock, backoffMs: 1000, random: () => 0.9 }).route(query('q'), { limit: 10 });
    await clock.advance(949);
    expect(a.calls).toHaveLength(1);
    await clock.advance(1);
    expect(a.calls).toHaveLength(2);
    await p;
  });

  it('times an attempt out on the clock and aborts its signal', async () => {
    const clock = new ManualClock();
    let signal: AbortSignal | undefined;
    const hang: SearchSource = {
      id: 'hang',
      search: (_q, ctx: SourceContext) => {
        signal = ctx.signal;
        return new Promise(() => {});
      }, // ignores its signal
    };
    const b = scriptedSource('b', () => ({ results: [hit(1, 'b')] }));
    const p = createRouter([hang, b], { clock, attemptTimeoutMs: 1000, retries: 0 }).route(query('q'), { limit: 10 });
    await clock.advance(999);
    expect(signal?.aborted).toBe(false);
    expect(b.calls).toHaveLength(0);
    await clock.advance(1);
    const r = await p;
    expect(signal?.aborted).toBe(true);
    expect(r.outcomes[0]!.status).toBe('failed');
    expect(r.outcomes[0]!.error).toBeInstanceOf(SourceTimeoutError);
    expect(r.results).toEqual([hit(1, 'b')]);
  });

  it('does not retry a timed-out source: the next source gets the time instead', async () => {
    const clock = new ManualClock();
    const hang = scriptedSource('hang', {}, { fallback: { hang: true } });
    const b = scriptedSource('b', () => ({ results: [hit(1, 'b')] }));
    const p = createRouter([hang, b], { clock, retries: 2 }).route(query('q'), { limit: 10 });
    await clock.advance(5000); // the default attempt timeout
    const r = await p;
    expect(hang.calls).toHaveLength(1);
    expect(r.outcomes.map((o) => [o.source, o.status, o.attempts])).toEqual([
      ['hang', 'failed', 1],
      ['b', 'results', 1],
    ]);
  });

  it('counts an answer that arrives after the abort as a failure', async () => {
    const clock = new ManualClock();
    // Answers with results at 200 ms whatever its signal says.
    const late: SearchSource = {
      id: 'late',
      search: async () => {
        await clock.sleep(200);
        return { results: [hit(1)] };
      },
    };
    const p = createRouter([late], { clock, attemptTimeoutMs: 100, retries: 0 }).route(query('q'), { limit: 10 });
    const r = await settle(clock, p);
    expect(r.outcomes).toMatchObject([{ source: 'late', status: 'failed' }]);
    expect(r.results).toEqual([]);
  });

  it('treats a synchronous throw and a malformed answer as failures', async () => {
    const clock = new ManualClock();
    const throws: SearchSource = {
      id: 't',
      search: () => {
        throw new Error('sync');
      },
    };
    const malformed = { id: 'm', search: async () => ({ results: [{ title: 'x', url: 42, snippet: '' }] }) } as unknown as SearchSource;
    const noArray = { id: 'n', search: async () => ({}) } as unknown as SearchSource;
    const r = await createRouter([throws, malformed, noArray], { clock, retries: 0 }).route(query('q'), { limit: 10 });
    expect(r.outcomes.map((o) => o.status)).toEqual(['failed', 'failed', 'failed']);
    expect((r.outcomes[0]!.error as Error).message).toBe('sync');
    expect(r.outcomes[1]!.error).toBeInstanceOf(SourceError);
    expect((r.outcomes[1]!.error as SourceError).reason).toBe('bad_response');
    expect((r.outcomes[2]!.error as Error).message).toMatch(/results is not an array/);
  });

  it('stops at the whole-route deadline: the cut source fails, later sources are not asked', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', {}, { fallback: { hang: true } });
    const b = scriptedSource('b', {}, { fallback: { hang: true } });
    const c = scriptedSource('c', () => ({ results: [hit(1)] }));
    const router = createRouter([a, b, c], { clock, attemptTimeoutMs: 5000, retries: 0, deadlineMs: 8000 });
    const p = router.route(query('q'), { limit: 10 });
    await clock.advance(5000);
    expect(b.calls).toHaveLength(1);
    await clock.advance(3000);
    const r = await p;
    expect(r.outcomes.map((o) => [o.source, o.status])).toEqual([
      ['a', 'failed'],
      ['b', 'failed'],
    ]);
    expect(r.outcomes[1]!.error).toBeInstanceOf(RouteDeadlineError);
    expect(c.calls).toHaveLength(0);
    expect(clock.pending).toBe(0);
  });

  it('does not start a backoff that would end past the deadline', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', () => ({ fail: 'boom' }), { latencyMs: 900, clock });
    const p = createRouter([a], { clock, retries: 5, backoffMs: 200, random: () => 0, deadlineMs: 1000 }).route(query('q'), { limit: 10 });
    const r = await settle(clock, p);
    expect(a.calls).toHaveLength(1); // 900 ms + 100 ms backoff reaches the deadline
    expect(r.outcomes).toMatchObject([{ status: 'failed', attempts: 1 }]);
  });

  it('rejects with the caller signal reason when the caller aborts, aborting the source', async () => {
    const clock = new ManualClock();
    let signal: AbortSignal | undefined;
    const hang: SearchSource = {
      id: 'h',
      search: (_q, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    };
    const caller = new AbortController();
    const p = createRouter([hang], { clock }).route(query('q'), { limit: 10, signal: caller.signal });
    await clock.advance(10);
    caller.abort(new Error('client went away'));
    await expect(p).rejects.toThrow('client went away');
    expect(signal?.aborted).toBe(true);
    const pre = new AbortController();
    pre.abort(new Error('already'));
    await expect(createRouter([hang], { clock }).route(query('q'), { limit: 10, signal: pre.signal })).rejects.toThrow('already');
  });

  it('returns no outcomes when there is no source', async () => {
    const r = await createRouter([], { clock: new ManualClock() }).route(query('q'), { limit: 10 });
    expect(r).toEqual({ outcomes: [], results: [] });
  });

  it('survives an observer that throws', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', () => ({ results: [hit(1)] }));
    const r = await createRouter([a], {
      clock,
      onSourceAttempt: () => {
        throw new Error('observer bug');
      },
    }).route(query('q'), { limit: 10 });
    expect(r.results).toHaveLength(1);
  });
});

describe('router: bad input', () => {
  const clock = new ManualClock();
  const a = scriptedSource('a', () => ({ results: [] }));
  it('rejects bad options with the option named', () => {
    expect(() => createRouter([a], { clock, retries: -1 })).toThrow(/retries/);
    expect(() => createRouter([a], { clock, attemptTimeoutMs: 0 })).toThrow(/attemptTimeoutMs/);
    expect(() => createRouter([a], { clock, deadlineMs: Number.NaN })).toThrow(/deadlineMs/);
    expect(() => createRouter([a], { clock, breaker: { failureThreshold: 0 } })).toThrow(/failureThreshold/);
    expect(() => createRouter([a], { clock, hedgePercentile: 1.5 })).toThrow(/hedgePercentile/);
    expect(() => createRouter([a], {} as never)).toThrow(/clock/);
    expect(() => createRouter([a, a], { clock })).toThrow(/duplicate source id "a"/);
    expect(() => createRouter([{ id: '' } as never], { clock })).toThrow(/sources\[0\]/);
    expect(() => createRouter('a' as never, { clock })).toThrow(/array/);
  });
  it('rejects a bad limit or query', async () => {
    const router = createRouter([a], { clock });
    await expect(router.route(query('q'), { limit: 0 })).rejects.toThrow(/limit/);
    await expect(router.route(null as never, { limit: 10 })).rejects.toThrow(/query/);
  });
});
