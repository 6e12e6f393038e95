// Opens the SQLite file that holds ledger, keys and counters (default ':memory:'), migrates it, and
// registers this open as a session. Reservations belong to a session; on every open, sessions
// whose process is gone (crashed) are removed with their reservations, so no credits stay stranded.
// After the open, writes never wait for the lock synchronously (lock-wait.ts).

import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Clock } from '../../types/index.js';
import { systemClock } from '../system-clock.js';
import type { Durability } from './durability.js';
import { BUSY_TIMEOUT_MS, DEFAULT_LOCK_WAIT_MS, isBusy, waitAfterBusy } from './lock-wait.js';
import { currentProcess, type ProcessIdentity, processAlive } from './process-alive.js';
import { migrate } from './schema.js';

export type { Durability };

export interface SqliteOptions {
  /** File path, or ':memory:' (the default). */
  database?: string;
  /**
   * 'full' (default): a commit that charges credits is fsynced (synchronous=FULL) before it returns.
   * 'normal': charges survive a process crash but the last ones may be lost on power loss; faster.
   * Reservations and free-request counters never need the fsync: a lost reservation is a released one.
   */
  durability?: Durability;
  /** Paces the waits for a locked database (default: the system clock). */
  clock?: Clock;
  /**
   * How long a write waits, in ms, for a lock another connection holds before it fails with
   * LedgerUnavailableError (503, retryable, nothing written); default 5,000. Waited on the event loop
   * (retries with backoff), never inside SQLite.
   */
  lockWaitMs?: number;
}

/** How long the open itself (migration, session row) may wait for the lock, synchronously: it runs once, at start-up. */
const OPEN_BUSY_TIMEOUT_MS = 5_000;

export interface SqliteDatabase {
  readonly db: Database.Database;
  /** This open's session id (a UUID). */
  readonly session: string;
  /** The session's number (sessions.n): what its reservations store, to keep their rows small. */
  readonly sessionNumber: number;
  /**
   * Wraps `fn` as an IMMEDIATE transaction (built once: call the result per operation).
   * `durable` decides per call whether the commit is fsynced (when durability is 'full').
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (durable: boolean, ...args: A) => R;
  /** Like `transaction`, but a locked database is waited for on the event loop (up to `lockWaitMs`). */
  write<A extends unknown[], R>(fn: (...args: A) => R): (durable: boolean, ...args: A) => Promise<R>;
  /**
   * Whether session `n` is live: its row exists (a clean close removes it) and it is not dead by the
   * crash rule below. What owns an idempotency claim, like a reservation.
   */
  sessionAlive(n: number): boolean;
  close(): void;
}

/** Sessions opened by this process and not yet closed: the only ones of our pid that are alive. */
const liveSessions = new Set<string>();

