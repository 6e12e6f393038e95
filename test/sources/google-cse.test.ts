import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleCse } from '../../src/sources/index.js';
import { describeSourceConformance } from './conformance.js';
import { type FixtureServer, fixture, html, json, type Route, startFixtureServer } from './fixture-server.js';
import { ctx, q, rejection } from './helpers.js';

const KEY = 'AIza-test-key';
const CX = '017576662512468239146:omuauf_lfve';

const route: Route = (req) => {
  if (req.url.pathname !== '/customsearch/v1') return { status: 404, body: 'not found' };
  if (req.url.searchParams.get('key') !== KEY) return json(fixture('google-cse', 'key-invalid.json'), 400);
  if (req.url.searchParams.get('cx') !== CX) return json(fixture('google-cse', 'bad-cx.json'), 400);
  const text = req.q;
  if (text.startsWith('node fetch abort signal')) return json(fixture('google-cse', 'results.json'));
  if (text.startsWith('qzxjvkw')) return json(fixture('google-cse', 'empty.json'));
  if (text.startsWith('sqlite wal checkpoint')) return json(fixture('google-cse', 'empty-with-total.json'));
  if (text.startsWith('daily limit')) return json(fixture('google-cse', 'daily-limit.json'), 403);
  if (text.startsWith('per day')) return json(fixture('google-cse', 'per-day-429.json'), 429);
  if (text.startsWith('per minute')) return json(fixture('google-cse', 'per-minute-429.json'), 429, { 'retry-after': '42' });
  if (text.startsWith('referer')) return json(fixture('google-cse', 'permission-denied.json'), 403);
  if (text.startsWith('malformed'))
    return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Sorry...</body></html>' };
  if (text.startsWith('server error')) return html('<h1>Error 500 (Server Error)!!1</h1>', 500);
  if (text.startsWith('hang')) return { status: 200, headers: { 'content-type': 'application/json' }, hang: true };
  return json(fixture('google-cse', 'empty.json'));
};

describeSourceConformance('google-cse', async () => {
  const server = await startFixtureServer(route);
  return {
    source: googleCse({ apiKey: KEY, cx: CX, baseUrl: server.baseUrl }),
    resultsQuery: 'node fetch abort signal',
    emptyQuery: 'qzxjvkw plorbnatic fendrilous',
    hangQuery: 'hang forever',
    hangStarted: async () => void (await server.waitFor((r) => r.q === 'hang forever')),
    close: () => server.close(),
  };
});

describe('googleCse adapter', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(route);
  });
  afterAll(() => server.close());
  const source = (apiKey = KEY, cx = CX) => googleCse({ apiKey, cx, baseUrl: server.baseUrl, gl: 'us', lr: 'lang_en', safe: 'off' });

  it('asks /customsearch/v1 with key, cx, q and num (max 10), and maps items', async () => {
    const answer = await source().search(q('node fetch abort signal'), ctx(25));
    expect(Object.fromEntries(server.requests.at(-1)!.url.searchParams)).toEqual({
      key: KEY,
      cx: CX,
      q: 'node fetch abort signal',
      num: '10',
      gl: 'us',
      lr: 'lang_en',
      safe: 'off',
    });
    expect(answer.results).toHaveLength(4);
    expect(answer.results[0]).toEqual({
      title: 'AbortSignal - Web APIs | MDN',
      url: 'https://developer.mozilla.org/en-US/docs/Web/API/AbortSignal',
      snippet:
        'The AbortSignal interface represents a signal object that allows you to communicate with an asynchronous operation (such as a fetch request) and abort it if ...',
    });
    // `snippet` is plain text: "<EventTarget>" is text, not markup.
    expect(answer.results[1]!.snippet).toContain('Extends: <EventTarget>.');
  });

  it('passes site:, -site:, filetype: and phrases in q and filters site operators on the results', async () => {
    const answer = await source().search(
      q('node fetch abort signal "abort it" site:nodejs.org site:github.com -site:stackoverflow.com filetype:html'),
      ctx(),
    );
    expect(server.requests.at(-1)!.q).toBe(
      'node fetch abort signal "abort it" filetype:html site:nodejs.org OR site:github.com -site:stackoverflow.com',
    );
    expect(answer.results.map((r) => r.url)).toEqual([
      'https://nodejs.org/docs/latest-v20.x/api/globals.html',
      'https://github.com/nodejs/undici/blob/main/docs/docs/api/Fetch.md',
    ]);
  });

  it('totalResults "0" is a notice; no items with a non-zero total is not', async () => {
    expect(await source().search(q('qzxjvkw plorbnatic fendrilous'), ctx())).toEqual({ results: [], noResultsNotice: true });
    expect(await source().search(q('sqlite wal checkpoint'), ctx())).toEqual({ results: [] });
  });

  it('an invalid key is auth; a bad cx is config', async () => {
    expect(await rejection(source('wrong').search(q('node fetch abort signal'), ctx()))).toMatchObject({ reason: 'auth', status: 400 });
    const bad = await rejection(source(KEY, 'wrong').search(q('node fetch abort signal'), ctx()));
    expect(bad).toMatchObject({ reason: 'config', status: 400 });
    expect((bad as Error).message).toMatch(/invalid argument/);
  });

  it('403 dailyLimitExceeded and a per-day 429 are quota; a per-minute 429 is rate_limited', async () => {
    expect(await rejection(source().search(q('daily limit'), ctx()))).toMatchObject({ reason: 'quota', status: 403 });
    expect(await rejection(source().search(q('per day'), ctx()))).toMatchObject({ reason: 'quota', status: 429 });
    expect(await rejection(source().search(q('per minute'), ctx()))).toMatchObject({
      reason: 'rate_limited',
      status: 429,
      retryAfterMs: 42_000,
    });
  });

  it('another 403 is auth', async () => {
    expect(await rejection(source().search(q('referer blocked'), ctx()))).toMatchObject({ reason: 'auth', status: 403 });
  });

  it('a non-JSON body is bad_response; 500 is unavailable', async () => {
    expect(await rejection(source().search(q('malformed'), ctx()))).toMatchObject({ reason: 'bad_response', status: 200 });
    expect(await rejection(source().search(q('server error'), ctx()))).toMatchObject({ reason: 'unavailable', status: 500 });
  });

  it('requires apiKey and cx', () => {
    expect(() => googleCse({ apiKey: KEY } as never)).toThrow(/cx is required/);
    expect(() => googleCse({ cx: CX } as never)).toThrow(/apiKey is required/);
  });
});
