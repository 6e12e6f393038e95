// Ledger conformance, one request at a time: organizations, grants, reserve → settle, usage
// counters, unknown organizations and bad amounts.

import { randomUUID } from 'node:crypto';
import { Accounts, Credits } from '../../core/books/index.js';
import type { KeyStore } from '../../ports/key-store.js';
import type { Ledger, RequestKind } from '../../ports/ledger.js';
import type { Clock } from '../../types/index.js';
import { type LedgerSubject, NOW } from './ledger-subject.js';
import { rejectionOf, type SuiteKit } from './suite-kit.js';
import { vitestApi } from './vitest-api.js';

/** Credits free to reserve (balance minus pending), read through a reservation no balance can cover. */
export async function availableCredits(ledger: Ledger, organization: string): Promise<number> {
  const outcome = await ledger.reserve({ id: randomUUID(), organization, amount: Number.MAX_SAFE_INTEGER }, NOW);
  if (outcome.ok || outcome.reason !== 'insufficient_credits') throw new Error(`probe of ${organization}: ${JSON.stringify(outcome)}`);
  return outcome.available;
}

export async function reserve(ledger: Ledger, organization: string, amount: number): Promise<{ id: string; ok: boolean }> {
  const id = randomUUID();
  return { id, ok: (await ledger.reserve({ id, organization, amount }, NOW)).ok };
}

export function settle(ledger: Ledger, id: string, charged: number, kind: RequestKind = 'search', answered = true) {
  return ledger.settle({ id, organization: 'acme', kind, charged, answered });
}

