// Pruning the trace of finished reservations (rows of `reservations` flagged `finished`, see schema.ts
// migration 2). A finished id is only needed while a duplicate settlement can still arrive, i.e. within
// a request's lifetime (seconds), so ids are kept for a retention (default 1 h from the reservation, by
// the ledger's Clock) and then deleted: all old ones when a ledger opens, then one chunk of the key
// range every PRUNE_EVERY settlements, cycling through the table. Why chunks rather than an index on the
// date: an index adds a page to every settlement's commit (each page costs write() calls to the WAL);
// a chunk of CHUNK rows every PRUNE_EVERY settlements costs well under a µs per settlement and never
// blocks for long. A full cycle takes T·PRUNE_EVERY/CHUNK settlements for T rows, ~6 % of the
// retention at a steady rate: an id is remembered between one and ~1.06 retentions.
// Pending reservations are never deleted here: `finished = 1` is false for them.

import type Database from 'better-sqlite3';
import type { Clock } from '../../types.js';

/** Default retention of finished ids: an hour, far longer than any request (an extract's deadline is 30 s). */
export const FINISHED_RETENTION_MS = 60 * 60 * 1000;
const CHUNK = 1000;
const PRUNE_EVERY = 64;

export interface TracePruner {
  /** Call once per settlement, inside its transaction: every PRUNE_EVERY calls prunes one chunk. */
  tick(): void;
  /** Deletes every finished id older than the retention; returns how many. Inside a transaction. */
  pruneAll(): number;
}

export function tracePruner(db: Database.Database, clock: Clock, retentionMs = FINISHED_RETENTION_MS): TracePruner {
  if (!(Number.isFinite(retentionMs) && retentionMs > 0)) {
    throw new RangeError(`sqliteLedger: finishedRetentionMs must be a positive number of milliseconds (got ${retentionMs})`);
  }
  const dropAll = db.prepare('DELETE FROM reservations WHERE finished = 1 AND created_at <= ?');
  const chunkEnd = db.prepare('SELECT id FROM reservations WHERE id > ? ORDER BY id LIMIT 1 OFFSET ?').pluck();
  const dropRange = db.prepare('DELETE FROM reservations WHERE id > ? AND id <= ? AND finished = 1 AND created_at <= ?');
  const dropRest = db.prepare('DELETE FROM reservations WHERE id > ? AND finished = 1 AND created_at <= ?');
  /** The newest created_at that is at least a retention old. */
  const cutoffOf = (now: number) => now - retentionMs;
  let cursor = '';
  let calls = 0;

  return {
    tick() {
      if (++calls < PRUNE_EVERY) return;
      calls = 0;
      const cutoff = cutoffOf(clock.now());
      const end = chunkEnd.get(cursor, CHUNK - 1) as string | undefined;
      if (end === undefined) {
        dropRest.run(cursor, cutoff); // the last chunk: wrap around
        cursor = '';
      } else {
        dropRange.run(cursor, end, cutoff);
        cursor = end;
      }
    },
    pruneAll: () => dropAll.run(cutoffOf(clock.now())).changes,
  };
}
