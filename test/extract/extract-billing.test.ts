// Extract billing: 1 per success, failures free, free repeats per (organization, URL, format, mode)
// within 5 minutes of the charged request, cached_free, 402 before work, 504 at the deadline.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExtractTimeoutError, InsufficientCreditsError } from '../../src/errors.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, OTHER, withOrgs } from './helpers.js';

const FIVE_MIN = 5 * 60_000;

describe('extract billing', () => {
  let s: ExtractSetup;
  beforeEach(async () => {
    s = await extractSetup({
      '/a': html(article('Page A')),
      '/b': html(article('Page B')),
      '/gone': html('nope', 410),
      '/hang': () => undefined, // never answers
    });
    await withOrgs(s.engine, 10);
  });
  afterEach(() => s.close());

  it('charges 1 per successful URL and nothing for failures', async () => {
    const res = await s.engine.extract({ urls: [s.server.url('/a'), s.server.url('/b'), s.server.url('/gone')] }, ORG);
    expect(res.metadata.credits_used).toBe(2);
    expect(await balance(s.engine)).toBe(8);
  });

  it('serves a repeat within 5 minutes free from the content cache, counted in cached_free', async () => {
    const url = s.server.url('/a');
    await s.engine.extract({ urls: [url] }, ORG);
    await s.clock.advance(FIVE_MIN - 1);
    const repeat = await s.engine.extract({ urls: [url, s.server.url('/b')] }, ORG);
    expect(repeat.metadata.credits_used).toBe(1);
    expect(repeat.metadata.cached_free).toBe(1);
    expect(repeat.results[0]?.markdown).toContain('Page A');
    expect(s.hits('/a')).toBe(1);
    expect(await balance(s.engine)).toBe(8);
  });

  it('charges again once 5 minutes have passed since the charged request (free repeats do not extend it)', async () => {
    const url = s.server.url('/a');
    await s.engine.extract({ urls: [url] }, ORG);
    await s.clock.advance(FIVE_MIN - 10);
    expect((await s.engine.extract({ urls: [url] }, ORG)).metadata.credits_used).toBe(0);
    await s.clock.advance(10);
    const late = await s.engine.extract({ urls: [url] }, ORG);
    expect(late.metadata.credits_used).toBe(1);
    expect(late.metadata.cached_free).toBeUndefined();
  });

  it('keys free repeats by organization, format and fragment-less URL', async () => {
    const url = s.server.url('/a');
    await s.engine.extract({ urls: [url] }, ORG);
    expect((await s.engine.extract({ urls: [url] }, OTHER)).metadata.credits_used).toBe(1);
    expect((await s.engine.extract({ urls: [url], format: 'html' }, ORG)).metadata.credits_used).toBe(1);
    expect((await s.engine.extract({ urls: [`${url}#section`] }, ORG)).metadata.cached_free).toBe(1);
  });

  it('fetches and charges the same URL once when it appears twice in one request', async () => {
    const url = s.server.url('/b');
    const res = await s.engine.extract({ urls: [url, url] }, ORG);
    expect(res.results).toHaveLength(2);
    expect(res.results.every((r) => r.success)).toBe(true);
    expect(res.metadata.credits_used).toBe(1);
    expect(res.metadata.cached_free).toBe(1);
    expect(s.hits('/b')).toBe(1);
  });

  it('opens no window for a failed URL', async () => {
    const url = s.server.url('/gone');
    await s.engine.extract({ urls: [url] }, ORG);
    s.server.route('/gone', html(article('Back again')));
    const res = await s.engine.extract({ urls: [url] }, ORG);
    expect(res.metadata.credits_used).toBe(1);
    expect(res.metadata.cached_free).toBeUndefined();
  });

  it('answers 402 before any work when the balance cannot cover the worst case', async () => {
    await s.engine.admin.createOrganization('poor', { credits: 1 });
    const error = await s.engine.extract({ urls: [s.server.url('/a'), s.server.url('/b')] }, { organization: 'poor' }).catch((e) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error.body).toMatchObject({ credits_required: 2, credits_available: 1 });
    expect(s.hits('/a') + s.hits('/b')).toBe(0);
    expect(await balance(s.engine, { organization: 'poor' })).toBe(1);
  });

  it('a repeat needs no credits for its free URLs', async () => {
    await s.engine.admin.createOrganization('tight', { credits: 1 });
    const tight = { organization: 'tight' };
    await s.engine.extract({ urls: [s.server.url('/a')] }, tight);
    const repeat = await s.engine.extract({ urls: [s.server.url('/a')] }, tight);
    expect(repeat.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
  });

  it('answers 504 at the request deadline and charges nothing, even for pages that loaded', async () => {
    const call = s.engine.extract({ urls: [s.server.url('/a'), s.server.url('/hang')] }, ORG);
    const settled = call.catch((e) => e);
    // Let the fast page load for real, then move the clock past the 30 s deadline.
    for (let i = 0; i < 50 && s.hits('/a') === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await s.clock.advance(29_999);
    await s.clock.advance(1);
    const error = await settled;
    expect(error).toBeInstanceOf(ExtractTimeoutError);
    expect(error.status).toBe(504);
    expect(error.body).toMatchObject({ status: 'error', code: 'timeout', retryable: true });
    const usage = await s.engine.usage(ORG);
    expect(usage.credits.balance).toBe(10);
    expect(usage.requests).toMatchObject({ extract: 1, free: 1 });
  });
});

describe('stealth removal date', () => {
  it('refuses stealth from 2026-11-01T00:00:00Z with 400 stealth_unavailable, nothing charged', async () => {
    const s = await extractSetup({ '/a': html(article('A')) }, {}, undefined);
    await withOrgs(s.engine, 10);
    try {
      await s.clock.set('2026-10-31T23:59:59.999Z');
      const before = await s.engine.extract({ urls: ['https://example.invalid/x.pdf'], stealth: true }, ORG);
      expect(before.metadata.stealth).toBe(true);
      expect(before.results[0]).toMatchObject({ stealth: true, error_type: 'unsupported_content_type' });
      await s.clock.advance(1);
      const error = await s.engine.extract({ urls: [s.server.url('/a')], stealth: true }, ORG).catch((e) => e);
      expect(error.status).toBe(400);
      expect(error.code).toBe('stealth_unavailable');
      expect(s.hits('/a')).toBe(0);
      expect(await balance(s.engine)).toBe(10);
    } finally {
      await s.close();
    }
  });
});
