// The CacheStore conformance suite: every cache adapter (the in-process LRUs, a Redis one, yours)
// must pass it. A cache may forget (evict) at any time, but it may never answer with a value that
// was not the latest one stored under exactly that key: the repeat windows and the confirmed-empty
// cache trust what `get` returns (their expiry is checked by the core against the Clock).

import type { CacheStore } from '../../ports/cache.js';
import { type ConformanceOptions, suiteKit } from './suite-kit.js';
import { vitestApi } from './vitest-api.js';

export interface CacheStoreHandle<V> {
  /** A fresh, empty store with room for at least 1,000 small entries. */
  store: CacheStore<V>;
  /** Removes what the store left behind (keys in a shared Redis…). Runs after `store.close()`. */
  cleanup?(): Promise<void>;
}

export interface CacheStoreConformanceOptions<V> extends ConformanceOptions {
  /** Builds distinct sample values; default: plain JSON objects like the core's cache entries. */
  value?: (seed: number) => V;
}

/** The default sample: shaped like a repeat-window entry (plain JSON data, as a Redis store would see it). */
export interface SampleValue {
  chargedAt: number;
  value: { query: string; results: { title: string; url: string; position: number }[]; flags: { fromCache: boolean; note: string | null } };
}

/** The suite's default sample value for `seed` (unicode, nested objects), shaped like a repeat-window entry. */
export function sampleValue(seed: number): SampleValue {
  return {
    chargedAt: Date.UTC(2026, 0, 1) + seed * 1_000,
    value: {
      query: `café «${seed}» 東京 \u{1F50E}`,
      results: [
        { title: `Result ${seed}`, url: `https://example.com/${seed}?q=a&b=%20`, position: 1 },
        { title: '', url: 'https://example.org/', position: 2 },
      ],
      flags: { fromCache: seed % 2 === 0, note: seed % 3 === 0 ? null : `note ${seed}` },
    },
  };
}

/** Keys the core really builds: NUL-separated parts, URLs, Unicode, a 4 KB URL key. */
const KEYS = [
  'search\u0000acme\u0000cafe',
  'search\u0000acme\u0000Cafe',
  'search\u0000acme',
  'search\u0000acme\u0000cafe\u0000',
  'search\u0001acme\u0000cafe',
  'extract\u0000acme\u0000https://example.com/a?b=1\u0000markdown\u0000normal',
  'extract\u0000acme\u0000https://example.com/a?b=1\u0000html\u0000normal',
  'caf\u00e9',
  'cafe\u0301',
  `extract\u0000acme\u0000https://example.com/${'x'.repeat(4_000)}\u0000markdown\u0000stealth`,
];

/**
 * Registers vitest tests that a `CacheStore` adapter must pass (exact keys, round-trips, overwrite,
 * delete, TTL hints, 1,000 parallel writes…; docs/ports.md). Call it at the top level of a test file
 * run by `vitest run`; `makeStore` gives a fresh store per test. `knownGaps` lists test titles expected
 * to fail.
 * @throws {Error} when called outside a vitest worker.
 */
export function describeCacheStoreConformance(
  name: string,
  makeStore: () => Promise<CacheStoreHandle<SampleValue>>,
  options?: CacheStoreConformanceOptions<SampleValue>,
): void;
export function describeCacheStoreConformance<V>(
  name: string,
  makeStore: () => Promise<CacheStoreHandle<V>>,
  options: CacheStoreConformanceOptions<V> & { value: (seed: number) => V },
): void;
export function describeCacheStoreConformance(
  name: string,
  makeStore: () => Promise<CacheStoreHandle<unknown>>,
  options: CacheStoreConformanceOptions<unknown> = {},
): void {
  const { describe, beforeEach, afterEach, expect } = vitestApi();
  const value = options.value ?? sampleValue;
  describe(`CacheStore conformance: ${name}`, () => {
    let handle: CacheStoreHandle<unknown> | undefined;
    let closed = false;
    const store = () => handle!.store;
    beforeEach(async () => {
      handle = await makeStore();
      closed = false;
    });
    afterEach(async () => {
      const done = handle;
      handle = undefined;
      try {
        if (!closed) await done?.store.close?.();
      } finally {
        await done?.cleanup?.();
      }
    });
    const kit = suiteKit(options);

    kit.test('a missing key reads as undefined', async () => {
      expect(await store().get('never-set')).toBeUndefined();
      await store().set('set', value(1), 60_000);
      expect(await store().get('never-set')).toBeUndefined();
    });

    kit.test('a value read back equals the value stored', async () => {
      for (let i = 0; i < 6; i++) await store().set(`k${i}`, value(i), 300_000);
      for (let i = 5; i >= 0; i--) expect(await store().get(`k${i}`)).toEqual(value(i));
    });

    kit.test('a set overwrites the previous value', async () => {
      await store().set('k', value(1), 300_000);
      await store().set('k', value(2), 300_000);
      expect(await store().get('k')).toEqual(value(2));
    });

    kit.test('delete removes only its key; deleting a missing key resolves', async () => {
      await store().set('a', value(1), 300_000);
      await store().set('b', value(2), 300_000);
      await store().delete('a');
      await store().delete('a');
      await store().delete('never-set');
      expect(await store().get('a')).toBeUndefined();
      expect(await store().get('b')).toEqual(value(2));
      await store().set('a', value(3), 300_000);
      expect(await store().get('a')).toEqual(value(3));
    });

    kit.test('keys match exactly: case, NUL separators, prefixes, Unicode forms, 4 KB keys', async () => {
      await Promise.all(KEYS.map((key, i) => store().set(key, value(100 + i), 300_000)));
      for (const [i, key] of KEYS.entries()) expect(await store().get(key)).toEqual(value(100 + i));
      await store().delete(KEYS[0]!);
      expect(await store().get(KEYS[1]!)).toEqual(value(101));
      expect(await store().get(KEYS[3]!)).toEqual(value(103));
    });

    kit.test('every ttl hint the core sends is accepted (1 ms to 15 minutes, fractional)', async () => {
      for (const [i, ttl] of [900_000, 300_000, 1_234.5, 1].entries()) await store().set(`ttl${i}`, value(i), ttl);
      expect(await store().get('ttl0')).toEqual(value(0)); // 15 minutes: must still be there
      expect(await store().get('ttl1')).toEqual(value(1));
    });

    kit.test('1,000 entries written in parallel all read back', async () => {
      await Promise.all(Array.from({ length: 1_000 }, (_, i) => store().set(`bulk\u0000${i}`, value(i), 300_000)));
      const read = await Promise.all(Array.from({ length: 1_000 }, (_, i) => store().get(`bulk\u0000${i}`)));
      read.forEach((v, i) => expect(v).toEqual(value(i)));
    });

    kit.test('parallel writes to one key leave one of the written values, never a mix', async () => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => store().set('race', value(i), 300_000)));
      const got = await store().get('race');
      expect(Array.from({ length: 20 }, (_, i) => value(i))).toContainEqual(got);
    });

    kit.test('close resolves (when the store has one)', async () => {
      await store().set('k', value(1), 300_000);
      closed = true;
      await store().close?.();
    });

    kit.finish();
  });
}
