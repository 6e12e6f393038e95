// The batch and release functions keep index plans when the reservations table grows under a connection
// that planned them while it was small (sql-plan-settings.ts): a plan cached then (PL/pgSQL keeps one per
// statement per connection) scanned the whole trace of finished ids once per batch, so a hot
// organization slowed down with every row written (issue 33). Counted by the connection's own scan
// counters (pg_stat_xact_user_tables, read before and after inside one transaction: no timing).

import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/adapters/postgres/schema.js';
import { adminPool, dropSchema, freshSchema } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');
const OWNER = '00000000-0000-4000-8000-000000000001';

let schema: string;
let s: string;
let client: pg.Client;
let serial = 0;

/** n ids never used. */
const ids = (n: number) => Array.from({ length: n }, () => `id-${serial++}`);

async function booksMany(settle: string[], reserve: string[]): Promise<void> {
  await client.query(
    `SELECT ${s}.books_many('acme', $1::uuid, 1, $2::text[], $3::boolean[], $4::bigint[], $5::boolean[], $6::text[], $7::bigint[])`,
    [OWNER, settle, settle.map(() => true), settle.map(() => 1), settle.map(() => true), reserve, reserve.map(() => 1)],
  );
}

/** Sequential scans of the reservations table by this connection while `work` runs. */
async function seqScansDuring(work: () => Promise<unknown>): Promise<number> {
  const scans = async () =>
    Number(
      (await client.query(`SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relid = '${s}.reservations'::regclass`)).rows[0]?.seq_scan ??
        0,
    );
  await client.query('BEGIN');
  try {
    const before = await scans();
    await work();
    return (await scans()) - before;
  } finally {
    await client.query('COMMIT');
  }
}

/** Finished ids written by others meanwhile: the table is no longer small. */
async function grow(): Promise<void> {
  await adminPool().query(
    `INSERT INTO ${s}.reservations (id, organization, amount, created_at, finished)
     SELECT 'old-' || g, 'acme', 0, 0, true FROM generate_series(1, 20000) g`,
  );
}

describe.skipIf(!available)('PostgreSQL plans of the batch and release functions', () => {
  beforeEach(async () => {
    schema = freshSchema();
    s = `"${schema}"`;
    await migrate(adminPool(), schema);
    await adminPool().query(`INSERT INTO ${s}.organizations (id, balance, created_at) VALUES ('acme', 1000000, 0)`);
    await adminPool().query(`INSERT INTO ${s}.instances (id, lease_until) VALUES ($1, now() + interval '1 hour')`, [OWNER]);
    client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
  });
  afterEach(async () => {
    await client.end();
    await dropSchema(schema);
  });
  afterAll(() => adminPool().end());

  it('a batch settled on a connection that planned it on a small table looks its ids up by index, not by a scan of the trace', async () => {
    // Past PL/pgSQL's five custom plans: the connection now runs a cached generic plan.
    for (let i = 0; i < 8; i++) {
      const batch = ids(4);
      await booksMany([], batch);
      await booksMany(batch, []);
    }
    await grow();
    const batch = ids(16);
    await booksMany([], batch);
    expect(await seqScansDuring(() => booksMany(batch, ids(16)))).toBe(0);
    // An id never reserved takes the other path (a finished row written, its charge recorded on it).
    expect(await seqScansDuring(() => booksMany(ids(4), []))).toBe(0);
  });

  it("releasing dead holds (an organization's, refused a reserve; every one, the heartbeat's sweep) does not scan the trace either", async () => {
    for (let i = 0; i < 8; i++) {
      await client.query(`SELECT ${s}.release_holds('acme', NULL)`);
      await client.query(`SELECT ${s}.release_holds(NULL, NULL)`);
    }
    await grow();
    expect(await seqScansDuring(() => client.query(`SELECT ${s}.release_holds('acme', NULL)`))).toBe(0);
    expect(await seqScansDuring(() => client.query(`SELECT ${s}.release_holds(NULL, NULL)`))).toBe(0);
  });

  it("the heartbeat's pruning, with nothing old enough to prune, does not scan the trace", async () => {
    for (let i = 0; i < 8; i++) await client.query(`SELECT ${s}.prune(-1, -1, 1000)`);
    await grow();
    expect(await seqScansDuring(() => client.query(`SELECT ${s}.prune(-1, -1, 1000)`))).toBe(0);
  });
});
