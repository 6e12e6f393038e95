import { afterEach, describe, expect, it } from 'vitest';
import { openapi } from '../../src/http/index.js';
import { type PageServer, scriptedSource, startPageServer } from '../../src/testing/index.js';
import { harness, postJson } from './harness.js';
import { responseSchema, validate } from './schema.js';

const doc = openapi as unknown as Record<string, unknown>;
const ARTICLE = `<!doctype html><html><head><title>Tide pools</title></head><body>
<nav><a href="/">Home</a></nav><main><article><h1>Tide pools</h1>
<p>Tide pools form where rocky shores hold seawater after the tide goes out, and their inhabitants must
survive changes in temperature, salinity and oxygen twice a day.</p>
<p>Sea anemones close into soft blobs to keep moisture in, and barnacles seal their plates shut.</p>
</article></main><footer>Footer text</footer></body></html>`;

let pages: PageServer | undefined;
afterEach(async () => {
  await pages?.close();
  pages = undefined;
});

async function withPages() {
  const hold: (() => void)[] = [];
  pages = await startPageServer({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/tide.html': { body: ARTICLE },
    '/hang.html': (_req, res) =>
      new Promise<void>((resolve) =>
        hold.push(() => {
          res.end(ARTICLE);
          resolve();
        }),
      ),
  });
  return { pages, release: () => hold.splice(0).forEach((f) => f()) };
}

const check = (body: unknown, path: string, method: string, status: number) =>
  expect(validate(body, responseSchema(doc, path, method, status), doc), JSON.stringify(body)).toEqual([]);

describe('POST /api/crawl', () => {
  it('extracts pages, reports per-URL failures inside a 200, and matches the OpenAPI document', async () => {
    const { pages } = await withPages();
    const h = await harness({ engine: { allowPrivateNetwork: true } });
    const res = await h.call('/api/crawl', postJson({ urls: [pages.url('/tide.html'), pages.url('/missing.html')] }));
    expect(res.status).toBe(200);
    const body = await res.json();
    check(body, '/api/crawl', 'POST', 200);
    expect(body.results[0]).toMatchObject({ success: true, status_code: 200 });
    expect(body.results[0].markdown).toMatch(/Sea anemones/);
    expect(body.results[1]).toMatchObject({ success: false, status_code: 404, error_type: 'http' });
    expect(body.metadata).toMatchObject({ total_urls: 2, successful_crawls: 1, failed_crawls: 1, credits_used: 1 });
  });

  it('answers 400 naming urls, and 402 without credits, both per the document', async () => {
    const h = await harness({ engine: { allowPrivateNetwork: true } });
    const bad = await h.call('/api/crawl', postJson({ urls: 'https://a.test/' }));
    expect(bad.status).toBe(400);
    const badBody = await bad.json();
    check(badBody, '/api/crawl', 'POST', 400);
    expect(badBody.problems[0].field).toMatch(/^urls/);
    const poor = await harness({ credits: 0, engine: { allowPrivateNetwork: true } });
    const res = await poor.call('/api/crawl', postJson({ urls: ['https://a.test/'] }));
    expect(res.status).toBe(402);
    check(await res.json(), '/api/crawl', 'POST', 402);
  });

  it('answers 504 when the extract deadline passes, charging nothing', async () => {
    const { pages, release } = await withPages();
    const h = await harness({ engine: { allowPrivateNetwork: true, extractDeadlineMs: 1000 } });
    const pending = h.call('/api/crawl', postJson({ urls: [pages.url('/hang.html')] }));
    while (!pages.requests.some((r) => r.path === '/hang.html')) await new Promise((r) => setImmediate(r));
    await h.clock.advance(1000);
    const res = await pending;
    release();
    expect(res.status).toBe(504);
    const body = await res.json();
    check(body, '/api/crawl', 'POST', 504);
    expect(body.code).toBe('timeout');
    expect((await h.engine.usage({ organization: 'acme' })).credits.balance).toBe(100);
  });
});

describe('search with include_content over HTTP', () => {
  it('delivers page content per the document, and 402 covers the worst case up front', async () => {
    const { pages } = await withPages();
    const source = scriptedSource('s', { tide: { results: [{ title: 'Tide', url: pages.url('/tide.html'), snippet: 'pools' }] } });
    const h = await harness({ sources: [source], engine: { allowPrivateNetwork: true } });
    const res = await h.call('/api/search?q=tide&include_content=true&content_results=5');
    expect(res.status).toBe(200);
    const body = await res.json();
    check(body, '/api/search', 'GET', 200);
    expect(body.results[0].content).toMatch(/Sea anemones/);
    expect(body.metadata).toMatchObject({ content_delivered: 1, credits_used: 3 });

    const poor = await harness({ sources: [source], credits: 2, engine: { allowPrivateNetwork: true } });
    const refused = await poor.call('/api/search', postJson({ q: 'tide', include_content: true, content_results: 5 }));
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ credits_required: 3, credits_available: 2 });
  });
});
