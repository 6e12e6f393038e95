// The SQLite key store against the KeyStore conformance suite, on a temp file (restart, and a dump
// of the rows and the raw file bytes, WAL included) and in memory.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { sqliteKeyStore } from '../../src/adapters/sqlite/key-store.js';
import { describeKeyStoreConformance } from '../../src/testing/index.js';
import { SQLITE_KEY_STORE_GAPS } from './sqlite-gaps.js';

/** Every row of every table, so a plaintext key anywhere in the schema would show. */
function rows(db: SqliteDatabase): string {
  const tables = db.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  return JSON.stringify(tables.map(({ name }) => db.db.prepare(`SELECT * FROM "${name}"`).all()));
}

function provision(db: SqliteDatabase, organizations: readonly string[]): SqliteDatabase {
  const insert = db.db.prepare('INSERT INTO organizations (id, balance, created_at) VALUES (?, 0, 0)');
  for (const id of organizations) insert.run(id);
  return db;
}

describeKeyStoreConformance(
  'SQLite file',
  async (organizations) => {
    const dir = mkdtempSync(join(tmpdir(), 'websift-conformance-keys-'));
    const file = join(dir, 'keys.db');
    let db = provision(openSqlite({ database: file }), organizations);
    return {
      store: sqliteKeyStore(db),
      async reopen() {
        db.close();
        db = openSqlite({ database: file });
        return sqliteKeyStore(db);
      },
      async dump() {
        const bytes = readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1'));
        return [rows(db), ...bytes].join('\n');
      },
      async cleanup() {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { knownGaps: SQLITE_KEY_STORE_GAPS },
);

describeKeyStoreConformance(
  'SQLite :memory:',
  async (organizations) => {
    const db = provision(openSqlite(), organizations);
    return { store: sqliteKeyStore(db), dump: async () => rows(db), cleanup: async () => db.close() };
  },
  { knownGaps: SQLITE_KEY_STORE_GAPS },
);
