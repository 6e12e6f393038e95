// The Idempotency-Key header over HTTP: the retry gets the first answer's bytes with
// Idempotent-Replayed: true, a reuse with other parameters is a 400 naming the header, a retry while the
// first use runs is a 409, and every such answer is the one docs/openapi.json describes.

import { describe, expect, it } from 'vitest';
import { openapi } from '../../src/http/index.js';
import { scriptedSource, startPageServer } from '../../src/testing/index.js';
import { harness, postJson, RESULTS } from './harness.js';
import { responseSchema, validate } from './schema.js';

const doc = openapi as unknown as Record<string, unknown>;
const keyed = (init: RequestInit, key: string): RequestInit => {
  const headers = new Headers(init.headers);
  headers.set('Idempotency-Key', key);
  return { ...init, headers };
};
const documented = (body: unknown, route: string, method: string, status: number) =>
  expect(validate(body, responseSchema(doc, route, method, status), doc), JSON.stringify(body)).toEqual([]);

describe('Idempotency-Key', () => {
  it('a retry of POST /api/search gets the first answer byte for byte, marked Idempotent-Replayed, charged once', async () => {
    const h = await harness();
    const first = await h.call('/api/search', keyed(postJson({ q: 'cats' }), 'order-1'));
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const text = await first.text();
    await h.clock.advance(60 * 60_000);
    const retry = await h.call('/api/search', keyed(postJson({ q: 'cats', include_content: false }), 'order-1'));
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(text);
    documented(JSON.parse(text), '/api/search', 'POST', 200);
    // GET search takes the header too (it is charged like POST), under the same rules.
    const viaGet = await h.call('/api/search?q=cats', keyed({}, 'order-1'));
    expect(viaGet.headers.get('idempotent-replayed')).toBe('true');
    expect(await viaGet.text()).toBe(text);
    const usage = await (await h.call('/api/usage', keyed({}, 'order-1'))).json();
    expect(usage.credits.balance).toBe(99);
    expect(usage.requests.total).toBe(1);
  });

  it('the same key with other parameters: 400 invalid_request whose problem names the header', async () => {
    const h = await harness();
    await h.call('/api/search', keyed(postJson({ q: 'cats' }), 'order-1'));
    const res = await h.call('/api/search', keyed(postJson({ q: 'dogs' }), 'order-1'));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'invalid_request', retryable: false });
    expect(body.problems).toEqual([{ field: 'Idempotency-Key', message: expect.stringMatching(/already used with other parameters/) }]);
    expect(body.error).toMatch(/^Invalid request: Idempotency-Key: /);
    expect(body.metadata.timestamp).toBe('2026-03-01T12:00:00.000Z'); // the engine's timing is kept
    documented(body, '/api/search', 'POST', 400);
  });

  it('a header that is not 1–255 printable ASCII characters: 400 naming the header', async () => {
    const h = await harness();
    for (const value of ['', 'x'.repeat(256)]) {
      const res = await h.call('/api/search', keyed(postJson({ q: 'cats' }), value));
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect((await res.json()).problems).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    }
    expect((await (await h.call('/api/usage')).json()).requests.total).toBe(0);
  });

  it('while the first use runs: 409 idempotency_in_progress; a first use cut short leaves the key free', async () => {
    const source = scriptedSource('primary', (_query, call) => (call === 0 ? { hang: true } : RESULTS));
    const h = await harness({ sources: [source] });
    const gone = new AbortController();
    const first = h.call('/api/search', { ...keyed(postJson({ q: 'cats' }), 'order-1'), signal: gone.signal });
    while (source.calls.length === 0) await new Promise((r) => setImmediate(r));
    const busy = await h.call('/api/search', keyed(postJson({ q: 'cats' }), 'order-1'));
    expect(busy.status).toBe(409);
    const body = await busy.json();
    expect(body).toMatchObject({ status: 'error', code: 'idempotency_in_progress', retryable: true });
    documented(body, '/api/search', 'POST', 409);
    gone.abort(); // the client goes away: the call is cancelled, nothing charged
    await first.catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    const retry = await h.call('/api/search', keyed(postJson({ q: 'cats' }), 'order-1'));
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect((await (await h.call('/api/usage')).json()).credits.balance).toBe(99);
  });

  it('POST /api/crawl: the retry is replayed without fetching again', async () => {
    const server = await startPageServer({ '/a': { status: 200, headers: { 'content-type': 'text/plain' }, body: 'Alpha' } });
    try {
      const h = await harness({ engine: { allowPrivateNetwork: true, robots: false } });
      const body = postJson({ urls: [server.url('/a')] });
      const first = await h.call('/api/crawl', keyed(body, 'crawl-1'));
      const text = await first.text();
      expect(first.status).toBe(200);
      const retry = await h.call('/api/crawl', keyed(body, 'crawl-1'));
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await retry.text()).toBe(text);
      documented(JSON.parse(text), '/api/crawl', 'POST', 200);
      expect(server.requests).toHaveLength(1);
      const other = await h.call('/api/crawl', keyed(postJson({ urls: [server.url('/b')] }), 'crawl-1'));
      expect(other.status).toBe(400);
      await h.engine.close();
    } finally {
      await server.close();
    }
  });

  it('the OpenAPI document declares the header on search and crawl, the 409, and Idempotent-Replayed', () => {
    const ops = [openapi.paths['/api/search'].get, openapi.paths['/api/search'].post, openapi.paths['/api/crawl'].post];
    for (const op of ops) {
      expect(op.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
      expect(op.responses).toHaveProperty('409');
      expect(op.responses['200'].headers).toHaveProperty('Idempotent-Replayed');
    }
  });
});
