// X-Request-Id on every reply (the caller's when sane, else a new one) and `request_id` in error bodies,
// except the spec's exact search 503.

import { describe, expect, it } from 'vitest';
import { newRequestId } from '../../src/http/request-id.js';
import { scriptedSource } from '../../src/testing/index.js';
import { harness, postJson } from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it("echoes a sane caller's id on success and on errors, and names it in the error body", async () => {
    const h = await harness();
    const ok = await h.call('/api/search?q=cats', { headers: { 'x-request-id': 'req-42.a:b/c' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('req-42.a:b/c');
    expect(await ok.json()).not.toHaveProperty('request_id'); // answers keep the spec's shape

    for (const [path, init, status] of [
      ['/api/nope', {}, 404],
      ['/api/search?q=cats', { key: 'ws_live_wrong' }, 401],
      ['/api/crawl', postJson('{not json'), 400],
      ['/api/usage', { method: 'POST' }, 405],
    ] as const) {
      const res = await h.call(path, { ...init, headers: { ...('headers' in init ? init.headers : {}), 'x-request-id': 'abc-123' } });
      expect(res.status, path).toBe(status);
      expect(res.headers.get('x-request-id'), path).toBe('abc-123');
      expect((await res.json()).request_id, path).toBe('abc-123');
    }
  });

  it('generates a UUID when none is sent, or when the one sent is too long or carries unsafe characters', async () => {
    const h = await harness();
    for (const sent of [undefined, 'x'.repeat(129), 'has space', 'semi;colon', 'quote"', '']) {
      const headers: Record<string, string> = sent === undefined ? {} : { 'x-request-id': sent };
      const res = await h.call('/api/nope', { headers });
      const id = res.headers.get('x-request-id');
      expect(id, String(sent)).toMatch(UUID);
      expect((await res.json()).request_id).toBe(id);
    }
    const a = (await h.call('/api/nope')).headers.get('x-request-id');
    const b = (await h.call('/api/nope')).headers.get('x-request-id');
    expect(a).not.toBe(b);
    expect((await h.call('/api/nope', { headers: { 'x-request-id': 'x'.repeat(128) } })).headers.get('x-request-id')).toBe('x'.repeat(128));
  });

  it('a new id is a version 4 UUID in lower-case hex, a new one each time, across refills of its random pool', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId()); // the pool holds 256
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex digit of the random part turns up at every position (the bytes are used, not a fixed part of them).
    for (let at = 0; at < 36; at++) {
      if ([8, 13, 14, 18, 19, 23].includes(at)) continue; // dashes, the version and the variant digit
      expect(new Set(ids.map((id) => id[at])).size, `position ${at}`).toBe(16);
    }
  });

  it("keeps the spec's search 503 body exact: the id is in the header only", async () => {
    const h = await harness({ sources: [scriptedSource('down', { cats: { fail: 'boom' } })] });
    const res = await h.call('/api/search?q=cats', { headers: { 'x-request-id': 'r-503' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-request-id')).toBe('r-503');
    expect(Object.keys(await res.json()).sort()).toEqual(['error', 'metadata', 'retryable', 'status']);
  });

  it('an unexpected exception answers a 500 that names the request id', async () => {
    const h = await harness({ wrap: (engine) => ({ ...engine, usage: () => Promise.reject(new TypeError('bug')) }) });
    const res = await h.call('/api/usage', { headers: { 'x-request-id': 'r-500' } });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'internal_error', request_id: 'r-500' });
  });
});
