// A lane's AbortSignal is made only when someone reads it (src/core/router/lane-abort.ts): a source that
// answers from memory without looking at `ctx.signal` costs no signal (~3 µs on Node 20), and one that
// reads it gets a real AbortSignal of its own lane, aborted with the lane's reason, even when it reads it
// late, through a spread of `ctx`, or keeps it after answering.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { LaneAbort } from '../../src/core/router/lane-abort.js';
import { createRouter } from '../../src/core/router/router.js';
import { SourceTimeoutError } from '../../src/core/router/source-error.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { Clock, SearchSource, SourceContext } from '../../src/types/index.js';
import { hit, query } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('router: the lane signal, made on demand', () => {
  it('makes no AbortSignal for a source that answers without reading ctx.signal', async () => {
    const made = vi.spyOn(AbortController.prototype, 'signal', 'get');
    const quick = scriptedSource('quick', () => ({ results: [hit(1, 'quick')] }));
    const router = createRouter([quick], { clock: new ManualClock() });
    for (let i = 0; i < 5; i++) expect((await router.route(query(`q${i}`), { limit: 10 })).results).toEqual([hit(1, 'quick')]);
    expect(made).not.toHaveBeenCalled();
  });

  it('reads the clock twice for a source that answers at once: the route start and the answer', async () => {
    const clock = new ManualClock();
    let reads = 0;
    const counting: Clock = {
      now: () => {
        reads++;
        return clock.now();
      },
      sleep: (ms, signal) => clock.sleep(ms, signal),
    };
    const router = createRouter([scriptedSource('quick', () => ({ results: [hit(1)] }))], { clock: counting });
    await router.route(query('warm'), { limit: 10 });
    reads = 0;
    await router.route(query('q'), { limit: 10 });
    expect(reads).toBe(2);
  });

  it('gives a source that reads it a real AbortSignal, also through a spread of ctx, the same on every read', async () => {
    const seen: { signal: AbortSignal; spread: AbortSignal; again: AbortSignal; keys: string[] }[] = [];
    const reading: SearchSource = {
      id: 'reading',
      search: async (_q, ctx) => {
        const copy: SourceContext = { ...ctx };
        seen.push({ signal: ctx.signal, spread: copy.signal, again: ctx.signal, keys: Object.keys(ctx) });
        ctx.signal.throwIfAborted();
        return { results: [hit(1)] };
      },
    };
    await createRouter([reading], { clock: new ManualClock() }).route(query('q'), { limit: 7 });
    const [s] = seen;
    expect(s!.signal).toBeInstanceOf(AbortSignal);
    expect(s!.spread).toBe(s!.signal);
    expect(s!.again).toBe(s!.signal);
    expect(s!.keys.sort()).toEqual(['limit', 'signal']);
  });

  it("never lets a signal kept after answering see a later search's abort", async () => {
    const clock = new ManualClock();
    const kept: AbortSignal[] = [];
    let hang = false;
    const keeping: SearchSource = {
      id: 'keeping',
      search: (_q, ctx) => {
        const signal = ctx.signal;
        kept.push(signal);
        if (!hang) return Promise.resolve({ results: [hit(1)] });
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      },
    };
    const router = createRouter([keeping], { clock, retries: 0 });
    for (let i = 0; i < 3; i++) await router.route(query(`q${i}`), { limit: 10 });
    hang = true;
    const caller = new AbortController();
    const pending = router.route(query('hangs'), { limit: 10, signal: caller.signal });
    await clock.advance(0);
    caller.abort(new Error('caller gone'));
    await expect(pending).rejects.toThrow('caller gone');
    expect(new Set(kept).size).toBe(4);
    expect(kept.slice(0, 3).map((s) => s.aborted)).toEqual([false, false, false]);
    expect(kept[3]!.aborted).toBe(true);
    expect(kept[3]!.reason).toEqual(new Error('caller gone'));
  });

  it("aborts a source's signal read only while it waits with the attempt timeout", async () => {
    const clock = new ManualClock();
    let signal: AbortSignal | undefined;
    const late: SearchSource = {
      id: 'late',
      // Reads ctx.signal only after a while (e.g. once its own work has started).
      search: async (_q, ctx) => {
        await clock.sleep(10);
        signal = ctx.signal;
        return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
      },
    };
    const p = createRouter([late], { clock, attemptTimeoutMs: 100, retries: 0 }).route(query('q'), { limit: 10 });
    await clock.advance(10);
    expect(signal?.aborted).toBe(false);
    await clock.advance(90);
    const r = await p;
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(SourceTimeoutError);
    expect(r.outcomes[0]!.error).toBe(signal?.reason);
  });
});

describe('LaneAbort', () => {
  it('makes a signal read after the abort already aborted, with the same reason', () => {
    const lane = new LaneAbort();
    const reason = new Error('deadline');
    lane.abort(reason);
    lane.abort(new Error('second')); // the first abort wins
    const ctx = lane.sourceContext(10);
    expect(ctx.limit).toBe(10);
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe(reason);
    expect(lane.reason).toBe(reason);
  });

  it("runs a made signal's listeners at the abort, once", () => {
    const lane = new LaneAbort();
    const signal = lane.signal;
    const heard: unknown[] = [];
    signal.addEventListener('abort', () => heard.push(signal.reason));
    expect(lane.aborted).toBe(false);
    const reason = new Error('hedge lost');
    lane.abort(reason);
    lane.abort(new Error('again'));
    expect(heard).toEqual([reason]);
    expect(lane.aborted).toBe(true);
  });

  it('takes an AbortError DOMException as the reason of an abort without one, as AbortController does', () => {
    const lane = new LaneAbort();
    lane.abort(undefined);
    expect(lane.reason).toBeInstanceOf(DOMException);
    expect((lane.reason as DOMException).name).toBe('AbortError');
    expect(lane.signal.reason).toBe(lane.reason);
  });
});
