// 503 after retries, 400, 402, 429 and the error bodies; none of them charged.

import { describe, expect, it } from 'vitest';
import { InsufficientCreditsError, RateLimitError, SearchUnavailableError, UnauthorizedError } from '../../src/errors.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { SearchParams } from '../../src/types/index.js';
import { hits, rejection, testEngine } from './helpers.js';

const acme = { organization: 'acme' };

describe('503: the search could not be completed after automatic retries', () => {
  it('retries each source, falls back, then answers the spec body, never charged', async () => {
    const a = scriptedSource('a', () => ({ fail: 'connection reset' }));
    const b = scriptedSource('b', () => ({ fail: 'HTTP 502' }));
    const t = testEngine({ sources: [a, b], router: { retries: 2 } });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    const start = t.clock.now();
    const error = await rejection(t.run(t.engine.search({ q: 'news' }, acme)));
    expect(error).toBeInstanceOf(SearchUnavailableError);
    expect(a.calls).toHaveLength(3); // 1 + 2 retries
    expect(b.calls).toHaveLength(3);
    expect(error.status).toBe(503);
    expect(error.body).toEqual({
      status: 'error',
      error: 'The search could not be completed after automatic retries. Please try again.',
      retryable: true,
      metadata: { status: 'error', response_time: t.clock.now() - start, timestamp: new Date(t.clock.now()).toISOString() },
    });
    expect(error.body.metadata.response_time).toBeGreaterThan(0); // backoff slept on the clock
    const usage = await t.engine.usage(acme);
    expect(usage.credits).toEqual({ balance: 3, used: 0 });
    expect(usage.requests).toEqual({ search: 1, extract: 0, total: 1, free: 1 });
  });

  it('retries recover a flaky source without a 503', async () => {
    const flaky = scriptedSource('flaky', (_q, call) => (call < 2 ? { fail: 'timeout' } : hits(1)));
    const t = testEngine({ sources: [flaky] });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    const r = await t.run(t.engine.search({ q: 'news' }, acme));
    expect(r.metadata.credits_used).toBe(1);
    expect(flaky.calls).toHaveLength(3);
  });

  it('a source answering garbage counts as failed, never a crash', async () => {
    const garbage = [null, {}, { results: 'x' }, { results: [{ title: 1, url: 'https://x/', snippet: '' }] }];
    let call = 0;
    const bad = { id: 'bad', search: async () => garbage[call++ % garbage.length] } as never;
    const t = testEngine({ sources: [bad] });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    for (let i = 0; i < 2; i++) expect((await rejection(t.run(t.engine.search({ q: `x${i}` }, acme)))).status).toBe(503);
    expect(call).toBeGreaterThanOrEqual(garbage.length); // every kind of garbage was answered (then the breaker opened)
    expect((await t.engine.usage(acme)).credits.balance).toBe(3);
  });

  it('duplicate URLs in an answer are shown once, positions renumbered', async () => {
    const dup = scriptedSource('dup', () => ({ results: [hits(2).results[0]!, hits(2).results[0]!, hits(2).results[1]!] }));
    const t = testEngine({ sources: [dup] });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    const r = await t.run(t.engine.search({ q: 'x' }, acme));
    expect(r.results.map((x) => [x.position, x.url])).toEqual([
      [1, 'https://example.com/page-1'],
      [2, 'https://example.com/page-2'],
    ]);
  });

  it('with no sources configured, search is a 503', async () => {
    const t = testEngine({ sources: [] });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    expect((await rejection(t.run(t.engine.search({ q: 'x' }, acme)))).status).toBe(503);
  });

  it('a 503 opens no repeat window: the next request searches again and is charged', async () => {
    let up = false;
    const s = scriptedSource('s', () => (up ? hits(1) : { fail: 'down' }));
    const t = testEngine({ sources: [s], router: { retries: 0 } });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    await rejection(t.run(t.engine.search({ q: 'x' }, acme)));
    up = true;
    expect((await t.run(t.engine.search({ q: 'x' }, acme))).metadata.credits_used).toBe(1);
  });
});

