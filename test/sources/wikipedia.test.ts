import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wikipedia } from '../../src/sources/index.js';
import { titleUrl } from '../../src/sources/wikipedia.js';
import { describeSourceConformance } from './conformance.js';
import { type FixtureServer, fixture, html, json, type Route, startFixtureServer } from './fixture-server.js';
import { ctx, q, rejection } from './helpers.js';

const route: Route = (req) => {
  if (req.url.pathname !== '/w/api.php') return { status: 404, body: 'not found' };
  const text = req.q;
  if (text.startsWith('albert einstein')) return json(fixture('wikipedia', 'results.json'));
  if (text.startsWith('qzxjvkw')) return json(fixture('wikipedia', 'empty.json'));
  if (text.startsWith('deep page')) return json(fixture('wikipedia', 'empty-with-total.json'));
  if (text.startsWith('api error')) return json(fixture('wikipedia', 'api-error.json'));
  if (text.startsWith('ratelimited')) return json(fixture('wikipedia', 'ratelimited.json'));
  if (text.startsWith('maxlag')) return json(fixture('wikipedia', 'maxlag.json'), 200, { 'retry-after': '5' });
  if (text.startsWith('too many')) return html(fixture('wikipedia', 'too-many-requests.html'), 429);
  if (text.startsWith('malformed')) return json('{"batchcomplete":true,"query":{"search":"nope"}}');
  if (text.startsWith('hang')) return { status: 200, headers: { 'content-type': 'application/json' }, hang: true };
  return json(fixture('wikipedia', 'empty.json'));
};

describeSourceConformance('wikipedia', async () => {
  const server = await startFixtureServer(route);
  return {
    source: wikipedia({ baseUrl: server.baseUrl, articleUrl: 'https://en.wikipedia.org/wiki/$1' }),
    resultsQuery: 'albert einstein',
    emptyQuery: 'qzxjvkw plorbnatic fendrilous',
    hangQuery: 'hang forever',
    hangStarted: async () => void (await server.waitFor((r) => r.q === 'hang forever')),
    close: () => server.close(),
  };
});

describe('wikipedia adapter', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(route);
  });
  afterAll(() => server.close());
  const source = () => wikipedia({ language: 'en', baseUrl: server.baseUrl, articleUrl: 'https://en.wikipedia.org/wiki/$1' });

  it('asks the MediaWiki search API and maps hits: URL from the title, snippet stripped of HTML', async () => {
    const answer = await source().search(q('albert einstein'), ctx(3));
    expect(Object.fromEntries(server.requests.at(-1)!.url.searchParams)).toEqual({
      action: 'query',
      list: 'search',
      format: 'json',
      formatversion: '2',
      srsearch: 'albert einstein',
      srlimit: '3',
      srnamespace: '0',
      srprop: 'snippet',
      srinfo: 'totalhits',
      utf8: '1',
    });
    expect(server.requests.at(-1)!.headers['user-agent']).toMatch(/websift/);
    expect(answer.results[0]).toEqual({
      title: 'Albert Einstein',
      url: 'https://en.wikipedia.org/wiki/Albert_Einstein',
      snippet:
        'Albert Einstein (14 March 1879 – 18 April 1955) was a German-born theoretical physicist who is best known for developing the theory of relativity. Einstein also made important',
    });
    const all = await source().search(q('albert einstein'), ctx(10));
    expect(all.results.map((r) => r.url)).toEqual([
      'https://en.wikipedia.org/wiki/Albert_Einstein',
      'https://en.wikipedia.org/wiki/Einstein_family',
      'https://en.wikipedia.org/wiki/Einstein%E2%80%93Szilard_letter',
      'https://en.wikipedia.org/wiki/Relativity:_The_Special_and_the_General_Theory',
    ]);
    expect(all.results[1]!.snippet).toContain("Einstein's great-great");
    expect(all.results[3]!.snippet).toContain('Einstein & others "explaining" the theory');
  });

  it('defaults to https://{language}.wikipedia.org and an id per language', () => {
    const de = wikipedia({ language: 'de' });
    expect(de.id).toBe('wikipedia-de');
    expect(() => wikipedia({ language: 'en/../x' })).toThrow(/language/);
    expect(() => wikipedia({ articleUrl: 'https://x.test/wiki/' })).toThrow(/\$1/);
  });

  it('builds article URLs from the default template of its base URL', async () => {
    const plain = wikipedia({ baseUrl: server.baseUrl });
    const answer = await plain.search(q('albert einstein'), ctx(1));
    expect(answer.results[0]!.url).toBe(`${server.baseUrl}/wiki/Albert_Einstein`);
    expect(titleUrl('https://w.test/wiki/$1', 'AC/DC: Live, 1979?')).toBe('https://w.test/wiki/AC/DC:_Live,_1979%3F');
  });

  it('keeps phrases and -terms in srsearch, but not site:/filetype: (the API has neither)', async () => {
    await source().search(q('albert einstein "theory of relativity" -physics site:wikipedia.org -site:example.com'), ctx());
    expect(server.requests.at(-1)!.q).toBe('albert einstein -physics "theory of relativity"');
  });

  it('a site: for another host or any filetype: is answered empty, without a notice and without a request', async () => {
    const before = server.requests.length;
    expect(await source().search(q('albert einstein site:example.com'), ctx())).toEqual({ results: [] });
    expect(await source().search(q('albert einstein site:de.wikipedia.org'), ctx())).toEqual({ results: [] });
    expect(await source().search(q('albert einstein filetype:pdf'), ctx())).toEqual({ results: [] });
    expect(await source().search(q('albert einstein -site:wikipedia.org'), ctx())).toEqual({ results: [] });
    expect(server.requests.length).toBe(before);
    const own = await source().search(q('albert einstein site:en.wikipedia.org'), ctx());
    expect(own.results).toHaveLength(4);
  });

  it('totalhits 0 is a notice; an empty page of a non-zero total is not', async () => {
    expect(await source().search(q('qzxjvkw plorbnatic fendrilous'), ctx())).toEqual({ results: [], noResultsNotice: true });
    expect(await source().search(q('deep page'), ctx())).toEqual({ results: [] });
  });

  it('maps MediaWiki errors sent inside a 200 body', async () => {
    expect(await rejection(source().search(q('api error'), ctx()))).toMatchObject({
      name: 'SourceError',
      reason: 'bad_response',
      status: 200,
    });
    expect(await rejection(source().search(q('ratelimited'), ctx()))).toMatchObject({ reason: 'rate_limited' });
    expect(await rejection(source().search(q('maxlag'), ctx()))).toMatchObject({ reason: 'unavailable', retryAfterMs: 5000 });
  });

  it('an HTTP 429 is rate_limited; a malformed body is bad_response', async () => {
    expect(await rejection(source().search(q('too many'), ctx()))).toMatchObject({ reason: 'rate_limited', status: 429 });
    expect(await rejection(source().search(q('malformed'), ctx()))).toMatchObject({ reason: 'bad_response' });
  });
});
