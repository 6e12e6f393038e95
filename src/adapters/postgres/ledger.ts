// The Ledger on PostgreSQL, for many websift instances sharing one set of books. Every operation is
// one statement, most of them a call of a function from sql-functions.ts or sql-outcomes.ts: a charged request costs two
// round trips (reserve, settle), each a short transaction of its own. Reserves and unkeyed settlements
// of one organization that arrive while its previous statement runs go together in the next one
// (books-batch.ts): one row lock and one fsync for all of them. Each ledger is one instance with
// a lease (instance-lease.ts): its holds and claims are released by the others if it dies. Finished
// reservation ids and expired claims are pruned in bounded chunks by the heartbeat, never per request.
// Connection failures reject with LedgerUnavailableError (503, retryable; nothing was charged). A
// settlement whose reply was lost is read back before the call answers (settle_again); if even that
// fails, it is voided once the database is back (retry-queue.ts), so the 503 stays true.

import { LedgerUnavailableError } from '../../errors.js';
import { type ClaimOutcome, IDEMPOTENCY_TTL_MS, type Ledger, type Settlement, type UsageCounts } from '../../ports/ledger.js';
import type { OrganizationInfo } from '../../types/index.js';
import { finishTaskName, RetryQueue, releaseOf, releaseTaskName } from '../retry-queue.js';
import { checkCredits } from '../sqlite/amounts.js';
import { BooksBatch } from './books-batch.js';
import { closedError, handleFrom, type PostgresHandle, type PostgresOptions } from './database.js';
import { InstanceLease } from './instance-lease.js';
import { mayHaveRun } from './unavailable.js';

/** A PostgreSQL ledger: one instance, named by `instance` (its row in the schema's `instances` table). */
export interface PostgresLedger extends Ledger {
  readonly instance: string;
}

/** Rows per pruning chunk, and at most this many chunks per heartbeat (stopping at a short one). */
const PRUNE_CHUNK = 1_000;
const PRUNE_CHUNKS = 10;

const num = (value: unknown): number => Number(value);

/**
 * A ledger instance on `source`: a handle from openPostgres (shared with a key store; closing the
 * ledger leaves the handle open) or options (the ledger makes its own handle and closes it with itself).
 */
