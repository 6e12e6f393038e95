// Idempotency claims on the PostgreSQL ledger (Ledger.claim / finishClaim, Settlement.idempotencyKey):
// one claim per (organization, key) across every instance, replay of a finished call, a charge marked
// paid in the settlement's own transaction and never charged twice, claims of dead instances taken
// over, and keys forgotten after IDEMPOTENCY_TTL_MS. A dead instance is one whose lease has run out
// (set in the past directly, as a crash would leave it) or that closed.

import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS, type IdempotencyClaim } from '../../src/ports/ledger.js';
import { type PostgresLedger, postgresLedger } from '../../src/postgres/index.js';
import { adminPool, dropSchema, freshSchema } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');
const NOW = Date.UTC(2026, 0, 1);
const FP = 'a'.repeat(64);
const OTHER_FP = 'b'.repeat(64);

let schema: string;
let a: PostgresLedger;
let b: PostgresLedger;
const open: PostgresLedger[] = [];

const ledger = () => {
  const l = postgresLedger({ connectionString: POSTGRES_URL, schema, leaseMs: 60_000 });
  open.push(l);
  return l;
};
const key = (k = 'key-1', fingerprint = FP, organization = 'acme'): IdempotencyClaim => ({ organization, key: k, fingerprint });

/** As a crash leaves it: the instance's lease is over and nobody renews it. */
async function expireLease(l: PostgresLedger): Promise<void> {
  await adminPool().query(`UPDATE "${schema}".instances SET lease_until = now() - interval '1 second' WHERE id = $1`, [l.instance]);
}

