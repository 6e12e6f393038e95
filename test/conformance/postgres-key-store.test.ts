// The PostgreSQL key store against the KeyStore conformance suite, each test in a fresh schema, with a
// restart (a new handle on the schema) and a dump of every row of the schema.

import { afterAll, describe } from 'vitest';
import { openPostgres, type PostgresHandle, postgresKeyStore } from '../../src/postgres/index.js';
import { describeKeyStoreConformance } from '../../src/testing/index.js';
import { adminPool, dropSchema, dumpSchema, freshSchema } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');

describe.skipIf(!available)('PostgreSQL key store', () => {
  afterAll(() => adminPool().end());

  describeKeyStoreConformance('PostgreSQL', async (organizations) => {
    const schema = freshSchema();
    let db: PostgresHandle = openPostgres({ connectionString: POSTGRES_URL, schema });
    await db.ready();
    for (const id of organizations) {
      await adminPool().query(`INSERT INTO "${schema}".organizations (id, balance, created_at) VALUES ($1, 0, 0)`, [id]);
    }
    return {
      store: postgresKeyStore(db),
      async reopen() {
        await db.close();
        db = openPostgres({ connectionString: POSTGRES_URL, schema });
        return postgresKeyStore(db);
      },
      dump: () => dumpSchema(schema),
      async cleanup() {
        await db.close();
        await dropSchema(schema);
      },
    };
  });
});
