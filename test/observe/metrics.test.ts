// websift/metrics: the Prometheus text after real requests through the node handler, its labels (never
// an organization, key or query), a host's own registry, and the conversion pool's gauges.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { CallTrace, noteAttempt } from '../../src/channels.js';
import { createNodeHandler } from '../../src/http/index.js';
import { createEngine } from '../../src/index.js';
import { type WebsiftMetrics, websiftMetrics } from '../../src/metrics/index.js';
import { scriptedSource } from '../../src/testing/index.js';
import { article, extractSetup, html } from '../extract/helpers.js';
import { sample } from './samples.js';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function serve(engine: Parameters<typeof createNodeHandler>[0]) {
  const server = createServer(createNodeHandler(engine, { health: true }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push({
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('websift/metrics', () => {
  it('counts requests, credits, source calls and cache hits, with no organization, key or query in any label', async () => {
    const engine = createEngine({
      rateLimit: false,
      router: { retries: 0 },
      sources: [
        scriptedSource('flaky', { cats: { fail: 'down' } }),
        scriptedSource('steady', { cats: { results: [{ title: 'Cats', url: 'https://cats.test/', snippet: 'meow' }] } }),
      ],
    });
    open.push(engine);
    const metrics: WebsiftMetrics = websiftMetrics({ engine });
    open.push(metrics);
    await engine.admin.createOrganization('org-secret-name', { credits: 10 });
    const key = await engine.admin.createApiKey('org-secret-name');
    const base = await serve(engine);
    const auth = { authorization: `Bearer ${key}` };
    expect((await fetch(`${base}/api/search?q=cats`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${base}/api/search?q=cats`, { headers: auth })).status).toBe(200); // a free repeat, from the cache
    expect((await fetch(`${base}/api/usage`)).status).toBe(401);
    expect((await fetch(`${base}/api/usage//`)).status).toBe(401); // trailing slashes: the same endpoint
    expect((await fetch(`${base}/nowhere?q=cats`)).status).toBe(404);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    const text = await metrics.text();
    expect(sample(text, 'websift_http_requests_total{endpoint="/api/search",status="200"}')).toBe(2);
    expect(sample(text, 'websift_http_requests_total{endpoint="/api/usage",status="401"}')).toBe(2);
    expect(sample(text, 'websift_http_requests_total{endpoint="other",status="404"}')).toBe(1);
    expect(sample(text, 'websift_http_requests_total{endpoint="/healthz",status="200"}')).toBe(1);
    expect(sample(text, 'websift_http_request_duration_seconds_count{endpoint="/api/search"}')).toBe(2);
    expect(sample(text, 'websift_credits_charged_total{kind="search"}')).toBe(1);
    expect(sample(text, 'websift_calls_total{kind="search",outcome="success"}')).toBe(2);
    expect(sample(text, 'websift_source_calls_total{source="flaky",outcome="failed",role="primary"}')).toBe(1);
    expect(sample(text, 'websift_source_calls_total{source="steady",outcome="answered",role="fallback"}')).toBe(1);
    expect(sample(text, 'websift_cache_lookups_total{cache="search_answer"}')).toBe(2);
    expect(sample(text, 'websift_cache_hits_total{cache="search_answer"}')).toBe(1);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m); // Node process metrics in a registry of its own
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    for (const secret of ['org-secret-name', key, 'cats', 'nowhere']) expect(text).not.toContain(secret);
  });

  it("registers in a host's registry, without process metrics unless asked; close() stops counting", async () => {
    const registry = new Registry();
    const engine = createEngine({ rateLimit: false, sources: [scriptedSource('s', {})] });
    open.push(engine);
    const metrics = websiftMetrics({ registry, engine });
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.search({ q: 'nothing' }, { organization: 'acme' });
    const text = await registry.metrics();
    expect(text).toContain('websift_calls_total{kind="search",outcome="no_results"} 1');
    expect(text).not.toContain('process_cpu_user_seconds_total');
    metrics.close();
    await engine.search({ q: 'nothing' }, { organization: 'acme' });
    expect(await registry.metrics()).toContain('websift_calls_total{kind="search",outcome="no_results"} 1');
  });

  it('keeps totals across scrapes, through any way of reading the registry, a series counted by 0 included', async () => {
    const registry = new Registry();
    const engine = createEngine({ rateLimit: false, sources: [scriptedSource('s', {})] });
    open.push(engine);
    open.push(websiftMetrics({ registry, engine }));
    await engine.admin.createOrganization('acme', { credits: 10 });
    await engine.search({ q: 'one' }, { organization: 'acme' });
    expect(await registry.metrics()).toContain('websift_calls_total{kind="search",outcome="no_results"} 1');
    // Counted nothing new: the same total, not a delta of 0.
    expect(await registry.metrics()).toContain('websift_calls_total{kind="search",outcome="no_results"} 1');
    await engine.search({ q: 'two' }, { organization: 'acme' });
    await engine.search({ q: 'three' }, { organization: 'acme' });
    const json = await registry.getMetricsAsJSON();
    const calls = json.find((m) => m.name === 'websift_calls_total')!;
    expect(calls.values).toEqual([{ labels: { kind: 'search', outcome: 'no_results' }, value: 3 }]);
    const hits = (await registry.getSingleMetric('websift_cache_hits_total')!.get()).values;
    expect(hits).toEqual([{ labels: { cache: 'search_answer' }, value: 0 }]); // three lookups, no hit: shown as 0
    expect(await registry.metrics()).toContain('websift_cache_lookups_total{cache="search_answer"} 3');
  });

  it('counts pages by outcome and reports the conversion pool', async () => {
    const s = await extractSetup({ '/ok': html(article('Metrics')), '/gone': html('nope', 404) });
    open.push(s);
    const metrics = websiftMetrics({ engine: s.engine, processMetrics: false });
    open.push(metrics);
    await s.engine.admin.createOrganization('acme', { credits: 10 });
    await s.engine.extract({ urls: [s.server.url('/ok'), s.server.url('/gone')] }, { organization: 'acme' });
    const text = await metrics.text();
    expect(sample(text, 'websift_pages_total{outcome="success"}')).toBe(1);
    expect(sample(text, 'websift_pages_total{outcome="http"}')).toBe(1);
    expect(sample(text, 'websift_credits_charged_total{kind="extract"}')).toBe(1);
    expect(sample(text, 'websift_page_conversion_seconds_count')).toBe(1);
    expect(sample(text, 'websift_conversion_capacity')).toBeGreaterThan(0);
    expect(sample(text, 'websift_conversion_queued')).toBe(0);
    expect(sample(text, 'websift_conversion_active')).toBe(0);
    expect(sample(text, 'websift_conversion_utilization')).toBeGreaterThanOrEqual(0);
  });

  it('counts each series apart when consecutive events differ in any one label (the last series is remembered)', async () => {
    const registry = new Registry();
    open.push(websiftMetrics({ registry }));
    // Source calls reach the metrics as the router's notes on a traced call (no websift:source subscription).
    const call = new CallTrace('search', 'acme', undefined);
    const events = [
      { source: 'a', outcome: 'answered', role: 'primary' },
      { source: 'a', outcome: 'answered', role: 'primary' },
      { source: 'a', outcome: 'answered', role: 'fallback' }, // only the third label differs
      { source: 'a', outcome: 'empty', role: 'fallback' }, // only the second
      { source: 'b', outcome: 'empty', role: 'fallback' }, // only the first
      { source: 'a', outcome: 'answered', role: 'primary' },
    ] as const;
    for (const event of events) noteAttempt(call, event.source, 1, event.role, event.outcome, 0, 1);
    const text = await registry.metrics();
    expect(sample(text, 'websift_source_calls_total{source="a",outcome="answered",role="primary"}')).toBe(3);
    expect(sample(text, 'websift_source_calls_total{source="a",outcome="answered",role="fallback"}')).toBe(1);
    expect(sample(text, 'websift_source_calls_total{source="a",outcome="empty",role="fallback"}')).toBe(1);
    expect(sample(text, 'websift_source_calls_total{source="b",outcome="empty",role="fallback"}')).toBe(1);
  });
});
