// Ledger writes that failed for want of the database (PostgreSQL unreachable, a SQLite file locked past
// the wait) but must still happen: the release (or void) of a hold whose settlement failed, and the
// finish of an idempotency claim. Left undone, credits would stay held, and a claim would keep a live
// owner so every retry with its key got 409 until the instance restarted. Each is queued under a name
// (a later one of the same name replaces it) and retried until it goes through or the ledger closes:
// by the SQLite ledger every RETRY_MS of its Clock, by the PostgreSQL ledger after each heartbeat and
// after any call that reached the database. Every task is safe to repeat and to race with a late
// success: a settlement applies once, a void is idempotent, a claim is finished only by its owner.

import { LedgerUnavailableError } from '../errors.js';
import type { Settlement } from '../ports/ledger.js';
import type { Clock } from '../types/index.js';

/** The task name of a hold's release (or void): one per reservation. */
export const releaseTaskName = (id: string): string => `settle ${id}`;

/** The task name of an idempotency claim's finish: one per key. */
export const finishTaskName = (organization: string, key: string): string => `finish ${organization}\n${key}`;

/** The settlement that releases a hold: nothing charged, nothing counted (the call answered 503). */
export const releaseOf = ({ id, organization, kind }: Pick<Settlement, 'id' | 'organization' | 'kind'>): Settlement => ({
  id,
  organization,
  kind,
  charged: 0,
  answered: false,
});

/** Pause between rounds of the SQLite ledger's retries (its Clock). */
export const RETRY_MS = 1_000;

export class RetryQueue {
  readonly #pending = new Map<string, () => Promise<unknown>>();
  readonly #stop = new AbortController();
  readonly #clock: Clock | undefined;
  #looping = false;
  #draining: Promise<boolean> | undefined;

  /** With a clock, retries by itself every RETRY_MS; without, only when drain() is called. */
  constructor(clock?: Clock) {
    this.#clock = clock;
  }

  get size(): number {
    return this.#pending.size;
  }

  add(name: string, task: () => Promise<unknown>): void {
    if (this.#stop.signal.aborted) return;
    this.#pending.set(name, task);
    if (this.#clock && !this.#looping) void this.#loop(this.#clock);
  }

  /** Runs the task queued under `name` now, if any (failing again, it stays queued). */
  async runNow(name: string): Promise<void> {
    const task = this.#pending.get(name);
    if (task) await this.#attempt(name, task);
  }

  /**
   * One round over every task, in order, stopping at the first the database is still unavailable for.
   * Resolves true when nothing that was queued is left.
   */
  drain(): Promise<boolean> {
    this.#draining ??= (async () => {
      for (const [name, task] of this.#pending) {
        if (!(await this.#attempt(name, task))) return false;
      }
      return true;
    })().finally(() => {
      this.#draining = undefined;
    });
    return this.#draining;
  }

  /** Stops retrying (on close: a close releases its own holds and claims anyway). */
  stop(): void {
    this.#stop.abort();
  }

  /** False when the database is still unavailable (the task stays queued). */
  async #attempt(name: string, task: () => Promise<unknown>): Promise<boolean> {
    try {
      await task();
    } catch (error) {
      if (error instanceof LedgerUnavailableError) return false;
      // Anything else (the database closed under the ledger) will not get better by retrying.
    }
    if (this.#pending.get(name) === task) this.#pending.delete(name);
    return true;
  }

  async #loop(clock: Clock): Promise<void> {
    this.#looping = true;
    try {
      while (this.#pending.size > 0) {
        await clock.sleep(RETRY_MS, this.#stop.signal);
        await this.drain();
      }
    } catch {
      // Stopped by close.
    } finally {
      this.#looping = false;
    }
  }
}
