// A Clock-driven deadline as an AbortSignal: tests move time instead of waiting.

import type { Clock } from '../../types.js';

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
  const timer = new AbortController();
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
    timer.abort();
  };
  clock.sleep(ms, timer.signal).then(
    () => abort(new DeadlineError(`Deadline of ${ms} ms passed`)),
    () => undefined,
  );
  if (parent) {
    if (parent.aborted) abort(parent.reason);
    else parent.addEventListener('abort', () => abort(parent.reason), { once: true });
  }
  return { signal: controller.signal, clear: () => timer.abort() };
}
