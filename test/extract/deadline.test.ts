// clockDeadline: an AbortSignal that aborts at a Clock time or with its parent, and whose clear()
// stops both (no timer, no parent listener left behind), without building a DOMException.

import { describe, expect, it } from 'vitest';
import { clockDeadline, DeadlineError } from '../../src/core/extract/deadline.js';
import { TIMER_CLEARED } from '../../src/core/router/timer.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { Clock } from '../../src/types/index.js';

describe('clockDeadline', () => {
  it('aborts with a DeadlineError when the clock reaches it', async () => {
    const clock = new ManualClock();
    const d = clockDeadline(clock, 1000);
    await clock.advance(999);
    expect(d.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(d.signal.reason).toBeInstanceOf(DeadlineError);
    expect(clock.pending).toBe(0);
  });

  it('follows its parent, and after clear() follows neither the clock nor the parent', async () => {
    const clock = new ManualClock();
    const parent = new AbortController();
    const followed = clockDeadline(clock, 1000, parent.signal);
    parent.abort(new Error('caller left'));
    expect((followed.signal.reason as Error).message).toBe('caller left');
    expect(clock.pending).toBe(0);

    const other = new AbortController();
    const cleared = clockDeadline(clock, 1000, other.signal);
    cleared.clear();
    expect(clock.pending).toBe(0);
    other.abort(new Error('late'));
    await clock.advance(2000);
    expect(cleared.signal.aborted).toBe(false);
  });

  it('clears its clock sleep with the shared reason', () => {
    const clock = new ManualClock();
    const signals: AbortSignal[] = [];
    const spy: Clock = { now: () => clock.now(), sleep: (ms, signal) => (signals.push(signal!), clock.sleep(ms, signal)) };
    clockDeadline(spy, 1000).clear();
    expect(signals).toHaveLength(1);
    expect(signals[0]!.reason).toBe(TIMER_CLEARED);
  });
});
