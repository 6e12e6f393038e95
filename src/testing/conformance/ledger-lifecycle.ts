// Ledger conformance across lifetimes. The crash rule: a reservation belongs to the live instance
// that made it. Committed state (organizations, balances, counters) survives a restart; a pending
// reservation does not outlive its instance (a clean close releases it at once, a crash at the next
// open that notices), and no instance ever releases or over-commits another live instance's holds.

import { randomUUID } from 'node:crypto';
import type { Ledger } from '../../ports/ledger.js';
import { availableCredits, reserve, settle } from './ledger-books.js';
import { type LedgerSubject, NOW } from './ledger-subject.js';
import { rejectionOf, type SuiteKit } from './suite-kit.js';
import { vitestApi } from './vitest-api.js';

/** Fails instead of hanging when a call after close never settles. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (a call after close must reject, not hang)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function ledgerLifecycleTests(kit: SuiteKit, s: LedgerSubject): void {
  const { expect } = vitestApi();
  const needs = (t: { skip(note: string): void }, what: 'reopen' | 'another') => {
    if (what === 'reopen' && !s.canReopen) t.skip('the adapter provides no reopen()');
    if (what === 'another' && !s.canOpenAnother) t.skip('the adapter provides no openAnother()');
  };

  kit.test('a restart keeps organizations, balances and usage counters', async (t) => {
    needs(t, 'reopen');
    await s.ledger.createOrganization('acme', 10, NOW);
    await s.ledger.createOrganization('globex', 3, NOW);
    await settle(s.ledger, (await reserve(s.ledger, 'acme', 6)).id, 4);
    await s.ledger.settle({ id: randomUUID(), organization: 'acme', kind: 'extract', charged: 0, answered: true });
    const before = await s.ledger.usage('acme');
    const ledger = await s.restart();
    expect(await ledger.usage('acme')).toEqual(before);
    expect(before).toEqual({ balance: 6, used: 4, requests: { search: 1, extract: 1 }, free: 1 });
    expect(await ledger.organization('globex')).toEqual({ id: 'globex', balance: 3, used: 0 });
    expect(await ledger.createOrganization('acme', 1, NOW)).toBe(false);
  });

  kit.test('a restart releases the reservations the closed ledger left pending', async (t) => {
    needs(t, 'reopen');
    await s.ledger.createOrganization('acme', 10, NOW);
    await reserve(s.ledger, 'acme', 6);
    const ledger = await s.restart();
    expect(await availableCredits(ledger, 'acme')).toBe(10);
    expect(await ledger.organization('acme')).toEqual({ id: 'acme', balance: 10, used: 0 });
  });

  kit.test('two live instances on one storage never over-commit together', async (t) => {
    needs(t, 'another');
    await s.ledger.createOrganization('acme', 37, NOW);
    const other = await s.another();
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? s.ledger : other).reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW)),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(37);
    expect(await availableCredits(other, 'acme')).toBe(0);
  });

  kit.test("opening another instance keeps this one's reservations; a clean close releases only its own", async (t) => {
    needs(t, 'another');
    await s.ledger.createOrganization('acme', 10, NOW);
    const mine = await reserve(s.ledger, 'acme', 6);
    const other = await s.another();
    const theirs = await reserve(other, 'acme', 1);
    expect(await availableCredits(other, 'acme')).toBe(3);
    await s.close(other); // releases its 1, not my 6
    expect(await availableCredits(s.ledger, 'acme')).toBe(4);
    expect(await settle(s.ledger, mine.id, 5)).toBe(5);
    const third: Ledger = await s.another();
    expect(await third.usage('acme')).toEqual({ balance: 5, used: 5, requests: { search: 1, extract: 0 }, free: 0 });
    expect(await availableCredits(third, 'acme')).toBe(5);
    expect(theirs.ok).toBe(true);
  });

  kit.test('calls after close reject instead of hanging', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const { id } = await reserve(s.ledger, 'acme', 2);
    const closed = s.ledger;
    await s.close(closed);
    await within(
      2_000,
      rejectionOf(() => closed.reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW), 'reserve after close'),
    );
    await within(
      2_000,
      rejectionOf(() => closed.settle({ id, organization: 'acme', kind: 'search', charged: 1, answered: true }), 'settle after close'),
    );
    await within(
      2_000,
      rejectionOf(() => closed.usage('acme'), 'usage after close'),
    );
  });
}