async function charge(l: PostgresLedger, amount: number, idempotencyKey?: string): Promise<number> {
  const id = randomUUID();
  expect(await l.reserve({ id, organization: 'acme', amount }, NOW)).toEqual({ ok: true });
  return l.settle({
    id,
    organization: 'acme',
    kind: 'extract',
    charged: amount,
    answered: true,
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
}

describe.skipIf(!available)('PostgreSQL idempotency claims', () => {
  beforeEach(async () => {
    schema = freshSchema();
    a = ledger();
    b = ledger();
    await a.createOrganization('acme', 100, NOW);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((l) => l.close()));
    await dropSchema(schema);
  });
  afterAll(() => adminPool().end());

  it('a first use is claimed; while it runs, a retry anywhere is in_progress; other parameters are a mismatch', async () => {
    expect(await a.claim(key(), NOW)).toEqual({ state: 'claimed' });
    expect(await a.claim(key(), NOW + 1)).toEqual({ state: 'in_progress' });
    expect(await b.claim(key(), NOW + 1)).toEqual({ state: 'in_progress' });
    expect(await b.claim(key('key-1', OTHER_FP), NOW + 1)).toEqual({ state: 'mismatch' });
    expect(await b.claim(key('key-1', FP, 'globex'), NOW + 1)).toEqual({ state: 'claimed' }); // keys are per organization
    expect(await b.claim(key('key-2'), NOW + 1)).toEqual({ state: 'claimed' });
  });

  it('parallel claims of one key from two instances: exactly one is claimed', async () => {
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).claim(key('race'), NOW)));
    expect(outcomes.filter((o) => o.state === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.state === 'in_progress')).toHaveLength(59);
  });

  it('a finished call replays its answer to every instance, with the same parameters only', async () => {
    await a.claim(key(), NOW);
    expect(await charge(a, 4, 'key-1')).toBe(4);
    await a.finishClaim('acme', 'key-1', '{"answer":42}', NOW + 5);
    expect(await b.claim(key(), NOW + 10)).toEqual({ state: 'replay', response: '{"answer":42}' });
    expect(await a.claim(key(), NOW + 10)).toEqual({ state: 'replay', response: '{"answer":42}' });
    expect(await b.claim(key('key-1', OTHER_FP), NOW + 10)).toEqual({ state: 'mismatch' });
    expect(await a.usage('acme')).toMatchObject({ balance: 96, used: 4 });
  });

  it('a failed call (finishClaim null) that was not charged frees the key: a retry runs afresh', async () => {
    await a.claim(key(), NOW);
    await a.finishClaim('acme', 'key-1', null, NOW);
    expect(await b.claim(key('key-1', OTHER_FP), NOW + 1)).toEqual({ state: 'claimed' });
  });

  it('a charge marks the claim paid: a failed answer leaves it paid, and the retry is told so and never charged again', async () => {
    await a.claim(key(), NOW);
    expect(await charge(a, 7, 'key-1')).toBe(7);
    await a.finishClaim('acme', 'key-1', null, NOW);
    expect(await b.claim(key(), NOW + 1)).toEqual({ state: 'paid', charged: 7 });
    expect(await b.claim(key(), NOW + 2)).toEqual({ state: 'in_progress' }); // b runs it now
    expect(await charge(b, 7, 'key-1')).toBe(0); // even if the rerun settles a charge: already paid
    await b.finishClaim('acme', 'key-1', '{"rerun":true}', NOW + 3);
    expect(await a.claim(key(), NOW + 4)).toEqual({ state: 'replay', response: '{"rerun":true}' });
    expect(await a.usage('acme')).toMatchObject({ balance: 93, used: 7 });
  });

  it('a settlement that charges nothing (a 503, a release) leaves the claim unpaid', async () => {
    await a.claim(key(), NOW);
    const id = randomUUID();
    await a.reserve({ id, organization: 'acme', amount: 3 }, NOW);
    expect(await a.settle({ id, organization: 'acme', kind: 'search', charged: 0, answered: true, idempotencyKey: 'key-1' })).toBe(0);
    await a.finishClaim('acme', 'key-1', null, NOW);
    expect(await b.claim(key(), NOW + 1)).toEqual({ state: 'claimed' });
  });

  it('a claim of a crashed instance is taken over: claimed when unpaid, paid when it was charged', async () => {
    await a.claim(key('unpaid'), NOW);
    await a.claim(key('charged'), NOW);
    expect(await charge(a, 5, 'charged')).toBe(5);
    expect(await b.claim(key('unpaid'), NOW + 1)).toEqual({ state: 'in_progress' }); // a is alive
    await expireLease(a);
    expect(await b.claim(key('unpaid', OTHER_FP), NOW + 2)).toEqual({ state: 'claimed' }); // never charged: as good as none
    expect(await b.claim(key('charged', OTHER_FP), NOW + 2)).toEqual({ state: 'mismatch' });
    expect(await b.claim(key('charged'), NOW + 2)).toEqual({ state: 'paid', charged: 5 });
    // a, late, cannot finish a claim that is no longer its own.
    await a.finishClaim('acme', 'charged', '{"late":true}', NOW + 3);
    expect(await ledger().claim(key('charged'), NOW + 4)).toEqual({ state: 'in_progress' }); // b's now, and b is alive
  });

  it('a claim of an instance that closed cleanly is free to take', async () => {
    const closing = ledger();
    await closing.claim(key(), NOW);
    await closing.close();
    expect(await b.claim(key(), NOW + 1)).toEqual({ state: 'claimed' });
  });

  it('a key is forgotten IDEMPOTENCY_TTL_MS after its first use (by the `now` of the calls)', async () => {
    await a.claim(key(), NOW);
    await a.finishClaim('acme', 'key-1', '{"first":true}', NOW);
    expect(await b.claim(key('key-1', OTHER_FP), NOW + IDEMPOTENCY_TTL_MS - 1)).toEqual({ state: 'mismatch' });
    expect(await b.claim(key(), NOW + IDEMPOTENCY_TTL_MS - 1)).toEqual({ state: 'replay', response: '{"first":true}' });
    expect(await b.claim(key('key-1', OTHER_FP), NOW + IDEMPOTENCY_TTL_MS)).toEqual({ state: 'claimed' });
    expect(await a.claim(key('key-1', OTHER_FP), NOW + IDEMPOTENCY_TTL_MS + 1)).toEqual({ state: 'in_progress' });
  });

  it('claims and finishes reject after close', async () => {
    await a.close();
    await expect(a.claim(key(), NOW)).rejects.toThrow(/closed/);
    await expect(a.finishClaim('acme', 'key-1', null, NOW)).rejects.toThrow(/closed/);
  });
});
