// Hedging: when the current source is slower than its recent p95, the next one is asked too; the first
// lane with results wins and the other is aborted through its signal; an empty first finisher does not end
// the search. Only lanes aborted because another had results are left out of the outcomes.

import { describe, expect, it } from 'vitest';
import { CallTrace, callSources } from '../../src/channels.js';
import { createRouter, type RouterOptions } from '../../src/core/router/router.js';
import { RouteDeadlineError } from '../../src/core/router/source-error.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type ScriptedAnswer, scriptedSource } from '../../src/testing/scripted-source.js';
import type { SearchSource } from '../../src/types/index.js';
import { eventLog, hit, query } from './helpers.js';

const WARM = 20;

/** Source `a`: 100 ms with results for the first 20 calls (its p95 becomes 100 ms), then `slow`. */
function setup(
  slow: { latency: number; answer: ScriptedAnswer },
  b: { latency: number; answer: ScriptedAnswer },
  extra: Partial<RouterOptions> = {},
) {
  const clock = new ManualClock();
  const log = eventLog();
  const signals: Record<string, AbortSignal[]> = { a: [], b: [], c: [] };
  const watch = (s: ReturnType<typeof scriptedSource>): SearchSource & { calls: unknown[] } => ({
    id: s.id,
    calls: s.calls,
    search: (q, ctx) => {
      signals[s.id]!.push(ctx.signal);
      return s.search(q, ctx);
    },
  });
  const a = watch(
    scriptedSource('a', (_q, call) => (call < WARM ? { results: [hit(call, 'a')] } : slow.answer), {
      clock,
      latencyMs: (_q, call) => (call < WARM ? 100 : slow.latency),
    }),
  );
  const bs = watch(scriptedSource('b', () => b.answer, { clock, latencyMs: b.latency }));
  const c = watch(scriptedSource('c', () => ({ results: [], noResultsNotice: true }), { clock, latencyMs: 10 }));
  const router = createRouter([a, bs, c], { clock, onSourceAttempt: log.onSourceAttempt, ...extra });
  const warm = async () => {
    for (let i = 0; i < WARM; i++) {
      const p = router.route(query(`warm${i}`), { limit: 10 });
      await clock.advance(100);
      await p;
    }
    log.events.length = 0;
  };
  return { clock, router, a, b: bs, c, signals, log, warm };
}

