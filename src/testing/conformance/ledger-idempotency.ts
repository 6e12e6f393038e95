// Ledger conformance of idempotency claims (`claim`, `finishClaim`, Settlement.idempotencyKey): what a
// retry with a key finds, whatever instance it reaches. A claim belongs to the live instance that made
// it, like a reservation; a key is remembered for IDEMPOTENCY_TTL_MS from its first use, by `now`.

import { randomUUID } from 'node:crypto';
import {
  type ClaimOutcome,
  DEFAULT_MAX_STORED_ANSWER_BYTES,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyClaim,
  type Ledger,
  UNSTORED_ANSWER,
} from '../../ports/ledger.js';
import { availableCredits, reserve } from './ledger-books.js';
import { type LedgerSubject, NOW } from './ledger-subject.js';
import { rejectionOf, type SuiteKit } from './suite-kit.js';
import { vitestApi } from './vitest-api.js';

const FIRST = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const ANSWER =
  '{"success":true,"results":[{"url":"https://example.com/","markdown":"# Ünïcode \\"quoted\\"\\n"}],"metadata":{"credits_used":3}}';

const use = (key: string, fingerprint = FIRST, organization = 'acme'): IdempotencyClaim => ({ organization, key, fingerprint });

/** Reserves `held` and settles `charged` of it under the idempotency key `key` (a charged call's settlement). */
async function chargeUnder(ledger: Ledger, key: string, held: number, charged: number, organization = 'acme'): Promise<number> {
  const { id } = await reserve(ledger, organization, held);
  return ledger.settle({ id, organization, kind: 'extract', charged, answered: true, idempotencyKey: key });
}