export function postgresLedger(source: PostgresHandle | PostgresOptions): PostgresLedger {
  const { db, owned } = handleFrom(source);
  const { s, clock } = db;
  // Releases, voids and claim finishes that failed for want of the database: retried after each
  // heartbeat and after any call that reached the database.
  const later = new RetryQueue();
  const lease = new InstanceLease(db, async () => {
    await later.drain();
    await prune();
  });
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;

  /** Runs `op` unless closed, and tracks it so close() waits for it. */
  function run<T>(op: () => Promise<T>, retryAfter = true): Promise<T> {
    if (closing) return Promise.reject(closedError('ledger'));
    const p = op();
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(() => {
      done();
      // The database answered: what waits for it need not wait for the next heartbeat. Not after a
      // drain itself, so a task that keeps failing waits for the next call or beat, never loops.
      if (retryAfter && later.size > 0 && !closing) void run(() => later.drain(), false).catch(() => undefined);
    }, done);
    return p;
  }

  async function prune(): Promise<void> {
    const now = clock.now();
    for (let i = 0; i < PRUNE_CHUNKS; i++) {
      const rows = await db.query(`SELECT ${s}.prune($1::bigint, $2::bigint, $3::integer) AS n`, [
        now - db.retentionMs,
        now - IDEMPOTENCY_TTL_MS,
        PRUNE_CHUNK,
      ]);
      if (num(rows[0]?.['n']) < PRUNE_CHUNK) break;
    }
  }

  const settleArgs = (st: Settlement) => [
    st.id,
    st.organization,
    st.kind === 'search',
    st.charged,
    st.answered,
    clock.now(),
    st.idempotencyKey ?? null,
  ];
  const SETTLE_PARAMS = '$1, $2, $3::boolean, $4::bigint, $5::boolean, $6::bigint, $7';

  // One organization's reserves and unkeyed settlements, grouped into one statement per flight.
  const batch = new BooksBatch(db, lease.id, clock);

  /** A settlement as the caller made it: keyed ones lock their claim row too, so they go one by one. */
  const settleFirst = (st: Settlement): Promise<number> => (st.idempotencyKey === undefined ? batch.settle(st) : settleOnce(st));

  async function settleOnce(st: Settlement): Promise<number> {
    const rows = await db.query(`SELECT ${s}.settle_traced(${SETTLE_PARAMS}) AS charged`, settleArgs(st));
    return num(rows[0]?.['charged']);
  }

  /**
   * The settlement's reply was lost: what happened? Resolves the charge (made now or by the lost
   * statement); rejects with LedgerUnavailableError when the database can't tell, or a void won.
   */
  async function settleAgain(st: Settlement): Promise<number> {
    const rows = await db.query(`SELECT o_state, o_charged FROM ${s}.settle_again(${SETTLE_PARAMS})`, settleArgs(st));
    if (rows[0]?.['o_state'] !== 'settled') throw notCharged();
    return num(rows[0]?.['o_charged']);
  }

  /**
   * Makes "nothing charged" true for a settlement that failed: an unkeyed one is voided (its hold
   * released, its id finished, refunded if it did commit); a keyed one only releases its hold, since a
   * charge that committed marked its claim paid, and a retry with the key reruns free.
   */
  function strand(st: Settlement): void {
    if (st.idempotencyKey === undefined) {
      later.add(releaseTaskName(st.id), () =>
        db.query(`SELECT ${s}.void_settlement($1, $2, $3::bigint)`, [st.id, st.organization, clock.now()]),
      );
    } else {
      later.add(releaseTaskName(st.id), () => settleOnce(releaseOf(st)));
    }
  }

  async function finish(organization: string, key: string, response: string | null): Promise<void> {
    await lease.ensure();
    await db.query(`SELECT ${s}.finish_claim($1, $2, $3::uuid, $4, $5::bigint)`, [
      organization,
      key,
      lease.id,
      response,
      db.maxStoredAnswerBytes,
    ]);
  }

  const orgInfo = (row: Record<string, unknown>): OrganizationInfo => ({
    id: String(row['id']),
    balance: num(row['balance']),
    used: num(row['used']),
  });

  const ledger: PostgresLedger = {
    instance: lease.id,
    createOrganization: (id, credits, now) =>
      run(async () => {
        checkCredits('createOrganization: credits', credits, 0);
        const rows = await db.query(
          `INSERT INTO ${s}.organizations (id, balance, created_at) VALUES ($1, $2::bigint, $3::bigint) ON CONFLICT (id) DO NOTHING RETURNING id`,
          [id, credits, now],
        );
        return rows.length > 0;
      }),
    addCredits: (id, credits) =>
      run(async () => {
        checkCredits('addCredits: credits', credits, 0);
        const rows = await db.query(`UPDATE ${s}.organizations SET balance = balance + $2::bigint WHERE id = $1 RETURNING balance`, [
          id,
          credits,
        ]);
        return rows.length > 0 ? num(rows[0]!['balance']) : null;
      }),
    organization: (id) =>
      run(async () => {
        const rows = await db.query(`SELECT id, balance, used FROM ${s}.organizations WHERE id = $1`, [id]);
        return rows.length > 0 ? orgInfo(rows[0]!) : null;
      }),
    listOrganizations: () => run(async () => (await db.query(`SELECT id, balance, used FROM ${s}.organizations ORDER BY id`)).map(orgInfo)),
    reserve: (r) =>
      run(async () => {
        checkCredits('reserve: amount', r.amount, 1);
        await lease.ensure();
        return lostReply(
          batch.reserve({ id: r.id, organization: r.organization, amount: r.amount }),
          // The call answers 503, so a hold that did commit is released (its id finished: a late copy of
          // the reserve then fails on it), or it would hold credits under this live instance until close.
          () => later.add(releaseTaskName(r.id), () => settleOnce(releaseOf({ id: r.id, organization: r.organization, kind: 'search' }))),
        );
      }),
    settle: (st) =>
      run(async () => {
        checkCredits('settle: charged', st.charged, 0);
        try {
          return await settleFirst(st);
        } catch (error) {
          if (!(error instanceof LedgerUnavailableError)) throw error;
          if (mayHaveRun(error)) {
            // The reply was lost, not (necessarily) the settlement: ask, once, before answering.
            try {
              return await settleAgain(st);
            } catch (again) {
              if (!(again instanceof LedgerUnavailableError)) throw again;
              strand(st);
              throw outcomeUnknown(st, again);
            }
          }
          strand(st); // not applied: release the hold later (a settlement applies once, so no race)
          throw error;
        }
      }),
    usage: (organization) =>
      run(async (): Promise<UsageCounts | null> => {
        const rows = await db.query(`SELECT * FROM ${s}.organizations WHERE id = $1`, [organization]);
        const row = rows[0];
        if (!row) return null;
        return {
          balance: num(row['balance']),
          used: num(row['used']),
          requests: { search: num(row['search_requests']), extract: num(row['extract_requests']) },
          free: num(row['free_requests']),
        };
      }),
    claim: (c, now) =>
      run(async (): Promise<ClaimOutcome> => {
        await lease.ensure();
        // This instance's unfinished writes first, in order (a key's stranded settlement before its
        // finish); if the database still refuses them, it would refuse this too.
        if (later.size > 0 && !(await later.drain())) throw stillUnavailable();
        const rows = await lostReply(
          db.query(`SELECT o_state, o_response, o_charged FROM ${s}.claim($1, $2, $3, $4::uuid, $5::bigint, $6::bigint)`, [
            c.organization,
            c.key,
            c.fingerprint,
            lease.id,
            now,
            IDEMPOTENCY_TTL_MS,
          ]),
          // The call answers 503: a claim that did commit is given up as a failed call's is (before this
          // instance's next claim of the key, and in the background), or every retry would be 409 until close.
          () => later.add(finishTaskName(c.organization, c.key), () => finish(c.organization, c.key, null)),
        );
        const row = rows[0]!;
        switch (row['o_state']) {
          case 'claimed':
            return { state: 'claimed' };
          case 'replay':
            return { state: 'replay', response: String(row['o_response']) };
          case 'paid':
            return { state: 'paid', charged: num(row['o_charged']) };
          case 'mismatch':
            return { state: 'mismatch' };
          default:
            return { state: 'in_progress' };
        }
      }),
    finishClaim: (organization, key, response) =>
      run(async () => {
        if (later.size > 0) {
          // Queued behind what is stranded (this call's settlement, say): a late copy of a settlement
          // can't charge once its id is finished, so the claim must not be dropped before that.
          // Not waited for: the database was away a moment ago, and a call answering 503 should not wait
          // another timeout for it. The round runs now in the background, and after every heartbeat.
          later.add(finishTaskName(organization, key), () => finish(organization, key, response));
          void run(() => later.drain(), false).catch(() => undefined);
          throw stillUnavailable();
        }
        try {
          await finish(organization, key, response);
        } catch (error) {
          if (error instanceof LedgerUnavailableError)
            later.add(finishTaskName(organization, key), () => finish(organization, key, response));
          throw error;
        }
      }),
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...inFlight]);
        // A last round for stranded writes (a void keeps a 503's promise). Still unreachable, they go with
        // the instance: its lease releases holds and claims, but a refund is lost (docs/postgres.md).
        if (later.size > 0) await later.drain();
        later.stop();
        await lease.close(); // releases what this instance still holds
        db.forget(ledger);
        if (owned) await db.close();
      })();
      return closing;
    },
  };
  db.adopt(ledger);
  return ledger;
}

