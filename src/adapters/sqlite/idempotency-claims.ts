// Idempotency claims on SQLite (table idempotency_claims, schema.ts migration 4). A row is one use of a
// key by an organization: running (response NULL) under the session that claimed it, or finished with
// its answer. A running claim whose session is no longer live (closed, or dead by the crash rule of
// database.ts) is free to take: unpaid, it is claimed afresh; paid (charged > 0), the taker reruns the
// call for free (`paid`). Every operation is one IMMEDIATE transaction, so concurrent claims of one
// key, from this process or another sharing the file, see each other: exactly one gets `claimed`.
// Claims are never fsynced on their own: a claim lost on power loss was never charged (the charge's
// durable commit comes after it in the WAL), and a lost answer leaves the claim `paid`.

import { IDEMPOTENCY_TTL_MS, type ClaimOutcome, type IdempotencyClaim } from '../../ports/ledger.js';
import type { SqliteDatabase } from './database.js';

/**
 * Oldest rows checked for expiry per claim: more than the one row a claim adds, so the table shrinks back
 * to a day of claims. Only claims prune, by their `now` (the port's time; never the ledger's own Clock).
 */
const PRUNE_PER_CLAIM = 4;

interface ClaimRow {
  fingerprint: string;
  session: number;
  charged: number;
  response: string | null;
  created_at: number;
}

export interface SqliteClaims {
  claim(claim: IdempotencyClaim, now: number): Promise<ClaimOutcome>;
  finishClaim(organization: string, key: string, response: string | null): Promise<void>;
  /** Inside a settlement's transaction: marks the running claim of `key` paid with `charged` (> 0). */
  markPaid(organization: string, key: string, charged: number): void;
  /** Inside a settlement's transaction: whether the claim of `key` was already paid for (then nothing more is charged). */
  isPaid(organization: string, key: string): boolean;
}

export function sqliteClaims(store: SqliteDatabase): SqliteClaims {
  const { db } = store;
  const me = store.sessionNumber;
  const q = {
    find: db.prepare('SELECT fingerprint, session, charged, response, created_at FROM idempotency_claims WHERE organization = ? AND key = ?'),
    // INSERT OR REPLACE deletes the old row and adds a new one at the end of the rowid order (pruning relies on that).
    fresh: db.prepare(
      'INSERT OR REPLACE INTO idempotency_claims (organization, key, fingerprint, session, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    takeOver: db.prepare('UPDATE idempotency_claims SET session = ? WHERE organization = ? AND key = ?'),
    answer: db.prepare(
      'UPDATE idempotency_claims SET response = ? WHERE organization = ? AND key = ? AND session = ? AND response IS NULL',
    ),
    dropUnpaid: db.prepare(
      'DELETE FROM idempotency_claims WHERE organization = ? AND key = ? AND session = ? AND response IS NULL AND charged = 0',
    ),
    abandonPaid: db.prepare(
      'UPDATE idempotency_claims SET session = 0 WHERE organization = ? AND key = ? AND session = ? AND response IS NULL',
    ),
    paid: db.prepare('SELECT 1 FROM idempotency_claims WHERE organization = ? AND key = ? AND charged > 0').pluck(),
    markPaid: db.prepare(
      'UPDATE idempotency_claims SET charged = charged + ? WHERE organization = ? AND key = ? AND response IS NULL',
    ),
    prune: db.prepare(
      `DELETE FROM idempotency_claims
       WHERE rowid IN (SELECT rowid FROM idempotency_claims ORDER BY rowid LIMIT ?) AND created_at <= ?`,
    ),
  };
  const live = (row: ClaimRow) => row.session !== 0 && store.sessionAlive(row.session);

  const claimOne = (c: IdempotencyClaim, now: number): ClaimOutcome => {
    // A key is remembered for [created_at, created_at + TTL): at exactly 24 h it is forgotten.
    const expiredUpTo = now - IDEMPOTENCY_TTL_MS;
    q.prune.run(PRUNE_PER_CLAIM, expiredUpTo);
    let row = q.find.get(c.organization, c.key) as ClaimRow | undefined;
    if (row && row.created_at <= expiredUpTo) row = undefined;
    const claimFresh = (): ClaimOutcome => {
      q.fresh.run(c.organization, c.key, c.fingerprint, me, now);
      return { state: 'claimed' };
    };
    if (!row) return claimFresh();
    const running = row.response === null;
    // An unpaid claim nobody runs any more is as good as none (like one finishClaim(null) dropped).
    if (running && row.charged === 0 && !live(row)) return claimFresh();
    if (row.fingerprint !== c.fingerprint) return { state: 'mismatch' };
    if (!running) return { state: 'replay', response: row.response as string };
    if (live(row)) return { state: 'in_progress' };
    q.takeOver.run(me, c.organization, c.key);
    return { state: 'paid', charged: row.charged };
  };
  const claimTx = store.write(claimOne);

  const finishOne = (organization: string, key: string, response: string | null) => {
    if (response !== null) {
      q.answer.run(response, organization, key, me);
      return;
    }
    // Failed: unpaid, the key is free again; paid, it stays paid with no owner, so a retry reruns it free.
    if (q.dropUnpaid.run(organization, key, me).changes === 0) q.abandonPaid.run(organization, key, me);
  };
  const finishTx = store.write(finishOne);

  return {
    claim: (c, now) => claimTx(false, c, now),
    finishClaim: (organization, key, response) => finishTx(false, organization, key, response),
    isPaid(organization, key) {
      return q.paid.get(organization, key) !== undefined;
    },
    markPaid(organization, key, charged) {
      q.markPaid.run(charged, organization, key);
    },
  };
}
