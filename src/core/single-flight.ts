// Runs tasks sharing a key one after another (per process), so that identical requests of one
// organization don't race past each other's repeat window. Callers of a key form a line: each waits for
// the one before it only, so a completion wakes one waiter (a loop over "whoever runs now" woke every
// waiter at each completion, and each re-added its abort listener: issue 33). A turn's promise is made
// only when a caller comes to wait for it: nearly every search is alone with its key, and two promises
// and their reactions per call were ~1 µs of a charged search in memory (issue 33, third pass).

import type { Flights } from '../ports/flights.js';
import { untilAborted } from '../signals.js';

const noop = () => {};

/** One caller's place in its key's line. */
class Turn {
  over = false;
  #done: Promise<void> | undefined;
  #end: (() => void) | undefined;

  /** Resolves once the turn is over (made on the first ask: only a caller behind this one asks). */
  done(): Promise<void> {
    if (this.over) return Promise.resolve();
    this.#done ??= new Promise<void>((resolve) => (this.#end = resolve));
    return this.#done;
  }

  end(): void {
    this.over = true;
    this.#end?.();
  }
}

export class SingleFlight implements Flights {
  /** Per key, the last caller's turn: over once its task is (or, had it left the line, once the one before it was). */
  readonly #tails = new Map<string, Turn>();

  /** True while a task of `key` runs or waits in this process (a new one would wait for it). */
  has(key: string): boolean {
    return this.#tails.has(key);
  }

  /** A caller that aborts while waiting for the task ahead of it stops waiting (rejects with the reason). */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const prior = this.#tails.get(key);
    const turn = new Turn();
    this.#tails.set(key, turn);
    if (prior) {
      const ahead = prior.done();
      try {
        await untilAborted(ahead, signal);
      } catch (error) {
        // Left the line: the next caller still waits for the one ahead of this one.
        ahead.then(() => this.#end(key, turn), noop);
        throw error;
      }
    }
    try {
      signal?.throwIfAborted();
      return await task();
    } finally {
      this.#end(key, turn);
    }
  }

  #end(key: string, turn: Turn): void {
    turn.end();
    if (this.#tails.get(key) === turn) this.#tails.delete(key);
  }
}
