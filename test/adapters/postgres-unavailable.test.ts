// PostgreSQL down: every ledger and key store call rejects with LedgerUnavailableError (503
// `ledger_unavailable`, retryable), the engine answers so and charges nothing, and the adapter recovers
// by itself once the server is back (a settlement cut off releases its hold in the background). The
// server is taken away by a TCP proxy in front of the real one, or is a port nothing listens on.
// Also: a missing `pg` package is a clear error naming the install command.

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.js';
import { LedgerUnavailableError } from '../../src/errors.js';
import { createFetchHandler } from '../../src/http/fetch-handler.js';
import { openPostgres, postgresKeyStore, postgresLedger } from '../../src/postgres/index.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import { adminPool, dropSchema, freshSchema, postgresProxy, postgresUrlOn } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';
import { closedPort } from '../support/tcp-proxy.js';

const available = await serviceAvailable('PostgreSQL');
const NOW = Date.UTC(2026, 0, 1);
const cleanup: (() => unknown)[] = [];

afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

async function expectUnavailable(call: Promise<unknown>): Promise<void> {
  const error = await call.then(
    (value) => {
      throw new Error(`resolved to ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LedgerUnavailableError);
  expect((error as LedgerUnavailableError).body).toMatchObject({ code: 'ledger_unavailable', retryable: true });
  expect((error as LedgerUnavailableError).status).toBe(503);
}

describe('PostgreSQL unreachable', () => {
  it('every ledger and key store call rejects with LedgerUnavailableError, quickly, and keeps doing so', async () => {
    const url = postgresUrlOn(await closedPort());
    // A connect timeout of ten minutes: a call that waited for it instead of failing on the refused
    // connection would run past the test's timeout. No wall-clock bound (the machine's load is not the rule).
    const db = openPostgres({ connectionString: url, schema: 'unreachable', poolConfig: { connectionTimeoutMillis: 600_000 } });
    cleanup.push(() => db.close());
    const ledger = postgresLedger(db);
    const keys = postgresKeyStore(db);
    await expectUnavailable(db.ready());
    await expectUnavailable(ledger.createOrganization('acme', 1, NOW));
    await expectUnavailable(ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW));
    await expectUnavailable(ledger.settle({ id: randomUUID(), organization: 'acme', kind: 'search', charged: 1, answered: true }));
    await expectUnavailable(ledger.usage('acme'));
    await expectUnavailable(ledger.addCredits('acme', 1));
    await expectUnavailable(ledger.claim({ organization: 'acme', key: 'k', fingerprint: 'f' }, NOW));
    await expectUnavailable(keys.find('digest'));
    await expectUnavailable(keys.insert('digest', 'acme', NOW));
  });

  it('the engine answers 503 ledger_unavailable, retryable, over HTTP too, and charges nothing', async () => {
    const url = postgresUrlOn(await closedPort());
    // A connect timeout of ten minutes: a call that waited for it instead of failing on the refused
    // connection would run past the test's timeout. No wall-clock bound (the machine's load is not the rule).
    const db = openPostgres({ connectionString: url, schema: 'unreachable', poolConfig: { connectionTimeoutMillis: 600_000 } });
    cleanup.push(() => db.close());
    const source = scriptedSource('s', (q) => ({ results: [{ title: q.q, url: 'https://example.test/a', snippet: 'a' }] }));
    const engine = createEngine({ ledger: postgresLedger(db), keyStore: postgresKeyStore(db), sources: [source], rateLimit: false });
    cleanup.push(() => engine.close());
    const error = await engine.search({ q: 'down' }, { organization: 'acme' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerUnavailableError);
    const reply = await createFetchHandler(engine)(
      new Request('http://websift.test/api/search', {
        method: 'POST',
        headers: { authorization: `Bearer ws_live_${'a'.repeat(32)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ q: 'down over http' }),
      }),
    );
    expect(reply.status).toBe(503);
    expect(await reply.json()).toMatchObject({ status: 'error', code: 'ledger_unavailable', retryable: true });
  });

  it("a missing 'pg' package rejects every call with an Error naming the install command", async () => {
    const ledger = postgresLedger({
      connectionString: POSTGRES_URL,
      schema: 'never_made',
      loadPg: () => import('websift-test-no-such-package' as string), // a real ERR_MODULE_NOT_FOUND
    });
    cleanup.push(() => ledger.close());
    for (const call of [ledger.usage('acme'), ledger.reserve({ id: 'x', organization: 'acme', amount: 1 }, NOW)]) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(LedgerUnavailableError);
      expect((error as Error).message).toMatch(/needs the 'pg' package.*npm install pg/);
    }
  });
});

describe.skipIf(!available)('PostgreSQL going away and coming back', () => {
  afterAll(() => adminPool().end());

  it('calls reject while the server is away, work again once it is back, and a cut-off settlement releases its hold', async () => {
    const { proxy, url } = await postgresProxy();
    const schema = freshSchema();
    cleanup.push(
      () => dropSchema(schema),
      () => proxy.close(),
    );
    const ledger = postgresLedger({ connectionString: url, schema, leaseMs: 300, poolConfig: { connectionTimeoutMillis: 500 } });
    cleanup.push(() => ledger.close());
    await ledger.createOrganization('acme', 10, NOW);
    const id = randomUUID();
    expect(await ledger.reserve({ id, organization: 'acme', amount: 4 }, NOW)).toEqual({ ok: true });

    await proxy.stop();
    await expectUnavailable(ledger.settle({ id, organization: 'acme', kind: 'search', charged: 4, answered: true }));
    await expectUnavailable(ledger.usage('acme'));
    await expectUnavailable(ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW));

    await proxy.start();
    // Back: the cut-off settlement's hold is released by a heartbeat; nothing was charged nor counted.
    const deadline = Date.now() + 3_000;
    let reserved = -1;
    while (Date.now() < deadline) {
      reserved = Number((await adminPool().query(`SELECT reserved FROM "${schema}".organizations`)).rows[0].reserved);
      if (reserved === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(reserved).toBe(0);
    expect(await ledger.usage('acme')).toEqual({ balance: 10, used: 0, requests: { search: 0, extract: 0 }, free: 0 });
    expect(await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 4, answered: true })).toBe(0); // applied once
  });

  it("a caller's pool needs no 'pg' from websift: the loader is never called", async () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
    const schema = freshSchema();
    cleanup.push(
      () => dropSchema(schema),
      () => pool.end(),
    );
    const ledger = postgresLedger({ pool, schema, loadPg: () => Promise.reject(new Error('must not load pg')) });
    cleanup.push(() => ledger.close());
    expect(await ledger.createOrganization('acme', 1, NOW)).toBe(true);
  });
});
