// Reading in parts over HTTP: POST /api/crawl's max_chars, start_char and query and search's max_chars
// (POST and GET) answer per the OpenAPI document, bad values are 400s naming the field with nothing
// charged, and the Idempotency-Key fingerprint tells a call with them from one without.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi } from '../../src/http/index.js';
import { type PageServer, scriptedSource, startPageServer } from '../../src/testing/index.js';
import { nextStartOf, passagesContentLength, topicsPage, topicText } from '../extract/topics-page.js';
import { type Harness, harness, postJson } from './harness.js';
import { responseSchema, validate } from './schema.js';

const doc = openapi as unknown as Record<string, unknown>;
const check = (body: unknown, path: string, method: string, status: number) =>
  expect(validate(body, responseSchema(doc, path, method, status), doc), JSON.stringify(body)).toEqual([]);
const fields = (body: { problems: { field: string }[] }) => body.problems.map((p) => p.field);

let pages: PageServer;
let h: Harness;
const balance = async () => (await h.engine.usage({ organization: 'acme' })).credits.balance;
const withKey = (key: string, body: unknown): RequestInit => {
  const init = postJson(body);
  return { ...init, headers: { ...(init.headers as Record<string, string>), 'Idempotency-Key': key } };
};

beforeAll(async () => {
  pages = await startPageServer({ '/topics': { body: topicsPage } });
  const source = scriptedSource('s', () => ({ results: [{ title: 'Almanac', url: pages.url('/topics?s=1'), snippet: 'many things' }] }));
  h = await harness({ sources: [source], engine: { allowPrivateNetwork: true, robots: false }, credits: 1000 });
});
afterAll(() => pages.close());

describe('POST /api/crawl in parts', () => {
  it('answers total_chars and truncated per the document; reading on is free', async () => {
    const url = pages.url('/topics?c=1');
    const res = await h.call('/api/crawl', postJson({ urls: [url], max_chars: 1000 }));
    expect(res.status).toBe(200);
    const body = await res.json();
    check(body, '/api/crawl', 'POST', 200);
    expect(body.results[0]).toMatchObject({ success: true, truncated: true });
    expect(body.results[0].total_chars).toBeGreaterThan(5000);
    expect(body.metadata.credits_used).toBe(1);
    const next = nextStartOf(body.results[0].markdown);
    expect(next).toBeGreaterThan(0);
    const on = await (await h.call('/api/crawl', postJson({ urls: [url], max_chars: '1000', start_char: String(next) }))).json();
    check(on, '/api/crawl', 'POST', 200);
    expect(on.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
  });

  it('query picks the passages of the right section', async () => {
    const res = await h.call(
      '/api/crawl',
      postJson({ urls: [pages.url('/topics?c=2')], query: 'honeybees waggle dance hive', max_chars: 600 }),
    );
    const body = await res.json();
    check(body, '/api/crawl', 'POST', 200);
    expect(body.results[0].markdown).toContain(topicText('Honeybees'));
    expect(passagesContentLength(body.results[0].markdown)).toBeLessThanOrEqual(600);
  });

  it('bad values are one 400 naming each field, per the document, nothing charged', async () => {
    const before = await balance();
    const res = await h.call(
      '/api/crawl',
      postJson({ urls: [pages.url('/topics')], max_chars: 0, start_char: -3, query: 'x', format: 'html' }),
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    check(body, '/api/crawl', 'POST', 400);
    expect(fields(body)).toEqual(['max_chars', 'start_char', 'query']);
    expect(await balance()).toBe(before);
  });

  it('the Idempotency-Key fingerprint includes them when given', async () => {
    const url = pages.url('/topics?c=3');
    const first = await h.call('/api/crawl', withKey('parts-1', { urls: [url] }));
    expect(first.status).toBe(200);
    const other = await h.call('/api/crawl', withKey('parts-1', { urls: [url], max_chars: 500 }));
    expect(other.status).toBe(400);
    expect(fields(await other.json())).toEqual(['Idempotency-Key']);
    const replay = await h.call('/api/crawl', withKey('parts-1', { urls: [url] }));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('search with max_chars', () => {
  it('over GET and POST: passages by q, per the document; the repeat with another budget is free', async () => {
    const get = await h.call('/api/search?q=almanac+lighthouse+fresnel+lens&include_content=true&max_chars=700');
    expect(get.status).toBe(200);
    const body = await get.json();
    check(body, '/api/search', 'GET', 200);
    expect(body.metadata.credits_used).toBe(3);
    expect(body.results[0].content).toContain(topicText('Lighthouses'));
    expect(body.results[0]).toMatchObject({ truncated: true });
    const post = await (
      await h.call('/api/search', postJson({ q: 'almanac lighthouse fresnel lens', include_content: true, max_chars: 300 }))
    ).json();
    check(post, '/api/search', 'POST', 200);
    expect(post.metadata).toMatchObject({ credits_used: 0, from_cache: true });
    expect(passagesContentLength(post.results[0].content)).toBeLessThanOrEqual(300);
  });

  it('a bad max_chars over GET is a 400 naming it, nothing charged', async () => {
    const before = await balance();
    for (const value of ['many', '0', '-1']) {
      const res = await h.call(`/api/search?q=almanac&include_content=true&max_chars=${value}`);
      expect(res.status, value).toBe(400);
      expect(fields(await res.json())).toEqual(['max_chars']);
    }
    const twice = await h.call('/api/search?q=almanac&max_chars=5&max_chars=6');
    expect(fields(await twice.json())).toEqual(['max_chars']);
    expect(await balance()).toBe(before);
  });
});
