// API keys on PostgreSQL: digests only (see src/core/books/api-keys.ts), in the schema's api_keys table, whose
// organization must exist (a foreign key). A digest is inserted once: a second insert of it rejects,
// so a stored key is never rebound to another organization nor revived once revoked.

import type { KeyStore, StoredKey } from '../../ports/key-store.js';
import { closedError, handleFrom, type PostgresHandle, type PostgresOptions } from './database.js';

export interface PostgresKeyStore extends KeyStore {
  /** Closes the handle when the store made its own (from options); with a shared handle, only this store. */
  close(): Promise<void>;
}

/**
 * The API-key store on PostgreSQL (digests only; a digest is never rebound nor revived). Pass it as
 * `createEngine({ keyStore })` with `postgresLedger` on the same handle, or use a `postgres://`
 * `database` URL to get both. `source` is a handle from `openPostgres` (shared; left open by `close()`)
 * or options (its own handle, closed with it). Needs the optional peer `pg` (`npm install pg`).
 * @throws {TypeError} for an object that is neither a handle from openPostgres nor options.
 */
export function postgresKeyStore(source: PostgresHandle | PostgresOptions): PostgresKeyStore {
  const { db, owned } = handleFrom(source);
  const { s } = db;
  let closed = false;
  const open = () => {
    if (closed) throw closedError('key store');
  };
  const store: PostgresKeyStore = {
    async insert(hash, organization, now) {
      open();
      await db.query(`INSERT INTO ${s}.api_keys (hash, organization, created_at) VALUES ($1, $2, $3::bigint)`, [hash, organization, now]);
    },
    async find(hash): Promise<StoredKey | null> {
      open();
      const rows = await db.query(`SELECT hash, organization, revoked_at FROM ${s}.api_keys WHERE hash = $1`, [hash]);
      const row = rows[0];
      return row ? { hash: String(row['hash']), organization: String(row['organization']), revoked: row['revoked_at'] !== null } : null;
    },
    async revoke(hash, now) {
      open();
      const rows = await db.query(
        `UPDATE ${s}.api_keys SET revoked_at = $2::bigint WHERE hash = $1 AND revoked_at IS NULL RETURNING hash`,
        [hash, now],
      );
      return rows.length > 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      db.forget(store);
      if (owned) await db.close();
    },
  };
  db.adopt(store);
  return store;
}
