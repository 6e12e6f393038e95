// Request counters of count-only settlements (free repeats: nothing reserved, nothing charged),
// added in memory and written in one transaction per event-loop turn. Measured through the HTTP
// binding, a free repeat's own transaction cost ~20 µs of a ~190 µs request (~+40 µs counting the
// promise chain around it); a batch costs one UPDATE per organization per turn. What this trades:
// another process reading usage sees these counts up to one event-loop turn late, and a crash in that
// turn loses them (they move no credits). This handle's own usage() flushes first, so it is exact.
// While the database is locked by another writer the counts stay in memory and go with the next flush.

import type { RequestKind } from '../../ports/ledger.js';
import type { SqliteDatabase } from './database.js';

interface Counts {
  search: number;
  extract: number;
  free: number;
}

export class FreeCounts {
  readonly #pending = new Map<string, Counts>();
  readonly #write: (durable: boolean, batch: [string, Counts][]) => Promise<void>;
  #scheduled = false;
  /** The batch being written (possibly waiting for the lock). */
  #writing: Promise<void> | undefined;

  constructor(store: SqliteDatabase) {
    const bump = store.db.prepare(
      `UPDATE organizations SET search_requests = search_requests + @search,
         extract_requests = extract_requests + @extract, free_requests = free_requests + @free WHERE id = ?`,
    );
    this.#write = store.write((batch: [string, Counts][]) => {
      for (const [organization, counts] of batch) bump.run(counts, organization);
    });
  }

  /** Counts one answered free request of `organization` (an unknown one is counted nowhere). */
  add(organization: string, kind: RequestKind): void {
    this.#merge(organization, { search: kind === 'search' ? 1 : 0, extract: kind === 'extract' ? 1 : 0, free: 1 });
    if (!this.#scheduled) {
      this.#scheduled = true;
      // Failing (the database locked for the whole wait, or closed under the ledger: a ledger's own
      // close flushes first), the counts stay pending for the next flush.
      setImmediate(() => void this.flush().catch(() => undefined));
    }
  }

  /**
   * Writes what is pending (before a read of the counters, and on close); on failure keeps it pending.
   * Resolves once every count added before the call is written, including a batch still waiting for the lock.
   */
  async flush(): Promise<void> {
    this.#scheduled = false;
    while (this.#writing) await this.#writing.catch(() => undefined);
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending];
    this.#pending.clear();
    const writing = this.#write(false, batch);
    this.#writing = writing;
    try {
      await writing;
    } catch (error) {
      for (const [organization, counts] of batch) this.#merge(organization, counts); // rolled back: none written
      throw error;
    } finally {
      this.#writing = undefined;
    }
  }

  #merge(organization: string, add: Counts): void {
    const counts = this.#pending.get(organization);
    if (!counts) this.#pending.set(organization, { ...add });
    else {
      counts.search += add.search;
      counts.extract += add.extract;
      counts.free += add.free;
    }
  }
}
