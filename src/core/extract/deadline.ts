// A Clock-driven deadline as an AbortSignal: tests move time instead of waiting.

import { setMaxListeners } from 'node:events';
import type { Clock } from '../../types.js';
import { ClockTimer } from '../router-timer.js';

export class DeadlineError extends Error {
  override name = 'TimeoutError' as const;
}

export interface Deadline {
  signal: AbortSignal;
  /** Stops the timer (call when the work finished first). */
  clear(): void;
}

export function clockDeadline(clock: Clock, ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  // Every page of the request listens to it (10 pages exceed Node's default warning limit of 10).
  setMaxListeners(64, controller.signal);
  const onParentAbort = () => abort(parent?.reason);
  const timer = new ClockTimer(clock, clock.now() + ms, () => abort(new DeadlineError(`Deadline of ${ms} ms passed`)));
  const clear = () => {
    timer.clear(); // cleared with a shared reason: abort() without one builds a DOMException each time
    parent?.removeEventListener('abort', onParentAbort);
  };
  function abort(reason: unknown): void {
    if (!controller.signal.aborted) controller.abort(reason);
    clear();
  }
  timer.arm();
  if (parent) {
    if (parent.aborted) abort(parent.reason);
    else parent.addEventListener('abort', onParentAbort, { once: true });
  }
  return { signal: controller.signal, clear };
}
