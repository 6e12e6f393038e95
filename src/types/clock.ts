// The injected clock: every time-based rule reads it and nothing else.
/** Time, injected. Every time-based rule reads this and nothing else. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Optional: told of real work the engine waits on that no sleep of this clock measures (a page's fetch,
   * its conversion on a worker thread). A test clock (`ManualClock`) holds its time still while such work
   * is in flight, so driving it around a call does not reach the call's deadline before real I/O could
   * answer. The system clock has no use for it.
   */
  track?(work: Promise<unknown>): void;
}