/** Runs `undo` when `query` fails in a way that may have committed (its reply lost), then rejects as it did. */
async function lostReply<T>(query: Promise<T>, undo: () => void): Promise<T> {
  try {
    return await query;
  } catch (error) {
    if (error instanceof LedgerUnavailableError && mayHaveRun(error)) undo();
    throw error;
  }
}

const stillUnavailable = () =>
  new LedgerUnavailableError("The credit ledger's PostgreSQL database is unreachable or busy; nothing was charged. Please retry.");

/** The settlement was refused or voided before it could charge: a plain 503. */
const notCharged = () =>
  new LedgerUnavailableError("The credit ledger's PostgreSQL database could not settle this request; nothing was charged. Please retry.");

/** The settlement's outcome could not be read back: what the 503 can truthfully promise. */
function outcomeUnknown(st: Settlement, cause: unknown): LedgerUnavailableError {
  return new LedgerUnavailableError(
    st.idempotencyKey === undefined
      ? "The credit ledger's PostgreSQL database stopped answering while this request was being charged; nothing is charged (a charge that went through is refunded as soon as the database is reachable). Please retry."
      : "The credit ledger's PostgreSQL database stopped answering while this request was being charged. Retry with the same idempotency key: the request is charged at most once.",
    cause,
  );
}
