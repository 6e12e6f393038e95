// Pruning the trace of finished reservations (rows of `reservations` flagged `finished`, see schema.ts
// migration 2). A finished id is only needed while a duplicate settlement can still arrive, i.e. within
// a request's lifetime (seconds), so ids are kept for a retention (default 1 h from the reservation, by
// the ledger's Clock) and then deleted, one chunk of the key range at a time, cycling through the table:
// up to OPEN_CHUNKS chunks when a ledger opens, then one every PRUNE_EVERY settlements. Why chunks rather
// than an index on the date: an index adds a page to every settlement's commit (each page costs write()
// calls to the WAL); a chunk of CHUNK rows every PRUNE_EVERY settlements costs well under a µs per
// settlement and never blocks for long. Why bounded on open: a full prune scanned the whole table, so
// opening a file with 10⁶ rows took ~300 ms (docs/benchmarks.md); the ids are time-ordered (UUIDv7), so the
// oldest rows come first in key order and the opening chunks shed them. A full cycle takes
// T·PRUNE_EVERY/CHUNK settlements for T rows, ~6 % of the retention at a steady rate: an id is remembered
// between one and ~1.06 retentions (longer while a file sees fewer settlements than that).
// Pending reservations are never deleted here: `finished = 1` is false for them.

import type Database from 'better-sqlite3';
import type { Clock } from '../../types/index.js';

/** Default retention of finished ids: an hour, far longer than any request (an extract's deadline is 30 s). */
export const FINISHED_RETENTION_MS = 60 * 60 * 1000;
const CHUNK = 1000;
const PRUNE_EVERY = 64;
/** At most this many chunks on open (4,000 rows, ~20 ms of deletes), stopping at the first chunk with nothing old. */
export const OPEN_CHUNKS = 4;

export interface TracePruner {
  /** Call once per settlement, inside its transaction: every PRUNE_EVERY calls prunes one chunk. */
  tick(): void;
  /** On open: prunes up to OPEN_CHUNKS chunks from the start of the key range; returns how many ids went. Inside a transaction. */
  pruneOpening(): number;
}

export function tracePruner(db: Database.Database, clock: Clock, retentionMs = FINISHED_RETENTION_MS): TracePruner {
  if (!(Number.isFinite(retentionMs) && retentionMs > 0)) {
    throw new RangeError(`sqliteLedger: finishedRetentionMs must be a positive number of milliseconds (got ${retentionMs})`);
  }
  const chunkEnd = db.prepare('SELECT id FROM reservations WHERE id > ? ORDER BY id LIMIT 1 OFFSET ?').pluck();
  const dropRange = db.prepare('DELETE FROM reservations WHERE id > ? AND id <= ? AND finished = 1 AND created_at <= ?');
  const dropRest = db.prepare('DELETE FROM reservations WHERE id > ? AND finished = 1 AND created_at <= ?');
  let cursor = '';
  let calls = 0;

  /** Prunes the next chunk of the key range (wrapping around after the last); returns how many ids went. */
  const step = (): { deleted: number; wrapped: boolean } => {
    const cutoff = clock.now() - retentionMs; // the newest created_at that is at least a retention old
    const end = chunkEnd.get(cursor, CHUNK - 1) as string | undefined;
    if (end === undefined) {
      const deleted = dropRest.run(cursor, cutoff).changes; // the last chunk: wrap around
      cursor = '';
      return { deleted, wrapped: true };
    }
    const deleted = dropRange.run(cursor, end, cutoff).changes;
    cursor = end;
    return { deleted, wrapped: false };
  };

  return {
    tick() {
      if (++calls < PRUNE_EVERY) return;
      calls = 0;
      step();
    },
    pruneOpening() {
      let total = 0;
      for (let i = 0; i < OPEN_CHUNKS; i++) {
        const { deleted, wrapped } = step();
        total += deleted;
        if (wrapped || deleted === 0) break;
      }
      return total;
    },
  };
}
