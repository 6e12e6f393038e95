// API keys on SQLite: digests only (see src/core/books/api-keys.ts). Writes wait for a locked database on the
// event loop, then reject with LedgerUnavailableError (lock-wait.ts); lookups are reads (WAL: never locked out).

import type { KeyStore, StoredKey } from '../../ports/key-store.js';
import type { SqliteDatabase } from './database.js';

export function sqliteKeyStore(store: SqliteDatabase): KeyStore {
  const { db } = store;
  // Statements prepared once, not per call.
  const find = db.prepare('SELECT hash, organization, revoked_at FROM api_keys WHERE hash = ?');
  const insertKey = db.prepare('INSERT INTO api_keys (hash, organization, created_at) VALUES (?, ?, ?)');
  const revokeKey = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL');
  const insert = store.write((hash: string, organization: string, now: number) => {
    insertKey.run(hash, organization, now);
  });
  const revoke = store.write((hash: string, now: number) => revokeKey.run(now, hash).changes > 0);
  return {
    async insert(hash, organization, now) {
      await insert(true, hash, organization, now);
    },
    async find(hash): Promise<StoredKey | null> {
      const row = find.get(hash) as { hash: string; organization: string; revoked_at: number | null } | undefined;
      return row ? { hash: row.hash, organization: row.organization, revoked: row.revoked_at !== null } : null;
    },
    async revoke(hash, now) {
      return revoke(true, hash, now);
    },
  };
}
