// What the PostgreSQL ledger promises beyond the Ledger conformance suite: no over-commit under hundreds
// of concurrent calls from two instances, migrations safe when instances start together, a newer schema
// refused, the schema name checked, two round trips per charged request, the caller's pool left open,
// and the trace of finished ids and old claims pruned by age in bounded chunks.

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/adapters/postgres/schema.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { IDEMPOTENCY_TTL_MS } from '../../src/ports/ledger.js';
import {
  openPostgres,
  POSTGRES_SCHEMA_VERSION,
  type PostgresHandle,
  type PostgresPool,
  postgresKeyStore,
  postgresLedger,
} from '../../src/postgres/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import { seededRandom } from '../../src/testing/seeded-random.js';
import { adminPool, dropSchema, freshSchema } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');
const NOW = Date.UTC(2026, 0, 1);

let schema: string;
const cleanup: (() => unknown)[] = [];
const later = <T extends { close(): Promise<void> }>(x: T): T => {
  cleanup.push(() => x.close());
  return x;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = async (sql: string) => Number((await adminPool().query(sql.replaceAll('$S', `"${schema}"`))).rows[0].n);

describe.skipIf(!available)('PostgreSQL ledger', () => {
  beforeEach(() => {
    schema = freshSchema();
  });
  afterEach(async () => {
    for (const undo of cleanup.splice(0).reverse()) await undo();
    await dropSchema(schema);
  });
  afterAll(() => adminPool().end());

  it('hundreds of concurrent reserves and settlements from two instances never over-commit a small balance', async () => {
    const a = later(postgresLedger({ connectionString: POSTGRES_URL, schema }));
    const b = later(postgresLedger({ connectionString: POSTGRES_URL, schema }));
    await a.createOrganization('acme', 50, NOW);
    const random = seededRandom(7);
    const calls = Array.from({ length: 400 }, (_, i) => ({
      ledger: i % 2 ? a : b,
      id: randomUUID(),
      amount: 1 + Math.floor(random() * 3),
    }));
    const outcomes = await Promise.all(calls.map((c) => c.ledger.reserve({ id: c.id, organization: 'acme', amount: c.amount }, NOW)));
    const granted = calls.filter((_, i) => outcomes[i]!.ok);
    const held = granted.reduce((sum, c) => sum + c.amount, 0);
    expect(held).toBeLessThanOrEqual(50);
    expect(held).toBeGreaterThanOrEqual(48); // refused only when fewer than its amount (≤ 3) were left
    expect(await count('SELECT reserved AS n FROM $S.organizations')).toBe(held);
    const charges = await Promise.all(
      granted.map((c, i) => (i % 2 ? b : a).settle({ id: c.id, organization: 'acme', kind: 'search', charged: i % 4, answered: true })),
    );
    const charged = charges.reduce((x, y) => x + y, 0);
    expect(charges.every((got, i) => got === Math.min(i % 4, granted[i]!.amount))).toBe(true);
    expect(await a.usage('acme')).toMatchObject({ balance: 50 - charged, used: charged, requests: { search: granted.length } });
    expect(await count('SELECT reserved AS n FROM $S.organizations')).toBe(0);
  });

  it('four instances starting at once migrate the schema exactly once, without error', async () => {
    const handles = Array.from({ length: 4 }, () => later(openPostgres({ connectionString: POSTGRES_URL, schema })));
    await Promise.all(handles.map((h) => h.ready()));
    expect(await count('SELECT count(*) AS n FROM $S.schema_version')).toBe(1);
    expect(await count('SELECT version AS n FROM $S.schema_version')).toBe(POSTGRES_SCHEMA_VERSION);
    // And all of them work at once, each as a ledger.
    const ledgers = handles.map((h) => postgresLedger(h));
    expect(await Promise.all(ledgers.map((l, i) => l.createOrganization(`org${i}`, i, NOW)))).toEqual([true, true, true, true]);
  });

  it('a version-1 schema upgrades in place: stored answer bytes counted, a charge before the upgrade still applies once, the new settle records its charge', async () => {
    await migrate(adminPool(), schema, 1);
    // Written by version 1's functions.
    await adminPool().query(`INSERT INTO "${schema}".organizations (id, balance, created_at) VALUES ('acme', 10, 0)`);
    await adminPool().query(`SELECT "${schema}".settle('old', 'acme', true, 2, true, 0, NULL)`);
    await adminPool().query(
      `INSERT INTO "${schema}".idempotency_claims (organization, key, fingerprint, charged, response, created_at) VALUES ('acme', 'k', 'f', 1, '{"ü":1}', $1)`,
      [NOW],
    );
    const ledger = later(postgresLedger({ connectionString: POSTGRES_URL, schema }));
    expect(await ledger.usage('acme')).toMatchObject({ balance: 8, used: 2 });
    expect(await count('SELECT version AS n FROM $S.schema_version')).toBe(POSTGRES_SCHEMA_VERSION);
    expect(await count("SELECT answer_bytes AS n FROM $S.organizations WHERE id = 'acme'")).toBe(8);
    expect(await ledger.claim({ organization: 'acme', key: 'k', fingerprint: 'f' }, NOW + 1)).toEqual({
      state: 'replay',
      response: '{"ü":1}',
    });
    expect(await ledger.settle({ id: 'old', organization: 'acme', kind: 'search', charged: 2, answered: true })).toBe(0);
    const id = randomUUID();
    await ledger.reserve({ id, organization: 'acme', amount: 3 }, NOW);
    expect(await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(3);
    expect(await count(`SELECT charged AS n FROM $S.reservations WHERE id = '${id}'`)).toBe(3);
  });

  it('a schema written by a newer websift is refused with a clear error, and left as it is', async () => {
    await later(openPostgres({ connectionString: POSTGRES_URL, schema })).ready();
    await adminPool().query(`UPDATE "${schema}".schema_version SET version = 99`);
    const newer = /schema "ws_[^"]+" is at version 99, newer than this websift understands \(\d+\); upgrade websift/;
    await expect(later(openPostgres({ connectionString: POSTGRES_URL, schema })).ready()).rejects.toThrow(newer);
    const ledger = later(postgresLedger({ connectionString: POSTGRES_URL, schema }));
    await expect(ledger.organization('acme')).rejects.toThrow(newer);
    expect(await count('SELECT version AS n FROM $S.schema_version')).toBe(99);
  });

  it('the schema name must be a plain identifier; it is quoted, so its case is kept', async () => {
    for (const bad of ['', '1abc', 'a"b', 'robert"; DROP SCHEMA public; --', 'a b', 'pg_catalog', 'x'.repeat(64), 'é']) {
      expect(() => openPostgres({ connectionString: POSTGRES_URL, schema: bad }), bad).toThrow(TypeError);
      expect(() => postgresLedger({ connectionString: POSTGRES_URL, schema: bad }), bad).toThrow(/schema must be/);
    }
    schema = `Mixed_${freshSchema()}`;
    await later(openPostgres({ connectionString: POSTGRES_URL, schema })).ready();
    const { rows } = await adminPool().query('SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = $1', [schema]);
    expect(rows[0].n).toBe(1);
  });

  it('pass exactly one of connectionString and pool', () => {
    expect(() => openPostgres({})).toThrow(/exactly one of connectionString and pool/);
    expect(() => openPostgres({ connectionString: POSTGRES_URL, pool: adminPool() })).toThrow(/exactly one/);
    expect(() => openPostgres({ connectionString: POSTGRES_URL, leaseMs: 0 })).toThrow(RangeError);
  });

  it('a charged request costs two round trips (reserve, settle); a free repeat one; with an idempotency key four', async () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
    cleanup.push(() => pool.end());
    const sent: string[] = [];
    const counting: PostgresPool = {
      query: (text, values) => {
        sent.push(text);
        return pool.query(text, values as unknown[]);
      },
      connect: () => pool.connect(), // the migration's transaction (once per handle)
    };
    const ledger = later(postgresLedger({ pool: counting, schema, leaseMs: 60_000 }));
    await ledger.createOrganization('acme', 100, NOW);
    await ledger.settle({ id: await reserveOk(ledger, 1), organization: 'acme', kind: 'search', charged: 1, answered: true }); // warm: registers the instance
    sent.length = 0;
    const id = await reserveOk(ledger, 5);
    expect(await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(3);
    expect(sent).toHaveLength(2);
    sent.length = 0;
    expect(await ledger.settle({ id: randomUUID(), organization: 'acme', kind: 'search', charged: 0, answered: true })).toBe(0);
    expect(sent).toHaveLength(1);
    sent.length = 0;
    const claim = { organization: 'acme', key: 'k1', fingerprint: 'f'.repeat(64) };
    expect(await ledger.claim(claim, NOW)).toEqual({ state: 'claimed' });
    const keyed = await reserveOk(ledger, 5);
    await ledger.settle({ id: keyed, organization: 'acme', kind: 'extract', charged: 5, answered: true, idempotencyKey: 'k1' });
    await ledger.finishClaim('acme', 'k1', '{"ok":true}', NOW);
    expect(sent).toHaveLength(4);
  });

  it('a charged search through the engine is two round trips to PostgreSQL', async () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
    cleanup.push(() => pool.end());
    let queries = 0;
    const counting: PostgresPool = {
      query: (text, values) => (queries++, pool.query(text, values as unknown[])),
      connect: () => pool.connect(),
    };
    const ledger = later(postgresLedger({ pool: counting, schema, leaseMs: 60_000 }));
    const source = scriptedSource('s', (q) => ({ results: [{ title: q.q, url: `https://example.test/${q.q}`, snippet: 'a' }] }));
    const engine = later(createEngine({ ledger, sources: [source], rateLimit: false }));
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.search({ q: 'warm' }, { organization: 'acme' }); // registers the instance
    queries = 0;
    const answer = await engine.search({ q: 'counted' }, { organization: 'acme' });
    expect(answer.results).toHaveLength(1);
    expect(queries).toBe(2);
    expect(await ledger.usage('acme')).toMatchObject({ balance: 8, used: 2, requests: { search: 2 } });
  });

  it("the caller's pool is never ended; a pool websift made is ended on close", async () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
    cleanup.push(() => pool.end());
    const shared: PostgresHandle = openPostgres({ pool, schema });
    const ledger = postgresLedger(shared);
    const keys = postgresKeyStore(shared);
    await ledger.createOrganization('acme', 1, NOW);
    await ledger.close();
    await keys.close();
    await shared.close();
    await expect(ledger.usage('acme')).rejects.toThrow(/ledger is closed/);
    await expect(keys.find('x')).rejects.toThrow(/key store is closed/);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]); // still open
    expect(pool.ended).toBe(false);

    let ended = 0;
    class WatchedPool extends pg.Pool {
      override end(): Promise<void> {
        ended++;
        return super.end();
      }
    }
    const own = postgresLedger({ connectionString: POSTGRES_URL, schema, loadPg: async () => ({ Pool: WatchedPool }) });
    await own.usage('acme');
    await own.close();
    expect(ended).toBe(1);
  });

  it('closing a shared handle closes its ledgers first, releasing their holds', async () => {
    const db = openPostgres({ connectionString: POSTGRES_URL, schema });
    const ledger = postgresLedger(db);
    await ledger.createOrganization('acme', 10, NOW);
    await reserveOk(ledger, 4);
    await db.close();
    expect(await count('SELECT reserved AS n FROM $S.organizations')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM $S.instances')).toBe(0);
    await expect(ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW)).rejects.toThrow(/closed/);
  });

  it('finished ids are pruned an hour after (by the ledger clock), expired claims after 24 h, pending holds never', async () => {
    const clock = new ManualClock(NOW);
    const ledger = later(postgresLedger({ connectionString: POSTGRES_URL, schema, clock, leaseMs: 300 }));
    await ledger.createOrganization('acme', 10, NOW);
    const pending = await reserveOk(ledger, 2);
    await ledger.settle({ id: await reserveOk(ledger, 1), organization: 'acme', kind: 'search', charged: 1, answered: true });
    await ledger.claim({ organization: 'acme', key: 'old', fingerprint: 'f' }, NOW);
    // 2,500 more finished rows: pruned in chunks of 1,000 within one heartbeat.
    await adminPool().query(
      `INSERT INTO "${schema}".reservations (id, organization, amount, created_at, finished)
       SELECT 'old' || g, 'acme', 0, $1, true FROM generate_series(1, 2500) g`,
      [NOW],
    );
    await sleep(250); // heartbeats run, but nothing is old yet
    expect(await count('SELECT count(*) AS n FROM $S.reservations WHERE finished')).toBe(2501);
    await clock.advance(60 * 60_000);
    await sleep(250);
    expect(await count('SELECT count(*) AS n FROM $S.reservations WHERE finished')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM $S.reservations WHERE NOT finished')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM $S.idempotency_claims')).toBe(1);
    await clock.advance(IDEMPOTENCY_TTL_MS);
    await sleep(250);
    expect(await count('SELECT count(*) AS n FROM $S.idempotency_claims')).toBe(0);
    expect(await ledger.settle({ id: pending, organization: 'acme', kind: 'search', charged: 2, answered: true })).toBe(2);
  });

  it('a settlement of an id whose row was pruned is a fresh id again: charges only what no one else holds', async () => {
    const ledger = later(postgresLedger({ connectionString: POSTGRES_URL, schema }));
    await ledger.createOrganization('acme', 3, NOW);
    await reserveOk(ledger, 2);
    expect(await ledger.settle({ id: 'gone', organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(1);
    expect(await ledger.settle({ id: 'gone', organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(0);
  });

  async function reserveOk(ledger: ReturnType<typeof postgresLedger>, amount: number): Promise<string> {
    const id = randomUUID();
    expect(await ledger.reserve({ id, organization: 'acme', amount }, NOW)).toEqual({ ok: true });
    return id;
  }
});
