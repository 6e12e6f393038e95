// The default content cache of extract (pages kept for free repeats): an in-process LRU bounded by
// bytes of text, so one 10 MiB page can't crowd memory. A page larger than the whole bound is not
// kept (the repeat is then re-fetched, still free). Expiry is the core's (Clock), not lru-cache's.

import { LRUCache } from 'lru-cache';
import { cachedPageChars, type CachedPage } from '../core/extract/run-extract.js';
import type { CacheStore } from '../ports/cache.js';

export function pageCacheStore(maxBytes: number): CacheStore<CachedPage> {
  const cache = new LRUCache<string, CachedPage>({
    maxSize: maxBytes,
    sizeCalculation: (page) => Math.max(1, cachedPageChars(page) * 2),
  });
  return {
    async get(key) {
      return cache.get(key);
    },
    async set(key, value) {
      // Too large: not kept, and the key's older page goes too (a repeat must never get a stale page).
      if (cachedPageChars(value) * 2 <= maxBytes) cache.set(key, value);
      else cache.delete(key);
    },
    async delete(key) {
      cache.delete(key);
    },
    async close() {
      cache.clear();
    },
  };
}
