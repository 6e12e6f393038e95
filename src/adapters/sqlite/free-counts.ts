// Request counters of count-only settlements (free repeats: nothing reserved, nothing charged),
// added in memory and written in one transaction per event-loop turn. Measured through the HTTP
// binding, a free repeat's own transaction cost ~20 µs of a ~190 µs request (~+40 µs counting the
// promise chain around it); a batch costs one UPDATE per organization per turn. What this trades:
// another process reading usage sees these counts up to one event-loop turn late, and a crash in that
// turn loses them (they move no credits). This handle's own usage() flushes first, so it is exact.

import type { RequestKind } from '../../ports/ledger.js';
import type { SqliteDatabase } from './database.js';

interface Counts {
  search: number;
  extract: number;
  free: number;
}

export class FreeCounts {
  readonly #pending = new Map<string, Counts>();
  readonly #write: (durable: boolean, batch: [string, Counts][]) => void;
  #scheduled = false;

  constructor(store: SqliteDatabase) {
    const bump = store.db.prepare(
      `UPDATE organizations SET search_requests = search_requests + @search,
         extract_requests = extract_requests + @extract, free_requests = free_requests + @free WHERE id = ?`,
    );
    this.#write = store.transaction((batch: [string, Counts][]) => {
      for (const [organization, counts] of batch) bump.run(counts, organization);
    });
  }

  /** Counts one answered free request of `organization` (an unknown one is counted nowhere). */
  add(organization: string, kind: RequestKind): void {
    let counts = this.#pending.get(organization);
    if (!counts) this.#pending.set(organization, (counts = { search: 0, extract: 0, free: 0 }));
    counts[kind]++;
    counts.free++;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        try {
          this.flush();
        } catch {
          // The database was closed under the ledger (a ledger's own close flushes first): the
          // counts are lost, as in a crash; they move no credits.
        }
      });
    }
  }

  /** Writes what is pending (before a read of the counters, and on close). */
  flush(): void {
    this.#scheduled = false;
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending];
    this.#pending.clear();
    this.#write(false, batch);
  }
}
