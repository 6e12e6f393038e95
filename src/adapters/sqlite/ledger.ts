// The Ledger on SQLite: each operation is one IMMEDIATE transaction, so concurrent requests (in this
// process or others sharing the file) never lose or double-count credits. Balances never go
// negative: a reservation is only granted from balance minus pending reservations (kept on the
// organization row), and a settlement never charges more than its reservation. A settlement is
// applied once: it marks the reservation's row finished (or adds a finished row when nothing was
// reserved) in the same transaction, and a second settlement of that id charges and counts nothing.
// Finished rows are the trace, pruned by age (trace-pruner.ts). Writes wait for a locked database on
// the event loop, up to the store's lockWaitMs, then reject with LedgerUnavailableError (lock-wait.ts).
// Idempotency claims live in idempotency-claims.ts; a settlement carrying a key marks its claim paid in
// the settlement's own transaction. A settlement's outcome is always known here (the commit runs in this
// process: it returns or throws, and a locked file fails before the transaction begins), so a 503 from
// settle means nothing was charged. Releases and claim finishes locked out are retried (../retry-queue.ts).

import { LedgerUnavailableError } from '../../errors.js';
import {
  type Ledger,
  type Reservation,
  type ReserveOutcome,
  type Settlement,
  storedAnswerCap,
  type UsageCounts,
} from '../../ports/ledger.js';
import type { Clock, OrganizationInfo } from '../../types/index.js';
import { finishTaskName, RetryQueue, releaseOf, releaseTaskName } from '../retry-queue.js';
import { systemClock } from '../system-clock.js';
import { checkCredits } from './amounts.js';
import type { SqliteDatabase } from './database.js';
import { FreeCounts } from './free-counts.js';
import { sqliteClaims } from './idempotency-claims.js';
import { isBusy } from './lock-wait.js';
import { RecentIds } from './recent-ids.js';
import { FINISHED_RETENTION_MS, tracePruner } from './trace-pruner.js';
import { TurnBatch } from './turn-batch.js';

interface OrgRow {
  id: string;
  balance: number;
  reserved: number;
  used: number;
  search_requests: number;
  extract_requests: number;
  free_requests: number;
}

export interface SqliteLedgerOptions {
  /** Close the database with the ledger (default true; false when keys share it). */
  closeStore?: boolean;
  /** Dates the trace of finished reservations and drives its pruning (default: the system clock). */
  clock?: Clock;
  /** How long a finished reservation id is remembered, in ms (default 1 h). */
  finishedRetentionMs?: number;
  /** Cap of the bytes of idempotent answers stored per organization (default 64 MiB; docs/engine.md "Idempotency keys"). */
  maxStoredAnswerBytes?: number;
}

