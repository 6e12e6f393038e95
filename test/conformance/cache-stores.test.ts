// Every CacheStore adapter against the CacheStore conformance suite, plus what only the byte-bounded
// page cache promises (its bound).

import { describe, expect, it } from 'vitest';
import { lruCacheStore } from '../../src/adapters/lru-cache-store.js';
import { pageCacheStore } from '../../src/adapters/page-cache-store.js';
import { partitionedLruStore, repeatWindowStore } from '../../src/adapters/partitioned-lru-store.js';
import { repeatWindowPartition } from '../../src/core/books/repeat-window.js';
import type { CachedPage } from '../../src/core/extract/run-extract.js';
import { describeCacheStoreConformance, type SampleValue } from '../../src/testing/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

describeCacheStoreConformance('lruCacheStore (repeat windows, confirmed empties)', async () => ({ store: lruCacheStore<SampleValue>() }));
describeCacheStoreConformance('lruCacheStore bounded to 1,000 entries', async () => ({
  store: lruCacheStore<SampleValue>({ max: 1_000 }),
}));
describeCacheStoreConformance('repeatWindowStore (default repeat windows, per organization)', async () => ({
  store: repeatWindowStore<SampleValue>(new ManualClock()),
}));
describeCacheStoreConformance('partitionedLruStore bounded to 1,000 entries per partition', async () => ({
  store: partitionedLruStore<SampleValue>({ clock: new ManualClock(), partitionOf: repeatWindowPartition, maxPerPartition: 1_000 }),
}));

const page = (seed: number): CachedPage => ({ status: seed % 2 ? 200 : 404, text: `# Page ${seed}\n\ncafé 東京 ${'·'.repeat(seed % 50)}` });
describeCacheStoreConformance('pageCacheStore (extract content cache)', async () => ({ store: pageCacheStore(64 * 1024 * 1024) }), {
  value: page,
});

describe('pageCacheStore bound', () => {
  it('keeps at most its bound in bytes of text, evicting the least recently used', async () => {
    const store = pageCacheStore(100); // 50 UTF-16 code units
    await store.set('a', { status: 200, text: 'a'.repeat(20) }, 1_000);
    await store.set('b', { status: 200, text: 'b'.repeat(20) }, 1_000);
    expect(await store.get('a')).toBeDefined(); // a is now the most recent
    await store.set('c', { status: 200, text: 'c'.repeat(20) }, 1_000);
    expect(await store.get('b')).toBeUndefined();
    expect((await store.get('a'))?.text).toHaveLength(20);
    await store.set('huge', { status: 200, text: 'h'.repeat(51) }, 1_000);
    expect(await store.get('huge')).toBeUndefined(); // larger than the whole bound: not kept
    expect(await store.get('c')).toBeDefined(); // and it evicted nothing
  });

  it('a page too large to keep also removes the older page under its key', async () => {
    const store = pageCacheStore(100);
    await store.set('k', { status: 200, text: 'small' }, 1_000);
    await store.set('k', { status: 200, text: 'h'.repeat(51) }, 1_000);
    expect(await store.get('k')).toBeUndefined();
  });
});
