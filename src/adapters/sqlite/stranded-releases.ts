// Releases of holds whose settlement found the database locked for the whole lock wait. The request
// answered 503 and was charged nothing, but its reservation is still pending on disk: left alone, it
// would hold those credits until this handle closes. So it is settled at 0 in the background, every
// RETRY_MS of the ledger's Clock, until that goes through or the ledger closes (a close releases the
// session's pending holds anyway). A settlement is applied once, so a release racing a late success is safe.

import { LedgerUnavailableError } from '../../errors.js';
import type { Settlement } from '../../ports/ledger.js';
import type { Clock } from '../../types/index.js';

const RETRY_MS = 1_000;

export class StrandedReleases {
  readonly #pending = new Map<string, Settlement>();
  readonly #stop = new AbortController();
  readonly #clock: Clock;
  readonly #release: (s: Settlement) => Promise<unknown>;
  #looping = false;

  /** `release` settles one at 0 (waiting for the lock itself). */
  constructor(clock: Clock, release: (s: Settlement) => Promise<unknown>) {
    this.#clock = clock;
    this.#release = release;
  }

  /** Schedules the release of `s` (a settlement of 0). */
  add(s: Settlement): void {
    if (this.#stop.signal.aborted) return;
    this.#pending.set(s.id, s);
    if (!this.#looping) void this.#loop();
  }

  /** Stops retrying (on close). */
  stop(): void {
    this.#stop.abort();
  }

  async #loop(): Promise<void> {
    this.#looping = true;
    try {
      while (this.#pending.size > 0) {
        await this.#clock.sleep(RETRY_MS, this.#stop.signal);
        for (const [id, s] of this.#pending) {
          try {
            await this.#release(s);
          } catch (error) {
            if (error instanceof LedgerUnavailableError) break; // still locked: all wait for the next round
            // Anything else (the database closed under the ledger) will not get better by retrying.
          }
          this.#pending.delete(id);
        }
      }
    } catch {
      // Stopped by close.
    } finally {
      this.#looping = false;
    }
  }
}
