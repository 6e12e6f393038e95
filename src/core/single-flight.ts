// Runs tasks sharing a key one after another (per process), so that identical requests of one
// organization don't race past each other's repeat window.

import type { Flights } from '../ports/flights.js';
import { untilAborted } from '../signals.js';

export class SingleFlight implements Flights {
  readonly #running = new Map<string, Promise<unknown>>();

  /** True while a task of `key` runs in this process (a new one would wait for it). */
  has(key: string): boolean {
    return this.#running.has(key);
  }

  /** A caller that aborts while waiting for the task ahead of it stops waiting (rejects with the reason). */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let prior = this.#running.get(key); prior; prior = this.#running.get(key)) {
      const settled = prior.then(
        () => undefined,
        () => undefined,
      );
      await untilAborted(settled, signal);
    }
    signal?.throwIfAborted();
    const current = task();
    this.#running.set(key, current);
    try {
      return await current;
    } finally {
      if (this.#running.get(key) === current) this.#running.delete(key);
    }
  }
}
