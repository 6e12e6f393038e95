// The Flights port: runs tasks sharing a key one after another, so that identical requests of one
// organization don't race past each other's repeat window (the second becomes a free repeat instead
// of a second paid source call). The in-process one (src/core/single-flight.ts) serves one process;
// a shared one (Redis) makes instances wait for each other.

export interface Flights {
  /**
   * Runs `task` once no other task with `key` is running; a caller that aborts while waiting stops
   * waiting (rejects with the signal's reason). A shared implementation may run the task without
   * waiting when it can't coordinate (its store is down): waiting is an optimization, never a rule.
   */
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  close?(): Promise<void>;
}
