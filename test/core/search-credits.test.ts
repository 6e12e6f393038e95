// Spec "Credits: search", every row, and both sides of the 5-minute repeat window.

import { beforeEach, describe, expect, it } from 'vitest';
import type { ContentFetcher } from '../../src/core/search/search.js';
import { type ScriptedSource, scriptedSource } from '../../src/testing/scripted-source.js';
import type { SearchParams, SearchResponse } from '../../src/types/index.js';
import { hits, rejection, type TestEngine, testEngine } from './helpers.js';

const MIN = 60_000;
const acme = { organization: 'acme' };
const globex = { organization: 'globex' };

/** Delivers content for the first `deliver` of the requested pages; the rest fail as blocked. */
const contentFetcher =
  (deliver: number): ContentFetcher =>
  async (results, count) => {
    const requested = Math.min(count, results.length);
    const items = results.map((r, i) => {
      if (i >= requested) return r;
      return i < deliver ? { ...r, content: `# Page ${i + 1}` } : { ...r, content_error: 'blocked' as const };
    });
    return { items, requested, delivered: Math.min(deliver, requested) };
  };

let source: ScriptedSource;
let t: TestEngine;
const balance = async (ctx = acme) => (await t.engine.usage(ctx)).credits.balance;

beforeEach(async () => {
  source = scriptedSource('main', { news: hits(10), empty: { results: [] }, rust: hits(3) });
  t = testEngine({ sources: [source] });
  await t.engine.admin.createOrganization('acme', { credits: 100 });
  await t.engine.admin.createOrganization('globex', { credits: 100 });
});

describe('rule 1: a successful search costs 1 credit', () => {
  it('charges 1 and returns the spec success body', async () => {
    const r = (await t.run(t.engine.search({ q: 'news' }, acme))) as SearchResponse;
    expect(r.metadata).toEqual({
      number_of_results: 10,
      credits_used: 1,
      from_cache: false,
      status: 'success',
      response_time: 0,
      timestamp: '2026-01-01T00:00:00.000Z',
    });
    expect(r.engines).toEqual(['auto']);
    expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.results.map((x) => x.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const item of r.results) {
      expect(item.engine).toBe('auto');
      expect('content' in item || 'content_error' in item).toBe(false);
    }
    expect(await balance()).toBe(99);
  });

  it('returns at most resultsPerSearch results and asks the source for that many', async () => {
    const many = scriptedSource('many', () => hits(25));
    const small = testEngine({ sources: [many], resultsPerSearch: 4 });
    await small.engine.admin.createOrganization('acme', { credits: 1 });
    const r = (await small.run(small.engine.search({ q: 'x' }, acme))) as SearchResponse;
    expect(r.results).toHaveLength(4);
    expect(r.metadata.number_of_results).toBe(4);
  });
});