export function ledgerBookTests(kit: SuiteKit, s: LedgerSubject): void {
  const { expect } = vitestApi();

  kit.test('createOrganization creates once; a duplicate changes nothing', async () => {
    expect(await s.ledger.createOrganization('acme', 10, NOW)).toBe(true);
    expect(await s.ledger.createOrganization('acme', 99, NOW)).toBe(false);
    expect(await s.ledger.createOrganization('globex', 0, NOW)).toBe(true);
    expect(await s.ledger.organization('acme')).toEqual({ id: 'acme', balance: 10, used: 0 });
    expect(await s.ledger.organization('nobody')).toBeNull();
    const listed = await s.ledger.listOrganizations();
    expect([...listed].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'acme', balance: 10, used: 0 },
      { id: 'globex', balance: 0, used: 0 },
    ]);
    expect(await s.ledger.usage('globex')).toEqual({ balance: 0, used: 0, requests: { search: 0, extract: 0 }, free: 0 });
  });

  kit.test('addCredits resolves to the new balance; an unknown organization gets null and is not created', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    expect(await s.ledger.addCredits('acme', 5)).toBe(15);
    expect(await s.ledger.addCredits('acme', 0)).toBe(15);
    expect(await s.ledger.addCredits('nobody', 5)).toBeNull();
    expect(await s.ledger.organization('nobody')).toBeNull();
    expect(await availableCredits(s.ledger, 'acme')).toBe(15);
  });

  kit.test('reserve holds credits from balance minus pending reservations, without moving the balance', async () => {
    await s.ledger.createOrganization('acme', 5, NOW);
    expect(await s.ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 3 }, NOW)).toEqual({ ok: true });
    expect(await s.ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 3 }, NOW)).toEqual({
      ok: false,
      reason: 'insufficient_credits',
      available: 2,
    });
    expect((await reserve(s.ledger, 'acme', 2)).ok).toBe(true); // exactly what is left
    expect(await availableCredits(s.ledger, 'acme')).toBe(0);
    expect(await s.ledger.organization('acme')).toEqual({ id: 'acme', balance: 5, used: 0 });
  });

  kit.test('reserve over the balance is refused and holds nothing', async () => {
    await s.ledger.createOrganization('acme', 5, NOW);
    await s.ledger.createOrganization('broke', 0, NOW);
    expect(await s.ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 6 }, NOW)).toEqual({
      ok: false,
      reason: 'insufficient_credits',
      available: 5,
    });
    expect(await s.ledger.reserve({ id: randomUUID(), organization: 'broke', amount: 1 }, NOW)).toEqual({
      ok: false,
      reason: 'insufficient_credits',
      available: 0,
    });
    expect((await reserve(s.ledger, 'acme', 5)).ok).toBe(true);
    expect(await s.ledger.usage('acme')).toEqual({ balance: 5, used: 0, requests: { search: 0, extract: 0 }, free: 0 });
  });

  kit.test('settle charges at most the reservation and releases the rest', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const six = await reserve(s.ledger, 'acme', 6);
    expect(await settle(s.ledger, six.id, 3)).toBe(3);
    expect(await s.ledger.organization('acme')).toEqual({ id: 'acme', balance: 7, used: 3 });
    expect(await availableCredits(s.ledger, 'acme')).toBe(7); // the other 3 came back
    const one = await reserve(s.ledger, 'acme', 1);
    expect(await settle(s.ledger, one.id, 9)).toBe(1); // never more than was held
    expect(await s.ledger.organization('acme')).toEqual({ id: 'acme', balance: 6, used: 4 });
  });

  kit.test('a release (settle at 0) charges nothing and frees the whole reservation', async () => {
    await s.ledger.createOrganization('acme', 5, NOW);
    const all = await reserve(s.ledger, 'acme', 5);
    expect(await settle(s.ledger, all.id, 0, 'extract', false)).toBe(0);
    expect(await s.ledger.organization('acme')).toEqual({ id: 'acme', balance: 5, used: 0 });
    expect((await reserve(s.ledger, 'acme', 5)).ok).toBe(true);
  });

  kit.test('a settle without a reservation never takes credits other requests hold, nor goes below zero', async () => {
    await s.ledger.createOrganization('acme', 5, NOW);
    await reserve(s.ledger, 'acme', 4);
    const charged = await settle(s.ledger, randomUUID(), 3);
    expect(charged).toBeGreaterThanOrEqual(0);
    expect(charged).toBeLessThanOrEqual(1); // 4 of the 5 are held by someone else
    expect(await s.ledger.organization('acme')).toEqual({ id: 'acme', balance: 5 - charged, used: charged });
    expect(await availableCredits(s.ledger, 'acme')).toBe(1 - charged);
  });

  kit.test('usage counts answered requests by kind; charged-0 answers are free; unanswered ones are not counted', async () => {
    await s.ledger.createOrganization('acme', 20, NOW);
    const run = async (kind: RequestKind, held: number, charged: number, answered: boolean) => {
      const id = held > 0 ? (await reserve(s.ledger, 'acme', held)).id : randomUUID(); // 0: a free repeat
      return s.ledger.settle({ id, organization: 'acme', kind, charged, answered });
    };
    await run('search', 1, 1, true);
    await run('search', 6, 3, true);
    await run('search', 0, 0, true); // free repeat
    await run('search', 1, 0, true); // 503: answered, never charged
    await run('search', 1, 0, false); // 402/400 after reserving: not counted
    await run('extract', 5, 5, true);
    await run('extract', 2, 0, true); // 504
    await run('extract', 0, 0, true); // free repeat
    expect(await s.ledger.usage('acme')).toEqual({ balance: 11, used: 9, requests: { search: 4, extract: 3 }, free: 4 });
    expect(await availableCredits(s.ledger, 'acme')).toBe(11);
  });

  kit.test('through the core: a 503/504 answer is a free request and usage totals add up', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const clock: Clock = { now: () => NOW, sleep: () => Promise.resolve() };
    const credits = new Credits(s.ledger, clock);
    await (await credits.hold('acme', 'search', 1)).settle(1);
    await (await credits.hold('acme', 'search', 6)).release(true); // 503
    await (await credits.hold('acme', 'extract', 3)).release(true); // 504
    await (await credits.hold('acme', 'extract', 2)).settle(2);
    await expect(credits.hold('acme', 'extract', 50)).rejects.toMatchObject({ status: 402, body: { credits_available: 7 } });
    const accounts = new Accounts(s.ledger, unusedKeyStore, clock);
    expect(await accounts.usage('acme')).toMatchObject({
      credits: { balance: 7, used: 3 },
      requests: { search: 2, extract: 2, total: 4, free: 2 },
    });
  });

  kit.test('an unknown organization: reserve refuses it, lookups are null, settle charges nothing and creates nothing', async () => {
    expect(await s.ledger.reserve({ id: randomUUID(), organization: 'nobody', amount: 1 }, NOW)).toEqual({
      ok: false,
      reason: 'unknown_organization',
    });
    expect(await s.ledger.usage('nobody')).toBeNull();
    expect(await s.ledger.settle({ id: randomUUID(), organization: 'nobody', kind: 'search', charged: 1, answered: true })).toBe(0);
    expect(await s.ledger.organization('nobody')).toBeNull();
    expect(await s.ledger.listOrganizations()).toEqual([]);
  });

  kit.test('reserve rejects amounts that are not positive safe integers and holds nothing', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    for (const amount of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await rejectionOf(() => s.ledger.reserve({ id: randomUUID(), organization: 'acme', amount }, NOW), `reserve(amount ${amount})`);
    }
    expect(await availableCredits(s.ledger, 'acme')).toBe(10);
  });

  kit.test('settle rejects charges that are not non-negative safe integers and keeps the reservation', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const held = await reserve(s.ledger, 'acme', 4);
    for (const charged of [-1, 1.5, Number.NaN]) await rejectionOf(() => settle(s.ledger, held.id, charged), `settle(charged ${charged})`);
    expect(await s.ledger.usage('acme')).toEqual({ balance: 10, used: 0, requests: { search: 0, extract: 0 }, free: 0 });
    expect(await availableCredits(s.ledger, 'acme')).toBe(6);
    expect(await settle(s.ledger, held.id, 4)).toBe(4);
  });

  kit.test('createOrganization and addCredits reject credits that are not non-negative safe integers', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    for (const credits of [-1, 1.5, Number.NaN]) {
      await rejectionOf(() => s.ledger.createOrganization(`bad${String(credits)}`, credits, NOW), `createOrganization(credits ${credits})`);
      await rejectionOf(() => s.ledger.addCredits('acme', credits), `addCredits(${credits})`);
    }
    expect(await s.ledger.listOrganizations()).toEqual([{ id: 'acme', balance: 10, used: 0 }]);
  });
}

/** Accounts needs a KeyStore; usage never touches it, and this one says so if that ever changes. */
const unusedKeyStore: KeyStore = {
  insert: () => Promise.reject(new Error('not used by usage()')),
  find: () => Promise.reject(new Error('not used by usage()')),
  revoke: () => Promise.reject(new Error('not used by usage()')),
};
