// Ledger conformance under concurrency: requests in parallel never over-commit a balance, and a
// settlement delivered twice (a retry, a release after a settle) is applied once.

import { randomUUID } from 'node:crypto';
import type { RequestKind } from '../../ports/ledger.js';
import { availableCredits, reserve, settle } from './ledger-books.js';
import { type LedgerSubject, NOW } from './ledger-subject.js';
import { type SuiteKit, seededRandom } from './suite-kit.js';
import { vitestApi } from './vitest-api.js';

export function ledgerConcurrencyTests(kit: SuiteKit, s: LedgerSubject): void {
  const { expect } = vitestApi();

  kit.test('100 parallel reserves of 1 on a balance of 37: exactly 37 are granted', async () => {
    await s.ledger.createOrganization('acme', 37, NOW);
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () => s.ledger.reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW)),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(37);
    for (const o of outcomes) if (!o.ok) expect(o).toEqual({ ok: false, reason: 'insufficient_credits', available: 0 });
    expect(await availableCredits(s.ledger, 'acme')).toBe(0);
    expect(await s.ledger.organization('acme')).toEqual({ id: 'acme', balance: 37, used: 0 });
  });

  kit.test('parallel settlements and grants add up exactly', async () => {
    await s.ledger.createOrganization('acme', 60, NOW);
    const held = await Promise.all(Array.from({ length: 30 }, () => reserve(s.ledger, 'acme', 2)));
    const charges = await Promise.all([
      ...held.map((r, i) => settle(s.ledger, r.id, i % 3, i % 2 ? 'search' : 'extract')),
      ...Array.from({ length: 10 }, () => s.ledger.addCredits('acme', 1).then(() => 0)),
    ]);
    const charged = charges.reduce((a, b) => a + b, 0);
    expect(charged).toBe(30); // i % 3 over 0..29: ten each of 0, 1 and 2
    expect(await s.ledger.usage('acme')).toEqual({ balance: 40, used: 30, requests: { search: 15, extract: 15 }, free: 10 });
    expect(await availableCredits(s.ledger, 'acme')).toBe(40);
  });

  kit.test('parallel creates of one organization: exactly one wins', async () => {
    const won = await Promise.all(Array.from({ length: 10 }, (_, i) => s.ledger.createOrganization('acme', i + 1, NOW)));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect((await s.ledger.organization('acme'))!.balance).toBe(won.indexOf(true) + 1);
  });

  kit.test('a random interleaving of reserves, settlements and grants keeps the books exact', async () => {
    await s.ledger.createOrganization('acme', 50, NOW);
    const random = seededRandom(20261121);
    let added = 0;
    let answered = 0;
    let free = 0;
    const charges: number[] = [];
    const task = async (n: number) => {
      if (n % 10 === 0) {
        const credits = Math.floor(random() * 4);
        added += credits;
        await s.ledger.addCredits('acme', credits);
        return;
      }
      const amount = 1 + Math.floor(random() * 6);
      const want = Math.floor(random() * (amount + 2)); // sometimes more than held: capped
      const isAnswered = random() < 0.8;
      const kind: RequestKind = random() < 0.5 ? 'search' : 'extract';
      const outcome = await s.ledger.reserve({ id: `t${n}`, organization: 'acme', amount }, NOW);
      if (!outcome.ok) {
        expect(outcome.reason === 'insufficient_credits' && outcome.available >= 0 && outcome.available < amount).toBe(true);
        return;
      }
      const got = await s.ledger.settle({ id: `t${n}`, organization: 'acme', kind, charged: want, answered: isAnswered });
      expect(got).toBe(Math.min(want, amount));
      charges.push(got);
      if (isAnswered) answered++;
      if (isAnswered && got === 0) free++;
    };
    await Promise.all(Array.from({ length: 300 }, (_, n) => task(n)));
    const charged = charges.reduce((a, b) => a + b, 0);
    const usage = (await s.ledger.usage('acme'))!;
    expect(usage.balance).toBe(50 + added - charged);
    expect(usage.balance).toBeGreaterThanOrEqual(0);
    expect(usage.used).toBe(charged);
    expect(usage.requests.search + usage.requests.extract).toBe(answered);
    expect(usage.free).toBe(free);
    expect(await availableCredits(s.ledger, 'acme')).toBe(usage.balance);
  });

  kit.test('reserving an id that is already held holds it once', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    await s.ledger.reserve({ id: 'same', organization: 'acme', amount: 3 }, NOW);
    await s.ledger.reserve({ id: 'same', organization: 'acme', amount: 3 }, NOW).catch(() => undefined); // may refuse
    expect(await availableCredits(s.ledger, 'acme')).toBe(7);
  });

  // A ledger may group concurrent calls of one organization (the PostgreSQL one does: group commit);
  // one id twice among them, or a refusal among grants, must come out as if they ran one by one.
  kit.test('parallel reserves and settlements of one id among others: held once, charged and counted once', async () => {
    await s.ledger.createOrganization('acme', 20, NOW);
    const ids = Array.from({ length: 10 }, () => randomUUID());
    // Others first, so that a ledger grouping calls has the copies of one id in one group.
    const holds = await Promise.all([
      ...ids.map((id) => s.ledger.reserve({ id, organization: 'acme', amount: 1 }, NOW)),
      ...Array.from({ length: 5 }, () => s.ledger.reserve({ id: 'dup', organization: 'acme', amount: 3 }, NOW).catch(() => undefined)),
    ]);
    expect(holds.slice(0, 10).every((o) => o?.ok)).toBe(true);
    expect(await availableCredits(s.ledger, 'acme')).toBe(7); // 'dup' held once: 20 - 10 - 3
    const charges = await Promise.all([
      ...ids.map((id) => settle(s.ledger, id, 1, 'extract')),
      ...Array.from({ length: 3 }, () => settle(s.ledger, 'dup', 3)),
      settle(s.ledger, randomUUID(), 0), // a free repeat among them
    ]);
    expect(charges.slice(0, 10)).toEqual(ids.map(() => 1));
    expect(charges.slice(10, 13).sort()).toEqual([0, 0, 3]);
    expect(charges[13]).toBe(0);
    expect(await s.ledger.usage('acme')).toEqual({ balance: 7, used: 13, requests: { search: 2, extract: 10 }, free: 1 });
    expect(await availableCredits(s.ledger, 'acme')).toBe(7);
  });

  kit.test('parallel reserves: one too big for what is left does not keep a smaller one out', async () => {
    await s.ledger.createOrganization('acme', 5, NOW);
    const outcomes = await Promise.all(
      [4, 4, 1].map((amount) => s.ledger.reserve({ id: randomUUID(), organization: 'acme', amount }, NOW)),
    );
    const granted = [4, 4, 1].filter((_, i) => outcomes[i]!.ok).sort();
    expect(granted).toEqual([1, 4]);
    const refused = outcomes.find((o) => !o.ok);
    expect(refused?.ok === false && refused.reason === 'insufficient_credits' && refused.available <= 1).toBe(true);
    expect(await availableCredits(s.ledger, 'acme')).toBe(0);
  });

  kit.test('settling a reservation twice charges and counts it once', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const once = await reserve(s.ledger, 'acme', 3);
    expect(await settle(s.ledger, once.id, 2)).toBe(2);
    expect(await settle(s.ledger, once.id, 2)).toBe(0);
    const twice = await reserve(s.ledger, 'acme', 3);
    const both = await Promise.all([settle(s.ledger, twice.id, 3), settle(s.ledger, twice.id, 3)]);
    expect(both.reduce((a, b) => a + b, 0)).toBe(3);
    expect(await s.ledger.usage('acme')).toEqual({ balance: 5, used: 5, requests: { search: 2, extract: 0 }, free: 0 });
  });

  kit.test('a release after a settle, or a settle after a release, changes nothing', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const settled = await reserve(s.ledger, 'acme', 3);
    expect(await settle(s.ledger, settled.id, 2)).toBe(2);
    expect(await settle(s.ledger, settled.id, 0)).toBe(0); // release of a settled request
    const released = await reserve(s.ledger, 'acme', 3);
    expect(await settle(s.ledger, released.id, 0, 'extract')).toBe(0); // a 504
    expect(await settle(s.ledger, released.id, 3, 'extract')).toBe(0); // a late settle of the same request
    expect(await s.ledger.usage('acme')).toEqual({ balance: 8, used: 2, requests: { search: 1, extract: 1 }, free: 1 });
    expect(await availableCredits(s.ledger, 'acme')).toBe(8);
  });
}
