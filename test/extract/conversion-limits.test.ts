// Conversion counts against the limits: the page's time limit and the request deadline cut a
// conversion short (the page gets `timeout`, or the request 504), the worker's heap limit makes a page
// `too_large`; the other pages are unaffected and nothing undelivered is charged.

import { afterEach, describe, expect, it } from 'vitest';
import { articleOfSize } from '../../bench/lib/hostile-pages.js';
import { createEngine, ExtractTimeoutError } from '../../src/index.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { Engine } from '../../src/types/index.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, warmConversion, withOrgs } from './helpers.js';

const HUGE = articleOfSize(9 * 1024 * 1024); // under the 10 MiB cap; seconds to convert

let s: ExtractSetup | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await s?.close();
  s = engine = undefined;
});

const routes = () => ({ '/huge': html(HUGE), '/small': html(article('Small')), '/warm': html(article('Warm')) });

describe('conversion limits', () => {
  it('a page still converting at its time limit gets timeout, uncharged; the others are delivered', async () => {
    s = await extractSetup(routes(), { pageTimeoutMs: 400 });
    await withOrgs(s.engine);
    await warmConversion(s.engine, s.server.url('/warm'));
    const res = await s.engine.extract({ urls: [s.server.url('/huge'), s.server.url('/small')] }, ORG);
    expect(res.results.map((r) => (r.success ? 'ok' : r.error_type))).toEqual(['timeout', 'ok']);
    expect(res.metadata.credits_used).toBe(1);
    expect(await balance(s.engine)).toBe(99);
  });

  it('a page over the worker heap limit fails alone as too_large, saying why', async () => {
    s = await extractSetup(routes(), { conversionMemoryMb: 32 });
    await withOrgs(s.engine);
    const res = await s.engine.extract({ urls: [s.server.url('/huge'), s.server.url('/small')] }, ORG);
    expect(res.results.map((r) => (r.success ? 'ok' : r.error_type))).toEqual(['too_large', 'ok']);
    expect(res.results[0]?.error).toMatch(/memory/);
    expect(res.results[0]?.status_code).toBe(200);
    expect(await balance(s.engine)).toBe(99);
  });

  it('the request deadline passing during a conversion answers 504 and charges nothing', async () => {
    let served!: () => void;
    const sent = new Promise<void>((r) => (served = r));
    s = await extractSetup({
      ...routes(),
      '/huge': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(HUGE, served);
      },
    });
    await withOrgs(s.engine);
    const call = s.engine.extract({ urls: [s.server.url('/huge'), s.server.url('/small')] }, ORG);
    await sent;
    await new Promise((r) => setTimeout(r, 50)); // the page is read and handed to a worker
    // Handled before time moves: advance may let the call reject before it returns.
    const rejected = expect(call).rejects.toBeInstanceOf(ExtractTimeoutError);
    await s.clock.advance(30_000);
    await rejected;
    expect(await balance(s.engine)).toBe(100);
  });

  it('include_content: a page still converting at its limit is content_error timeout', async () => {
    s = await extractSetup(routes());
    const source = scriptedSource('a', () => ({
      results: [
        { title: 'Huge', url: s!.server.url('/huge'), snippet: 'h' },
        { title: 'Small', url: s!.server.url('/small'), snippet: 's' },
      ],
    }));
    engine = createEngine({
      clock: s.clock,
      rateLimit: false,
      allowPrivateNetwork: true,
      robots: false,
      sources: [source],
      pageTimeoutMs: 400,
    });
    await withOrgs(engine);
    await warmConversion(engine, s.server.url('/warm'));
    const res = await engine.search({ q: 'pages', include_content: true }, ORG);
    expect(res.results.map((r) => r.content_error ?? 'content')).toEqual(['timeout', 'content']);
    expect(res.metadata.credits_used).toBe(3);
  });
});
