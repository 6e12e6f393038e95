// The extract page cache is per organization (issue 32, item 10): a free repeat answers the page its
// own organization fetched, never another organization's copy, and one organization's pages can't
// push another's out of the cache.

import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_CACHE_BYTES, pageCacheStore } from '../../src/adapters/page-cache-store.js';
import { pageCacheKey } from '../../src/core/extract/page-cache-key.js';
import type { CachedPage } from '../../src/core/extract/run-extract.js';
import { article, type ExtractSetup, extractSetup, ORG, OTHER, withOrgs } from './helpers.js';

let s: ExtractSetup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('extract page cache, per organization', () => {
  it("a free repeat gets its own organization's copy of the page, not the copy another organization fetched later", async () => {
    let served = 0;
    s = await extractSetup({
      // Each fetch gets a different edition, so whose copy a repeat got is visible.
      '/news': (_req, res) => {
        served++;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(article(`Edition ${served}`));
      },
    });
    await withOrgs(s.engine);
    const url = s.server.url('/news');
    const first = await s.engine.extract({ urls: [url] }, ORG);
    expect(first.results[0]?.markdown).toContain('Edition 1');
    const other = await s.engine.extract({ urls: [url] }, OTHER); // charged, fetched afresh
    expect(other.results[0]?.markdown).toContain('Edition 2');
    expect(other.metadata.credits_used).toBe(1);

    await s.clock.advance(60_000);
    const repeat = await s.engine.extract({ urls: [url] }, ORG);
    expect(repeat.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
    expect(repeat.results[0]?.markdown).toContain('Edition 1');
    expect(repeat.results[0]?.markdown).not.toContain('Edition 2');
    expect(served).toBe(2); // served from the cache, not fetched again
    const otherRepeat = await s.engine.extract({ urls: [url] }, OTHER);
    expect(otherRepeat.results[0]?.markdown).toContain('Edition 2');
    expect(served).toBe(2);
  });
});

describe('pageCacheStore: shares between organizations at the default bound (64 MiB)', () => {
  const page = (chars: number, tag: string): CachedPage => ({
    status: 200,
    text: tag.padEnd(chars, '.'),
    metadata: { final_url: 'https://a.test/' },
  });

  it("one organization filling the cache many times over evicts its own pages, not another's", async () => {
    expect(DEFAULT_PAGE_CACHE_BYTES).toBe(64 * 1024 * 1024);
    const store = pageCacheStore();
    const mb = 512 * 1024; // characters: 1 MiB of UTF-16
    for (let i = 0; i < 5; i++) await store.set(pageCacheKey('acme', `https://acme.test/${i}`), page(mb, `acme ${i}`), 300_000);
    // globex writes 200 MiB of pages: three times the whole bound.
    for (let i = 0; i < 200; i++) await store.set(pageCacheKey('globex', `https://globex.test/${i}`), page(mb, `globex ${i}`), 300_000);
    for (let i = 0; i < 5; i++)
      expect((await store.get(pageCacheKey('acme', `https://acme.test/${i}`)))?.text.startsWith(`acme ${i}`)).toBe(true);
    expect(store.bytesOf('acme')).toBe(5 * (mb + 'https://a.test/'.length) * 2); // all five kept
    expect(store.bytesOf('acme') + store.bytesOf('globex')).toBeLessThanOrEqual(DEFAULT_PAGE_CACHE_BYTES);
    expect(await store.get(pageCacheKey('globex', 'https://globex.test/0'))).toBeUndefined(); // its own oldest went
    expect(await store.get(pageCacheKey('globex', 'https://globex.test/199'))).toBeDefined();
  });

  it('the same URL is two entries for two organizations', async () => {
    const store = pageCacheStore();
    await store.set(pageCacheKey('acme', 'u'), page(10, 'mine'), 1_000);
    expect(await store.get(pageCacheKey('globex', 'u'))).toBeUndefined();
    await store.set(pageCacheKey('globex', 'u'), page(10, 'theirs'), 1_000);
    expect((await store.get(pageCacheKey('acme', 'u')))?.text.startsWith('mine')).toBe(true);
  });

  it('when every organization is over its share, the largest gives way first', async () => {
    const store = pageCacheStore(1000); // 500 characters
    for (let i = 0; i < 4; i++) await store.set(pageCacheKey('a', `a${i}`), page(100, 'a'), 1_000); // 800 bytes
    await store.set(pageCacheKey('b', 'b0'), page(100, 'b'), 1_000); // over: a (the largest) loses a0
    await store.set(pageCacheKey('b', 'b1'), page(100, 'b'), 1_000); // over: a loses a1
    await store.set(pageCacheKey('b', 'b2'), page(100, 'b'), 1_000); // a and b at 400+600-… : the largest goes
    expect(store.bytesOf('a') + store.bytesOf('b')).toBeLessThanOrEqual(1000);
    expect(Math.abs(store.bytesOf('a') - store.bytesOf('b'))).toBeLessThanOrEqual(200);
    expect(await store.get(pageCacheKey('a', 'a0'))).toBeUndefined();
  });
});
