// search with include_content: pages fetched through the extract pipeline, billed by pages delivered.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageServer } from '../../src/testing/page-server.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { SearchResponse } from '../../src/types/index.js';
import { SHOP_SHELL } from '../convert/fixtures.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, OTHER, withOrgs } from './helpers.js';

describe('include_content', () => {
  let s: ExtractSetup;
  /** `good` of the 10 results are fetchable; the rest answer 404. */
  const query = (good: number) => `pages ${good}`;

  beforeAll(async () => {
    const routes = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/p${i + 1}`, html(article(`Result page ${i + 1}`))]));
    const pages = (server: PageServer, paths: string[]) => paths.map((p, i) => ({ title: `M${i}`, url: server.url(p), snippet: '' }));
    s = await extractSetup(
      {
        ...routes,
        '/forbidden': html('denied', 403),
        '/challenge': html('<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>'),
        '/blank': html('<html><body><script>1</script></body></html>'),
        '/shell': html(SHOP_SHELL),
      },
      (server) => ({
        sources: [
          scriptedSource('scripted', (q) => {
            if (q.q === 'shell') return { results: pages(server, ['/p1', '/shell']) };
            if (q.q === 'mixed') return { results: pages(server, ['/p1', '/forbidden', '/challenge', '/blank', '/doc.pdf']) };
            const good = Number(q.q.split(' ')[1] ?? 0);
            const paths = Array.from({ length: 10 }, (_, i) => (i < good ? `/p${i + 1}` : `/missing-${i + 1}`));
            return { results: pages(server, paths) };
          }),
        ],
      }),
    );
    await withOrgs(s.engine, 1000);
  });
  afterAll(() => s.close());

  const search = async (good: number, contentResults: number) =>
    (await s.engine.search({ q: query(good), include_content: true, content_results: contentResults }, ORG)) as SearchResponse;

  it.each([
    [0, 5, 1],
    [1, 5, 3],
    [5, 5, 3],
    [6, 10, 6],
    [10, 10, 6],
  ])('%i pages delivered of %i requested costs %i credits', async (good, requested, price) => {
    const before = await balance(s.engine);
    const res = await search(good, requested);
    expect(res.metadata).toMatchObject({ content_requested: requested, content_delivered: Math.min(good, requested), credits_used: price });
    expect(await balance(s.engine)).toBe(before - price);
    for (const item of res.results) expect('content' in item && 'content_error' in item).toBe(false);
    const withContent = res.results.filter((r) => r.content !== undefined);
    expect(withContent).toHaveLength(Math.min(good, requested));
    expect(withContent[0]?.content ?? '').toMatch(good > 0 ? /Result page 1/ : /^$/);
    // Results beyond content_results carry neither key.
    for (const item of res.results.slice(requested)) expect(item.content ?? item.content_error).toBeUndefined();
  });

  it('reports content_error per page and keeps title, url and snippet', async () => {
    const res = (await s.engine.search({ q: 'mixed', include_content: true }, ORG)) as SearchResponse;
    expect(res.results.map((r) => r.content_error ?? 'content')).toEqual([
      'content',
      'blocked',
      'blocked',
      'empty',
      'unsupported_content_type',
    ]);
    expect(res.results[1]).toMatchObject({ title: 'M1', url: s.server.url('/forbidden'), snippet: '' });
    expect(res.metadata).toMatchObject({ content_requested: 5, content_delivered: 1, credits_used: 3 });
  });

  it('a page of chrome only (a script-rendered shop as served) has no main content: empty, not delivered', async () => {
    const res = (await s.engine.search({ q: 'shell', include_content: true }, ORG)) as SearchResponse;
    expect(res.results.map((r) => r.content_error ?? 'content')).toEqual(['content', 'empty']);
    expect(res.metadata).toMatchObject({ content_requested: 2, content_delivered: 1, credits_used: 3 });
  });

  it('keys free repeats with the content options', async () => {
    await search(3, 5);
    const hitsBefore = s.hits('/p1');
    const repeat = await search(3, 5);
    expect(repeat.metadata).toMatchObject({ credits_used: 0, from_cache: true, content_delivered: 3 });
    expect(repeat.results[0]?.content).toContain('Result page 1');
    expect(s.hits('/p1')).toBe(hitsBefore);
    expect((await search(3, 6)).metadata.credits_used).toBe(3);
    const plain = (await s.engine.search({ q: query(3) }, ORG)) as SearchResponse;
    expect(plain.metadata.credits_used).toBe(1);
    expect(plain.results[0]).not.toHaveProperty('content');
    expect(plain.metadata).not.toHaveProperty('content_requested');
    expect((await search(3, 5)).metadata.credits_used).toBe(0);
    expect((await s.engine.search({ q: query(3), include_content: true }, OTHER)).metadata.credits_used).toBe(3);
  });
});
