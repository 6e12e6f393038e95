// Page metadata through the real engine (real loopback page server, real conversion workers):
// extract results and include_content pages carry what the page says about itself; include_links.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOfSize } from '../../bench/lib/hostile-pages.js';
import { pageCacheStore } from '../../src/adapters/page-cache-store.js';
import type { CachedPage } from '../../src/core/extract/run-extract.js';
import { InvalidRequestError } from '../../src/errors.js';
import type { CacheStore } from '../../src/ports/cache.js';
import type { PageServer } from '../../src/testing/page-server.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { ExtractParams, SearchResponse } from '../../src/types/index.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, withOrgs } from './helpers.js';

const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const paragraphs = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p>Paragraph ${i + 1} of the story: ${'lorem ipsum dolor sit amet consectetur '.repeat(8)}</p>`,
  ).join('');

const RICH = `<!doctype html><html lang="en-GB"><head>
  <title>  Rich   story | The Paper </title>
  <meta name="description" content="What happened, in one sentence.">
  <meta property="og:title" content="Rich story (OG)">
  <meta property="og:site_name" content="The Paper">
  <meta property="og:url" content="https://paper.example/og-url">
  <link rel="canonical" href="/stories/rich">
  ${ld({
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'NewsArticle', headline: 'Rich story', datePublished: '2024-03-05T10:20:30+02:00', dateModified: '2024-03-06T09:00:00Z' },
      { '@type': 'WebSite', name: 'Paper site' },
    ],
  })}
</head><body>
  <nav><a href="/">Home</a> <a href="/about#team">About</a> <a href="/about">About again</a> <a href="https://other.example/x?y=1#z">Elsewhere</a>
  <a href="javascript:void(0)">Menu</a> <a href="mailto:desk@paper.example">Mail</a></nav>
  <article><h1>Rich story</h1>${paragraphs(4)}<p><a href="related/one">Related</a></p></article>
