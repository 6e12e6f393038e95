// Spec "Empty search rules": every table row, the 15-minute cache on both sides, and each
// "confirmability by query shape" bullet, through the engine and the real router.

import { describe, expect, it } from 'vitest';
import { type ScriptedAnswer, scriptedSource } from '../../src/testing/scripted-source.js';
import type { EmptySearchResponse, SearchSource } from '../../src/types/index.js';
import { hits, notice, silentEmpty, testEngine } from './helpers.js';

const MIN = 60_000;
const acme = { organization: 'acme' };
const globex = { organization: 'globex' };

async function setup(sources: SearchSource[]) {
  const t = testEngine({ sources });
  await t.engine.admin.createOrganization('acme', { credits: 100 });
  await t.engine.admin.createOrganization('globex', { credits: 100 });
  const search = async (q: string, ctx = acme) => (await t.run(t.engine.search({ q }, ctx))) as EmptySearchResponse;
  const balance = async (ctx = acme) => (await t.engine.usage(ctx)).credits.balance;
  return { ...t, search, balance };
}

const always = (answer: ScriptedAnswer) => () => answer;
const two = () => [scriptedSource('a', always(notice)), scriptedSource('b', always(notice))] as const;

describe('empty search table', () => {
  it('row 1: genuinely empty and confirmed → verified, 1 credit', async () => {
    const s = await setup([...two()]);
    const r = await s.search('nothing here');
    expect(r).toEqual({
      query: 'nothing here',
      results: [],
      message: r.metadata.message,
      metadata: {
        number_of_results: 0,
        credits_used: 1,
        from_cache: false,
        status: 'no_results',
        response_time: 0,
        timestamp: '2026-01-01T00:00:00.000Z',
        no_results_verified: true,
        charged: true,
        message: r.message,
      },
    });
    expect(r.message).toBe('No results found; the empty answer was confirmed by 2 sources, so 1 credit was charged.');
    expect(await s.balance()).toBe(99);
  });

  it('row 2: same organization within 5 minutes of the charged request → verified, 0', async () => {
    const [a, b] = two();
    const s = await setup([a, b]);
    await s.search('nothing');
    await s.clock.advance(5 * MIN - 1);
    const r = await s.search('Nothing');
    expect(r.metadata).toMatchObject({ credits_used: 0, charged: false, no_results_verified: true, from_cache: true });
    expect(r.message).toMatch(/free/);
    expect(a.calls).toHaveLength(1);
    expect(await s.balance()).toBe(99);
  });

  it('row 3: later (after 5 minutes) by the same organization → from cache, verified, 1 credit', async () => {
    const [a, b] = two();
    const s = await setup([a, b]);
    await s.search('nothing');
    await s.clock.advance(5 * MIN);
    const r = await s.search('nothing');
    expect(r.metadata).toMatchObject({ credits_used: 1, charged: true, no_results_verified: true, from_cache: true });
    expect(a.calls).toHaveLength(1);
    expect(b.calls).toHaveLength(1);
    // That charge opened a new window.
    await s.clock.advance(4 * MIN);
    expect((await s.search('nothing')).metadata.credits_used).toBe(0);
    expect(await s.balance()).toBe(98);
  });

  it('row 3: another organization → from cache, verified, 1 credit', async () => {
    const [a, b] = two();
    const s = await setup([a, b]);
    await s.search('nothing');
    const r = await s.search('NOTHING', globex);
    expect(r.metadata).toMatchObject({ credits_used: 1, charged: true, no_results_verified: true, from_cache: true });
    expect(a.calls).toHaveLength(1);
    expect(await s.balance(globex)).toBe(99);
  });

  it('the confirmed-empty cache lasts 15 minutes: 14:59.999 cached, 15:00 searched afresh', async () => {
    const [a, b] = two();
    const s = await setup([a, b]);
    await s.search('nothing');
    await s.clock.advance(15 * MIN - 1);
    expect((await s.search('nothing', globex)).metadata.from_cache).toBe(true);
    expect(a.calls).toHaveLength(1);
    await s.clock.advance(1);
    // globex's own window (opened by its charge at 14:59.999) still answers it for free.
    expect((await s.search('nothing', globex)).metadata).toMatchObject({ from_cache: true, credits_used: 0 });
    const freshAcme = await s.search('nothing');
    expect(freshAcme.metadata).toMatchObject({ from_cache: false, credits_used: 1, no_results_verified: true });
    expect(a.calls).toHaveLength(2);
  });

  it('row 4: not confirmed (a source unavailable) → unverified, 0, never cached', async () => {
    const a = scriptedSource('a', always(notice));
    const down = scriptedSource('down', always({ fail: 'HTTP 500' }));
    const s = await setup([a, down]);
    const r = await s.search('nothing');
    expect(r.metadata).toMatchObject({ credits_used: 0, charged: false, no_results_verified: false, from_cache: false });
    expect(r.message).toBe(r.metadata.message);
    expect(r.message).toMatch(/unavailable.*nothing was charged/);
    await s.search('nothing');
    expect(a.calls).toHaveLength(2); // a repeat runs a fresh search
    expect((await s.search('nothing', globex)).metadata.from_cache).toBe(false);
    expect(await s.balance()).toBe(100);
  });

  it('a source timing out prevents confirmation', async () => {
    const a = scriptedSource('a', always(notice));
    const hung = scriptedSource('hung', always({ hang: true }));
    const s = await setup([a, hung]);
    const r = await s.search('nothing');
    expect(r.metadata).toMatchObject({ no_results_verified: false, credits_used: 0 });
  });

  it('a non-empty source elsewhere makes the search a success', async () => {
    const s = await setup([scriptedSource('a', always(notice)), scriptedSource('b', always(hits(2)))]);
    const r = await s.search('something');
    expect(r.metadata).toMatchObject({ status: 'success', credits_used: 1, number_of_results: 2 });
    expect('no_results_verified' in r.metadata || 'charged' in r.metadata || 'message' in r.metadata).toBe(false);
  });
});

