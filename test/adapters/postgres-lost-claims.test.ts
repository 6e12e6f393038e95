// A reserve or an idempotency claim whose reply is lost after it committed (found by the books
// simulation, seed 3 on PostgreSQL): the call answers 503, so nothing may stay behind under this live
// instance. Before the fix the hold stayed pending (credits held) and the claim stayed running (every
// retry with the key 409 on every instance) until the instance closed.

import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LedgerUnavailableError } from '../../src/errors.js';
import { postgresLedger } from '../../src/postgres/index.js';
import { adminPool, dropSchema, freshSchema, postgresProxy } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');
const NOW = Date.UTC(2026, 0, 1);
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

async function setup() {
  const { proxy, url } = await postgresProxy();
  const schema = freshSchema();
  // Default lease and pool: the fix must not wait for a lease to run out.
  const ledger = postgresLedger({ connectionString: url, schema });
  const other = postgresLedger({ connectionString: POSTGRES_URL, schema });
  cleanup.push(
    () => dropSchema(schema),
    () => proxy.close(),
    () => ledger.close(),
    () => other.close(),
  );
  await other.createOrganization('acme', 10, NOW);
  const pending = async () =>
    Number((await adminPool().query(`SELECT count(*) AS n FROM "${schema}".reservations WHERE NOT finished`)).rows[0].n);
  const reserved = async () => Number((await adminPool().query(`SELECT reserved FROM "${schema}".organizations`)).rows[0].reserved);
  // Registered (its lease) and connected before the fault, so the lost reply is the statement's own.
  const id = randomUUID();
  await ledger.reserve({ id, organization: 'acme', amount: 1 }, NOW);
  await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 0, answered: false });
  return { proxy, ledger, other, pending, reserved };
}

/** Polls until `check` holds, up to `ms`: less than the default heartbeat (10 s), so a fix that waits for it fails. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 8_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!available)('PostgreSQL: a reserve or claim whose reply was lost', () => {
  afterAll(() => adminPool().end());

  it('a hold that committed under a lost reply is released once the database answers again', async () => {
    const { proxy, ledger, pending, reserved } = await setup();
    proxy.loseNextReply();
    await expect(ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 4 }, NOW)).rejects.toBeInstanceOf(LedgerUnavailableError);
    expect(proxy.repliesLost).toBe(1);
    await ledger.usage('acme'); // the database answers this instance again
    expect(await eventually(pending, (n) => n === 0)).toBe(0);
    expect(await reserved()).toBe(0);
    expect(await ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 10 }, NOW)).toEqual({ ok: true }); // all 10 free again
  });

  it('a claim that committed under a lost reply is given up: a retry with the key on another instance runs it', async () => {
    const { proxy, ledger, other } = await setup();
    const claim = { organization: 'acme', key: 'k1', fingerprint: 'f'.repeat(64) };
    proxy.loseNextReply();
    await expect(ledger.claim(claim, NOW)).rejects.toBeInstanceOf(LedgerUnavailableError);
    expect(proxy.repliesLost).toBe(1);
    await ledger.usage('acme');
    expect(
      await eventually(
        () => other.claim(claim, NOW + 1),
        (o) => o.state !== 'in_progress',
      ),
    ).toEqual({ state: 'claimed' });
  });

  it('on the same instance, a retry with the key is claimed at once', async () => {
    const { proxy, ledger } = await setup();
    const claim = { organization: 'acme', key: 'k2', fingerprint: 'f'.repeat(64) };
    proxy.loseNextReply();
    await expect(ledger.claim(claim, NOW)).rejects.toBeInstanceOf(LedgerUnavailableError);
    expect(await ledger.claim(claim, NOW + 1)).toEqual({ state: 'claimed' });
  });
});
