// Reservation ids: UUIDv7 from the engine's Clock, so the ledger's trace is written in time order.

import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import { Credits } from '../../src/core/books/credits.js';
import { timeOrderedIds } from '../../src/core/books/request-id.js';
import type { Ledger, Reservation } from '../../src/ports/ledger.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedIds', () => {
  it('makes RFC 9562 version-7 UUIDs whose first 48 bits are the Clock time in ms', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 21, 6, 0, 0, 123));
    const id = timeOrderedIds(clock)();
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(clock.now());
  });

  it('sorts as text in the order it was made, within a millisecond and across the Clock', async () => {
    const clock = new ManualClock();
    const next = timeOrderedIds(clock);
    const ids: string[] = [];
    for (let step = 0; step < 5; step++) {
      for (let i = 0; i < 50; i++) ids.push(next());
      await clock.advance(step === 2 ? 60_000 : 1);
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats an id, also from two generators on the same millisecond', () => {
    const clock = new ManualClock();
    const a = timeOrderedIds(clock);
    const b = timeOrderedIds(clock);
    const ids = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      ids.add(a());
      ids.add(b());
    }
    expect(ids.size).toBe(10_000);
  });
});

describe('Credits', () => {
  it('reserves under time-ordered ids from its Clock', async () => {
    const clock = new ManualClock();
    const store = openSqlite();
    const inner = sqliteLedger(store, { clock });
    const seen: Reservation[] = [];
    const ledger: Ledger = { ...inner, reserve: (r, now) => (seen.push(r), inner.reserve(r, now)) };
    await ledger.createOrganization('acme', 10, clock.now());
    const credits = new Credits(ledger, clock);
    for (let i = 0; i < 3; i++) {
      const hold = await credits.hold('acme', 'search', 1);
      await hold.settle(1);
      await clock.advance(1000);
    }
    expect(seen.map((r) => r.id)).toEqual([...seen.map((r) => r.id)].sort());
    for (const r of seen) expect(r.id).toMatch(UUID_V7);
    expect((await ledger.usage('acme'))?.balance).toBe(7);
    await inner.close();
  });
});
