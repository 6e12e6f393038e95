// The PostgreSQL books through network faults, injected by a TCP proxy between websift and the real
// server (test/support/tcp-proxy.ts): a reply lost after its statement committed, a partition that
// drops packets without resetting anything, and a keyed call caught in both. The books must stay
// honest: a 503 means nothing stays charged (or, with a key, that a retry is never charged twice), a
// retry with the key never waits for a restart, and a partition answers 503 within the pool's timeouts.

import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POOL_CONFIG } from '../../src/adapters/postgres/database.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { IdempotencyInProgressError, LedgerUnavailableError } from '../../src/errors.js';
import type { Ledger } from '../../src/ports/ledger.js';
import { openPostgres, postgresKeyStore, postgresLedger } from '../../src/postgres/index.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { SearchResponse } from '../../src/types/index.js';
import { adminPool, dropSchema, freshSchema, postgresProxy, postgresUrlOn } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';
import type { TcpProxy } from '../support/tcp-proxy.js';

const available = await serviceAvailable('PostgreSQL');
const NOW = Date.UTC(2026, 0, 1);
const cleanup: (() => unknown)[] = [];

afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

/** A fresh schema and a proxy in front of the server; ledgers made by `through` go through the proxy. */
async function setup(): Promise<{ schema: string; proxy: TcpProxy; org: () => Promise<Record<string, number>> }> {
  const { proxy } = await postgresProxy();
  const schema = freshSchema();
  cleanup.push(
    () => dropSchema(schema),
    () => proxy.close(),
  );
  const org = async () => {
    const { rows } = await adminPool().query(
      `SELECT balance, reserved, used, search_requests, free_requests FROM "${schema}".organizations WHERE id = 'acme'`,
    );
    return Object.fromEntries(Object.entries(rows[0] as object).map(([k, v]) => [k, Number(v)]));
  };
  return { schema, proxy, org };
}

