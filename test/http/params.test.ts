import { describe, expect, it } from 'vitest';
import { DEPRECATION_DATE } from '../../src/http/index.js';
import { harness, postJson } from './harness.js';

describe('search parameters over GET and POST', () => {
  it('maps GET query parameters to typed parameters: the same search as POST', async () => {
    const h = await harness();
    const get = await (await h.call('/api/search?q=cats')).json();
    const post = await (await h.call('/api/search', postJson({ q: 'cats' }))).json();
    expect(get.results).toEqual(post.results);
    // The POST was a free repeat of the GET: same query, same content options.
    expect(post.metadata.credits_used).toBe(0);
  });

  it('reads include_content and content_results from the query as boolean and integer', async () => {
    const h = await harness();
    // false/0 are booleans: a plain search, so the repeat is free and content keys are absent.
    const first = await (await h.call('/api/search?q=cats&include_content=false')).json();
    expect(first.metadata.content_requested).toBeUndefined();
    const second = await (await h.call('/api/search?q=cats&include_content=0&content_results=3')).json();
    expect(second.metadata.credits_used).toBe(0);
  });

  it('names each bad query parameter in one 400', async () => {
    const h = await harness();
    const res = await h.call('/api/search?q=a&q=b&include_content=maybe&content_results=ten');
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('invalid_request');
    expect(body.problems.map((p: { field: string }) => p.field).sort()).toEqual(['content_results', 'include_content', 'q']);
  });

  it('passes out-of-range values to the engine, which rejects them with 400', async () => {
    const h = await harness();
    const res = await h.call('/api/search?q=cats&include_content=true&content_results=11');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('content_results');
    expect((await h.call('/api/search')).status).toBe(400); // q missing
  });

  it('ignores unknown query parameters and body fields', async () => {
    const h = await harness();
    expect((await h.call('/api/search?q=cats&lang=fr&x=1')).status).toBe(200);
    expect((await h.call('/api/search', postJson({ q: 'cats', colour: 'blue' }))).status).toBe(200);
  });

  it('rejects malformed JSON, non-object JSON, invalid UTF-8 and wrong types with 400 naming the problem', async () => {
    const h = await harness();
    const cases: [BodyInit, string][] = [
      ['{"q": "cats"', 'body'],
      ['["cats"]', 'body'],
      ['"cats"', 'body'],
      [new Uint8Array([0x7b, 0x22, 0x71, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 'body'],
      ['{"q": 42}', 'q'],
      ['{"q": "cats", "include_content": "yes"}', 'include_content'],
    ];
    for (const [body, field] of cases) {
      const res = await h.call('/api/search', { method: 'POST', body });
      expect(res.status, String(body)).toBe(400);
      const json = await res.json();
      expect(
        json.problems.some((p: { field: string }) => p.field === field),
        JSON.stringify(json),
      ).toBe(true);
    }
    const crawl = await h.call('/api/crawl', postJson('{"urls": '));
    expect(crawl.status).toBe(400);
  });

  it('treats an empty POST body as no parameters', async () => {
    const h = await harness();
    const res = await h.call('/api/search', { method: 'POST' });
    expect(res.status).toBe(400);
    expect((await res.json()).problems[0].field).toBe('q');
  });
});

describe('Deprecation header', () => {
  const expectDeprecated = (res: Response) => {
    expect(res.headers.get('deprecation')).toBe(DEPRECATION_DATE);
    expect(res.headers.get('deprecation')).toBe('@1767225600');
    expect(res.headers.get('link')).toMatch(/^<[^>]+>; rel="deprecation"$/);
  };

  it('is sent when engine or engines is given in the query or the body, and the result is unchanged', async () => {
    const h = await harness();
    const plain = await h.call('/api/search?q=cats');
    expect(plain.headers.get('deprecation')).toBeNull();
    expect(plain.headers.get('link')).toBeNull();
    const plainBody = await plain.json();
    for (const res of [
      await h.call('/api/search?q=cats&engine=google'),
      await h.call('/api/search?q=cats&engines=google&engines=bing'),
      await h.call('/api/search', postJson({ q: 'cats', engine: 'google' })),
      await h.call('/api/search', postJson({ q: 'cats', engines: ['google'] })),
      await h.call('/api/search', postJson({ q: 'cats', engines: null })),
    ]) {
      expectDeprecated(res);
      const body = await res.json();
      expect(body.results).toEqual(plainBody.results);
    }
  });

  it('is also sent on an error answer to a request that used the parameter', async () => {
    const h = await harness();
    expectDeprecated(await h.call('/api/search?engine=google')); // 400: q missing
    expectDeprecated(await h.call('/api/search?q=cats&engine=google', { key: 'ws_wrong' })); // 401
  });

  it('is never sent otherwise', async () => {
    const h = await harness();
    for (const res of [
      await h.call('/api/search', postJson({ q: 'cats', engineering: true })),
      await h.call('/api/search?q=engine'),
      await h.call('/api/usage?engine=x'),
      await h.call('/api/nope?engine=x'),
    ]) {
      expect(res.headers.get('deprecation')).toBeNull();
    }
  });

  it('points the Link at the configured documentation', async () => {
    const h = await harness({ http: { deprecationLink: 'https://docs.example/deprecations' } });
    const res = await h.call('/api/search?q=cats&engine=x');
    expect(res.headers.get('link')).toBe('<https://docs.example/deprecations>; rel="deprecation"');
  });
});
