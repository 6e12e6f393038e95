import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brave } from '../../src/sources/index.js';
import { describeSourceConformance } from './conformance.js';
import { type FixtureServer, fixture, html, json, type Route, startFixtureServer } from './fixture-server.js';
import { ctx, q, rejection } from './helpers.js';

const KEY = 'BSA-test-key';

const route: Route = (req) => {
  if (req.url.pathname !== '/res/v1/web/search') return { status: 404, body: 'not found' };
  if (req.headers['x-subscription-token'] !== KEY) return json(fixture('brave', 'token-invalid.json'), 422);
  const text = req.q;
  if (text.startsWith('sqlite full text search')) return json(fixture('brave', 'results.json'));
  if (text.startsWith('qzxjvkw')) return json(fixture('brave', 'empty.json'));
  if (text.startsWith('rate limited')) {
    return json(fixture('brave', 'rate-limited.json'), 429, {
      'x-ratelimit-limit': '1, 2000',
      'x-ratelimit-remaining': '0, 1569',
      'x-ratelimit-reset': '1, 1419704',
    });
  }
  if (text.startsWith('quota')) {
    return json(fixture('brave', 'quota-exceeded.json'), 429, {
      'x-ratelimit-limit': '1, 2000',
      'x-ratelimit-remaining': '1, 0',
      'x-ratelimit-reset': '1, 86400',
    });
  }
  if (text.startsWith('too long')) return json(fixture('brave', 'unprocessable.json'), 422);
  if (text.startsWith('malformed')) return json('{"type":"search","web":{"results":');
  if (text.startsWith('wrong shape')) return json('{"type":"search","web":{"results":{"0":{}}}}');
  if (text.startsWith('unavailable')) return html('<h1>503 Service Temporarily Unavailable</h1>', 503);
  if (text.startsWith('hang')) return { status: 200, headers: { 'content-type': 'application/json' }, hang: true };
  return json(fixture('brave', 'empty.json'));
};

describeSourceConformance('brave', async () => {
  const server = await startFixtureServer(route);
  return {
    source: brave({ apiKey: KEY, baseUrl: server.baseUrl }),
    resultsQuery: 'sqlite full text search',
    emptyQuery: 'qzxjvkw plorbnatic fendrilous',
    hangQuery: 'hang forever',
    hangStarted: async () => void (await server.waitFor((r) => r.q === 'hang forever')),
    close: () => server.close(),
  };
});

describe('brave adapter', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(route);
  });
  afterAll(() => server.close());
  const source = (apiKey = KEY) => brave({ apiKey, baseUrl: server.baseUrl, country: 'us', searchLang: 'en', safesearch: 'moderate' });

  it('sends the key in X-Subscription-Token, count = limit (max 20), and maps web.results', async () => {
    const answer = await source().search(q('sqlite full text search'), ctx(50));
    const req = server.requests.at(-1)!;
    expect(req.headers['x-subscription-token']).toBe(KEY);
    expect(req.headers.accept).toBe('application/json');
    expect(Object.fromEntries(req.url.searchParams)).toEqual({
      q: 'sqlite full text search',
      count: '20',
      country: 'us',
      search_lang: 'en',
      safesearch: 'moderate',
    });
    expect(answer.results[0]).toEqual({
      title: 'SQLite FTS5 Extension',
      url: 'https://www.sqlite.org/fts5.html',
      snippet: 'FTS5 is an SQLite virtual table module that provides full-text search functionality to database applications.',
    });
    expect(answer.results[2]).toMatchObject({
      title: 'Full-text search with SQLite & Python',
      snippet: "In this post I will show how to use SQLite's full-text search extension with Python.",
    });
    await source().search(q('sqlite full text search'), ctx(3));
    expect(server.requests.at(-1)!.url.searchParams.get('count')).toBe('3');
  });

  it('passes operators through and filters -site: / site: on the results', async () => {
    const answer = await source().search(q('sqlite full text search -site:sqlite.org "full text" filetype:html'), ctx());
    expect(server.requests.at(-1)!.q).toBe('sqlite full text search "full text" filetype:html -site:sqlite.org');
    expect(answer.results.map((r) => new URL(r.url).hostname)).toEqual(['charlesleifer.com', 'docs.datasette.io']);
    const only = await source().search(q('sqlite full text search site:datasette.io'), ctx());
    expect(only.results.map((r) => r.url)).toEqual(['https://docs.datasette.io/en/stable/full_text_search.html']);
  });

  it('a search response without web results is a notice; results we filtered away are not', async () => {
    expect(await source().search(q('qzxjvkw plorbnatic fendrilous'), ctx())).toEqual({ results: [], noResultsNotice: true });
    expect(await source().search(q('sqlite full text search site:nowhere.example'), ctx())).toEqual({ results: [] });
  });

  it('an invalid subscription token is auth', async () => {
    const error = await rejection(source('wrong').search(q('sqlite full text search'), ctx()));
    expect(error).toMatchObject({ name: 'SourceError', reason: 'auth', status: 422 });
    expect((error as Error).message).toMatch(/SUBSCRIPTION_TOKEN_INVALID/);
  });

  it('429 is rate_limited, waiting for the per-second window to reset', async () => {
    expect(await rejection(source().search(q('rate limited'), ctx()))).toMatchObject({
      reason: 'rate_limited',
      status: 429,
      retryAfterMs: 1000,
    });
  });

  it('429 with the monthly quota used up is quota', async () => {
    expect(await rejection(source().search(q('quota'), ctx()))).toMatchObject({ reason: 'quota', status: 429, retryAfterMs: 86_400_000 });
  });

  it('a 422 about the query parameters is an ordinary failure (bad_response), not a suspension', async () => {
    expect(await rejection(source().search(q('too long'), ctx()))).toMatchObject({ reason: 'bad_response', status: 422 });
  });

  it('malformed and wrongly shaped bodies are bad_response; 503 is unavailable', async () => {
    expect(await rejection(source().search(q('malformed'), ctx()))).toMatchObject({ reason: 'bad_response' });
    expect(await rejection(source().search(q('wrong shape'), ctx()))).toMatchObject({ reason: 'bad_response' });
    expect(await rejection(source().search(q('unavailable'), ctx()))).toMatchObject({ reason: 'unavailable', status: 503 });
  });

  it('requires an apiKey', () => {
    expect(() => brave({} as never)).toThrow(/apiKey is required/);
    expect(() => brave({ apiKey: '  ' })).toThrow(/apiKey is required/);
  });
});
