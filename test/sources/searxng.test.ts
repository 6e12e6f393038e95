import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceError } from '../../src/core/router/source-error.js';
import { searxng } from '../../src/sources/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { describeSourceConformance } from './conformance.js';
import { type FixtureServer, fixture, html, json, type Route, startFixtureServer } from './fixture-server.js';
import { ctx, q, rejection } from './helpers.js';

const route: Route = (req) => {
  if (req.url.pathname !== '/search' || req.url.searchParams.get('format') !== 'json') return { status: 404, body: 'not found' };
  const text = req.q;
  if (text.startsWith('open source metasearch')) return json(fixture('searxng', 'results.json'));
  if (text.startsWith('qzxjvkw')) return json(fixture('searxng', 'empty.json'));
  if (text.startsWith('unresponsive')) return json(fixture('searxng', 'empty-unresponsive.json'));
  if (text.startsWith('forbidden')) return html(fixture('searxng', 'forbidden.html'), 403);
  if (text.startsWith('ratelimit date'))
    return { ...html(fixture('searxng', 'too-many-requests.html'), 429), headers: { 'retry-after': 'Thu, 01 Jan 2026 00:02:00 GMT' } };
  if (text.startsWith('ratelimit')) return { ...html(fixture('searxng', 'too-many-requests.html'), 429), headers: { 'retry-after': '30' } };
  if (text.startsWith('malformed')) return json('{"results": [ {"url": ');
  if (text.startsWith('wrong shape')) return json('{"answers": []}');
  if (text.startsWith('server error')) return html('<h1>Bad Gateway</h1>', 502);
  if (text.startsWith('hang')) return { status: 200, headers: { 'content-type': 'application/json' }, hang: true };
  return json(fixture('searxng', 'empty.json'));
};

describeSourceConformance('searxng', async () => {
  const server = await startFixtureServer(route);
  return {
    source: searxng({ baseUrl: server.baseUrl }),
    resultsQuery: 'open source metasearch',
    emptyQuery: 'qzxjvkw plorbnatic fendrilous',
    hangQuery: 'hang forever',
    hangStarted: async () => void (await server.waitFor((r) => r.q === 'hang forever')),
    close: () => server.close(),
  };
});

