// Free-repeat windows are bounded per organization: another organization's load cannot evict a live
// window (one 10,000-entry LRU shared by all let 10,000 searches of org B make org A's repeat, 2 s after
// its charge, charged again).

import { describe, expect, it } from 'vitest';
import { repeatWindowStore, SWEEP_INTERVAL_MS } from '../../src/adapters/partitioned-lru-store.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import { hits, testEngine } from './helpers.js';

describe("repeat windows survive other organizations' load", () => {
  it("org B makes 10,001 charged searches; org A's repeat 2 s after its charge is still free", async () => {
    const t = testEngine({ sources: [scriptedSource('s', () => hits(3))] });
    await t.engine.admin.createOrganization('a', { credits: 5 });
    await t.engine.admin.createOrganization('b', { credits: 20_000 });
    const a = { organization: 'a' };
    const b = { organization: 'b' };

    expect((await t.engine.search({ q: 'solar panels' }, a)).metadata.credits_used).toBe(1);
    for (let i = 0; i < 10_001; i++) {
      const r = await t.engine.search({ q: `b query ${i}` }, b);
      if (r.metadata.credits_used !== 1) throw new Error(`b search ${i} was not charged`);
    }
    await t.clock.advance(2_000);

    const repeat = await t.engine.search({ q: 'solar panels' }, a);
    expect(repeat.metadata.credits_used).toBe(0);
    expect(repeat.metadata.from_cache).toBe(true);
    expect((await t.engine.usage(a)).credits).toEqual({ balance: 4, used: 1 });
    // B's own most recent windows are live too.
    expect((await t.engine.search({ q: 'b query 10000' }, b)).metadata.credits_used).toBe(0);
  }, 60_000);

  it("an organization's windows are forgotten, memory and all, once they have all expired", async () => {
    const clock = new ManualClock();
    const store = repeatWindowStore(clock);
    const t = testEngine({ sources: [scriptedSource('s', () => hits(1))], caches: { repeats: store } }, clock);
    for (let i = 0; i < 200; i++) {
      await t.engine.admin.createOrganization(`org${i}`, { credits: 1 });
      await t.engine.search({ q: 'same query' }, { organization: `org${i}` });
    }
    expect(store.partitions).toBe(200);
    await clock.advance(5 * 60_000 + SWEEP_INTERVAL_MS);
    await t.engine.admin.createOrganization('late', { credits: 1 });
    await t.engine.search({ q: 'same query' }, { organization: 'late' });
    expect([store.partitions, store.size]).toEqual([1, 1]);
  });
});
