// timingSince's timestamp: made once per clock millisecond and shared by the calls in it
// (src/core/timing.ts), always the ISO form of that call's own clock time.

import { describe, expect, it } from 'vitest';
import { isoTimestamp, timingSince } from '../../src/core/timing.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

describe('timingSince', () => {
  it('stamps each call with its own clock time, whether or not the millisecond changed or went back', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 28, 4, 0, 0));
    const start = clock.now();
    const seen: string[] = [];
    const expected: string[] = [];
    for (const step of [0, 0, 1, 0, 999, 1000, -1500, 0, 0.4, 0.7]) {
      if (step > 0) await clock.advance(step);
      const at = step < 0 ? clock.now() + step : clock.now();
      const timing = timingSince({ now: () => at, sleep: (ms, s) => clock.sleep(ms, s) }, start);
      seen.push(timing.timestamp);
      expected.push(new Date(at).toISOString());
      expect(timing.response_time).toBe(Math.max(0, Math.round(at - start)));
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBeGreaterThan(3);
  });

  it('shares one string within a millisecond and throws for an invalid time, as toISOString', () => {
    const t = Date.UTC(2026, 10, 28);
    expect(isoTimestamp(t)).toBe('2026-11-28T00:00:00.000Z');
    expect(isoTimestamp(t)).toBe(isoTimestamp(t));
    expect(isoTimestamp(t + 1)).toBe('2026-11-28T00:00:00.001Z');
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
    expect(isoTimestamp(t)).toBe('2026-11-28T00:00:00.000Z');
  });
});
