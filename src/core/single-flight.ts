// Runs tasks sharing a key one after another (per process), so that identical requests of one
// organization don't race past each other's repeat window. Callers of a key form a line: each waits for
// the one before it only, so a completion wakes one waiter (a loop over "whoever runs now" woke every
// waiter at each completion, and each re-added its abort listener: issue 33).

import type { Flights } from '../ports/flights.js';
import { untilAborted } from '../signals.js';

const noop = () => {};

export class SingleFlight implements Flights {
  /** Per key, the last caller's turn: resolves once its task is over (or, had it left the line, once the one before it was). */
  readonly #tails = new Map<string, Promise<void>>();

  /** True while a task of `key` runs or waits in this process (a new one would wait for it). */
  has(key: string): boolean {
    return this.#tails.has(key);
  }

  /** A caller that aborts while waiting for the task ahead of it stops waiting (rejects with the reason). */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const prior = this.#tails.get(key);
    let endTurn!: () => void;
    const turn = new Promise<void>((resolve) => (endTurn = resolve));
    this.#tails.set(key, turn);
    turn.then(() => {
      if (this.#tails.get(key) === turn) this.#tails.delete(key);
    });
    if (prior) {
      try {
        await untilAborted(prior, signal);
      } catch (error) {
        // Left the line: the next caller still waits for the one ahead of this one.
        prior.then(endTurn, noop);
        throw error;
      }
    }
    try {
      signal?.throwIfAborted();
      return await task();
    } finally {
      endTurn();
    }
  }
}