export function sqliteLedger(store: SqliteDatabase, options: SqliteLedgerOptions = {}): Ledger {
  const { db } = store;
  const clock = options.clock ?? systemClock;
  const retention = options.finishedRetentionMs ?? FINISHED_RETENTION_MS;
  const pruner = tracePruner(db, clock, retention);
  const freeIds = new RecentIds(clock, retention);
  const freeCounts = new FreeCounts(store);
  const claims = sqliteClaims(store, storedAnswerCap(options.maxStoredAnswerBytes, 'sqliteLedger'));
  // Prune on open too (bounded), so a file whose ledgers settle rarely still sheds its old trace.
  try {
    store.transaction(() => pruner.pruneOpening())(false);
  } catch (error) {
    if (!isBusy(error)) throw error; // locked by another writer: the settlements' chunks will do it
  }
  const q = {
    org: db.prepare('SELECT * FROM organizations WHERE id = ?'),
    orgs: db.prepare('SELECT id, balance, used FROM organizations ORDER BY id'),
    insertOrg: db.prepare('INSERT OR IGNORE INTO organizations (id, balance, created_at) VALUES (?, ?, ?)'),
    addCredits: db.prepare('UPDATE organizations SET balance = balance + ? WHERE id = ? RETURNING balance'),
    hold: db.prepare('UPDATE organizations SET reserved = reserved + ? WHERE id = ? AND balance - reserved >= ?'),
    insertReservation: db.prepare('INSERT INTO reservations (id, organization, amount, session, created_at) VALUES (?, ?, ?, ?, ?)'),
    finished: db.prepare('SELECT finished FROM reservations WHERE id = ?').pluck(),
    finishReservation: db.prepare('UPDATE reservations SET finished = 1 WHERE id = ? AND finished = 0 RETURNING amount'),
    /** A settlement with no pending reservation: adds its finished row, or finds it already there. */
    finishUnreserved: db.prepare(
      'INSERT OR IGNORE INTO reservations (id, organization, amount, session, created_at, finished) VALUES (?, ?, 0, ?, ?, 1)',
    ),
    // Positional parameters: binding an object by name costs more per call.
    settle: db.prepare(
      `UPDATE organizations SET balance = balance - ?, used = used + ?, reserved = reserved - ?,
         search_requests = search_requests + ?, extract_requests = extract_requests + ?, free_requests = free_requests + ?
       WHERE id = ?`,
    ),
  };

  /** A reservation dated `at` by the ledger's Clock (the trace is pruned by this date against that Clock). */
  const reserveOne = ({ r, at }: { r: Reservation; at: number }): ReserveOutcome => {
    if (q.hold.run(r.amount, r.organization, r.amount).changes === 1) {
      q.insertReservation.run(r.id, r.organization, r.amount, store.sessionNumber, at);
      return { ok: true };
    }
    const org = q.org.get(r.organization) as OrgRow | undefined;
    if (!org) return { ok: false, reason: 'unknown_organization' };
    return { ok: false, reason: 'insufficient_credits', available: Math.max(0, org.balance - org.reserved) };
  };

  const settleOne = (s: Settlement): number => {
    checkCredits('settle: charged', s.charged, 0);
    pruner.tick();
    const held = (q.finishReservation.get(s.id) as { amount: number } | undefined)?.amount ?? 0;
    // No pending reservation: if the id already finished (on disk, or a free settlement in memory),
    // charge and count nothing. A count-only one is remembered in memory (recent-ids.ts says why);
    // one that charges leaves a finished row on disk.
    let remember = false;
    if (held === 0) {
      if (freeIds.has(s.id)) return 0;
      if (s.charged === 0) {
        if (q.finished.get(s.id) !== undefined) return 0; // no pending row (held is 0): a finished one
        remember = true;
      } else if (q.finishUnreserved.run(s.id, s.organization, store.sessionNumber, clock.now()).changes === 0) {
        return 0;
      }
    }
    let charged = Math.min(s.charged, held);
    if (held === 0 && s.charged > 0) {
      // No reservation (released by a clean close meanwhile): charge only what no one else holds.
      const org = q.org.get(s.organization) as OrgRow | undefined;
      charged = org ? Math.min(s.charged, Math.max(0, org.balance - org.reserved)) : 0;
    }
    charged = Math.max(0, charged);
    // A call is paid for once: a second charge under a key already paid releases its hold instead.
    if (charged > 0 && s.idempotencyKey !== undefined && claims.isPaid(s.organization, s.idempotencyKey)) charged = 0;
    const counted = s.answered ? 1 : 0;
    const search = s.kind === 'search' ? counted : 0;
    q.settle.run(charged, charged, held, search, counted - search, s.answered && charged === 0 ? 1 : 0, s.organization);
    if (s.idempotencyKey !== undefined && charged > 0) claims.markPaid(s.organization, s.idempotencyKey, charged);
    if (remember) freeIds.add(s.id); // only once the settlement went through
    return charged;
  };
  const settleTx = store.write(settleOne);

  /**
   * A count-only settlement of an id this handle holds no reservation for (a free repeat): counted in
   * memory and written with the turn's other ones (free-counts.ts). Undefined when the id turns out to
   * be pending under another handle: the caller then takes the full path.
   */
  const countOnly = (s: Settlement): number | undefined => {
    if (freeIds.has(s.id)) return 0;
    const finished = q.finished.get(s.id) as number | undefined;
    if (finished === 1) return 0;
    if (finished === 0) return undefined;
    freeIds.add(s.id);
    if (s.answered) freeCounts.add(s.organization, s.kind);
    return 0;
  };

  /** Ids of this handle's granted reservations not yet settled: the requests a settlement could batch with. */
  const inFlight = new Set<string>();
  const granted = (r: Reservation, outcome: ReserveOutcome) => {
    if (outcome.ok) inFlight.add(r.id);
    return outcome;
  };
  // Group commit (turn-batch.ts). Reservations are always batched: they come first in a request, so there
  // is no telling whether others will join this turn, and the wait is one turn. Not fsynced: if the
  // commit is lost, the reservation is simply released. Charging settlements are batched while another
  // reservation of this handle is in flight (one fsync per batch); a settlement alone has nothing to wait
  // for and is committed at once, saving a turn per sequential request.
  const reserveTx = store.write(reserveOne);
  const reserveBatchTx = store.write((batch: readonly { r: Reservation; at: number }[]) => batch.map(reserveOne));
  const reservations = new TurnBatch(
    async (batch: readonly { r: Reservation; at: number }[]) => {
      const outcomes = await reserveBatchTx(false, batch);
      return batch.map((b, i) => granted(b.r, outcomes[i]!));
    },
    async (b: { r: Reservation; at: number }) => granted(b.r, await reserveTx(false, b)),
  );
  const settleBatchTx = store.write((batch: readonly Settlement[]) => batch.map(settleOne));
  const settlements = new TurnBatch(
    (batch: readonly Settlement[]) => settleBatchTx(true, batch),
    (s: Settlement) => settleTx(true, s),
  );
  // A settlement that found the database locked for the whole wait was not applied: its hold is released
  // later, in the background, so the credits do not stay held until close; a claim finish locked out
  // likewise, so the claim does not stay in_progress until this handle closes (../retry-queue.ts).
  const later = new RetryQueue(clock);
  const strandOnFailure = (s: Settlement, settling: Promise<number>): Promise<number> =>
    settling.catch((error: unknown) => {
      if (error instanceof LedgerUnavailableError) later.add(releaseTaskName(s.id), () => settleTx(false, releaseOf(s)));
      throw error;
    });

  const createTx = store.write((id: string, credits: number, now: number) => q.insertOrg.run(id, credits, now).changes > 0);
  const addTx = store.write(
    (id: string, credits: number) => (q.addCredits.get(credits, id) as { balance: number } | undefined)?.balance ?? null,
  );

  return {
    async createOrganization(id, credits, now) {
      checkCredits('createOrganization: credits', credits, 0);
      return createTx(true, id, credits, now);
    },
    async addCredits(id, credits) {
      checkCredits('addCredits: credits', credits, 0);
      return addTx(true, id, credits);
    },
    async organization(id) {
      const org = q.org.get(id) as OrgRow | undefined;
      return org ? { id: org.id, balance: org.balance, used: org.used } : null;
    },
    async listOrganizations() {
      return q.orgs.all() as OrganizationInfo[];
    },
    async reserve(r) {
      checkCredits('reserve: amount', r.amount, 1);
      // Dated by the ledger's Clock rather than `now` (the same clock in the engine).
      return reservations.push({ r, at: clock.now() });
    },
    settle(s) {
      // Checked before it can join a batch (the batch would retry it alone anyway).
      try {
        checkCredits('settle: charged', s.charged, 0);
      } catch (error) {
        return Promise.reject(error);
      }
      const mine = inFlight.has(s.id);
      const alone = inFlight.size <= (mine ? 1 : 0) && settlements.size === 0;
      inFlight.delete(s.id);
      if (!(s.charged > 0)) {
        if (!mine) {
          try {
            const done = countOnly(s);
            if (done !== undefined) return Promise.resolve(done);
          } catch (error) {
            return Promise.reject(error);
          }
        }
        // A release only moves counters and a hold: committed at once, without fsync.
        return strandOnFailure(s, settleTx(false, s));
      }
      return strandOnFailure(s, alone ? settleTx(true, s) : settlements.push(s));
    },
    async usage(organization): Promise<UsageCounts | null> {
      await freeCounts.flush();
      const org = q.org.get(organization) as OrgRow | undefined;
      if (!org) return null;
      return {
        balance: org.balance,
        used: org.used,
        requests: { search: org.search_requests, extract: org.extract_requests },
        free: org.free_requests,
      };
    },
    async claim(c, now) {
      await later.runNow(finishTaskName(c.organization, c.key)); // this handle's unfinished use of the key first
      return claims.claim(c, now);
    },
    finishClaim: (organization, key, response) =>
      claims.finishClaim(organization, key, response).catch((error: unknown) => {
        if (error instanceof LedgerUnavailableError) {
          later.add(finishTaskName(organization, key), () => claims.finishClaim(organization, key, response));
        }
        throw error;
      }),
    async close() {
      await Promise.all([reservations.flush(), settlements.flush()]);
      later.stop(); // what is left is released by the store's close (its session's holds and claims)
      // Counts still locked out are lost, as in a crash: they move no credits.
      await freeCounts.flush().catch(() => undefined);
      if (options.closeStore !== false) store.close();
    },
  };
}
