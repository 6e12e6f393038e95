// Reads the books behind the engines' backs, for the simulation's checks: each organization's row, the
// holds still pending, and the idempotency claims still running under a live owner. SQLite through a
// read-only connection of its own (WAL: never blocked by a writer), PostgreSQL directly (not through
// the fault proxy).

import Database from 'better-sqlite3';
import { adminPool } from '../postgres.js';

export interface OrganizationRow {
  id: string;
  balance: number;
  reserved: number;
  used: number;
}

export interface BooksState {
  organizations: OrganizationRow[];
  /** Reservations neither settled nor released. */
  pendingHolds: number;
  /** Claims with no stored answer whose owner is alive (a live instance that will not finish them is a stranded claim). */
  runningClaims: number;
  /** The pending holds, for a report: id, organization, amount, owner and whether the owner is live. */
  pendingDetail: string[];
}

export interface BooksReader {
  read(): Promise<BooksState>;
  close(): void;
}

export function sqliteBooks(file: string): BooksReader {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 1_000 });
  const organizations = db.prepare('SELECT id, balance, reserved, used FROM organizations ORDER BY id');
  const pending = db.prepare('SELECT count(*) AS n FROM reservations WHERE finished = 0');
  // A session row is a live instance (a dead one's row goes at the next open, with its holds and claims).
  const running = db.prepare(
    "SELECT count(*) AS n FROM idempotency_claims WHERE coalesce(response, '') = '' AND session IN (SELECT n FROM sessions)",
  );
  const pendingRows = db.prepare(
    'SELECT r.id, r.organization, r.amount, r.session, s.pid FROM reservations r LEFT JOIN sessions s ON s.n = r.session WHERE r.finished = 0 LIMIT 5',
  );
  return {
    async read() {
      return db.transaction(() => ({
        organizations: organizations.all() as OrganizationRow[],
        pendingHolds: (pending.get() as { n: number }).n,
        runningClaims: (running.get() as { n: number }).n,
        pendingDetail: (pendingRows.all() as object[]).map((r) => JSON.stringify(r)),
      }))();
    },
    close: () => db.close(),
  };
}

export function postgresBooks(schema: string): BooksReader {
  const s = `"${schema}"`;
  const count = async (sql: string) => Number((await adminPool().query<{ n: string }>(sql)).rows[0]!.n);
  return {
    async read() {
      const { rows } = await adminPool().query<{ id: string; balance: string; reserved: string; used: string }>(
        `SELECT id, balance, reserved, used FROM ${s}.organizations ORDER BY id`,
      );
      return {
        organizations: rows.map((r) => ({ id: r.id, balance: Number(r.balance), reserved: Number(r.reserved), used: Number(r.used) })),
        pendingHolds: await count(`SELECT count(*) AS n FROM ${s}.reservations WHERE NOT finished`),
        runningClaims: await count(
          `SELECT count(*) AS n FROM ${s}.idempotency_claims c JOIN ${s}.instances i ON i.id = c.owner
           WHERE coalesce(c.response, '') = '' AND i.lease_until > now()`,
        ),
        pendingDetail: (
          await adminPool().query(
            `SELECT r.id, r.organization, r.amount, r.owner, i.lease_until > now() AS owner_live, r.created_at FROM ${s}.reservations r
             LEFT JOIN ${s}.instances i ON i.id = r.owner WHERE NOT r.finished LIMIT 5`,
          )
        ).rows.map((r) => JSON.stringify(r)),
      };
    },
    close: () => undefined,
  };
}