</body></html>`;

const PLAIN = `<html><body><article><h1>Plain</h1>${paragraphs(3)}</article></body></html>`;

describe('page metadata through the engine', () => {
  let s: ExtractSetup;
  let server: PageServer;

  beforeAll(async () => {
    s = await extractSetup(
      {
        '/rich': html(RICH),
        '/plain': html(PLAIN),
        '/moved': (_req, res) => res.writeHead(301, { location: '/target?from=moved' }).end(),
        '/target': html(RICH.replace('/stories/rich', 'stories/target')),
        '/gone': html('gone', 404),
        '/spoken': { headers: { 'content-type': 'text/html; charset=utf-8', 'content-language': 'fr' }, body: PLAIN },
        '/feed.xml': {
          headers: { 'content-type': 'application/rss+xml' },
          body: '<?xml version="1.0"?><rss version="2.0"><channel><title>The Feed</title><language>de</language><item><title>One</title><link>https://x.test/1</link></item></channel></rss>',
        },
        '/data.json': { headers: { 'content-type': 'application/json' }, body: '{"title":"not metadata","n":1}' },
        ...Object.fromEntries(['/s1', '/s2'].map((p) => [p, html(RICH)])),
      },
      (srv) => ({
        sources: [
          scriptedSource('scripted', () => ({
            results: [
              { title: 'One', url: srv.url('/s1'), snippet: '' },
              { title: 'Gone', url: srv.url('/gone'), snippet: '' },
              { title: 'Plain', url: srv.url('/plain'), snippet: '' },
            ],
          })),
        ],
      }),
    );
    server = s.server;
    await withOrgs(s.engine, 1000);
  });
  afterAll(() => s.close());

  it("an extract returns the page's title, description, language, dates, site name and canonical URL", async () => {
    const res = await s.engine.extract({ urls: [server.url('/rich')] }, ORG);
    const [item] = res.results;
    expect(item).toMatchObject({ success: true, status_code: 200 });
    expect(item?.metadata).toEqual({
      title: 'Rich story | The Paper',
      description: 'What happened, in one sentence.',
      language: 'en-GB',
      published_time: '2024-03-05T08:20:30Z',
      modified_time: '2024-03-06T09:00:00Z',
      site_name: 'The Paper',
      canonical_url: server.url('/stories/rich'),
      final_url: server.url('/rich'),
    });
    expect(item?.links).toBeUndefined();
    expect(item?.markdown).toContain('Paragraph 4 of the story');
  });

  it('a redirect gives the target as final_url, and the canonical resolves against it', async () => {
    const res = await s.engine.extract({ urls: [server.url('/moved')] }, ORG);
    const [item] = res.results;
    expect(item?.url).toBe(server.url('/moved'));
    expect(item?.metadata?.final_url).toBe(server.url('/target?from=moved'));
    expect(item?.metadata?.canonical_url).toBe(server.url('/stories/target'));
  });

  it('a page that states nothing has only final_url; a failed result has no metadata', async () => {
    const res = await s.engine.extract({ urls: [server.url('/plain'), server.url('/gone')] }, ORG);
    expect(res.results[0]?.metadata).toEqual({ final_url: server.url('/plain') });
    expect(res.results[1]).toMatchObject({ success: false, error_type: 'http' });
    expect(res.results[1]).not.toHaveProperty('metadata');
    expect(res.results[1]).not.toHaveProperty('links');
  });

  it('the HTTP Content-Language header gives the language when the page states none', async () => {
    const res = await s.engine.extract({ urls: [server.url('/spoken')] }, ORG);
    expect(res.results[0]?.metadata).toEqual({ language: 'fr', final_url: server.url('/spoken') });
  });

  it('other formats: a feed states its title and language, JSON only final_url', async () => {
    const res = await s.engine.extract({ urls: [server.url('/feed.xml'), server.url('/data.json')] }, ORG);
    expect(res.results[0]?.metadata).toEqual({ title: 'The Feed', language: 'de', final_url: server.url('/feed.xml') });
    expect(res.results[1]?.metadata).toEqual({ final_url: server.url('/data.json') });
  });

  it('include_links: absolute http(s) links, deduplicated, fragment dropped, in document order', async () => {
    const res = await s.engine.extract({ urls: [server.url('/rich?links=1'), server.url('/gone?l')], include_links: true }, ORG);
    expect(res.results[0]?.links).toEqual([
      server.url('/'),
      server.url('/about'),
      'https://other.example/x?y=1',
      server.url('/related/one'),
    ]);
    expect(res.results[1]).not.toHaveProperty('links');
  });

  it('a cached repeat carries the same metadata, and include_links on it is free and needs no fetch', async () => {
    const url = server.url('/rich?cache=1');
    const first = await s.engine.extract({ urls: [url] }, ORG);
    expect(first.metadata.credits_used).toBe(1);
    const hits = s.hits('/rich');
    const repeat = await s.engine.extract({ urls: [url] }, ORG);
    expect(repeat.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
    expect(repeat.results[0]?.metadata).toEqual(first.results[0]?.metadata);
    expect(repeat.results[0]?.links).toBeUndefined();
    const withLinks = await s.engine.extract({ urls: [url], include_links: true }, ORG);
    expect(withLinks.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
    expect(withLinks.results[0]?.metadata).toEqual(first.results[0]?.metadata);
    expect(withLinks.results[0]?.links).toContain(server.url('/related/one'));
    expect(s.hits('/rich')).toBe(hits);
  });

  it('a cached repeat of a redirected page keeps the final URL', async () => {
    const url = server.url('/moved?c=1');
    await s.engine.extract({ urls: [url] }, ORG);
    const repeat = await s.engine.extract({ urls: [url] }, ORG);
    expect(repeat.metadata.cached_free).toBe(1);
    expect(repeat.results[0]?.metadata?.final_url).toBe(server.url('/target?from=moved'));
  });

  it('the html format carries metadata too (and links when asked)', async () => {
    const res = await s.engine.extract({ urls: [server.url('/rich?html=1')], format: 'html', include_links: true }, ORG);
    const [item] = res.results;
    expect(item?.html).toBe(RICH);
    expect(item?.metadata).toMatchObject({
      title: 'Rich story | The Paper',
      language: 'en-GB',
      published_time: '2024-03-05T08:20:30Z',
      final_url: server.url('/rich?html=1'),
    });
    expect(item?.links).toHaveLength(4);
  });

  it('include_links: "yes" is a 400 naming the field, and nothing is charged', async () => {
    const before = await balance(s.engine);
    const hits = s.hits('/rich');
    const error = await s.engine
      .extract({ urls: [server.url('/rich')], include_links: 'yes' } as unknown as ExtractParams, ORG)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).status).toBe(400);
    expect((error as InvalidRequestError).code).toBe('invalid_request');
    expect((error as InvalidRequestError).problems.map((p) => p.field)).toEqual(['include_links']);
    expect(await balance(s.engine)).toBe(before);
    expect(s.hits('/rich')).toBe(hits);
  });

  it('include_content pages carry metadata beside content, and only there', async () => {
    const res = (await s.engine.search({ q: 'metadata pages', include_content: true, content_results: 3 }, ORG)) as SearchResponse;
    expect(res.results.map((r) => r.content_error ?? 'content')).toEqual(['content', 'http', 'content']);
    expect(res.results[0]?.metadata).toMatchObject({
      title: 'Rich story | The Paper',
      site_name: 'The Paper',
      final_url: server.url('/s1'),
    });
    expect(res.results[1]).not.toHaveProperty('metadata');
    expect(res.results[2]?.metadata).toEqual({ final_url: server.url('/plain') });
    const plain = await s.engine.search({ q: 'metadata pages' }, ORG);
    for (const r of plain.results) expect(r).not.toHaveProperty('metadata');
  });

  it('an article without any metadata still converts as before', async () => {
    server.route('/bare', html(article('Bare page')));
    const res = await s.engine.extract({ urls: [server.url('/bare')] }, ORG);
    expect(res.results[0]?.metadata).toEqual({ title: 'Bare page', final_url: server.url('/bare') });
  });
});

describe('page metadata in a shared content cache', () => {
  it("round-trips through JSON; an entry without metadata (an older version's) is fetched again, free", async () => {
    // A cache that stores JSON (as Redis does) and can hold entries written before metadata existed.
    const store = new Map<string, string>();
    const pages: CacheStore<CachedPage> = {
      async get(key) {
        const v = store.get(key);
        return v === undefined ? undefined : (JSON.parse(v) as CachedPage);
      },
      async set(key, value) {
        store.set(key, JSON.stringify(value));
      },
      async delete(key) {
        store.delete(key);
      },
    };
    const s = await extractSetup({ '/rich': html(RICH) }, { caches: { pages } });
    try {
      await withOrgs(s.engine, 10);
      const url = s.server.url('/rich');
      const first = await s.engine.extract({ urls: [url] }, ORG);
      const repeat = await s.engine.extract({ urls: [url], include_links: true }, ORG);
      expect(s.hits('/rich')).toBe(1);
      expect(repeat.results[0]?.metadata).toEqual(first.results[0]?.metadata);
      expect(repeat.results[0]?.links).toHaveLength(4);
      // Strip what an older version did not store: the repeat is re-fetched, still free, metadata whole.
      for (const [key, value] of store) {
        const { status, text } = JSON.parse(value) as CachedPage;
        store.set(key, JSON.stringify({ status, text }));
      }
      const old = await s.engine.extract({ urls: [url] }, ORG);
      expect(old.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
      expect(s.hits('/rich')).toBe(2);
      expect(old.results[0]?.metadata).toEqual(first.results[0]?.metadata);
    } finally {
      await s.close();
    }
  });
});

describe('the html format when the metadata cannot be read', () => {
  it('a page over the conversion heap limit is still delivered as fetched, with final_url only', async () => {
    const big = articleOfSize(8 * 1024 * 1024);
    const s = await extractSetup({ '/big': html(big) }, { conversionMemoryMb: 16, conversionThreads: 1 });
    try {
      await withOrgs(s.engine, 10);
      const res = await s.engine.extract({ urls: [s.server.url('/big')], format: 'html' }, ORG);
      expect(res.results[0]).toMatchObject({ success: true, status_code: 200, metadata: { final_url: s.server.url('/big') } });
      expect(Object.keys(res.results[0]?.metadata ?? {})).toEqual(['final_url']);
      expect(res.results[0]?.html).toHaveLength(big.length);
      // The same page as Markdown fails alone as too_large, as before.
      const md = await s.engine.extract({ urls: [s.server.url('/big?md')] }, ORG);
      expect(md.results[0]).toMatchObject({ success: false, error_type: 'too_large' });
      expect(md.results[0]).not.toHaveProperty('metadata');
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe('the in-process content cache', () => {
  it("counts a page's metadata and links against its byte bound", async () => {
    const store = pageCacheStore(10_000); // 5,000 UTF-16 code units
    const links = Array.from({ length: 200 }, (_, i) => `https://example.com/a/long/path/to/page/${i}`);
    await store.set('small', { status: 200, text: 'short', metadata: { final_url: 'https://example.com/' } }, 1000);
    await store.set('linked', { status: 200, text: 'short', metadata: { final_url: 'https://example.com/' }, links }, 1000);
    expect(await store.get('small')).toBeDefined();
    expect(await store.get('linked')).toBeUndefined();
  });
});
