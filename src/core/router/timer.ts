// A timer on the injected Clock that costs nothing until it is armed, and is cleared cheaply. Searches
// against fast sources finish without ever waiting, so the router arms its timers (attempt timeout,
// route deadline, hedge mark) only once something actually waits; the fire time is fixed at creation,
// so arming late does not move it. Profiling showed the eager version (an AbortController per timer,
// cleared with `abort()`, which builds a DOMException with a stack trace) as most of the router's cost.

import type { Clock } from '../../types/index.js';

/**
 * The reason a cleared timer's sleep is aborted with. Built once: `controller.abort()` without a reason
 * creates a new DOMException (and its stack) on every call.
 */
export const TIMER_CLEARED: unknown = Object.freeze({ name: 'TimerCleared', message: 'The timer was cleared' });

const noop = () => {};

export class ClockTimer {
  readonly #clock: Clock;
  readonly #at: number;
  readonly #onFire: () => void;
  #controller: AbortController | undefined;
  #state: 'idle' | 'armed' | 'done' = 'idle';

  /** `at`: the clock time at which `onFire` runs, once armed and unless cleared first. */
  constructor(clock: Clock, at: number, onFire: () => void) {
    this.#clock = clock;
    this.#at = at;
    this.#onFire = onFire;
  }

  get armed(): boolean {
    return this.#state === 'armed';
  }

  /** Starts the clock sleep (idempotent). A time already past fires on the clock's next turn. */
  arm(): void {
    if (this.#state !== 'idle') return;
    this.#state = 'armed';
    const controller = new AbortController();
    this.#controller = controller;
    this.#clock.sleep(Math.max(0, this.#at - this.#clock.now()), controller.signal).then(() => {
      if (this.#state !== 'armed') return;
      this.#state = 'done';
      this.#onFire();
    }, noop);
  }

  /** Never fires after this (idempotent); a sleep in progress is aborted with TIMER_CLEARED. */
  clear(): void {
    if (this.#state === 'armed') this.#controller?.abort(TIMER_CLEARED);
    this.#state = 'done';
  }
}
