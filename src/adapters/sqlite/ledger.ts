// The Ledger on SQLite: each operation is one IMMEDIATE transaction, so concurrent requests (in this
// process or others sharing the file) never lose or double-count credits. Balances never go
// negative: a reservation is only granted from balance minus pending reservations (kept on the
// organization row), and a settlement never charges more than its reservation.

import type { Ledger, Reservation, ReserveOutcome, Settlement, UsageCounts } from '../../ports/ledger.js';
import type { OrganizationInfo } from '../../types.js';
import type { SqliteDatabase } from './database.js';

interface OrgRow {
  id: string;
  balance: number;
  reserved: number;
  used: number;
  search_requests: number;
  extract_requests: number;
  free_requests: number;
}

export function sqliteLedger(store: SqliteDatabase, options: { closeStore?: boolean } = {}): Ledger {
  const { db } = store;
  const q = {
    org: db.prepare('SELECT * FROM organizations WHERE id = ?'),
    orgs: db.prepare('SELECT id, balance, used FROM organizations ORDER BY id'),
    insertOrg: db.prepare('INSERT OR IGNORE INTO organizations (id, balance, created_at) VALUES (?, ?, ?)'),
    addCredits: db.prepare('UPDATE organizations SET balance = balance + ? WHERE id = ? RETURNING balance'),
    hold: db.prepare('UPDATE organizations SET reserved = reserved + @amount WHERE id = @organization AND balance - reserved >= @amount'),
    insertReservation: db.prepare(
      'INSERT INTO reservations (id, organization, amount, session, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    takeReservation: db.prepare('DELETE FROM reservations WHERE id = ? RETURNING amount'),
    settle: db.prepare(
      `UPDATE organizations SET balance = balance - @charged, used = used + @charged, reserved = reserved - @held,
         search_requests = search_requests + @search, extract_requests = extract_requests + @extract,
         free_requests = free_requests + @free
       WHERE id = @organization`,
    ),
  };

  const reserveTx = store.transaction((r: Reservation, now: number): ReserveOutcome => {
    if (q.hold.run({ amount: r.amount, organization: r.organization }).changes === 1) {
      q.insertReservation.run(r.id, r.organization, r.amount, store.session, now);
      return { ok: true };
    }
    const org = q.org.get(r.organization) as OrgRow | undefined;
    if (!org) return { ok: false, reason: 'unknown_organization' };
    return { ok: false, reason: 'insufficient_credits', available: Math.max(0, org.balance - org.reserved) };
  });

  const settleOne = (s: Settlement): number => {
    if (!Number.isSafeInteger(s.charged) || s.charged < 0) throw new RangeError(`settle: charged must be a non-negative integer (got ${s.charged})`);
    const held = (q.takeReservation.get(s.id) as { amount: number } | undefined)?.amount ?? 0;
    let charged = Math.min(s.charged, held);
    if (held === 0 && s.charged > 0) {
      // No reservation (released by a clean close meanwhile): charge only what no one else holds.
      const org = q.org.get(s.organization) as OrgRow | undefined;
      charged = org ? Math.min(s.charged, Math.max(0, org.balance - org.reserved)) : 0;
    }
    charged = Math.max(0, charged);
    const counted = s.answered ? 1 : 0;
    q.settle.run({
      organization: s.organization,
      charged,
      held,
      search: s.kind === 'search' ? counted : 0,
      extract: s.kind === 'extract' ? counted : 0,
      free: s.answered && charged === 0 ? 1 : 0,
    });
    return charged;
  };
  const settleTx = Object.assign(store.transaction(settleOne), { inner: settleOne });

  // Group commit: charging settlements that arrive while the event loop is busy (better-sqlite3
  // blocks it during each fsync) are committed together, one transaction and one fsync per batch.
  // A settlement with no other reservation of this handle in flight has nothing to wait for: it is
  // committed at once, saving an event-loop turn per sequential request.
  const settleBatchTx = store.transaction((batch: readonly Settlement[]) => batch.map((s) => settleTx.inner(s)));
  let queue: { s: Settlement; resolve: (n: number) => void; reject: (e: unknown) => void }[] = [];
  /** Ids of this handle's granted reservations not yet settled: the requests a settlement could batch with. */
  const inFlight = new Set<string>();
  const flush = () => {
    const batch = queue;
    queue = [];
    try {
      const charged = settleBatchTx(true, batch.map((b) => b.s));
      batch.forEach((b, i) => b.resolve(charged[i]!));
    } catch {
      // One bad settlement must not fail the others: retry each on its own.
      for (const b of batch) {
        try {
          b.resolve(settleTx(true, b.s));
        } catch (error) {
          b.reject(error);
        }
      }
    }
  };

  const settleNow = (durable: boolean, s: Settlement): Promise<number> => {
    try {
      return Promise.resolve(settleTx(durable, s));
    } catch (error) {
      return Promise.reject(error);
    }
  };

  const createTx = store.transaction((id: string, credits: number, now: number) => q.insertOrg.run(id, credits, now).changes > 0);
  const addTx = store.transaction((id: string, credits: number) => (q.addCredits.get(credits, id) as { balance: number } | undefined)?.balance ?? null);

  return {
    async createOrganization(id, credits, now) {
      return createTx(true, id, credits, now);
    },
    async addCredits(id, credits) {
      return addTx(true, id, credits);
    },
    async organization(id) {
      const org = q.org.get(id) as OrgRow | undefined;
      return org ? { id: org.id, balance: org.balance, used: org.used } : null;
    },
    async listOrganizations() {
      return q.orgs.all() as OrganizationInfo[];
    },
    async reserve(r, now) {
      // Not fsynced: if the commit is lost, the reservation is simply released.
      const outcome = reserveTx(false, r, now);
      if (outcome.ok) inFlight.add(r.id);
      return outcome;
    },
    settle(s) {
      const alone = inFlight.size <= (inFlight.has(s.id) ? 1 : 0) && queue.length === 0;
      inFlight.delete(s.id);
      // Free settlements only move counters: committed at once, without fsync.
      if (!(s.charged > 0)) return settleNow(false, s);
      if (alone) return settleNow(true, s);
      return new Promise<number>((resolve, reject) => {
        queue.push({ s, resolve, reject });
        if (queue.length === 1) setImmediate(flush);
      });
    },
    async usage(organization): Promise<UsageCounts | null> {
      const org = q.org.get(organization) as OrgRow | undefined;
      if (!org) return null;
      return {
        balance: org.balance,
        used: org.used,
        requests: { search: org.search_requests, extract: org.extract_requests },
        free: org.free_requests,
      };
    },
    async close() {
      if (options.closeStore !== false) store.close();
    },
  };
}
