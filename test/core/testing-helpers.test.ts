// websift/testing: the manual clock and the scripted source users test their own code with.

import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/adapters/system-clock.js';
import { parseQuery } from '../../src/core/search/query.js';
import { ManualClock, scriptedSource } from '../../src/testing/index.js';

const ctx = () => ({ signal: new AbortController().signal, limit: 10 });

describe('ManualClock', () => {
  it('fires sleeps in time order only when advanced', async () => {
    const clock = new ManualClock('2026-03-01T00:00:00Z');
    const fired: string[] = [];
    void clock.sleep(200).then(() => fired.push('b'));
    void clock.sleep(100).then(() => fired.push('a'));
    await clock.advance(99);
    expect(fired).toEqual([]);
    await clock.advance(1);
    expect(fired).toEqual(['a']);
    expect(clock.pending).toBe(1);
    await clock.set('2026-03-01T00:00:01Z');
    expect(fired).toEqual(['a', 'b']);
    expect(clock.now()).toBe(Date.parse('2026-03-01T00:00:01Z'));
  });

  it('rejects an aborted sleep with the signal reason and forgets it', async () => {
    const clock = new ManualClock();
    const c = new AbortController();
    const slept = clock.sleep(1000, c.signal);
    c.abort(new Error('stop'));
    await expect(slept).rejects.toThrow('stop');
    expect(clock.pending).toBe(0);
    await expect(clock.sleep(1, c.signal)).rejects.toThrow('stop');
  });

  it('runAll runs chained sleeps to completion', async () => {
    const clock = new ManualClock(0);
    let done = false;
    void (async () => {
      for (let i = 0; i < 5; i++) await clock.sleep(1000);
      done = true;
    })();
    await clock.runAll();
    expect(done).toBe(true);
    expect(clock.now()).toBe(5000);
  });
});

describe('ManualClock.drive', () => {
  it('moves time through the sleeps a call waits on, and only as far as needed', async () => {
    const clock = new ManualClock(0);
    void clock.sleep(10_000); // an unrelated later timer stays pending
    const call = (async () => {
      await clock.sleep(300);
      await clock.sleep(200);
      return 'done';
    })();
    expect(await clock.drive(call)).toBe('done');
    expect(clock.now()).toBe(500);
    await expect(clock.drive(Promise.reject(new Error('no')))).rejects.toThrow('no');
  });

  it('fails fast on a call nothing can wake, and on one past its limit', async () => {
    const clock = new ManualClock(0);
    await expect(clock.drive(new Promise(() => {}), 1000, 50)).rejects.toThrow(/no sleep to wake it/);
    const late = clock.sleep(5_000);
    await expect(clock.drive(late, 1_000, 50)).rejects.toThrow(/still pending after 1000 ms/);
    expect(clock.now()).toBe(0);
  });

  it('waits for real work between sleeps', async () => {
    const clock = new ManualClock(0);
    const call = (async () => {
      await new Promise((r) => setTimeout(r, 20)); // real I/O-like wait
      await clock.sleep(100);
      return clock.now();
    })();
    expect(await clock.drive(call)).toBe(100);
  });
});

describe('scriptedSource', () => {
  it('answers from a record, falls back to a no-results notice, and records calls', async () => {
    const s = scriptedSource('s', { a: { results: [{ title: 't', url: 'https://x/', snippet: '' }] } });
    expect((await s.search(parseQuery('a'), ctx())).results).toHaveLength(1);
    expect(await s.search(parseQuery('b'), ctx())).toEqual({ results: [], noResultsNotice: true });
    expect(s.calls.map((q) => q.q)).toEqual(['a', 'b']);
  });

  it('fails, hangs until aborted, and sleeps its latency on the clock', async () => {
    const clock = new ManualClock();
    const s = scriptedSource('s', (_q, call) => (call === 0 ? { fail: 'boom' } : { hang: true }), {
      latencyMs: 50,
      clock,
      unreliableEmpties: true,
    });
    expect(s.unreliableEmpties).toBe(true);
    const first = expect(s.search(parseQuery('a'), ctx())).rejects.toThrow('boom');
    await clock.advance(50);
    await first;
    const c = new AbortController();
    const hung = expect(s.search(parseQuery('a'), { signal: c.signal, limit: 1 })).rejects.toThrow('timeout');
    await clock.advance(50);
    c.abort(new Error('timeout'));
    await hung;
    await expect(scriptedSource('n', {}, { latencyMs: 5 }).search(parseQuery('a'), ctx())).rejects.toThrow(/needs a clock/);
  });
});

describe('systemClock', () => {
  it('sleeps on real timers and stops when aborted', async () => {
    const t0 = Date.now();
    await systemClock.sleep(20);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(15);
    const c = new AbortController();
    const slept = systemClock.sleep(10_000, c.signal);
    c.abort(new Error('cancel'));
    await expect(slept).rejects.toThrow('cancel');
  });
});
