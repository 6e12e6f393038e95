// The per-partition LRU behind repeat windows: bounded per partition, expiry on the injected clock,
// partitions dropped once all their entries have expired.

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_PER_PARTITION,
  partitionedLruStore,
  repeatWindowStore,
  SWEEP_INTERVAL_MS,
} from '../../src/adapters/partitioned-lru-store.js';
import { repeatWindowPartition } from '../../src/core/books/repeat-window.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

const byPrefix = (key: string) => key.split('/')[0]!;

describe('partitionedLruStore', () => {
  it("one partition's load never evicts another's entries; each is bounded on its own (LRU)", async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<number>({ clock, partitionOf: byPrefix });
    await store.set('a/window', 1, 300_000);
    for (let i = 0; i < 2 * DEFAULT_MAX_PER_PARTITION; i++) await store.set(`b/${i}`, i, 300_000);
    expect(await store.get('a/window')).toBe(1);
    expect(store.size).toBe(1 + DEFAULT_MAX_PER_PARTITION);
    expect(await store.get(`b/${DEFAULT_MAX_PER_PARTITION - 1}`)).toBeUndefined(); // b's oldest went
    expect(await store.get(`b/${2 * DEFAULT_MAX_PER_PARTITION - 1}`)).toBe(2 * DEFAULT_MAX_PER_PARTITION - 1);
  });

  it('evicts the least recently used of a partition, a read counting as a use', async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<number>({ clock, partitionOf: byPrefix, maxPerPartition: 2 });
    await store.set('p/1', 1, 1000);
    await store.set('p/2', 2, 1000);
    expect(await store.get('p/1')).toBe(1);
    await store.set('p/3', 3, 1000);
    expect(await store.get('p/2')).toBeUndefined();
    expect([await store.get('p/1'), await store.get('p/3')]).toEqual([1, 3]);
  });

  it('a write to a held key replaces its value and deadline and makes it the most recently used', async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<number>({ clock, partitionOf: byPrefix, maxPerPartition: 2 });
    await store.set('p/1', 1, 1000);
    await store.set('p/2', 2, 1000);
    await store.set('p/1', 10, 5000); // p/2 is now the least recently used
    await store.set('p/3', 3, 5000);
    expect([await store.get('p/2'), store.size]).toEqual([undefined, 2]);
    await clock.advance(2000);
    expect([await store.get('p/1'), await store.get('p/3')]).toEqual([10, 3]);
  });

  it('a read of an expired entry drops it; the rest of the order is kept', async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<number>({ clock, partitionOf: byPrefix, maxPerPartition: 3 });
    await store.set('p/short', 0, 10);
    await store.set('p/a', 1, 1000);
    await store.set('p/b', 2, 1000);
    await clock.advance(10);
    expect([await store.get('p/short'), store.size]).toEqual([undefined, 2]);
    await store.set('p/c', 3, 1000);
    await store.set('p/d', 4, 1000); // over the bound: p/a, the least recently used left, goes
    expect([await store.get('p/a'), await store.get('p/b'), await store.get('p/c'), await store.get('p/d')]).toEqual([undefined, 2, 3, 4]);
  });

  it('expires entries against the injected clock at now + ttl', async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<string>({ clock, partitionOf: byPrefix });
    await store.set('a/k', 'v', 1000);
    await clock.advance(999);
    expect(await store.get('a/k')).toBe('v');
    await clock.advance(1);
    expect(await store.get('a/k')).toBeUndefined();
  });

  it('prunes expired entries from a partition on write, so memory follows live entries', async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<number>({ clock, partitionOf: byPrefix });
    for (let i = 0; i < 5_000; i++) await store.set(`a/${i}`, i, 300_000);
    await clock.advance(300_000);
    await store.set('a/new', 1, 300_000);
    expect(store.size).toBe(1);
  });

  it('drops a partition once all its entries have expired (10,000 organizations, one window each)', async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<number>({ clock, partitionOf: byPrefix });
    for (let i = 0; i < 10_000; i++) await store.set(`org${i}/q`, i, 300_000);
    await store.set('long/q', 0, 900_000);
    expect(store.partitions).toBe(10_001);
    await clock.advance(300_000 + SWEEP_INTERVAL_MS);
    expect(await store.get('org0/q')).toBeUndefined(); // reads sweep too
    expect(store.partitions).toBe(1);
    expect(await store.get('long/q')).toBe(0);
  });

  it('keeps a partition while any of its entries is live', async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<number>({ clock, partitionOf: byPrefix });
    await store.set('a/short', 1, 1000);
    await store.set('a/long', 2, 600_000);
    await clock.advance(SWEEP_INTERVAL_MS * 2);
    await store.set('b/x', 3, 1000);
    expect(store.partitions).toBe(2);
    expect(await store.get('a/long')).toBe(2);
  });

  it('deleting the last entry drops its partition; close empties the store', async () => {
    const clock = new ManualClock();
    const store = partitionedLruStore<number>({ clock, partitionOf: byPrefix });
    await store.set('a/1', 1, 1000);
    await store.set('b/1', 1, 1000);
    await store.delete('a/1');
    expect(store.partitions).toBe(1);
    await store.close();
    expect([store.partitions, await store.get('b/1')]).toEqual([0, undefined]);
  });

  it('rejects a bad bound', () => {
    expect(() => partitionedLruStore({ clock: new ManualClock(), partitionOf: byPrefix, maxPerPartition: 0 })).toThrow(/maxPerPartition/);
  });
});

describe('repeat window partitions', () => {
  it('partitions by kind and organization, whatever the rest of the key holds', () => {
    expect(repeatWindowPartition('search\u0000acme\u0000cafe\u0000x')).toBe('search\u0000acme');
    expect(repeatWindowPartition('extract\u0000acme\u0000https://e.com/\u0000markdown')).toBe('extract\u0000acme');
    expect(repeatWindowPartition('search\u0000acme')).toBe('search\u0000acme');
    expect(repeatWindowPartition('plain')).toBe('plain');
  });

  it('repeatWindowStore: a search window survives 10,000 extract windows of the same and another organization', async () => {
    const clock = new ManualClock();
    const store = repeatWindowStore(clock);
    const entry = { chargedAt: clock.now(), value: true };
    await store.set('search\u0000a\u0000q', entry, 300_000);
    for (let i = 0; i <= DEFAULT_MAX_PER_PARTITION; i++) {
      await store.set(`extract\u0000a\u0000https://e.com/${i}`, entry, 300_000);
      await store.set(`extract\u0000b\u0000https://e.com/${i}`, entry, 300_000);
    }
    expect(await store.get('search\u0000a\u0000q')).toEqual(entry);
  });
});
