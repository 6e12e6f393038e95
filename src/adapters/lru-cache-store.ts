// The default CacheStore: an in-process LRU bounded by entry count. No lru-cache TTL: expiry is
// decided by the core against the injected Clock, and lru-cache's timers read real time.

import { LRUCache } from 'lru-cache';
import type { CacheStore } from '../ports/cache.js';

export function lruCacheStore<V extends {}>(options: { max?: number } = {}): CacheStore<V> {
  const cache = new LRUCache<string, V>({ max: options.max ?? 10_000 });
  return {
    async get(key) {
      return cache.get(key);
    },
    async set(key, value) {
      cache.set(key, value);
    },
    async delete(key) {
      cache.delete(key);
    },
    async close() {
      cache.clear();
    },
  };
}
