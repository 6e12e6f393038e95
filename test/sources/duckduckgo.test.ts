import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrapRedirect } from '../../src/sources/duckduckgo.js';
import { duckduckgo } from '../../src/sources/index.js';
import { describeSourceConformance } from './conformance.js';
import { type FixtureServer, fixture, html, type Route, startFixtureServer } from './fixture-server.js';
import { ctx, q, rejection } from './helpers.js';

const route: Route = (req) => {
  if (req.url.pathname !== '/html/' || req.method !== 'POST') return { status: 405, body: 'method not allowed' };
  const text = req.q;
  if (text.startsWith('readability extraction linkedom')) return html(fixture('duckduckgo', 'results.html'));
  if (text.startsWith('qzxjvkw')) return html(fixture('duckduckgo', 'no-results.html'));
  if (text.startsWith('"first phrase"')) return html(fixture('duckduckgo', 'empty-page.html'));
  if (text.startsWith('challenge')) return html(fixture('duckduckgo', 'challenge.html'), 202);
  if (text.startsWith('forbidden')) return html('<html><body>403 Forbidden</body></html>', 403);
  if (text.startsWith('not ddg')) return html('<html><body><p>Welcome to our captive portal</p></body></html>');
  if (text.startsWith('server error')) return html('<html><body>Bad gateway</body></html>', 502);
  if (text.startsWith('hang')) return { status: 200, headers: { 'content-type': 'text/html' }, hang: true };
  return html(fixture('duckduckgo', 'no-results.html'));
};

describeSourceConformance('duckduckgo', async () => {
  const server = await startFixtureServer(route);
  return {
    source: duckduckgo({ baseUrl: server.baseUrl }),
    resultsQuery: 'readability extraction linkedom',
    emptyQuery: 'qzxjvkw plorbnatic fendrilous',
    hangQuery: 'hang forever',
    hangStarted: async () => void (await server.waitFor((r) => r.q === 'hang forever')),
    close: () => server.close(),
  };
});

describe('duckduckgo adapter', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(route);
  });
  afterAll(() => server.close());
  const source = () => duckduckgo({ baseUrl: server.baseUrl, region: 'us-en' });

  it('is marked unreliableEmpties', () => {
    expect(source().unreliableEmpties).toBe(true);
  });

  it('POSTs the form to /html/ and parses result blocks, skipping ads and unwrapping /l/?uddg= links', async () => {
    const answer = await source().search(q('readability extraction linkedom'), ctx());
    const req = server.requests.at(-1)!;
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({ q: 'readability extraction linkedom', b: '', kl: 'us-en' });
    expect(answer.results).toEqual([
      {
        title: 'GitHub - mozilla/readability: A standalone version of the readability lib',
        url: 'https://github.com/mozilla/readability',
        snippet: 'A standalone version of the readability library used for Firefox Reader View. Works with linkedom & jsdom.',
      },
      {
        title: 'linkedom - npm',
        url: 'https://www.npmjs.com/package/linkedom?activetab=readme#usage',
        snippet: 'A triple-linked lists based DOM implementation with a fast "server side" parser.',
      },
      {
        title: 'Running Readability on the server without a browser',
        url: 'https://blog.example.org/2024/readability-on-the-server',
        snippet: 'Mar 2, 2024 — Extraction of article text in Node: parse with a light DOM, then run Readability.',
      },
      {
        title: 'turndown: HTML to Markdown',
        url: 'https://turndown.example.net/docs',
        snippet: 'Convert HTML into Markdown with JavaScript.',
      },
    ]);
  });

  it('passes operators in q and filters site operators itself', async () => {
    const answer = await source().search(
      q('readability extraction linkedom "light DOM" site:example.org -site:github.com filetype:html'),
      ctx(),
    );
    expect(new URLSearchParams(server.requests.at(-1)!.body).get('q')).toBe(
      'readability extraction linkedom "light DOM" filetype:html site:example.org -site:github.com',
    );
    expect(answer.results.map((r) => r.url)).toEqual(['https://blog.example.org/2024/readability-on-the-server']);
  });

  it('its "No results." block is a notice; a results page with neither results nor the block is not', async () => {
    expect(await source().search(q('qzxjvkw plorbnatic fendrilous'), ctx())).toEqual({ results: [], noResultsNotice: true });
    expect(await source().search(q('"first phrase" "second phrase"'), ctx())).toEqual({ results: [] });
    expect(await source().search(q('readability extraction linkedom site:nowhere.example'), ctx())).toEqual({ results: [] });
  });

  it('a bot challenge (202 + challenge form) or a 403 is rate_limited', async () => {
    expect(await rejection(source().search(q('challenge me'), ctx()))).toMatchObject({
      name: 'SourceError',
      reason: 'rate_limited',
      status: 202,
    });
    expect(await rejection(source().search(q('forbidden'), ctx()))).toMatchObject({ reason: 'rate_limited', status: 403 });
  });

  it('a page that is not a DuckDuckGo results page is bad_response; 502 is unavailable', async () => {
    expect(await rejection(source().search(q('not ddg'), ctx()))).toMatchObject({ reason: 'bad_response' });
    expect(await rejection(source().search(q('server error'), ctx()))).toMatchObject({ reason: 'unavailable', status: 502 });
  });

  it('unwraps redirect links and refuses DuckDuckGo-internal and non-http targets', () => {
    expect(unwrapRedirect('//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.test%2Fx%3Fy%3D1&rut=abc')).toBe('https://a.test/x?y=1');
    expect(unwrapRedirect('https://duckduckgo.com/y.js?ad_domain=x')).toBeNull();
    expect(unwrapRedirect('//duckduckgo.com/l/?uddg=javascript%3Aalert(1)')).toBeNull();
    expect(unwrapRedirect('https://direct.test/page')).toBe('https://direct.test/page');
    expect(unwrapRedirect(null)).toBeNull();
  });
});
