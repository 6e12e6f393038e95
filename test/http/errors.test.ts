import { describe, expect, it } from 'vitest';
import { scriptedSource } from '../../src/testing/index.js';
import { harness, postJson, RESULTS } from './harness.js';

describe('routing errors', () => {
  it('answers 404 for an unknown path, before authentication', async () => {
    const h = await harness();
    for (const path of ['/api/nope', '/', '/api', '/api/searchx', '/API/search']) {
      const res = await h.call(path, { key: null });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ status: 'error', code: 'not_found', retryable: false });
    }
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const h = await harness();
    const cases = [
      ['/api/search', 'PUT', 'GET, POST'],
      ['/api/search', 'DELETE', 'GET, POST'],
      ['/api/crawl', 'GET', 'POST'],
      ['/api/usage', 'POST', 'GET'],
    ] as const;
    for (const [path, method, allow] of cases) {
      const res = await h.call(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect((await res.json()).code).toBe('method_not_allowed');
    }
  });

  it('serves under basePath and nowhere else; a trailing slash is tolerated', async () => {
    const h = await harness({ http: { basePath: '/v1/' } });
    expect((await h.call('/v1/api/search?q=cats')).status).toBe(200);
    expect((await h.call('/v1/api/usage/')).status).toBe(200);
    expect((await h.call('/api/search?q=cats')).status).toBe(404);
  });

  it('stamps its own errors with the clock time and elapsed milliseconds', async () => {
    const h = await harness();
    const body = await (await h.call('/api/nope')).json();
    expect(body.metadata).toEqual({ status: 'error', response_time: 0, timestamp: '2026-03-01T12:00:00.000Z' });
  });
});

describe('body size limit', () => {
  it('answers 413 for a declared Content-Length over the limit without reading the body', async () => {
    const h = await harness({ http: { maxBodyBytes: 100 } });
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('x'.repeat(50)));
      },
    });
    const res = await h.call('/api/search', {
      method: 'POST',
      headers: { 'content-length': '1000' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large', max_body_bytes: 100 });
    expect(pulled).toBeLessThanOrEqual(1); // at most the stream's own start-up pull
  });

  it('refuses a declared size over the limit before the key is checked; a chunked body without a key is never read', async () => {
    const h = await harness({ http: { maxBodyBytes: 100 } });
    const declared = await h.call('/api/crawl', {
      method: 'POST',
      headers: { 'content-length': '1000' },
      body: 'x'.repeat(1000),
      key: null,
    });
    expect(declared.status).toBe(413);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('x'.repeat(50)));
      },
    });
    const chunked = await h.call('/api/crawl', { method: 'POST', body, duplex: 'half', key: null } as RequestInit & { key: null });
    expect(chunked.status).toBe(401);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading a streamed body at the limit', async () => {
    const h = await harness({ http: { maxBodyBytes: 100 } });
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('x'.repeat(40)));
      },
    });
    const res = await h.call('/api/search', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(6); // never runs on towards an endless body
  });

  it('accepts a body exactly at the limit', async () => {
    const h = await harness({ http: { maxBodyBytes: 40 } });
    const json = JSON.stringify({ q: 'cats', pad: '' });
    const body = json.replace('""', `"${'p'.repeat(40 - json.length)}"`);
    expect(body.length).toBe(40);
    expect((await h.call('/api/search', postJson(body))).status).toBe(200);
    expect((await h.call('/api/search', postJson(body.replace('"p', '"pp')))).status).toBe(413);
  });

  it('defaults to 64 KiB and refuses a nonsensical limit', async () => {
    const h = await harness();
    const big = JSON.stringify({ q: 'cats', pad: 'p'.repeat(64 * 1024) });
    expect((await h.call('/api/search', postJson(big))).status).toBe(413);
    await expect(harness({ http: { maxBodyBytes: 0 } })).rejects.toThrow(/maxBodyBytes/);
  });
});

describe('engine errors', () => {
  it('429 carries Retry-After and the RateLimit headers', async () => {
    const h = await harness({ engine: { rateLimit: { limit: 2, window: 4 } } });
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
    expect((await h.call('/api/usage')).status).toBe(200);
    const res = await h.call('/api/search?q=cats');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=2;w=4');
    expect(res.headers.get('ratelimit')).toBe('"default";r=0;t=2');
    expect(await res.json()).toMatchObject({ code: 'rate_limited', retry_after: 2, retryable: true });
    await h.clock.advance(2000);
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
  });

  it('402 when the balance cannot cover the request, with the credits in the body and nothing charged', async () => {
    const h = await harness({ credits: 0 });
    const res = await h.call('/api/search?q=cats');
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'insufficient_credits', credits_required: 1, credits_available: 0 });
    expect((await h.engine.usage({ organization: 'acme' })).credits.balance).toBe(0);
  });

  it('503 has exactly the spec body of the search error response', async () => {
    const h = await harness({ sources: [scriptedSource('down', () => ({ fail: 'boom' }))] });
    const res = await h.call('/api/search?q=cats');
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'metadata', 'retryable', 'status']);
    expect(body).toMatchObject({ status: 'error', retryable: true, metadata: { status: 'error', timestamp: '2026-03-01T12:00:00.000Z' } });
    expect(Number.isInteger(body.metadata.response_time)).toBe(true);
  });

  it('an unexpected exception is a generic 500 reported through onError, leaking nothing', async () => {
    const secret = new Error('SQLITE_CORRUPT at /srv/secret/websift.db');
    const h = await harness({
      wrap: (engine) => ({
        ...engine,
        admin: engine.admin,
        rateLimit: engine.rateLimit,
        usage: async () => {
          throw secret;
        },
      }),
    });
    const res = await h.call('/api/usage');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret|SQLITE|at /);
    expect(JSON.parse(text)).toMatchObject({ status: 'error', code: 'internal_error', error: 'Internal server error' });
    expect(h.errors).toEqual([secret]);
  });

  it('a throwing onError hook still yields the 500', async () => {
    const h = await harness({
      http: {
        onError: () => {
          throw new Error('reporter down');
        },
      },
      wrap: (engine) => ({ ...engine, admin: engine.admin, rateLimit: engine.rateLimit, usage: () => Promise.reject(new TypeError('x')) }),
    });
    expect((await h.call('/api/usage')).status).toBe(500);
  });

  it('answers 200 JSON with no-store caching for a success', async () => {
    const h = await harness({ script: { cats: RESULTS } });
    const res = await h.call('/api/search?q=cats');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
