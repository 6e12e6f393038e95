import { describe, expect, it } from 'vitest';
import { lruCacheStore } from '../../src/adapters/lru-cache-store.js';

describe('lruCacheStore', () => {
  it('stores, deletes and evicts the least recently used beyond its bound', async () => {
    const store = lruCacheStore<{ n: number }>({ max: 2 });
    await store.set('a', { n: 1 }, 1000);
    await store.set('b', { n: 2 }, 1000);
    expect(await store.get('a')).toEqual({ n: 1 }); // a is now the most recent
    await store.set('c', { n: 3 }, 1000);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toEqual({ n: 1 });
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });
});
