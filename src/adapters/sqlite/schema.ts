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
