// engine.close() closes what the engine created and nothing the caller injected; it is idempotent.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUndiciFetcher } from '../../src/fetch/undici-fetcher.js';
import { createEngine } from '../../src/index.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { article, html } from './helpers.js';

let server: PageServer;
beforeAll(async () => {
  server = await startPageServer({ '/a': html(article('Shared')) });
});
afterAll(() => server.close());

describe('engine.close', () => {
  it('leaves an injected fetcher open for the other engines sharing it', async () => {
    const fetcher = createUndiciFetcher({ allowPrivateNetwork: true, userAgent: 'websift-test/1.0' });
    const first = createEngine({ fetcher, robots: false, rateLimit: false });
    const second = createEngine({ fetcher, robots: false, rateLimit: false });
    await second.admin.createOrganization('acme', { credits: 5 });
    await first.close();
    const res = await second.extract({ urls: [server.url('/a')] }, { organization: 'acme' });
    expect(res.results[0]?.success).toBe(true);
    await second.close();
    // Still the caller's to use, and to close.
    expect((await fetcher.fetch(server.url('/a'), { signal: AbortSignal.timeout(5000), maxBytes: 1 << 20 })).status).toBe(200);
    await fetcher.close?.();
  });

  it('resolves every time it is called, at once or one after another', async () => {
    const engine = createEngine({ allowPrivateNetwork: true, robots: false, rateLimit: false });
    await engine.admin.createOrganization('acme', { credits: 5 });
    await engine.extract({ urls: [server.url('/a')] }, { organization: 'acme' }); // starts the pool, the fetcher
    await expect(Promise.all([engine.close(), engine.close()])).resolves.toBeDefined();
    await expect(engine.close()).resolves.toBeUndefined();
    await expect(engine.usage({ organization: 'acme' })).rejects.toThrow(/closed/);
  });
});
