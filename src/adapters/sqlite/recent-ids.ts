// An in-memory set of recently seen ids, forgotten after a retention (by the Clock) or beyond a cap.
// The SQLite ledger uses it for count-only settlements of ids that were never reserved (free repeats):
// they move no credits, so recording them on disk would cost a page write per free request (~+6 µs,
// measured) for a trace whose only use is not counting a duplicate twice, and such a duplicate can
// only come from the handle that made up the id. Everything that holds or moves credits is traced on
// disk (see schema.ts, migration 2).

import type { Clock } from '../../types/index.js';

export class RecentIds {
  readonly #seen = new Map<string, number>(); // insertion order = time order (for a clock that only advances)
  readonly #clock: Clock;
  readonly #retentionMs: number;
  readonly #max: number;

  constructor(clock: Clock, retentionMs: number, max = 100_000) {
    this.#clock = clock;
    this.#retentionMs = retentionMs;
    this.#max = max;
  }

  has(id: string): boolean {
    return this.#seen.has(id);
  }

  /** Remembers `id`; false when it was already remembered. */
  add(id: string): boolean {
    if (this.#seen.has(id)) return false;
    const now = this.#clock.now();
    for (const [old, at] of this.#seen) {
      if (this.#seen.size < this.#max && now - at < this.#retentionMs) break;
      this.#seen.delete(old);
    }
    this.#seen.set(id, now);
    return true;
  }
}