describe('router: hedging', () => {
  it('asks the next source at the p95 mark and aborts the slow one when the hedge has results', async () => {
    const t = setup({ latency: 2000, answer: { results: [hit(1, 'a')] } }, { latency: 50, answer: { results: [hit(1, 'b')] } });
    await t.warm();
    const p = t.router.route(query('q'), { limit: 10 });
    await t.clock.advance(99);
    expect(t.b.calls).toHaveLength(0);
    await t.clock.advance(1);
    expect(t.b.calls).toHaveLength(1);
    await t.clock.advance(50);
    const r = await p;
    expect(r.results).toEqual([hit(1, 'b')]);
    expect(t.signals.a!.at(-1)!.aborted).toBe(true);
    // The aborted loser was not routed to: only b is an outcome.
    expect(r.outcomes.map((o) => [o.source, o.status])).toEqual([['b', 'results']]);
    expect(t.log.events.map((e) => [e.source, e.outcome, e.hedged, e.latencyMs])).toEqual([
      ['b', 'results', true, 50],
      ['a', 'aborted', false, 150],
    ]);
    expect(t.clock.pending).toBe(0);
  });

  it("notes each call's end on the search's traced context: the hedge as it answered, the lost source not (the access log's sources)", async () => {
    const t = setup({ latency: 2000, answer: { results: [hit(1, 'a')] } }, { latency: 50, answer: { results: [hit(1, 'b')] } });
    await t.warm();
    const trace = new CallTrace('search', 'acme', undefined);
    const p = t.router.route(query('q'), { limit: 10, trace });
    await t.clock.advance(150);
    await p;
    await t.clock.advance(0);
    expect(callSources(trace)).toEqual({ answered: ['b'], fallback: false, hedged: true });
    // Not one of the context's public fields, nor serialized.
    expect(Object.keys(trace)).not.toContain('answered');
    expect(JSON.stringify(trace)).not.toContain('hedged');
  });

  it('keeps waiting for the slow source when the hedge comes back empty', async () => {
    const t = setup({ latency: 300, answer: { results: [hit(9, 'a')] } }, { latency: 50, answer: { results: [], noResultsNotice: true } });
    await t.warm();
    const p = t.router.route(query('q'), { limit: 10 });
    await t.clock.advance(300);
    const r = await p;
    expect(r.results).toEqual([hit(9, 'a')]);
    // b came back empty at 150 while a was past its p95, so c (empty at 160) was hedged in too; both
    // finished, so both are consulted sources.
    expect(r.outcomes.map((o) => [o.source, o.status])).toEqual([
      ['a', 'results'],
      ['b', 'empty'],
      ['c', 'empty'],
    ]);
    expect(t.signals.a!.at(-1)!.aborted).toBe(false);
  });

  it('counts both finishers when both are empty and goes on (at most two sources in flight)', async () => {
    const t = setup(
      { latency: 300, answer: { results: [], noResultsNotice: true } },
      { latency: 50, answer: { results: [], noResultsNotice: true } },
    );
    await t.warm();
    const p = t.router.route(query('q'), { limit: 10 });
    await t.clock.advance(149);
    expect(t.c.calls).toHaveLength(0); // b in flight with a: no third lane
    await t.clock.advance(1); // b empty at 150; a is past its p95 → c is asked as a hedge right away
    expect(t.c.calls).toHaveLength(1);
    await t.clock.advance(150);
    const r = await p;
    expect(r.outcomes.map((o) => [o.source, o.status, o.noResultsNotice])).toEqual([
      ['a', 'empty', true],
      ['b', 'empty', true],
      ['c', 'empty', true],
    ]);
    expect(t.log.events.filter((e) => e.source === 'c').map((e) => e.hedged)).toEqual([true]);
  });

  it('takes the hedge when the slow source fails, without waiting for its retries', async () => {
    const t = setup({ latency: 150, answer: { fail: 'boom' } }, { latency: 100, answer: { results: [hit(1, 'b')] } });
    await t.warm();
    const p = t.router.route(query('q'), { limit: 10 });
    await t.clock.advance(200);
    const r = await p;
    expect(r.results).toEqual([hit(1, 'b')]);
    // a failed once and was left for a retry after the untried sources: routed to, failed, not retried.
    expect(r.outcomes.map((o) => [o.source, o.status, o.attempts])).toEqual([
      ['a', 'failed', 1],
      ['b', 'results', 1],
    ]);
    expect(t.log.events.map((e) => [e.source, e.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'results'],
    ]);
  });

  it('does not hedge with hedging: false', async () => {
    const t = setup(
      { latency: 2000, answer: { results: [hit(1, 'a')] } },
      { latency: 50, answer: { results: [hit(1, 'b')] } },
      { hedging: false },
    );
    await t.warm();
    const p = t.router.route(query('q'), { limit: 10 });
    await t.clock.advance(1999);
    expect(t.b.calls).toHaveLength(0);
    await t.clock.advance(1);
    expect((await p).results).toEqual([hit(1, 'a')]);
  });

  it('does not hedge before 20 latencies are known', async () => {
    const t = setup({ latency: 2000, answer: { results: [hit(1, 'a')] } }, { latency: 50, answer: { results: [hit(1, 'b')] } });
    const p = t.router.route(query('q'), { limit: 10 }); // a's first call: 100 ms, no history
    await t.clock.advance(99);
    expect(t.b.calls).toHaveLength(0);
    await t.clock.advance(1);
    await p;
    expect(t.b.calls).toHaveLength(0);
  });

  for (const [percentile, mark] of [
    [0.5, 100],
    [undefined, 190],
  ] as const) {
    it(`hedges at the ${percentile ?? 'default 0.95'} percentile of recent latencies (${mark} ms)`, async () => {
      const clock = new ManualClock();
      // Latencies 10, 20, …, 200 ms, then one slow call.
      const a = scriptedSource('a', (_q, call) => ({ results: [hit(call, 'a')] }), {
        clock,
        latencyMs: (_q, call) => (call < WARM ? 10 * (call + 1) : 5000),
      });
      const b = scriptedSource('b', () => ({ results: [hit(1, 'b')] }), { clock, latencyMs: 10 });
      const router = createRouter([a, b], { clock, ...(percentile === undefined ? {} : { hedgePercentile: percentile }) });
      for (let i = 0; i < WARM; i++) {
        const p = router.route(query(`w${i}`), { limit: 10 });
        await clock.runAll();
        await p;
      }
      expect(b.calls).toHaveLength(0);
      const p = router.route(query('q'), { limit: 10 });
      await clock.advance(mark - 1);
      expect(b.calls).toHaveLength(0);
      await clock.advance(1);
      expect(b.calls).toHaveLength(1);
      await clock.advance(10);
      expect((await p).results).toEqual([hit(1, 'b')]);
    });
  }

  it('aborts both lanes at the deadline and reports both as failed', async () => {
    const t = setup(
      { latency: 2000, answer: { results: [hit(1, 'a')] } },
      { latency: 2000, answer: { results: [hit(1, 'b')] } },
      { deadlineMs: 1000 },
    );
    await t.warm();
    const p = t.router.route(query('q'), { limit: 10 });
    await t.clock.advance(1000);
    const r = await p;
    expect(r.outcomes.map((o) => [o.source, o.status])).toEqual([
      ['a', 'failed'],
      ['b', 'failed'],
    ]);
    expect(r.outcomes[0]!.error).toBeInstanceOf(RouteDeadlineError);
    expect(t.signals.a!.at(-1)!.aborted && t.signals.b!.at(-1)!.aborted).toBe(true);
    expect(t.c.calls).toHaveLength(0);
  });
});

describe('router: hedging on a long-tailed pair (the benchmark, smaller)', () => {
  it('cuts p99 from the tail to about p95 + a median, for about 10 % more calls', async () => {
    const { simulate } = await import('../../bench/hedging-sim.js');
    const model = { medianMs: 100, sigma: 0.25, tailShare: 0.05, tailMs: 2000 };
    // Measured after 50 searches, once the first source has a latency history to hedge by.
    const off = await simulate({ searches: 300, warmup: 50, hedging: false, seed: 3, model });
    const on = await simulate({ searches: 300, warmup: 50, hedging: true, seed: 3, model });
    expect(off.p99).toBe(2000);
    expect(on.p99).toBeLessThan(3.5 * on.p50);
    expect(on.callsPerSearch).toBeLessThan(1.2);
  });
});