export function openSqlite(options: SqliteOptions = {}): SqliteDatabase {
  const path = options.database ?? ':memory:';
  const inMemory = path === ':memory:' || path === '';
  const clock = options.clock ?? systemClock;
  const lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  if (!(Number.isFinite(lockWaitMs) && lockWaitMs >= 0)) {
    throw new RangeError(`openSqlite: lockWaitMs must be a non-negative number of milliseconds (got ${lockWaitMs})`);
  }
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
    // Small pages for a new file (no effect on an existing one): every commit appends each page it touched
    // to the WAL, and a charge touches two tiny rows; 1 KiB pages cut a reserve + settle by ~15 % of CPU.
    db.pragma('page_size = 1024');
    db.pragma('foreign_keys = ON');
    if (!inMemory) db.pragma('journal_mode = WAL');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  // A database in memory has nothing to fsync: never switch PRAGMA synchronous for it (each switch is
  // an exec, two per charged request).
  const full = options.durability !== 'normal' && !inMemory;
  let synced: boolean | undefined;

  function transaction<A extends unknown[], R>(fn: (...args: A) => R) {
    const tx = db.transaction(fn);
    return (durable: boolean, ...args: A): R => {
      const wantFull = full && durable;
      if (synced !== wantFull) {
        // exec, not a statement prepared once: SQLite applies PRAGMA synchronous when the statement is
        // compiled, so re-running a prepared one can leave the other setting in force (it did: the
        // first durable commits after open ran with NORMAL).
        db.exec(wantFull ? 'PRAGMA synchronous = FULL' : 'PRAGMA synchronous = NORMAL');
        synced = wantFull;
      }
      return tx.immediate(...args);
    };
  }

  function write<A extends unknown[], R>(fn: (...args: A) => R) {
    const tx = transaction(fn);
    // withLockWait with the first attempt made here: an unlocked database (the usual case) pays no
    // async function, closure or clock read. A lock found then is waited for from the attempt's start
    // (within BUSY_TIMEOUT_MS of the clock read below, the wait SQLite itself made).
    return (durable: boolean, ...args: A): Promise<R> => {
      try {
        return Promise.resolve(tx(durable, ...args));
      } catch (error) {
        if (!isBusy(error)) return Promise.reject(error);
        return waitAfterBusy(error, clock.now(), () => tx(durable, ...args), clock, lockWaitMs);
      }
    };
  }

  const session = randomUUID();
  const me = currentProcess();
  const sweep = sessionSweeper(db);
  const sessionNumber = transaction(() => {
    for (const dead of deadSessions(db, me)) sweep(dead);
    sweep(null);
    const row = db
      .prepare('INSERT INTO sessions (id, pid, host, started, opened_at) VALUES (?, ?, ?, ?, ?)')
      .run(session, me.pid, me.host, me.started, Date.now());
    return Number(row.lastInsertRowid);
  })(true);
  liveSessions.add(session);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const sessionRow = db.prepare('SELECT n, id, pid, host, started FROM sessions WHERE n = ?');

  let closed = false;
  return {
    db,
    session,
    sessionNumber,
    transaction,
    write,
    sessionAlive(n) {
      const row = sessionRow.get(n) as SessionRow | undefined;
      return row !== undefined && !isDead(row, me);
    },
    close() {
      if (closed) return;
      closed = true;
      liveSessions.delete(session);
      // A clean close releases what this session still holds (requests cut short by close). Locked by
      // another writer: left to the next open, which finds this session dead (closed in this process,
      // or once the process is gone) and releases it then.
      try {
        transaction(() => sweep(sessionNumber))(true);
      } catch (error) {
        if (!isBusy(error)) {
          db.close();
          throw error;
        }
      }
      db.close();
    },
  };
}

/**
 * A session is dead when its process is gone, or when it claims to be this very process but was not
 * opened by it (a handle dropped without close, or a previous process that had our pid).
 */
type SessionRow = { n: number; id: string } & ProcessIdentity;

function deadSessions(db: Database.Database, me: ProcessIdentity): number[] {
  const rows = db.prepare('SELECT n, id, pid, host, started FROM sessions').all() as SessionRow[];
  return rows.filter((row) => isDead(row, me)).map((row) => row.n);
}

function isDead(row: SessionRow, me: ProcessIdentity): boolean {
  const ours = row.pid === me.pid && row.host === me.host && row.started === me.started;
  return !(ours ? liveSessions.has(row.id) : processAlive(row));
}

/** Releases a session's pending reservations and removes it; `null`: reservations whose session row is gone. */
function sessionSweeper(db: Database.Database): (session: number | null) => void {
  // Only pending rows (finished = 0): finished ones are the trace of settled requests and stay.
  const whose = '((@session IS NULL AND session NOT IN (SELECT n FROM sessions)) OR session = @session)';
  const held = db.prepare(
    `SELECT organization, SUM(amount) AS amount FROM reservations WHERE finished = 0 AND ${whose} GROUP BY organization`,
  );
  const unreserve = db.prepare('UPDATE organizations SET reserved = MAX(0, reserved - ?) WHERE id = ?');
  const drop = db.prepare(`DELETE FROM reservations WHERE finished = 0 AND ${whose}`);
  const dropSession = db.prepare('DELETE FROM sessions WHERE n = ?');
  return (session) => {
    for (const row of held.all({ session }) as { organization: string; amount: number }[]) unreserve.run(row.amount, row.organization);
    drop.run({ session });
    if (session !== null) dropSession.run(session);
  };
}
