// The SQLite schema, versioned: each migration runs once, in order, inside one transaction, and
// `schema_version` records the highest applied. Add new migrations at the end; never edit old ones.

import type Database from 'better-sqlite3';

const migrations: readonly string[] = [
  // 1: organizations (balance, pending reservations, request counters on the same row, so a
  // settlement touches one row), reservations with their owning session, sessions, API keys.
  `CREATE TABLE organizations (
     id TEXT PRIMARY KEY,
     balance INTEGER NOT NULL,
     reserved INTEGER NOT NULL DEFAULT 0,
     used INTEGER NOT NULL DEFAULT 0,
     search_requests INTEGER NOT NULL DEFAULT 0,
     extract_requests INTEGER NOT NULL DEFAULT 0,
     free_requests INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     CHECK (reserved >= 0 AND balance >= reserved)
   ) WITHOUT ROWID;
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     pid INTEGER NOT NULL,
     host TEXT NOT NULL,
     started TEXT NOT NULL,
     opened_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE reservations (
     id TEXT PRIMARY KEY,
     organization TEXT NOT NULL,
     amount INTEGER NOT NULL CHECK (amount > 0),
     session TEXT NOT NULL,
     created_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE api_keys (
     hash TEXT PRIMARY KEY,
     organization TEXT NOT NULL REFERENCES organizations(id),
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   ) WITHOUT ROWID;`,
  // 2: the trace of finished reservations, so a settlement delivered twice (a retry, a release after a
  // settle) is applied once. A settled or released reservation keeps its row with `finished` set to 1
  // instead of being deleted (a charging settlement without a reservation adds a finished row of
  // amount 0). Why in place: the flag lands on the page the settlement writes anyway (a separate table
  // added a page to every commit, ~+6 µs), and 0 → 1 keeps the row's size, so SQLite rewrites it where
  // it is (a nullable finished_at cost ~+3.6 µs per settlement, measured). Pending = finished = 0.
  // created_at is the ledger Clock's time of the reservation; finished rows are pruned by it
  // (trace-pruner.ts). Rows now outlive requests, so they are kept small: a reservation names its
  // session by a number (sessions.n), not the 36-character id. SQLite can't change a CHECK or a key in
  // place: both tables are rebuilt.
  // Reservations whose session row is gone get session 0, which no session has: the next open releases them.
  `CREATE TABLE sessions_v2 (
     n INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL,
     pid INTEGER NOT NULL,
     host TEXT NOT NULL,
     started TEXT NOT NULL,
     opened_at INTEGER NOT NULL
   );
   INSERT INTO sessions_v2 (id, pid, host, started, opened_at) SELECT id, pid, host, started, opened_at FROM sessions;
   CREATE TABLE reservations_v2 (
     id TEXT PRIMARY KEY,
     organization TEXT NOT NULL,
     amount INTEGER NOT NULL,
     session INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     finished INTEGER NOT NULL DEFAULT 0,
     CHECK (amount > 0 OR (amount = 0 AND finished = 1))
   ) WITHOUT ROWID;
   INSERT INTO reservations_v2 (id, organization, amount, session, created_at)
     SELECT r.id, r.organization, r.amount, COALESCE(s.n, 0), r.created_at
     FROM reservations r LEFT JOIN sessions_v2 s ON s.id = r.session;
   DROP TABLE reservations;
   DROP TABLE sessions;
   ALTER TABLE sessions_v2 RENAME TO sessions;
   ALTER TABLE reservations_v2 RENAME TO reservations;`,
  // 3: pending reservations by session. Opening and closing release a session's pending holds (and
  // those of dead sessions); without an index that scanned every row of the trace: ~500 ms per open
  // and per close at 10⁶ rows. Partial: only pending rows (in-flight requests) are in it, so it stays
  // a page or two however long the trace grows.
  `CREATE INDEX reservations_pending ON reservations (session) WHERE finished = 0;`,
  // 4: idempotency claims (idempotency-claims.ts), one per (organization, key): the call's fingerprint,
  // the session running it (0: none, abandoned after a charge), what it was charged, and its answer
  // (JSON; NULL while it runs). created_at is the `now` of the first use; rows are forgotten 24 h after
  // it. A rowid table: rows are inserted in time order, so the oldest are first by rowid and pruning
  // reads only the front of the table (no index on the date to update on every claim).
  `CREATE TABLE idempotency_claims (
     organization TEXT NOT NULL,
     key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     session INTEGER NOT NULL,
     charged INTEGER NOT NULL DEFAULT 0 CHECK (charged >= 0),
     response TEXT,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (organization, key)
   );`,
  // 5: the bytes of the answers an organization's claims store (idempotency-claims.ts), for their cap.
  `ALTER TABLE organizations ADD COLUMN answer_bytes INTEGER NOT NULL DEFAULT 0;
   UPDATE organizations SET answer_bytes = coalesce((SELECT sum(length(CAST(response AS BLOB))) FROM idempotency_claims c
     WHERE c.organization = organizations.id AND response IS NOT NULL), 0);`,
];

export const SCHEMA_VERSION = migrations.length;

/** Creates or upgrades the schema; refuses a file written by a newer websift. */
export function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new Error(`websift: database schema version ${current} is newer than this websift (${SCHEMA_VERSION})`);
    }
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(migrations[v]!);
    if (row) db.prepare('UPDATE schema_version SET version = ?').run(SCHEMA_VERSION);
    else db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(SCHEMA_VERSION);
  }).immediate();
}
