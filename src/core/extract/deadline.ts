// A Clock-driven deadline as an AbortSignal: tests move time instead of waiting.

import { setMaxListeners } from 'node:events';
import { limitedSignal, type TimeLimit } from '../../signals.js';
import type { Clock } from '../../types/index.js';
import { ClockTimer } from '../router/index.js';

export class DeadlineError extends Error {
  override name = 'TimeoutError' as const;
}

/** A deadline is a time limit on the Clock (`clear()` when the work finished first). */
export type Deadline = TimeLimit;

export function clockDeadline(clock: Clock, ms: number, parent?: AbortSignal): Deadline {
  const deadline = limitedSignal(
    parent,
    (fire) => {
      const timer = new ClockTimer(clock, clock.now() + ms, fire);
      timer.arm();
      return () => timer.clear(); // cleared with a shared reason: abort() without one builds a DOMException each time
    },
    () => new DeadlineError(`Deadline of ${ms} ms passed`),
  );
  // Every page of the request listens to it (10 pages exceed Node's default warning limit of 10).
  setMaxListeners(64, deadline.signal);
  return deadline;
}
