// Waiting for SQLite's write lock without blocking the event loop. better-sqlite3 is synchronous: with
// `busy_timeout` SQLite sleeps inside the call until the lock frees, and the whole process freezes with it
// (7–20 s measured while another process added 30,000 documents in one transaction). So the busy timeout
// is a couple of milliseconds, and a write that still finds the database locked is retried from the
// event loop after a backoff on the injected Clock, up to a total wait; past it the caller gets
// LedgerUnavailableError (503, retryable) and nothing has been written (the transaction never began).

import { LedgerUnavailableError } from '../../errors.js';
import type { Clock } from '../../types/index.js';

/** SQLite's own wait per attempt (PRAGMA busy_timeout), the only time the event loop is held. */
export const BUSY_TIMEOUT_MS = 2;
/** Default total wait for the lock: long enough for a writer's chunk, far under the extract deadline (30 s). */
export const DEFAULT_LOCK_WAIT_MS = 5_000;
const FIRST_BACKOFF_MS = 2;
// Capped low so a waiter finds the gaps a bulk writer leaves between its chunks (local-index.ts).
const MAX_BACKOFF_MS = 50;

/** SQLITE_BUSY and its extended codes (…_SNAPSHOT, …_RECOVERY, …_TIMEOUT): another connection holds a lock. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `attempt` (a synchronous transaction) now, and again after growing pauses while it fails with
 * SQLITE_BUSY, for at most `waitMs` of `clock` time, then throws `unavailable(cause)` (default:
 * LedgerUnavailableError). The first attempt runs before this returns, so an unlocked database costs no
 * extra turn.
 */
export function withLockWait<T>(
  attempt: () => T,
  clock: Clock,
  waitMs: number,
  unavailable: (cause: unknown) => Error = ledgerUnavailable,
): Promise<T> {
  const startedAt = clock.now();
  try {
    return Promise.resolve(attempt());
  } catch (error) {
    return waitAfterBusy(error, startedAt, attempt, clock, waitMs, unavailable);
  }
}

/**
 * The rest of withLockWait once the first attempt, begun at `startedAt` (clock time), threw `error`:
 * rethrows it unless it is SQLITE_BUSY, else retries after growing pauses until `startedAt + waitMs`.
 * For a caller that made the first attempt itself (database.ts: no clock read when it succeeds).
 */
export async function waitAfterBusy<T>(
  error: unknown,
  startedAt: number,
  attempt: () => T,
  clock: Clock,
  waitMs: number,
  unavailable: (cause: unknown) => Error = ledgerUnavailable,
): Promise<T> {
  const deadline = startedAt + waitMs;
  let pause = FIRST_BACKOFF_MS;
  let last = error;
  for (;;) {
    if (!isBusy(last)) throw last;
    const left = deadline - clock.now();
    if (left <= 0) throw unavailable(last);
    await clock.sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, MAX_BACKOFF_MS);
    try {
      return attempt();
    } catch (next) {
      last = next;
    }
  }
}

const ledgerUnavailable = (cause: unknown): Error => new LedgerUnavailableError(undefined, cause);
