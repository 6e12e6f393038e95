// The PostgreSQL ledger against the Ledger conformance suite, on the real server, each test in a fresh
// schema: every ledger with its own pool (as separate processes would), and every ledger on one
// caller's pool shared through openPostgres.

import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { openPostgres, postgresLedger } from '../../src/postgres/index.js';
import { describeLedgerConformance } from '../../src/testing/index.js';
import { adminPool, dropSchema, freshSchema } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');

describe.skipIf(!available)('PostgreSQL ledger', () => {
  afterAll(() => adminPool().end());

  describeLedgerConformance('PostgreSQL, a pool per instance', async () => {
    const schema = freshSchema();
    const open = async () => postgresLedger({ connectionString: POSTGRES_URL, schema });
    return { ledger: await open(), reopen: open, openAnother: open, cleanup: () => dropSchema(schema) };
  });

  describeLedgerConformance('PostgreSQL, the caller’s pool shared by every instance', async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 8 });
    const db = openPostgres({ pool, schema });
    const open = async () => postgresLedger(db);
    return {
      ledger: await open(),
      reopen: open,
      openAnother: open,
      async cleanup() {
        await db.close();
        await pool.end();
        await dropSchema(schema);
      },
    };
  });
});