/** Polls `check` (real time; the ledger's heartbeat and retries run on real timers) until it holds, up to `ms`. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    (v) => {
      throw new Error(`resolved to ${JSON.stringify(v)}`);
    },
    (e: unknown) => e,
  );

describe.skipIf(!available)('PostgreSQL books through network faults', () => {
  afterAll(() => adminPool().end());

  it('a settlement whose reply is lost after it committed is read back: the call gets its charge, charged once', async () => {
    const { schema, proxy, org } = await setup();
    const ledger = postgresLedger({ connectionString: postgresUrlOn(proxy.port), schema });
    cleanup.push(() => ledger.close());
    await ledger.createOrganization('acme', 10, NOW);
    const id = randomUUID();
    expect(await ledger.reserve({ id, organization: 'acme', amount: 4 }, NOW)).toEqual({ ok: true });
    proxy.loseNextReply();
    expect(await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(3);
    expect(proxy.repliesLost).toBe(1);
    expect(await org()).toEqual({ balance: 7, reserved: 0, used: 3, search_requests: 1, free_requests: 0 });
    expect(await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(0);
  });

  // Group commit (books-batch.ts): calls of one organization that queued behind a statement go in one
  // statement; the first call goes alone, and the reply of the group after it is the one lost here.
  it('a group of settlements whose reply is lost: each call is read back with its own charge, charged once', async () => {
    const { schema, proxy, org } = await setup();
    const ledger = postgresLedger({ connectionString: postgresUrlOn(proxy.port), schema });
    cleanup.push(() => ledger.close());
    await ledger.createOrganization('acme', 10, NOW);
    const ids = Array.from({ length: 5 }, () => randomUUID());
    for (const id of ids) expect(await ledger.reserve({ id, organization: 'acme', amount: 2 }, NOW)).toEqual({ ok: true });
    await new Promise((r) => setImmediate(r)); // the organization's lane idle again: the first settlement goes alone
    const settle = (id: string, charged: number) => ledger.settle({ id, organization: 'acme', kind: 'search', charged, answered: true });
    const first = settle(ids[0]!, 1);
    const group = ids.slice(1).map((id, i) => settle(id, i % 3));
    void first.then(() => proxy.loseNextReply()); // before the group leaves (it waits for the first's answer)
    expect(await Promise.all([first, ...group])).toEqual([1, 0, 1, 2, 0]);
    expect(proxy.repliesLost).toBe(1);
    expect(await org()).toEqual({ balance: 6, reserved: 0, used: 4, search_requests: 5, free_requests: 2 });
    expect(await Promise.all(ids.map((id) => settle(id, 2)))).toEqual([0, 0, 0, 0, 0]);
  });

  it('a group of reserves whose reply is lost answers 503 to each, and every hold it made is released', async () => {
    const { schema, proxy, org } = await setup();
    const ledger = postgresLedger({ connectionString: postgresUrlOn(proxy.port), schema });
    cleanup.push(() => ledger.close());
    await ledger.createOrganization('acme', 10, NOW);
    const reserve = () => ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 2 }, NOW);
    const first = reserve();
    const group = Array.from({ length: 3 }, reserve);
    void first.then(() => proxy.loseNextReply());
    expect(await first).toEqual({ ok: true });
    for (const error of await Promise.all(group.map(rejection))) expect(error).toBeInstanceOf(LedgerUnavailableError);
    expect(proxy.repliesLost).toBe(1);
    // The group committed; its holds are released once the database answers again (here: the next call).
    expect(await ledger.usage('acme')).toBeTruthy();
    expect(await eventually(org, (o) => o.reserved === 2)).toMatchObject({ balance: 10, reserved: 2, used: 0 });
  });

  it('without a key, a settlement whose outcome stays unknown answers a 503 that charges nothing: a charge that committed is refunded once the database is back, also against a late copy', async () => {
    const { schema, proxy, org } = await setup();
    const ledger = postgresLedger({ connectionString: postgresUrlOn(proxy.port), schema });
    cleanup.push(() => ledger.close());
    await ledger.createOrganization('acme', 10, NOW);
    const id = randomUUID();
    expect(await ledger.reserve({ id, organization: 'acme', amount: 4 }, NOW)).toEqual({ ok: true });
    proxy.mode = 'lose-replies'; // the settlement commits, its reply and the read-back are lost
    const error = await rejection(ledger.settle({ id, organization: 'acme', kind: 'search', charged: 3, answered: true }));
    expect(error).toBeInstanceOf(LedgerUnavailableError);
    expect((error as Error).message).toMatch(/nothing is charged/);
    expect(await org()).toMatchObject({ balance: 7, used: 3 }); // it did commit
    proxy.mode = 'forward';
    // Back: the next call that reaches the database (or the next heartbeat) voids it.
    expect(await ledger.usage('acme')).toBeTruthy();
    const after = await eventually(org, (o) => o.balance === 10);
    expect(after).toEqual({ balance: 10, reserved: 0, used: 0, search_requests: 1, free_requests: 1 });
    // A late copy of the settlement (TCP retransmitting it) charges nothing; the void applied once.
    expect(await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(0);
    expect(await org()).toEqual(after);
  });

  it('a keyed call whose settlement committed but was answered 503: retries rerun it free, on this instance and another, never 409 for long, never charged twice', async () => {
    const { schema, proxy } = await setup();
    // leaseMs 3 s: the heartbeat that retries this instance's unfinished claim beats every second.
    const db = openPostgres({ connectionString: postgresUrlOn(proxy.port), schema, leaseMs: 3_000 });
    cleanup.push(() => db.close());
    const source = scriptedSource('s', (q, call) => {
      if (call === 0) proxy.mode = 'lose-replies'; // during the work: settlement, read-back and claim finish all lose their replies
      return { results: [{ title: q.q, url: 'https://example.test/a', snippet: 'a' }] };
    });
    const engine = createEngine({ ledger: postgresLedger(db), keyStore: postgresKeyStore(db), sources: [source], rateLimit: false });
    cleanup.push(() => engine.close());
    await engine.admin.createOrganization('acme', { credits: 10 });
    const ctx = { organization: 'acme', idempotencyKey: 'order-1' };
    const first = await rejection(engine.search({ q: 'cut' }, ctx));
    expect(first).toBeInstanceOf(LedgerUnavailableError);
    expect((first as Error).message).toMatch(/same idempotency key/);
    proxy.mode = 'forward';

    // Another instance, straight to the server: once the first instance's heartbeat finished its claim,
    // the retry runs free (`paid`), reporting the one credit charged.
    const other = openPostgres({ connectionString: POSTGRES_URL, schema });
    cleanup.push(() => other.close());
    const otherEngine = createEngine({
      ledger: postgresLedger(other),
      keyStore: postgresKeyStore(other),
      sources: [source],
      rateLimit: false,
    });
    cleanup.push(() => otherEngine.close());
    const retried = await eventually(
      () => otherEngine.search({ q: 'cut' }, ctx).catch((e: unknown) => e),
      (r) => !(r instanceof IdempotencyInProgressError),
    );
    expect(retried).not.toBeInstanceOf(Error);
    expect((retried as SearchResponse).metadata.credits_used).toBe(1);
    // And the first instance replays that answer.
    expect(await engine.search({ q: 'cut' }, ctx)).toEqual(retried);
    const usage = await engine.usage({ organization: 'acme' });
    expect(usage.credits).toEqual({ balance: 9, used: 1 });
  });

  it('a keyed call retried on the same instance resolves at once once the database is back (its pending finish goes first)', async () => {
    const { schema, proxy } = await setup();
    const ledger: Ledger = postgresLedger({ connectionString: postgresUrlOn(proxy.port), schema });
    cleanup.push(() => ledger.close());
    await ledger.createOrganization('acme', 10, NOW);
    const use = { organization: 'acme', key: 'k', fingerprint: 'f' };
    expect(await ledger.claim(use, NOW)).toEqual({ state: 'claimed' });
    await proxy.stop();
    await expect(ledger.finishClaim('acme', 'k', null, NOW)).rejects.toBeInstanceOf(LedgerUnavailableError);
    await proxy.start();
    // Unpaid and finished with null: the key is free again (without the retry it stayed in_progress).
    expect(await ledger.claim(use, NOW + 1)).toEqual({ state: 'claimed' });
  });

  it('a partition (packets dropped, nothing reset) answers 503 within the default timeouts, and the books end even', async () => {
    const { schema, proxy, org } = await setup();
    // Default pool settings (query_timeout 5 s, connect 5 s): no poolConfig.
    const ledger = postgresLedger({ connectionString: postgresUrlOn(proxy.port), schema });
    cleanup.push(() => ledger.close());
    await ledger.createOrganization('acme', 10, NOW);
    const id = randomUUID();
    expect(await ledger.reserve({ id, organization: 'acme', amount: 4 }, NOW)).toEqual({ ok: true });
    proxy.mode = 'partition';
    const started = Date.now();
    const [read, settle] = await Promise.all([
      rejection(ledger.usage('acme')),
      rejection(ledger.settle({ id, organization: 'acme', kind: 'search', charged: 3, answered: true })),
    ]);
    const waited = Date.now() - started;
    expect(read).toBeInstanceOf(LedgerUnavailableError);
    expect(settle).toBeInstanceOf(LedgerUnavailableError);
    // A query timeout, then one read-back's connect timeout: 10 s with the defaults. Generous bound: no
    // hang as long as TCP (minutes).
    expect(DEFAULT_POOL_CONFIG.query_timeout + DEFAULT_POOL_CONFIG.connectionTimeoutMillis).toBe(10_000);
    expect(waited).toBeLessThan(25_000);
    proxy.mode = 'forward'; // healed: the held settlement may now reach the server, late
    const after = await eventually(org, (o) => o.balance === 10 && o.reserved === 0 && o.used === 0, 20_000);
    expect(after).toMatchObject({ balance: 10, reserved: 0, used: 0 });
    // Stays even: whatever arrives late changes nothing any more.
    expect(await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(0);
    expect(await org()).toMatchObject({ balance: 10, reserved: 0, used: 0 });
  }, 60_000);
});