describe('confirmability by query shape', () => {
  it('plain and positive site: queries are confirmed when every source gives its notice', async () => {
    const s = await setup([...two()]);
    expect((await s.search('plain words')).metadata.no_results_verified).toBe(true);
    expect((await s.search('words site:example.com')).metadata.no_results_verified).toBe(true);
  });

  it('an empty page without a notice prevents confirmation', async () => {
    const s = await setup([scriptedSource('a', always(notice)), scriptedSource('b', always(silentEmpty))]);
    const r = await s.search('plain');
    expect(r.metadata).toMatchObject({ no_results_verified: false, credits_used: 0 });
    expect(r.message).toMatch(/without stating/);
  });

  it('one notice is not enough', async () => {
    const s = await setup([scriptedSource('a', always(notice))]);
    expect((await s.search('plain')).metadata.no_results_verified).toBe(false);
  });

  const shapes = ['"first phrase" "second phrase"', 'filetype:pdf "a phrase"'];
  it.each(shapes)('%s: the unreliable source does not count toward two', async (q) => {
    const reliable = scriptedSource('reliable', always(notice));
    const flaky = scriptedSource('flaky', always(notice), { unreliableEmpties: true });
    const s = await setup([reliable, flaky]);
    const r = await s.search(q);
    expect(r.metadata).toMatchObject({ no_results_verified: false, credits_used: 0 });
    expect(flaky.calls).toHaveLength(1);
    const third = scriptedSource('third', always(notice));
    const s3 = await setup([reliable, flaky, third]);
    expect((await s3.search(q)).metadata).toMatchObject({ no_results_verified: true, credits_used: 1 });
  });

  it('the unreliable source counts for a single phrase or filetype without a phrase', async () => {
    const make = () => setup([scriptedSource('r', always(notice)), scriptedSource('f', always(notice), { unreliableEmpties: true })]);
    expect((await (await make()).search('"one phrase" words')).metadata.no_results_verified).toBe(true);
    expect((await (await make()).search('filetype:pdf words')).metadata.no_results_verified).toBe(true);
  });

  it('negative-only -site: queries are never confirmed; with a positive site: they can be', async () => {
    const three = [scriptedSource('a', always(notice)), scriptedSource('b', always(notice)), scriptedSource('c', always(notice))];
    const s = await setup(three);
    const r = await s.search('words -site:example.com');
    expect(r.metadata).toMatchObject({ no_results_verified: false, credits_used: 0 });
    expect(r.message).toMatch(/-site:/);
    expect((await s.search('words site:a.org -site:b.org')).metadata.no_results_verified).toBe(true);
  });
});
