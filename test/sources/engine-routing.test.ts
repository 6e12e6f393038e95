// The engine over real source adapters talking HTTP to fixture servers: fallback past a provider whose
// key is refused (and its suspension in engine.sources()), and an empty answer confirmed by two
// providers' explicit notices.

import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { brave, googleCse, wikipedia } from '../../src/sources/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { EmptySearchResponse, SearchResponse } from '../../src/types/index.js';
import { type FixtureServer, fixture, json, startFixtureServer } from './fixture-server.js';

const ORG = { organization: 'acme' };

describe('engine routing over real adapters', () => {
  const servers: FixtureServer[] = [];
  const serve = async (route: Parameters<typeof startFixtureServer>[0]) => {
    const server = await startFixtureServer(route);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('falls back past a refused key, suspends that source, and charges 1 for the answer', async () => {
    const braveApi = await serve(() => json(fixture('brave', 'token-invalid.json'), 422));
    const wiki = await serve(() => json(fixture('wikipedia', 'results.json')));
    const clock = new ManualClock();
    const engine = createEngine({
      clock,
      rateLimit: false,
      sources: [brave({ apiKey: 'bad', baseUrl: braveApi.baseUrl }), wikipedia({ baseUrl: wiki.baseUrl })],
    });
    await engine.admin.createOrganization('acme', { credits: 5 });
    try {
      const res = (await engine.search({ q: 'alan turing' }, ORG)) as SearchResponse;
      expect(res.results.length).toBeGreaterThan(0);
      expect(res.results[0]?.url).toMatch(/\/wiki\//);
      expect(res.metadata.credits_used).toBe(1);
      expect(braveApi.requests).toHaveLength(1); // an auth failure is not retried
      const health = engine.sources();
      expect(health.map((h) => h.id)).toEqual(['brave', 'wikipedia-en']);
      expect(health[0]?.state).toBe('open');
      // While suspended, the next search does not ask it again.
      await engine.search({ q: 'grace hopper' }, ORG);
      expect(braveApi.requests).toHaveLength(1);
    } finally {
      await engine.close();
    }
  });

  it('confirms an empty answer from two explicit notices and charges 1; a silent empty is free', async () => {
    const google = await serve(() => json(fixture('google-cse', 'empty.json')));
    const wiki = await serve((req) => json(fixture('wikipedia', req.q.includes('silent') ? 'empty-with-total.json' : 'empty.json')));
    const engine = createEngine({
      clock: new ManualClock(),
      rateLimit: false,
      sources: [googleCse({ apiKey: 'k', cx: 'c', baseUrl: google.baseUrl }), wikipedia({ baseUrl: wiki.baseUrl })],
    });
    await engine.admin.createOrganization('acme', { credits: 5 });
    try {
      const confirmed = (await engine.search({ q: 'qwzxv plorth' }, ORG)) as EmptySearchResponse;
      expect(confirmed.metadata).toMatchObject({ status: 'no_results', no_results_verified: true, charged: true, credits_used: 1 });
      const silent = (await engine.search({ q: 'silent qwzxv' }, ORG)) as EmptySearchResponse;
      expect(silent.metadata).toMatchObject({ status: 'no_results', no_results_verified: false, charged: false, credits_used: 0 });
      expect((await engine.usage(ORG)).credits.balance).toBe(4);
    } finally {
      await engine.close();
    }
  });
});
