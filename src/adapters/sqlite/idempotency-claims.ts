// Idempotency claims on SQLite (table idempotency_claims, schema.ts migration 4). A row is one use of a
// key by an organization: running (response NULL) under the session that claimed it, or finished with
// its answer. A running claim whose session is no longer live (closed, or dead by the crash rule of
// database.ts) is free to take: unpaid, it is claimed afresh; paid (charged > 0), the taker reruns the
// call for free (`paid`). Every operation is one IMMEDIATE transaction, so concurrent claims of one
// key, from this process or another sharing the file, see each other: exactly one gets `claimed`.
// Claims are never fsynced on their own: a claim lost on power loss was never charged (the charge's
// durable commit comes after it in the WAL), and a lost answer leaves the claim `paid`. An answer is
// stored only while the organization's stored answers (organizations.answer_bytes, kept here) stay
// under the cap; otherwise, like a free answer (UNSTORED_ANSWER), it is kept as '' and a retry reruns
// the call free (`paid`) instead of replaying bytes.

import {
  type ClaimOutcome,
  DEFAULT_MAX_STORED_ANSWER_BYTES,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyClaim,
  UNSTORED_ANSWER,
} from '../../ports/ledger.js';
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

/** Bytes of a stored answer ('' and NULL store none). */
const bytesOf = (response: string | null): number => (response ? Buffer.byteLength(response) : 0);

export function sqliteClaims(store: SqliteDatabase, maxStoredAnswerBytes = DEFAULT_MAX_STORED_ANSWER_BYTES): SqliteClaims {
  const { db } = store;
  const me = store.sessionNumber;
  const q = {
    find: db.prepare(
      'SELECT fingerprint, session, charged, response, created_at FROM idempotency_claims WHERE organization = ? AND key = ?',
    ),
    // INSERT OR REPLACE deletes the old row and adds a new one at the end of the rowid order (pruning relies on that).
    fresh: db.prepare(
      'INSERT OR REPLACE INTO idempotency_claims (organization, key, fingerprint, session, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    takeOver: db.prepare('UPDATE idempotency_claims SET session = ? WHERE organization = ? AND key = ?'),
    /** The claim `session` runs, not yet answered with a stored answer ('' : a free rerun of an unstored one). */
    mine: db
      .prepare("SELECT 1 FROM idempotency_claims WHERE organization = ? AND key = ? AND session = ? AND coalesce(response, '') = ''")
      .pluck(),
    answer: db.prepare('UPDATE idempotency_claims SET response = ?, session = 0 WHERE organization = ? AND key = ?'),
    addBytes: db.prepare('UPDATE organizations SET answer_bytes = answer_bytes + ? WHERE id = ? AND answer_bytes + ? <= ?'),
    subtractBytes: db.prepare('UPDATE organizations SET answer_bytes = max(0, answer_bytes - ?) WHERE id = ?'),
    dropUnpaid: db.prepare(
      'DELETE FROM idempotency_claims WHERE organization = ? AND key = ? AND session = ? AND response IS NULL AND charged = 0',
    ),
    abandonPaid: db.prepare(
      "UPDATE idempotency_claims SET session = 0 WHERE organization = ? AND key = ? AND session = ? AND coalesce(response, '') = ''",
    ),
    paid: db.prepare('SELECT 1 FROM idempotency_claims WHERE organization = ? AND key = ? AND charged > 0').pluck(),
    markPaid: db.prepare('UPDATE idempotency_claims SET charged = charged + ? WHERE organization = ? AND key = ? AND response IS NULL'),
    prune: db.prepare(
      `DELETE FROM idempotency_claims
       WHERE rowid IN (SELECT rowid FROM idempotency_claims ORDER BY rowid LIMIT ?) AND created_at <= ?
       RETURNING organization, length(CAST(response AS BLOB)) AS bytes`,
    ),
  };
  const live = (row: ClaimRow) => row.session !== 0 && store.sessionAlive(row.session);

  const claimOne = (c: IdempotencyClaim, now: number): ClaimOutcome => {
    // A key is remembered for [created_at, created_at + TTL): at exactly 24 h it is forgotten.
    const expiredUpTo = now - IDEMPOTENCY_TTL_MS;
    for (const gone of q.prune.all(PRUNE_PER_CLAIM, expiredUpTo) as { organization: string; bytes: number | null }[]) {
      if (gone.bytes) q.subtractBytes.run(gone.bytes, gone.organization);
    }
    const row = q.find.get(c.organization, c.key) as ClaimRow | undefined;
    const claimFresh = (): ClaimOutcome => {
      if (row && bytesOf(row.response) > 0) q.subtractBytes.run(bytesOf(row.response), c.organization);
      q.fresh.run(c.organization, c.key, c.fingerprint, me, now);
      return { state: 'claimed' };
    };
    if (!row || row.created_at <= expiredUpTo) return claimFresh();
    const running = row.response === null;
    // An unpaid claim nobody runs any more is as good as none (like one finishClaim(null) dropped).
    if (running && row.charged === 0 && !live(row)) return claimFresh();
    if (row.fingerprint !== c.fingerprint) return { state: 'mismatch' };
    if (!running && row.response !== UNSTORED_ANSWER) return { state: 'replay', response: row.response as string };
    if (live(row)) return { state: 'in_progress' };
    // Paid and its answer lost, or answered without storing it: rerun free.
    q.takeOver.run(me, c.organization, c.key);
    return { state: 'paid', charged: row.charged };
  };
  const claimTx = store.write(claimOne);

  const finishOne = (organization: string, key: string, response: string | null) => {
    if (response !== null) {
      if (q.mine.get(organization, key, me) === undefined) return;
      const bytes = bytesOf(response);
      const stored = bytes > 0 && q.addBytes.run(bytes, organization, bytes, maxStoredAnswerBytes).changes === 1;
      q.answer.run(stored ? response : UNSTORED_ANSWER, organization, key);
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
