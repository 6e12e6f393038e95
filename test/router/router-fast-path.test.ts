// The router's fast path: a source that answers at once costs no clock timer (attempt timeout, route
// deadline, hedge mark are armed only when something waits), cleared timers are aborted with one shared
// reason instead of a new DOMException, and a source that answers within the clock's resolution (a p95 of
// 0 ms) is never hedged before it even had to wait.

import { describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../src/core/router/router.js';
import { SourceTimeoutError } from '../../src/core/router/source-error.js';
import { ClockTimer, TIMER_CLEARED } from '../../src/core/router/timer.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { Clock, SearchSource } from '../../src/types/index.js';
import { hit, query } from './helpers.js';

/** A ManualClock that records every sleep's duration and signal. */
function spyClock() {
  const clock = new ManualClock();
  const sleeps: { ms: number; signal: AbortSignal | undefined }[] = [];
  const spy: Clock = {
    now: () => clock.now(),
    sleep: (ms, signal) => {
      sleeps.push({ ms, signal });
      return clock.sleep(ms, signal);
    },
  };
  return { clock, spy, sleeps };
}

describe('router: fast path', () => {
  it('arms no timer for a source that answers at once, with one source or with hedging possible', async () => {
    const { spy, sleeps } = spyClock();
    const a = scriptedSource('a', () => ({ results: [hit(1, 'a')] }));
    const b = scriptedSource('b', () => ({ results: [hit(1, 'b')] }));
    const router = createRouter([a, b], { clock: spy });
    // 25 searches: past the 20 latencies hedging needs, so a hedge mark (0 ms) exists for the later ones.
    for (let i = 0; i < 25; i++) {
      const r = await router.route(query(`q${i}`), { limit: 10 });
      expect(r.results).toEqual([hit(1, 'a')]);
    }
    expect(sleeps).toEqual([]);
    // A mark of 0 ms must not mean "hedge at once": b would be called on every search.
    expect(b.calls).toHaveLength(0);
  });

  it("listens to the caller's signal only once something waits; an abort is honoured either way", async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const quick = scriptedSource('quick', () => ({ results: [hit(1, 'quick')] }));
    const router = createRouter([quick], { clock });
    for (let i = 0; i < 5; i++) await router.route(query(`q${i}`), { limit: 10, signal: controller.signal });
    expect(add).not.toHaveBeenCalled(); // ~2 µs per search on Node 20 for a listener nothing could fire

    // Aborted while the source answers at once (in a microtask): the route still throws the reason.
    const aborting = scriptedSource('aborting', () => {
      queueMicrotask(() => controller.abort(new Error('caller gone')));
      return { results: [hit(1, 'aborting')] };
    });
    await expect(createRouter([aborting], { clock }).route(query('q'), { limit: 10, signal: controller.signal })).rejects.toThrow(
      'caller gone',
    );

    // A pending call: the listener is added when it waits, and an abort stops the route.
    const later = new AbortController();
    const hang = scriptedSource('hang', {}, { fallback: { hang: true } });
    const pending = createRouter([hang], { clock, retries: 0 }).route(query('q'), { limit: 10, signal: later.signal });
    await clock.advance(0);
    later.abort(new Error('left'));
    await expect(pending).rejects.toThrow('left');
  });

  it('arms the attempt timeout and the deadline once a call is pending, timed from the call start', async () => {
    const { clock, spy, sleeps } = spyClock();
    const hang = scriptedSource('hang', {}, { fallback: { hang: true } });
    const p = createRouter([hang], { clock: spy, attemptTimeoutMs: 1000, deadlineMs: 3000, retries: 0 }).route(query('q'), { limit: 10 });
    await clock.advance(0);
    expect(sleeps.map((s) => s.ms).sort((x, y) => x - y)).toEqual([1000, 3000]);
    await clock.advance(999);
    expect(hang.calls).toHaveLength(1);
    await clock.advance(1);
    const r = await p;
    expect(r.outcomes[0]!.error).toBeInstanceOf(SourceTimeoutError);
    expect(clock.pending).toBe(0);
  });

  it('clears its timers with the shared reason, never a DOMException', async () => {
    const { clock, spy, sleeps } = spyClock();
    const slow = scriptedSource('slow', () => ({ results: [hit(1)] }), { clock, latencyMs: 10 });
    const p = createRouter([slow], { clock: spy }).route(query('q'), { limit: 10 });
    await clock.advance(10);
    expect((await p).results).toEqual([hit(1)]);
    const routerSleeps = sleeps.filter((s) => s.ms !== 10); // the source's own latency sleep is not the router's
    expect(routerSleeps.map((s) => s.ms).sort((x, y) => x - y)).toEqual([5000, 15000]);
    for (const s of routerSleeps) {
      expect(s.signal?.aborted).toBe(true);
      expect(s.signal?.reason).toBe(TIMER_CLEARED);
    }
    expect(clock.pending).toBe(0);
  });

  it('counts an answer a few microtasks late as an answer, and leaves no timer behind', async () => {
    const { clock, spy } = spyClock();
    const deferred: SearchSource = {
      id: 'deferred',
      search: async () => {
        for (let i = 0; i < 5; i++) await Promise.resolve();
        return { results: [hit(1)] };
      },
    };
    const r = await createRouter([deferred], { clock: spy }).route(query('q'), { limit: 10 });
    expect(r.outcomes).toMatchObject([{ source: 'deferred', status: 'results', attempts: 1 }]);
    expect(clock.pending).toBe(0);
  });

  it('still hedges a source with a 0 ms mark once a call of it has to wait', async () => {
    const clock = new ManualClock();
    let slowNow = false;
    const a: SearchSource = {
      id: 'a',
      search: (_q, ctx) =>
        slowNow
          ? new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }))
          : Promise.resolve({ results: [hit(1, 'a')] }),
    };
    const b = scriptedSource('b', () => ({ results: [hit(1, 'b')] }), { clock, latencyMs: 5 });
    const router = createRouter([a, b], { clock });
    for (let i = 0; i < 20; i++) await router.route(query(`warm${i}`), { limit: 10 });
    expect(b.calls).toHaveLength(0);
    slowNow = true;
    const p = router.route(query('q'), { limit: 10 });
    await clock.advance(0); // the mark (0 ms) has passed as soon as a waits
    expect(b.calls).toHaveLength(1);
    await clock.advance(5);
    const r = await p;
    expect(r.results).toEqual([hit(1, 'b')]);
    expect(clock.pending).toBe(0);
  });
});

describe('ClockTimer', () => {
  it('sleeps only once armed, fires at the time fixed at creation, and never after clear', async () => {
    const { clock, spy, sleeps } = spyClock();
    const fired: number[] = [];
    const timer = new ClockTimer(spy, clock.now() + 500, () => fired.push(clock.now()));
    expect(sleeps).toHaveLength(0);
    await clock.advance(200);
    timer.arm();
    timer.arm(); // idempotent
    expect(sleeps.map((s) => s.ms)).toEqual([300]);
    await clock.advance(300);
    expect(fired).toEqual([clock.now()]);

    const cleared = new ClockTimer(spy, clock.now() + 100, () => fired.push(-1));
    cleared.clear();
    cleared.arm(); // a cleared timer stays cleared
    await clock.advance(1000);
    expect(fired).toHaveLength(1);
    expect(sleeps).toHaveLength(1);
  });
});
