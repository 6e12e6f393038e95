// Ordering by health: configured order with no data; demotion by error rate and by latency (faded with
// age); similar health keeps the configured order; the same seed and clock steps give the same run.

import { describe, expect, it } from 'vitest';
import { HEALTH_HALF_LIFE_MS, SourceHealthTracker } from '../../src/core/router/health.js';
import { costBucket, rankSources } from '../../src/core/router/order.js';
import { createRouter, type SourceAttemptEvent } from '../../src/core/router/router.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import { hit, query, seeded } from './helpers.js';

const empty = () => ({ results: [], noResultsNotice: true });
const order = (r: { outcomes: { source: string }[] }) => r.outcomes.map((o) => o.source);

async function timed<T>(clock: ManualClock, p: Promise<T>, ms: number): Promise<T> {
  await clock.advance(ms);
  return p;
}

describe('router: ordering by health', () => {
  it('uses the configured order when nothing is known', async () => {
    const clock = new ManualClock();
    const sources = ['c', 'a', 'b'].map((id) => scriptedSource(id, empty));
    expect(order(await createRouter(sources, { clock }).route(query('q'), { limit: 10 }))).toEqual(['c', 'a', 'b']);
  });

  it('demotes a source after failures, and lets it back once the errors are old', async () => {
    const clock = new ManualClock();
    let failing = true;
    const a = scriptedSource('a', () => (failing ? { fail: 'down' } : empty()));
    const b = scriptedSource('b', empty);
    const router = createRouter([a, b], { clock, retries: 0 });
    expect(order(await router.route(query('q'), { limit: 10 }))).toEqual(['a', 'b']);
    failing = false;
    expect(order(await router.route(query('q'), { limit: 10 }))).toEqual(['b', 'a']);
    // An answer lowers the rate but one success does not wipe out the recent failure...
    expect(order(await router.route(query('q'), { limit: 10 }))).toEqual(['b', 'a']);
    // ...time does: after several half-lives the failure no longer counts.
    await clock.advance(6 * HEALTH_HALF_LIFE_MS);
    expect(order(await router.route(query('q'), { limit: 10 }))).toEqual(['a', 'b']);
  });

  it('demotes a clearly slower source, keeps the configured order for similar latencies', async () => {
    const clock = new ManualClock();
    const latency: Record<string, number> = { a: 400, b: 10 };
    const a = scriptedSource('a', empty, { clock, latencyMs: () => latency.a! });
    const b = scriptedSource('b', empty, { clock, latencyMs: () => latency.b! });
    const router = createRouter([a, b], { clock, hedging: false });
    expect(order(await timed(clock, router.route(query('q'), { limit: 10 }), 410))).toEqual(['a', 'b']);
    expect(order(await timed(clock, router.route(query('q'), { limit: 10 }), 410))).toEqual(['b', 'a']);

    const c = scriptedSource('c', empty, { clock, latencyMs: 100 });
    const d = scriptedSource('d', empty, { clock, latencyMs: 80 });
    const similar = createRouter([c, d], { clock, hedging: false });
    for (let i = 0; i < 3; i++) {
      expect(order(await timed(clock, similar.route(query('q'), { limit: 10 }), 180))).toEqual(['c', 'd']);
    }
  });

  it('puts a never-measured source level with the best known one (configured order decides)', async () => {
    const clock = new ManualClock();
    const a = scriptedSource('a', empty, { clock, latencyMs: 1000 });
    const b = scriptedSource('b', () => ({ results: [hit(1, 'b')] }), { clock, latencyMs: 20 });
    const c = scriptedSource('c', empty);
    const router = createRouter([a, b, c], { clock, hedging: false });
    expect(order(await timed(clock, router.route(query('q'), { limit: 10 }), 1020))).toEqual(['a', 'b']);
    // c never answered: it borrows b's 20 ms and keeps its place after b, but goes before the slow a.
    b.search = async () => ({ results: [] });
    const r = router.route(query('q'), { limit: 10 });
    await clock.runAll();
    expect(order(await r)).toEqual(['b', 'c', 'a']);
  });

  it('buckets costs by doubling', () => {
    expect([0, 24, 25, 74, 75, 174, 175, 374].map(costBucket)).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
});

describe('router health tracker', () => {
  const policy = { failureThreshold: 3, coolDownMs: 1000, suspendMs: 5000, hedgePercentile: 0.95 };
  it('gives a nearest-rank percentile only from 20 samples on', () => {
    const t = new SourceHealthTracker('a', policy);
    for (let i = 1; i <= 19; i++) t.recordAnswer(i * 10, 0);
    expect(t.latencyPercentile(0.95)).toBeUndefined();
    t.recordAnswer(200, 0);
    expect(t.latencyPercentile(0.95)).toBe(190); // rank ceil(0.95 × 20) = 19
    expect(t.latencyPercentile(1)).toBe(200);
  });
  it('records a race loser only as a lower bound of its EWMA; other cancels not at all', () => {
    const t = new SourceHealthTracker('a', policy);
    for (let i = 0; i < 20; i++) t.recordAnswer(100, 0);
    for (let i = 0; i < 2; i++) t.recordCancelled(5000, false, 0);
    expect(t.latencyMs).toBe(100);
    t.recordCancelled(90, true, 0); // below the EWMA: says nothing
    expect(t.latencyMs).toBe(100);
    t.recordCancelled(5000, true, 0);
    expect(t.latencyMs).toBe(100 + 0.2 * (400 - 100)); // capped at 4× the EWMA
    expect(t.latencyPercentile(1)).toBe(100); // the window only holds finished calls
  });
  it('caps the hedge mark at 3× the recent median', () => {
    const t = new SourceHealthTracker('a', policy);
    for (let i = 0; i < 18; i++) t.recordAnswer(100, 0);
    for (let i = 0; i < 2; i++) t.recordAnswer(2000, 0);
    expect(t.latencyPercentile(0.95)).toBe(2000);
    expect(t.hedgeMark()).toBe(300);
  });
  it('caps outliers entering the latency EWMA at 4× its value', () => {
    const t = new SourceHealthTracker('a', policy);
    t.recordAnswer(100, 0);
    t.recordAnswer(2000, 0);
    expect(t.latencyMs).toBe(160);
    t.recordAnswer(50, 0);
    expect(t.latencyMs).toBe(138);
  });
  it('fades the error rate with a half-life', () => {
    const t = new SourceHealthTracker('a', policy);
    t.recordFailure(new Error('x'), 5, 1000, false);
    expect(t.errorRate(1000)).toBeCloseTo(0.2);
    expect(t.errorRate(1000 + HEALTH_HALF_LIFE_MS)).toBeCloseTo(0.1);
  });
});

describe('router: determinism', () => {
  async function run(seed: number): Promise<{ events: SourceAttemptEvent[]; orders: string[][]; health: unknown }> {
    const clock = new ManualClock();
    const rnd = seeded(seed);
    const events: SourceAttemptEvent[] = [];
    // Each source's behaviour comes from its own seeded stream, so runs differ only by the seed.
    const mk = (id: string, s: number) => {
      const r = seeded(s);
      return scriptedSource(
        id,
        () => {
          const x = r();
          return x < 0.2 ? { fail: 'flaky' } : x < 0.6 ? { results: [], noResultsNotice: true } : { results: [hit(1, id)] };
        },
        { clock, latencyMs: () => 20 + Math.floor(r() * 200) },
      );
    };
    const router = createRouter([mk('a', seed + 1), mk('b', seed + 2), mk('c', seed + 3)], {
      clock,
      random: rnd,
      onSourceAttempt: (e) => events.push({ ...e, error: String(e.error) }),
    });
    const orders: string[][] = [];
    for (let i = 0; i < 60; i++) {
      const p = router.route(query(`q${i}`), { limit: 10 });
      await clock.runAll();
      orders.push(order(await p));
      await clock.advance(1000);
    }
    return { events, orders, health: router.health() };
  }
  it('gives the same order, outcomes and health for the same seed and clock steps', async () => {
    const first = await run(7);
    const second = await run(7);
    expect(second).toEqual(first);
    expect(first.events.length).toBeGreaterThan(60);
    expect(await run(8)).not.toEqual(first);
  });
});

describe('rankSources', () => {
  it('leaves out a source whose breaker is open, alone (its shortcut) or among others', async () => {
    const clock = new ManualClock();
    const policy = { failureThreshold: 2, coolDownMs: 1000, suspendMs: 60_000, hedgePercentile: 95 };
    const entry = (id: string, index: number) => ({
      source: scriptedSource(id, empty),
      tracker: new SourceHealthTracker(id, policy),
      index,
    });
    const a = entry('a', 0);
    const b = entry('b', 1);
    expect(rankSources([a], clock.now(), 5000)).toEqual([a]);
    for (let i = 0; i < 2; i++) a.tracker.recordFailure(new Error('down'), 1, clock.now(), false);
    expect(a.tracker.state(clock.now())).toBe('open');
    expect(rankSources([a], clock.now(), 5000)).toEqual([]);
    expect(rankSources([a, b], clock.now(), 5000)).toEqual([b]);
    await clock.advance(1000); // half-open: ranked again, for its trial call
    expect(rankSources([a], clock.now(), 5000)).toEqual([a]);
  });
});
