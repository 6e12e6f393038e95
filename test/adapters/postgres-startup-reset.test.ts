// A connection reset while an instance migrates its schema at start-up (found by the books simulation:
// a restarted child instance died). The migration runs on a client checked out of the pool, which has no
// 'error' listener of its own: the reset failed the statement, then the socket's end was emitted as an
// 'error' event nobody listened to, and Node killed the process. Now the open answers 503 and can be retried.

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { LedgerUnavailableError } from '../../src/errors.js';
import { postgresLedger } from '../../src/postgres/index.js';
import { adminPool, dropSchema, freshSchema, postgresProxy } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');

describe.skipIf(!available)('PostgreSQL: a reset during the start-up migration', () => {
  afterAll(() => adminPool().end());

  it('answers 503 without crashing the process, and opens once the database is back', async () => {
    const { proxy, url } = await postgresProxy();
    const schema = freshSchema();
    const ledger = postgresLedger({ connectionString: url, schema });
    // Another opener holds the migration lock, so the migration waits inside its transaction.
    const holder = new pg.Client({ connectionString: POSTGRES_URL });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', ['websift.migrate', schema]);
      const opening = ledger.listOrganizations();
      opening.catch(() => undefined);
      for (let i = 0; i < 100; i++) {
        const { rows } = await adminPool().query("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
        if (Number(rows[0].n) > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await proxy.stop(); // the reset: every connection cut
      await expect(opening).rejects.toBeInstanceOf(LedgerUnavailableError);
      await new Promise((r) => setTimeout(r, 200)); // the socket's end, emitted after the failed statement
      await holder.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', ['websift.migrate', schema]);
      await proxy.start();
      expect(await ledger.listOrganizations()).toEqual([]);
    } finally {
      await holder.end();
      await ledger.close();
      await proxy.close();
      await dropSchema(schema);
    }
  });
});
