import { describe, expect, it } from 'vitest';
import { harness, postJson } from './harness.js';

describe('authentication', () => {
  it('accepts a bearer token on every endpoint, with any case of the scheme', async () => {
    const h = await harness();
    expect((await h.call('/api/search?q=cats')).status).toBe(200);
    expect((await h.call('/api/usage')).status).toBe(200);
    const lower = await h.call('/api/search?q=cats', { key: null, headers: { authorization: `bearer ${h.key}` } });
    expect(lower.status).toBe(200);
  });

  it('accepts x-api-key on search, GET and POST', async () => {
    const h = await harness();
    const get = await h.call('/api/search?q=cats', { key: null, headers: { 'x-api-key': h.key } });
    expect(get.status).toBe(200);
    const post = await h.call('/api/search', { key: null, ...postJson({ q: 'cats' }), headers: { 'x-api-key': h.key } });
    expect(post.status).toBe(200);
  });

  it('refuses x-api-key on usage and crawl with 401 and WWW-Authenticate: Bearer', async () => {
    const h = await harness();
    for (const [path, init] of [
      ['/api/usage', {}],
      ['/api/crawl', postJson({ urls: ['https://a.test/'] })],
    ] as const) {
      const res = await h.call(path, { key: null, ...init, headers: { 'x-api-key': h.key } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toMatchObject({ status: 'error', code: 'unauthorized' });
    }
  });

  it('says where the key goes when x-api-key is sent to an endpoint that takes only Bearer', async () => {
    const h = await harness();
    const res = await h.call('/api/crawl', { key: null, ...postJson({ urls: ['https://a.test/'] }), headers: { 'x-api-key': h.key } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect((await res.json()).error).toBe(
      'Missing API key: /api/crawl takes the key as Authorization: Bearer <key>; x-api-key is accepted on /api/search only',
    );
    const usage = await h.call('/api/usage', { key: null, headers: { 'x-api-key': h.key } });
    expect((await usage.json()).error).toMatch(/^Missing API key: \/api\/usage takes the key as Authorization: Bearer <key>/);
    // Without x-api-key the message stays the plain one.
    const bare = await h.call('/api/crawl', { key: null, ...postJson({ urls: ['https://a.test/'] }) });
    expect((await bare.json()).error).toBe('Missing API key: send Authorization: Bearer <key>');
  });

  it('answers 401 for a missing, unknown, malformed or revoked key, charging nothing', async () => {
    const h = await harness();
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer ws_nope' },
      { authorization: `Basic ${h.key}` },
      { authorization: 'Bearer' },
    ];
    for (const headers of cases) {
      const res = await h.call('/api/search?q=cats', { key: null, headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    await h.engine.admin.revokeApiKey(h.key);
    expect((await h.call('/api/search?q=cats')).status).toBe(401);
    const usage = await h.engine.usage({ organization: 'acme' });
    expect(usage.credits.balance).toBe(100);
  });

  it('prefers the bearer token over x-api-key on search', async () => {
    const h = await harness();
    const res = await h.call('/api/search?q=cats', { key: null, headers: { authorization: 'Bearer ws_wrong', 'x-api-key': h.key } });
    expect(res.status).toBe(401);
  });

  it('bills the organization the key belongs to', async () => {
    const h = await harness();
    await h.engine.admin.createOrganization('other', { credits: 10 });
    const otherKey = await h.engine.admin.createApiKey('other');
    expect((await h.call('/api/search?q=cats', { key: otherKey })).status).toBe(200);
    const usage = await (await h.call('/api/usage', { key: otherKey })).json();
    expect(usage).toMatchObject({ organization: 'other', credits: { balance: 9 } });
    expect((await h.engine.usage({ organization: 'acme' })).credits.balance).toBe(100);
  });
});
