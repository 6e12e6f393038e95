// The default content cache of extract (pages kept for free repeats): in-process, bounded by bytes of
// text, so one 10 MiB page can't crowd memory, and shared fairly between organizations (keys carry
// theirs: core/extract/page-cache-key.ts). Past the bound the least recently used page of the
// organization holding the most bytes goes: an organization holding no more than its fair share
// (the bound over the organizations with pages) never loses a page to another's traffic. A page
// larger than the whole bound is not kept (the repeat is then re-fetched, still free). Expiry is the
// core's (Clock): the store keeps no time.

import { pageCacheOrganization } from '../core/extract/page-cache-key.js';
import { type CachedPage, cachedPageChars } from '../core/extract/run-extract.js';
import type { CacheStore } from '../ports/cache.js';

interface Share {
  /** Least recently used first. */
  pages: Map<string, { page: CachedPage; bytes: number }>;
  bytes: number;
}

export interface PageCacheStore extends CacheStore<CachedPage> {
  /** Bytes held per organization (for tests and diagnostics). */
  bytesOf(organization: string): number;
}

/** The engine's default bound (`pageCacheBytes`): 64 MiB of text. */
export const DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024;

export function pageCacheStore(maxBytes = DEFAULT_PAGE_CACHE_BYTES): PageCacheStore {
  const shares = new Map<string, Share>();
  let total = 0;

  const remove = (key: string) => {
    const org = pageCacheOrganization(key);
    const share = shares.get(org);
    const entry = share?.pages.get(key);
    if (!share || !entry) return;
    share.pages.delete(key);
    share.bytes -= entry.bytes;
    total -= entry.bytes;
    if (share.pages.size === 0) shares.delete(org);
  };

  /** The least recently used page of the largest share (one step per organization with pages). */
  const evictOne = () => {
    let largest: Share | undefined;
    for (const share of shares.values()) if (!largest || share.bytes > largest.bytes) largest = share;
    const oldest = largest?.pages.keys().next();
    if (oldest && !oldest.done) remove(oldest.value);
  };

  return {
    async get(key) {
      const pages = shares.get(pageCacheOrganization(key))?.pages;
      const entry = pages?.get(key);
      if (!pages || !entry) return undefined;
      pages.delete(key);
      pages.set(key, entry); // most recently used
      return entry.page;
    },
    async set(key, page) {
      // The key's older page goes first: a too-large page must not leave a stale one behind.
      remove(key);
      const bytes = Math.max(1, cachedPageChars(page) * 2);
      if (bytes > maxBytes) return;
      const org = pageCacheOrganization(key);
      let share = shares.get(org);
      if (!share) shares.set(org, (share = { pages: new Map(), bytes: 0 }));
      share.pages.set(key, { page, bytes });
      share.bytes += bytes;
      total += bytes;
      while (total > maxBytes) evictOne();
    },
    async delete(key) {
      remove(key);
    },
    async close() {
      shares.clear();
      total = 0;
    },
    bytesOf(organization) {
      return shares.get(organization)?.bytes ?? 0;
    },
  };
}