describe('400', () => {
  it('lists every bad field, stamps timing, and counts nothing', async () => {
    const t = testEngine({ sources: [scriptedSource('s', () => hits(1))] });
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    await t.clock.advance(1234);
    const error = await rejection(t.engine.search({ q: '', include_content: 2, content_results: 'ten' } as unknown as SearchParams, acme));
    expect(error.status).toBe(400);
    expect(error.body).toMatchObject({ status: 'error', code: 'invalid_request', retryable: false });
    expect(error.body.problems.map((p: { field: string }) => p.field)).toEqual(['q', 'include_content', 'content_results']);
    expect(error.body.metadata).toEqual({ status: 'error', response_time: 0, timestamp: '2026-01-01T00:00:01.234Z' });
    expect((await t.engine.usage(acme)).requests.total).toBe(0);
  });
});

describe('402', () => {
  it('refuses before any work when the balance cannot cover the worst case', async () => {
    const s = scriptedSource('s', () => hits(1));
    const t = testEngine({ sources: [s] });
    await t.engine.admin.createOrganization('acme', { credits: 0 });
    const error = await rejection(t.engine.search({ q: 'x' }, acme));
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error.body).toMatchObject({ code: 'insufficient_credits', credits_required: 1, credits_available: 0, retryable: false });
    expect(s.calls).toHaveLength(0);
    expect((await t.engine.usage(acme)).credits.balance).toBe(0);
  });

  it('concurrent requests never overdraw: pending reservations count against the balance', async () => {
    const clock = new ManualClock();
    const slow = scriptedSource('slow', () => hits(1), { latencyMs: 100, clock });
    const t = testEngine({ sources: [slow] }, clock);
    await t.engine.admin.createOrganization('acme', { credits: 3 });
    const calls = Array.from({ length: 8 }, (_, i) =>
      t.engine.search({ q: `q${i}` }, acme).then(
        (r) => r.metadata.credits_used,
        (e) => e.status as number,
      ),
    );
    const outcomes = await t.run(Promise.all(calls));
    expect(outcomes.filter((o) => o === 1)).toHaveLength(3);
    expect(outcomes.filter((o) => o === 402)).toHaveLength(5);
    expect((await t.engine.usage(acme)).credits).toEqual({ balance: 0, used: 3 });
  });
});

describe('429', () => {
  it('admits a burst of 20, then 10 per second; retry_after in seconds; nothing charged', async () => {
    const t = testEngine({ sources: [scriptedSource('s', () => hits(1))], rateLimit: { limit: 20, window: 2 } });
    await t.engine.admin.createOrganization('acme', { credits: 100 });
    await t.engine.admin.createOrganization('globex', { credits: 100 });
    for (let i = 0; i < 20; i++) await t.run(t.engine.search({ q: `q${i}` }, acme));
    const error = await rejection(t.engine.search({ q: 'one more' }, acme));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.rateLimit).toEqual({ retryAfter: 1, limit: 20, window: 2 });
    expect(error.body).toMatchObject({ code: 'rate_limited', retry_after: 1, retryable: true });
    // Per organization: globex is unaffected.
    await t.run(t.engine.search({ q: 'x' }, { organization: 'globex' }));
    // One request's worth of time (100 ms) later, exactly one more is admitted.
    await t.clock.advance(99);
    expect((await rejection(t.engine.search({ q: 'a' }, acme))).status).toBe(429);
    await t.clock.advance(1);
    await t.run(t.engine.search({ q: 'b' }, acme));
    expect((await rejection(t.engine.search({ q: 'c' }, acme))).status).toBe(429);
    // usage shares the organization's bucket (the spec lists 429 for every endpoint).
    expect((await rejection(t.engine.usage(acme))).status).toBe(429);
    await t.clock.advance(100);
    expect((await t.engine.usage(acme)).credits.used).toBe(21);
    expect(t.engine.rateLimit).toEqual({ limit: 20, window: 2 });
  });

  it('defaults to burst 20, 10 requests per second', async () => {
    const t = testEngine({ sources: [scriptedSource('s', () => hits(1))], rateLimit: undefined as never });
    expect(t.engine.rateLimit).toEqual({ limit: 20, window: 2 });
  });

  it('rejects a bad policy at construction', () => {
    expect(() => testEngine({ rateLimit: { limit: 0, window: 1 } })).toThrow(/rateLimit/);
  });
});

describe('organizations on calls', () => {
  it('an unknown organization is a 401 unknown_organization', async () => {
    const t = testEngine({ sources: [] });
    const error = await rejection(t.engine.search({ q: 'x' }, { organization: 'nobody' }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.code).toBe('unknown_organization');
    expect((await rejection(t.engine.usage({ organization: 'nobody' }))).code).toBe('unknown_organization');
    expect((await rejection(t.engine.search({ q: 'x' }, undefined as never))).status).toBe(401);
  });
});