export function ledgerIdempotencyTests(kit: SuiteKit, s: LedgerSubject): void {
  const { expect } = vitestApi();
  const needs = (t: { skip(note: string): void }, what: 'reopen' | 'another') => {
    if (what === 'reopen' && !s.canReopen) t.skip('the adapter provides no reopen()');
    if (what === 'another' && !s.canOpenAnother) t.skip('the adapter provides no openAnother()');
  };
  const claimed: ClaimOutcome = { state: 'claimed' };
  const inProgress: ClaimOutcome = { state: 'in_progress' };
  const mismatch: ClaimOutcome = { state: 'mismatch' };
  const replay = (response = ANSWER): ClaimOutcome => ({ state: 'replay', response });

  kit.test('claim: the first use is claimed; while it runs the same call is in_progress and other parameters a mismatch', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    expect(await s.ledger.claim(use('k1'), NOW)).toEqual(claimed);
    expect(await s.ledger.claim(use('k1'), NOW + 1)).toEqual(inProgress);
    expect(await s.ledger.claim(use('k1', OTHER), NOW + 2)).toEqual(mismatch);
    expect(await s.ledger.claim(use('k1'), NOW + 3)).toEqual(inProgress); // asking changed nothing
  });

  kit.test('finishClaim with the answer: later claims replay it byte for byte; other parameters stay a mismatch', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    expect(await s.ledger.claim(use('k1'), NOW)).toEqual(claimed);
    await s.ledger.finishClaim('acme', 'k1', ANSWER, NOW + 5);
    expect(await s.ledger.claim(use('k1'), NOW + 6)).toEqual(replay());
    expect(await s.ledger.claim(use('k1'), NOW + 7)).toEqual(replay());
    expect(await s.ledger.claim(use('k1', OTHER), NOW + 8)).toEqual(mismatch);
  });

  kit.test('finishClaim(null) drops an unpaid claim: the key is free again, also for other parameters', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    expect(await s.ledger.claim(use('k1'), NOW)).toEqual(claimed);
    await s.ledger.finishClaim('acme', 'k1', null, NOW);
    expect(await s.ledger.claim(use('k1'), NOW + 1)).toEqual(claimed);
    await s.ledger.finishClaim('acme', 'k1', null, NOW + 1);
    expect(await s.ledger.claim(use('k1', OTHER), NOW + 2)).toEqual(claimed);
    await s.ledger.finishClaim('acme', 'k1', ANSWER, NOW + 3);
    expect(await s.ledger.claim(use('k1', OTHER), NOW + 4)).toEqual(replay());
  });

  kit.test('a settle carrying the key marks the claim paid with what it charged; finishClaim(null) keeps it paid', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    expect(await s.ledger.claim(use('k1'), NOW)).toEqual(claimed);
    expect(await chargeUnder(s.ledger, 'k1', 5, 3)).toBe(3);
    expect(await s.ledger.claim(use('k1'), NOW + 1)).toEqual(inProgress); // still running here
    await s.ledger.finishClaim('acme', 'k1', null, NOW + 2); // the call failed after its charge
    expect(await s.ledger.claim(use('k1', OTHER), NOW + 3)).toEqual(mismatch);
    expect(await s.ledger.claim(use('k1'), NOW + 4)).toEqual({ state: 'paid', charged: 3 });
    // The taker reruns it: others wait for it, then replay what it answered.
    expect(await s.ledger.claim(use('k1'), NOW + 5)).toEqual(inProgress);
    await s.ledger.finishClaim('acme', 'k1', ANSWER, NOW + 6);
    expect(await s.ledger.claim(use('k1'), NOW + 7)).toEqual(replay());
    expect(await s.ledger.usage('acme')).toEqual({ balance: 7, used: 3, requests: { search: 0, extract: 1 }, free: 0 });
  });

  kit.test('the paid mark moves with the charge only: a capped charge, a duplicate settle, a release mark what was charged', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    // Capped at the reservation: marked 2, not 9.
    expect(await s.ledger.claim(use('capped'), NOW)).toEqual(claimed);
    const held = await reserve(s.ledger, 'acme', 2);
    const settlement = { id: held.id, organization: 'acme', kind: 'search' as const, charged: 9, answered: true, idempotencyKey: 'capped' };
    expect(await s.ledger.settle(settlement)).toBe(2);
    expect(await s.ledger.settle(settlement)).toBe(0); // delivered twice: applied (and marked) once
    await s.ledger.finishClaim('acme', 'capped', null, NOW);
    expect(await s.ledger.claim(use('capped'), NOW + 1)).toEqual({ state: 'paid', charged: 2 });
    // A release (an error after the reservation) charges nothing and so marks nothing.
    expect(await s.ledger.claim(use('released'), NOW)).toEqual(claimed);
    expect(await chargeUnder(s.ledger, 'released', 3, 0)).toBe(0);
    await s.ledger.finishClaim('acme', 'released', null, NOW);
    expect(await s.ledger.claim(use('released', OTHER), NOW + 1)).toEqual(claimed);
    // A free settlement (a free repeat: no reservation) with the key marks nothing either.
    expect(await s.ledger.claim(use('free'), NOW)).toEqual(claimed);
    expect(
      await s.ledger.settle({ id: randomUUID(), organization: 'acme', kind: 'search', charged: 0, answered: true, idempotencyKey: 'free' }),
    ).toBe(0);
    await s.ledger.finishClaim('acme', 'free', null, NOW);
    expect(await s.ledger.claim(use('free'), NOW + 1)).toEqual(claimed);
    expect(await s.ledger.usage('acme')).toEqual({ balance: 8, used: 2, requests: { search: 2, extract: 1 }, free: 2 });
  });

  kit.test('a claim is paid for once: a second charging settlement under a paid key charges nothing and releases its hold', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    expect(await s.ledger.claim(use('once'), NOW)).toEqual(claimed);
    expect(await chargeUnder(s.ledger, 'once', 4, 3)).toBe(3);
    // A second reservation charged under the same key (a bug, or a retry racing its own rerun): not charged.
    expect(await chargeUnder(s.ledger, 'once', 4, 2)).toBe(0);
    await s.ledger.finishClaim('acme', 'once', null, NOW + 1);
    expect(await s.ledger.claim(use('once'), NOW + 2)).toEqual({ state: 'paid', charged: 3 });
    expect(await availableCredits(s.ledger, 'acme')).toBe(7);
    expect((await s.ledger.usage('acme'))?.balance).toBe(7);
  });

  kit.test('a settle with a key nobody claimed charges as usual and claims nothing', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    expect(await chargeUnder(s.ledger, 'never-claimed', 4, 4)).toBe(4);
    expect(await s.ledger.claim(use('never-claimed'), NOW)).toEqual(claimed);
    expect(await s.ledger.organization('acme')).toEqual({ id: 'acme', balance: 6, used: 4 });
  });

  kit.test('a key is remembered for 24 h from its first use: at 24 h − 1 ms it replays, at exactly 24 h it is forgotten', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const edge = NOW + IDEMPOTENCY_TTL_MS;
    for (const key of ['done', 'running', 'paid']) expect(await s.ledger.claim(use(key), NOW)).toEqual(claimed);
    await s.ledger.finishClaim('acme', 'done', ANSWER, NOW + 1_000); // finishing later does not move the start
    await chargeUnder(s.ledger, 'paid', 1, 1);
    expect(await s.ledger.claim(use('done'), edge - 1)).toEqual(replay());
    expect(await s.ledger.claim(use('done', OTHER), edge - 1)).toEqual(mismatch);
    expect(await s.ledger.claim(use('running'), edge - 1)).toEqual(inProgress);
    expect(await s.ledger.claim(use('paid', OTHER), edge - 1)).toEqual(mismatch);
    expect(await s.ledger.claim(use('done', OTHER), edge)).toEqual(claimed);
    expect(await s.ledger.claim(use('running'), edge)).toEqual(claimed);
    expect(await s.ledger.claim(use('paid'), edge)).toEqual(claimed); // a day later even a paid call is a new one
    // The new uses run from their own start.
    expect(await s.ledger.claim(use('done', OTHER), edge + IDEMPOTENCY_TTL_MS - 1)).toEqual(inProgress);
  });

  kit.test('claims are per organization and per exact key', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    await s.ledger.createOrganization('globex', 10, NOW);
    const odd = `k "1" % _ ' \\ ${'x'.repeat(200)}`; // quoting and LIKE characters, a long key
    expect(await s.ledger.claim(use(odd), NOW)).toEqual(claimed);
    expect(await s.ledger.claim(use(odd, OTHER, 'globex'), NOW)).toEqual(claimed);
    expect(await s.ledger.claim(use('k'), NOW)).toEqual(claimed); // a prefix is another key
    expect(await s.ledger.claim(use('K'), NOW)).toEqual(claimed); // keys are case-sensitive
    await s.ledger.finishClaim('acme', odd, ANSWER, NOW);
    expect(await s.ledger.claim(use(odd, OTHER, 'globex'), NOW + 1)).toEqual(inProgress);
    await s.ledger.finishClaim('globex', odd, '{"other":true}', NOW + 2);
    expect(await s.ledger.claim(use(odd), NOW + 3)).toEqual(replay());
    expect(await s.ledger.claim(use(odd, OTHER, 'globex'), NOW + 3)).toEqual(replay('{"other":true}'));
    expect(await s.ledger.claim(use('k'), NOW + 3)).toEqual(inProgress);
  });

  kit.test('20 concurrent claims of one key: exactly one is claimed, the others are in_progress', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => s.ledger.claim(use('race'), NOW)));
    expect(outcomes.filter((o) => o.state === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.state === 'in_progress')).toHaveLength(19);
  });

  kit.test('concurrent claims of one key on two live instances: exactly one is claimed', async (t) => {
    needs(t, 'another');
    await s.ledger.createOrganization('acme', 10, NOW);
    const other = await s.another();
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? s.ledger : other).claim(use('race'), NOW)));
    expect(outcomes.filter((o) => o.state === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.state === 'in_progress')).toHaveLength(19);
  });

  kit.test(
    'a claim running on another live instance: in_progress here, never ended by this one; taken once that instance closes',
    async (t) => {
      needs(t, 'another');
      await s.ledger.createOrganization('acme', 10, NOW);
      const other = await s.another();
      expect(await other.claim(use('theirs'), NOW)).toEqual(claimed);
      expect(await other.claim(use('paid'), NOW)).toEqual(claimed);
      await chargeUnder(other, 'paid', 2, 2);
      expect(await s.ledger.claim(use('theirs'), NOW + 1)).toEqual(inProgress);
      await s.ledger.finishClaim('acme', 'theirs', null, NOW + 1); // not this instance's claim: no effect
      await s.ledger.finishClaim('acme', 'paid', ANSWER, NOW + 1);
      expect(await s.ledger.claim(use('theirs'), NOW + 2)).toEqual(inProgress);
      expect(await s.ledger.claim(use('paid'), NOW + 2)).toEqual(inProgress);
      await s.close(other); // closed cleanly with both claims unfinished
      expect(await s.ledger.claim(use('theirs'), NOW + 3)).toEqual(claimed);
      expect(await s.ledger.claim(use('paid'), NOW + 3)).toEqual({ state: 'paid', charged: 2 });
    },
  );

  kit.test('after a restart: an unfinished unpaid claim is claimed again, a paid one is paid, a finished one replays', async (t) => {
    needs(t, 'reopen');
    await s.ledger.createOrganization('acme', 10, NOW);
    for (const key of ['unpaid', 'paid', 'done']) expect(await s.ledger.claim(use(key), NOW)).toEqual(claimed);
    expect(await chargeUnder(s.ledger, 'paid', 5, 4)).toBe(4); // charged, then the process "died" before its answer was stored
    await s.ledger.finishClaim('acme', 'done', ANSWER, NOW);
    const ledger = await s.restart();
    expect(await ledger.claim(use('unpaid', OTHER), NOW + 1)).toEqual(claimed);
    expect(await ledger.claim(use('paid', OTHER), NOW + 1)).toEqual(mismatch);
    expect(await ledger.claim(use('paid'), NOW + 1)).toEqual({ state: 'paid', charged: 4 });
    expect(await ledger.claim(use('paid'), NOW + 2)).toEqual(inProgress); // taken by this instance
    expect(await ledger.claim(use('done'), NOW + 1)).toEqual(replay());
    expect(await ledger.usage('acme')).toEqual({ balance: 6, used: 4, requests: { search: 0, extract: 1 }, free: 0 });
  });

  kit.test(
    'finishClaim with UNSTORED_ANSWER stores nothing: a retry gets paid (a free rerun, reporting the charge), one at a time, and may store its answer',
    async () => {
      await s.ledger.createOrganization('acme', 10, NOW);
      for (const key of ['free', 'charged']) expect(await s.ledger.claim(use(key), NOW)).toEqual(claimed);
      await chargeUnder(s.ledger, 'charged', 2, 2);
      for (const key of ['free', 'charged']) await s.ledger.finishClaim('acme', key, UNSTORED_ANSWER, NOW + 1);
      expect(await s.ledger.claim(use('free'), NOW + 2)).toEqual({ state: 'paid', charged: 0 });
      expect(await s.ledger.claim(use('free'), NOW + 3)).toEqual(inProgress); // its rerun is running
      expect(await s.ledger.claim(use('free', OTHER), NOW + 3)).toEqual(mismatch);
      await s.ledger.finishClaim('acme', 'free', null, NOW + 4); // the rerun failed: still a free rerun next time
      expect(await s.ledger.claim(use('free'), NOW + 5)).toEqual({ state: 'paid', charged: 0 });
      expect(await s.ledger.claim(use('charged'), NOW + 5)).toEqual({ state: 'paid', charged: 2 });
      await s.ledger.finishClaim('acme', 'charged', ANSWER, NOW + 6);
      expect(await s.ledger.claim(use('charged'), NOW + 7)).toEqual(replay());
      expect(await s.ledger.usage('acme')).toMatchObject({ balance: 8, used: 2 });
    },
  );

  kit.test(
    'stored answers are capped per organization (default 64 MiB): past the cap a retry reruns free; other organizations and expired keys unaffected',
    async () => {
      const MiB = 1024 * 1024;
      const big = (i: number) => `{"n":${i},"pad":"${'x'.repeat(8 * MiB - 20)}"}`;
      expect(DEFAULT_MAX_STORED_ANSWER_BYTES).toBe(64 * MiB);
      await s.ledger.createOrganization('acme', 100, NOW);
      await s.ledger.createOrganization('other', 100, NOW);
      const fits = Math.floor(DEFAULT_MAX_STORED_ANSWER_BYTES / Buffer.byteLength(big(0)));
      for (let i = 0; i <= fits; i++) {
        expect(await s.ledger.claim(use(`k${i}`), NOW)).toEqual(claimed);
        await chargeUnder(s.ledger, `k${i}`, 1, 1);
        await s.ledger.finishClaim('acme', `k${i}`, big(i), NOW);
      }
      expect(await s.ledger.claim(use('k0'), NOW + 1)).toEqual(replay(big(0)));
      expect(await s.ledger.claim(use(`k${fits - 1}`), NOW + 1)).toEqual(replay(big(fits - 1)));
      // Past the cap: answered, charged once, not stored.
      expect(await s.ledger.claim(use(`k${fits}`), NOW + 1)).toEqual({ state: 'paid', charged: 1 });
      await s.ledger.finishClaim('acme', `k${fits}`, null, NOW + 1);
      // Another organization stores as usual.
      expect(await s.ledger.claim(use('k0', FIRST, 'other'), NOW + 1)).toEqual(claimed);
      await s.ledger.finishClaim('other', 'k0', big(0), NOW + 1);
      expect(await s.ledger.claim(use('k0', FIRST, 'other'), NOW + 2)).toEqual(replay(big(0)));
      // A key forgotten after 24 h gives its bytes back.
      const later = NOW + IDEMPOTENCY_TTL_MS;
      expect(await s.ledger.claim(use('k0'), later)).toEqual(claimed);
      await s.ledger.finishClaim('acme', 'k0', null, later);
      expect(await s.ledger.claim(use('fresh'), later)).toEqual(claimed);
      await s.ledger.finishClaim('acme', 'fresh', big(1), later);
      expect(await s.ledger.claim(use('fresh'), later + 1)).toEqual(replay(big(1)));
    },
  );

  kit.test('claim and finishClaim after close reject', async () => {
    await s.ledger.createOrganization('acme', 10, NOW);
    const closed = s.ledger;
    await s.close(closed);
    await rejectionOf(() => closed.claim(use('late'), NOW), 'claim after close');
    await rejectionOf(() => closed.finishClaim('acme', 'late', null, NOW), 'finishClaim after close');
  });
}