describe('searxng adapter', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(route);
  });
  afterAll(() => server.close());
  const source = () =>
    searxng({ baseUrl: `${server.baseUrl}/`, engines: 'brave,duckduckgo', categories: 'general', language: 'en', safesearch: 1 });

  it('asks /search with format=json and maps results, decoding HTML in titles and snippets', async () => {
    const answer = await source().search(q('open source metasearch'), ctx());
    const req = server.requests.at(-1)!;
    expect(req.method).toBe('GET');
    expect(Object.fromEntries(req.url.searchParams)).toEqual({
      q: 'open source metasearch',
      format: 'json',
      pageno: '1',
      engines: 'brave,duckduckgo',
      categories: 'general',
      language: 'en',
      safesearch: '1',
    });
    expect(req.headers['user-agent']).toMatch(/^websift\//);
    expect(answer.results).toHaveLength(4);
    expect(answer.results[0]).toEqual({
      title: 'Welcome to SearXNG — SearXNG Documentation (2025.1.1)',
      url: 'https://docs.searxng.org/',
      snippet:
        'SearXNG is a free internet metasearch engine which aggregates results from up to 243 search services. Users are neither tracked nor profiled.',
    });
    expect(answer.results[3]).toMatchObject({
      title: 'Public SearXNG instances & their <status>',
      snippet: 'List of public SearXNG instances with statistics: TLS grade, CSP grade, response times & uptime.',
    });
    // An engine that timed out does not spoil an answer that has results.
    expect(answer.noResultsNotice).toBeUndefined();
  });

  it('passes site:, -site:, filetype: and phrases through and enforces site filters on what comes back', async () => {
    const answer = await source().search(
      q('open source metasearch "free engine" site:github.com -site:docs.searxng.org filetype:html'),
      ctx(),
    );
    expect(server.requests.at(-1)!.q).toBe('open source metasearch "free engine" filetype:html site:github.com -site:docs.searxng.org');
    expect(answer.results.map((r) => r.url)).toEqual(['https://github.com/searxng/searxng']);
  });

  it('ORs several positive sites and keeps results of any of them (subdomains included)', async () => {
    const answer = await source().search(q('open source metasearch site:searxng.org site:searx.space'), ctx());
    expect(server.requests.at(-1)!.q).toBe('open source metasearch site:searxng.org OR site:searx.space');
    expect(answer.results.map((r) => r.url)).toEqual(['https://docs.searxng.org/', 'https://searx.space/']);
  });

  it('an empty answer with every engine responsive is a notice', async () => {
    expect(await source().search(q('qzxjvkw plorbnatic fendrilous'), ctx())).toEqual({ results: [], noResultsNotice: true });
  });

  it('results removed by our own site filter are an empty answer without a notice', async () => {
    expect(await source().search(q('open source metasearch site:nowhere.example'), ctx())).toEqual({ results: [] });
  });

  it('an empty answer with unresponsive engines is a failure (unavailable), naming the engines', async () => {
    const error = await rejection(source().search(q('unresponsive engines'), ctx()));
    expect(error).toBeInstanceOf(SourceError);
    expect(error).toMatchObject({ reason: 'unavailable' });
    expect(String((error as Error).message)).toMatch(/brave: Suspended: too many requests; duckduckgo: CAPTCHA; google: timeout/);
  });

  it('a 403 (JSON output disabled) is a config error naming search.formats in settings.yml', async () => {
    const error = await rejection(source().search(q('forbidden'), ctx()));
    expect(error).toMatchObject({ name: 'SourceError', reason: 'config', status: 403 });
    expect((error as Error).message).toMatch(/search\.formats/);
    expect((error as Error).message).toMatch(/settings\.yml/);
  });

  it('a 429 is rate_limited with Retry-After in milliseconds (seconds or an HTTP-date read on the clock)', async () => {
    expect(await rejection(source().search(q('ratelimit'), ctx()))).toMatchObject({
      reason: 'rate_limited',
      retryAfterMs: 30_000,
      status: 429,
    });
    const clock = new ManualClock('2026-01-01T00:00:00Z');
    const dated = searxng({ baseUrl: server.baseUrl, clock });
    expect(await rejection(dated.search(q('ratelimit date'), ctx()))).toMatchObject({ reason: 'rate_limited', retryAfterMs: 120_000 });
  });

  it('malformed or wrongly shaped bodies are bad_response; 5xx is unavailable', async () => {
    expect(await rejection(source().search(q('malformed'), ctx()))).toMatchObject({ reason: 'bad_response' });
    expect(await rejection(source().search(q('wrong shape'), ctx()))).toMatchObject({ reason: 'bad_response' });
    expect(await rejection(source().search(q('server error'), ctx()))).toMatchObject({ reason: 'unavailable', status: 502 });
  });

  it('a refused connection is unavailable', async () => {
    const closed = await startFixtureServer(route);
    await closed.close();
    const error = await rejection(searxng({ baseUrl: closed.baseUrl }).search(q('open source metasearch'), ctx()));
    expect(error).toMatchObject({ name: 'SourceError', reason: 'unavailable' });
  });

  it('uses an injected fetch', async () => {
    const seen: string[] = [];
    const s = searxng({
      baseUrl: 'http://searx.invalid',
      fetch: async (url) => {
        seen.push(url);
        return new Response(fixture('searxng', 'empty.json'), { headers: { 'content-type': 'application/json' } });
      },
    });
    expect(await s.search(q('anything'), ctx())).toEqual({ results: [], noResultsNotice: true });
    expect(seen[0]).toMatch(/^http:\/\/searx\.invalid\/search\?q=anything&format=json/);
  });

  it('refuses a missing or non-http baseUrl at construction', () => {
    expect(() => searxng({} as never)).toThrow(/baseUrl is required/);
    expect(() => searxng({ baseUrl: 'ftp://x' })).toThrow(/http/);
    expect(() => searxng({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
  });
});