describe('rule 2: free repeats within 5 minutes of the charged request, per organization', () => {
  it('a repeat at 4:59.999 is free and returns the same results from cache; at 5:00 it is charged', async () => {
    const first = (await t.run(t.engine.search({ q: 'news' }, acme))) as SearchResponse;
    await t.clock.advance(5 * MIN - 1);
    const repeat = (await t.run(t.engine.search({ q: '  NEWS ' }, acme))) as SearchResponse;
    expect(repeat.metadata).toMatchObject({ credits_used: 0, from_cache: true, status: 'success' });
    expect(repeat.results).toEqual(first.results);
    expect(repeat.id).not.toBe(first.id);
    expect(source.calls).toHaveLength(1);
    await t.clock.advance(1);
    const late = await t.run(t.engine.search({ q: 'news' }, acme));
    expect(late.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(source.calls).toHaveLength(2);
    expect(await balance()).toBe(98);
  });

  it('the window is measured from the arrival of the charged request, not its completion', async () => {
    const slow = scriptedSource('slow', () => hits(2), { latencyMs: 3000, clock: t.clock });
    const s = testEngine({ sources: [slow] }, t.clock);
    await s.engine.admin.createOrganization('acme', { credits: 10 });
    const arrival = t.clock.now();
    const first = await s.run(s.engine.search({ q: 'x' }, acme));
    expect(first.metadata.response_time).toBe(3000);
    await t.clock.set(arrival + 5 * MIN - 1);
    expect((await s.run(s.engine.search({ q: 'x' }, acme))).metadata.credits_used).toBe(0);
    await t.clock.set(arrival + 5 * MIN);
    expect((await s.run(s.engine.search({ q: 'x' }, acme))).metadata.credits_used).toBe(1);
  });

  it('free repeats do not extend the window', async () => {
    await t.run(t.engine.search({ q: 'news' }, acme));
    await t.clock.advance(4 * MIN);
    expect((await t.run(t.engine.search({ q: 'news' }, acme))).metadata.credits_used).toBe(0);
    await t.clock.advance(1 * MIN);
    expect((await t.run(t.engine.search({ q: 'news' }, acme))).metadata.credits_used).toBe(1);
  });

  it('another organization sending the same query is charged', async () => {
    await t.run(t.engine.search({ q: 'news' }, acme));
    const other = await t.run(t.engine.search({ q: 'news' }, globex));
    expect(other.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(await balance(globex)).toBe(99);
  });

  it('different content options are a different query', async () => {
    const withContent = testEngine({ sources: [source], contentFetcher: contentFetcher(0) });
    await withContent.engine.admin.createOrganization('acme', { credits: 100 });
    await withContent.run(withContent.engine.search({ q: 'news' }, acme));
    const c = await withContent.run(withContent.engine.search({ q: 'news', include_content: true }, acme));
    expect(c.metadata.credits_used).toBe(1);
    const c2 = await withContent.run(withContent.engine.search({ q: 'news', include_content: true, content_results: 6 }, acme));
    expect(c2.metadata.credits_used).toBe(1);
    const again = await withContent.run(
      withContent.engine.search({ q: 'news', include_content: 'true', content_results: '6' } as unknown as SearchParams, acme),
    );
    expect(again.metadata).toMatchObject({ credits_used: 0, from_cache: true });
  });

  it('engine and engines are accepted and ignored (same query, free repeat)', async () => {
    await t.run(t.engine.search({ q: 'news' }, acme));
    const r = await t.run(t.engine.search({ q: 'news', engine: 'google', engines: ['bing'] }, acme));
    expect(r.metadata).toMatchObject({ credits_used: 0, from_cache: true });
  });

  it('an uncharged request opens no window', async () => {
    await t.run(t.engine.search({ q: 'empty' }, acme)); // unconfirmed empty: free
    await t.run(t.engine.search({ q: 'empty' }, acme));
    expect(source.calls).toHaveLength(2); // searched afresh
  });

  it('a free repeat needs no credits, even at balance 0', async () => {
    await t.engine.admin.createOrganization('poor', { credits: 1 });
    await t.run(t.engine.search({ q: 'news' }, { organization: 'poor' }));
    const r = await t.run(t.engine.search({ q: 'news' }, { organization: 'poor' }));
    expect(r.metadata.credits_used).toBe(0);
  });

  it('identical requests in flight together are charged once', async () => {
    const slow = scriptedSource('slow', () => hits(2), { latencyMs: 500, clock: t.clock });
    const s = testEngine({ sources: [slow] }, t.clock);
    await s.engine.admin.createOrganization('acme', { credits: 10 });
    const both = Promise.all([s.engine.search({ q: 'x' }, acme), s.engine.search({ q: 'x' }, acme)]);
    const [a, b] = await s.run(both);
    expect([a.metadata.credits_used, b.metadata.credits_used].sort()).toEqual([0, 1]);
    expect(slow.calls).toHaveLength(1);
    expect((await s.engine.usage(acme)).credits.balance).toBe(9);
  });
});

describe('rule 3 and 4: include_content is billed by pages delivered, best effort', () => {
  const cases: [number, number, number][] = [
    // [content_results, delivered, credits]
    [5, 0, 1],
    [5, 1, 3],
    [5, 5, 3],
    [10, 6, 6],
    [10, 10, 6],
  ];
  it.each(cases)('content_results %i, %i delivered → %i credits', async (n, delivered, credits) => {
    const e = testEngine({ sources: [source], contentFetcher: contentFetcher(delivered) });
    await e.engine.admin.createOrganization('acme', { credits: 10 });
    const r = (await e.run(e.engine.search({ q: 'news', include_content: true, content_results: n }, acme))) as SearchResponse;
    expect(r.metadata).toMatchObject({ credits_used: credits, content_requested: n, content_delivered: delivered, status: 'success' });
    expect(r.results.filter((x) => x.content !== undefined)).toHaveLength(delivered);
    for (const item of r.results) expect(item.content !== undefined && item.content_error !== undefined).toBe(false);
    for (const item of r.results.slice(n)) expect('content' in item || 'content_error' in item).toBe(false);
    expect((await e.engine.usage(acme)).credits.balance).toBe(10 - credits);
  });

  it('failed pages carry content_error with their title, url and snippet', async () => {
    const e = testEngine({ sources: [source], contentFetcher: contentFetcher(1) });
    await e.engine.admin.createOrganization('acme', { credits: 10 });
    const r = (await e.run(e.engine.search({ q: 'news', include_content: true, content_results: 2 }, acme))) as SearchResponse;
    expect(r.results[1]).toEqual({
      title: 'Result 2',
      url: 'https://example.com/page-2',
      snippet: 'Snippet 2',
      position: 2,
      engine: 'auto',
      content_error: 'blocked',
    });
  });

  it('reserves the worst case first: 6 credits are needed to ask for 6 pages', async () => {
    const e = testEngine({ sources: [source], contentFetcher: contentFetcher(0) });
    await e.engine.admin.createOrganization('acme', { credits: 5 });
    const error = await rejection(e.run(e.engine.search({ q: 'news', include_content: true, content_results: 6 }, acme)));
    expect(error.status).toBe(402);
    expect(error.body).toMatchObject({ credits_required: 6, credits_available: 5 });
    const ok = await e.run(e.engine.search({ q: 'news', include_content: true, content_results: 5 }, acme));
    expect(ok.metadata.credits_used).toBe(1);
  });
});

describe('rules 5–7: empties and errors', () => {
  it('a confirmed empty costs 1, also with include_content', async () => {
    const a = scriptedSource('a', {});
    const b = scriptedSource('b', {});
    const e = testEngine({ sources: [a, b], contentFetcher: contentFetcher(3) });
    await e.engine.admin.createOrganization('acme', { credits: 10 });
    const r = await e.run(e.engine.search({ q: 'nothing', include_content: true, content_results: 10 }, acme));
    expect(r.metadata).toMatchObject({
      status: 'no_results',
      credits_used: 1,
      charged: true,
      no_results_verified: true,
      content_requested: 0,
      content_delivered: 0,
    });
    expect((await e.engine.usage(acme)).credits.balance).toBe(9);
  });

  it('an unconfirmed empty costs 0', async () => {
    const r = await t.run(t.engine.search({ q: 'empty' }, acme));
    expect(r.metadata).toMatchObject({ status: 'no_results', credits_used: 0, charged: false, no_results_verified: false });
    expect(await balance()).toBe(100);
  });

  it('an error response costs 0', async () => {
    const down = scriptedSource('down', () => ({ fail: 'boom' }));
    const e = testEngine({ sources: [down] });
    await e.engine.admin.createOrganization('acme', { credits: 1 });
    expect((await rejection(e.run(e.engine.search({ q: 'news' }, acme)))).status).toBe(503);
    expect((await e.engine.usage(acme)).credits).toEqual({ balance: 1, used: 0 });
  });
});
