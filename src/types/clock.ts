// The injected clock: every time-based rule reads it and nothing else.
/** Time, injected. Every time-based rule reads this and nothing else. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
