// Reading pages in parts through the real engine (loopback page server, real conversion): max_chars
// bounds a call's content over all its pages, start_char reads on to the end for the price of one
// extraction within the window, query picks the right section, and a call without them is unchanged.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PASSAGE_CHARS } from '../../src/core/read-parts.js';
import { InvalidRequestError } from '../../src/errors.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { ExtractParams, ExtractResultItem, SearchResponse } from '../../src/types/index.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, OTHER, withOrgs } from './helpers.js';
import { MARKER_ROOM, nextStartOf, passagesContentLength, pieceOf, topicsPage, topicText } from './topics-page.js';

const MIN = 60_000;
const WORDS = [
  'river',
  'stone',
  'market',
  'harbour',
  'orchard',
  'meadow',
  'lantern',
  'bridge',
  'castle',
  'forest',
  'valley',
  'village',
  'garden',
  'tower',
  'street',
  'window',
  'candle',
  'mirror',
  'ladder',
  'basket',
];
const sentence = (seed: number, step: number) =>
  `${Array.from({ length: 40 }, (_, j) => WORDS[(seed + j * step) % WORDS.length]).join(' ')}.`;
/** Sections of varied words (repeated text would be dropped as boilerplate), about nothing a query asks. */
const filler = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<section><h2>Appendix ${i + 1}</h2><p>${sentence(i * 7, 3)}</p><p>${sentence(i * 11, 7)}</p></section>`,
  ).join('');
let s: ExtractSetup;
let n = 0;
/** A fresh URL of `path` (no repeat window yet). */
const fresh = (path: string) => s.server.url(`${path}?v=${++n}`);
const md = (r: ExtractResultItem | undefined): string => r?.markdown ?? '';

beforeAll(async () => {
  s = await extractSetup(
    {
      '/long': html(article('Long read', 600)),
      '/longer': html(article('Longer read', 900)),
      '/short': html(article('Short note', 12)),
      '/topics': html(topicsPage),
      // Over HOST_PASSAGE_CHARS of Markdown: its query passages are picked on a conversion worker.
      '/big-topics': html(topicsPage.replace('</article>', `${filler(80)}</article>`)),
      // About 1 MB of Markdown: ranking it on a worker takes long enough to let the deadline pass meanwhile.
      '/huge-topics': html(topicsPage.replace('</article>', `${filler(2500)}</article>`)),
    },
    (server) => ({
      sources: [
        scriptedSource('scripted', () => ({
          results: [
            { title: 'Almanac', url: server.url('/topics?from=search'), snippet: 'many things' },
            { title: 'Long', url: server.url('/long?from=search'), snippet: 'a long read' },
            { title: 'Gone', url: server.url('/gone'), snippet: 'missing' },
          ],
        })),
      ],
    }),
  );
  await withOrgs(s.engine, 1000);
});
afterAll(() => s.close());

/** The full contents of `urls`, read by another organization (so ORG's windows stay closed). */
async function fullContents(urls: string[]): Promise<string[]> {
  const res = await s.engine.extract({ urls }, OTHER);
  return res.results.map((r) => md(r));
}

describe('max_chars', () => {
  it('bounds the content over all pages: each piece a prefix of its page, the sum within the budget', async () => {
    const urls = [fresh('/long'), fresh('/longer'), fresh('/short')];
    const full = await fullContents(urls);
    const res = await s.engine.extract({ urls, max_chars: 3000 }, ORG);
    const pieces = res.results.map((r, i) => pieceOf(md(r), full[i]!, 0));
    expect(pieces.reduce((sum, p) => sum + p.length, 0)).toBeLessThanOrEqual(3000);
    expect(res.results.reduce((sum, r) => sum + md(r).length, 0)).toBeLessThanOrEqual(3000 + 3 * MARKER_ROOM);
    // The short page is whole; its unused share went to the long ones.
    expect(pieces[2]).toBe(full[2]);
    expect(pieces[0]!.length).toBeGreaterThan(1000);
    expect(pieces[1]!.length).toBeGreaterThan(1000);
    expect(res.results.map((r) => [r.total_chars, r.truncated])).toEqual([
      [full[0]!.length, true],
      [full[1]!.length, true],
      [full[2]!.length, false],
    ]);
    expect(res.metadata.credits_used).toBe(3); // the budget never changes a page's charge
  });

  it('a cut never falls mid-word', async () => {
    const url = fresh('/long');
    const [full] = await fullContents([url]);
    for (const max of [101, 257, 1003]) {
      const res = await s.engine.extract({ urls: [url], max_chars: max }, ORG);
      const piece = pieceOf(md(res.results[0]), full!, 0);
      expect(piece.length).toBeLessThanOrEqual(max);
      // The next character is a space (or the piece ends in one): the word was not split.
      expect(/\s/u.test(full![piece.length]!) || /\s$/u.test(piece)).toBe(true);
    }
  });

  it('a budget larger than the pages gives them whole, with total_chars and truncated false', async () => {
    const urls = [fresh('/short'), fresh('/long')];
    const full = await fullContents(urls);
    const res = await s.engine.extract({ urls, max_chars: 10_000_000 }, ORG);
    expect(res.results.map((r) => md(r))).toEqual(full);
    expect(res.results.map((r) => [r.total_chars, r.truncated])).toEqual(full.map((f) => [f.length, false]));
  });

  it('a URL asked for twice answers the same part twice, and the answer stays within the budget', async () => {
    const url = fresh('/long');
    const other = fresh('/longer');
    const full = await fullContents([url, other]);
    const res = await s.engine.extract({ urls: [url, other, url], max_chars: 2000 }, ORG);
    expect(md(res.results[2])).toBe(md(res.results[0]));
    const pieces = res.results.map((r, i) => pieceOf(md(r), full[i === 1 ? 1 : 0]!, 0));
    expect(pieces.reduce((sum, p) => sum + p.length, 0)).toBeLessThanOrEqual(2000);
    expect(res.metadata).toMatchObject({ credits_used: 2, cached_free: 1 });
  });

  it('links are not counted in the budget', async () => {
    const url = fresh('/long');
    const plain = await s.engine.extract({ urls: [url], include_links: true }, OTHER);
    const res = await s.engine.extract({ urls: [url], include_links: true, max_chars: 50 }, ORG);
    expect(res.results[0]!.links).toEqual(plain.results[0]!.links);
    expect(res.results[0]!.links!.length).toBeGreaterThan(0);
    expect(pieceOf(md(res.results[0]), md(plain.results[0]), 0).length).toBeLessThanOrEqual(50);
  });

  it('the html format is cut between tags, never inside one', async () => {
    const url = fresh('/long');
    const full = (await s.engine.extract({ urls: [url], format: 'html' }, OTHER)).results[0]!.html!;
    for (const max of [100, 333, 1200]) {
      const res = await s.engine.extract({ urls: [url], format: 'html', max_chars: max }, ORG);
      const r = res.results[0]!;
      expect(r).toMatchObject({ total_chars: full.length, truncated: true });
      const piece = pieceOf(r.html!, full, 0);
      expect(piece.length).toBeLessThanOrEqual(max);
      expect(piece.lastIndexOf('<')).toBeLessThan(piece.lastIndexOf('>'));
      expect(r.html!.slice(piece.length)).toMatch(/^\s*<!--[\s\S]*-->\s*$/u); // the marker is an HTML comment
    }
  });
});

describe('start_char: reading on', () => {
  it('pages through a long page to its end; the pieces join back to the whole; every read-on is free', async () => {
    const url = fresh('/longer');
    const [full] = await fullContents([url]);
    const first = await s.engine.extract({ urls: [url], max_chars: 4000 }, ORG);
    expect(first.metadata.credits_used).toBe(1);
    const hits = s.hits('/longer');
    const pieces = [pieceOf(md(first.results[0]), full!, 0)];
    let next = nextStartOf(md(first.results[0]));
    while (next !== undefined) {
      const res = await s.engine.extract({ urls: [url], max_chars: 4000, start_char: next }, ORG);
      expect(res.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
      const r = res.results[0]!;
      pieces.push(pieceOf(md(r), full!, next));
      expect(r.total_chars).toBe(full!.length);
      const after = nextStartOf(md(r));
      expect(r.truncated).toBe(after !== undefined);
      next = after;
    }
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(full);
    expect(s.hits('/longer')).toBe(hits); // answered from the content cache
  });

  it('reading on is charged again once the 5-minute window has passed', async () => {
    const url = fresh('/long');
    const first = await s.engine.extract({ urls: [url], max_chars: 1000 }, ORG);
    const next = nextStartOf(md(first.results[0]))!;
    await s.clock.advance(5 * MIN - 1);
    expect((await s.engine.extract({ urls: [url], max_chars: 1000, start_char: next }, ORG)).metadata.credits_used).toBe(0);
    await s.clock.advance(1);
    const late = await s.engine.extract({ urls: [url], max_chars: 1000, start_char: next }, ORG);
    expect(late.metadata.credits_used).toBe(1);
    expect(late.metadata.cached_free).toBeUndefined();
  });

  it('without max_chars gives the rest of the page; past the end, nothing (and nothing left)', async () => {
    const url = fresh('/long');
    const [full] = await fullContents([url]);
    const rest = await s.engine.extract({ urls: [url], start_char: 500 }, ORG);
    expect(rest.results[0]).toMatchObject({ markdown: full!.slice(500), total_chars: full!.length, truncated: false });
    const past = await s.engine.extract({ urls: [url], start_char: full!.length + 10 }, ORG);
    expect(past.results[0]).toMatchObject({ success: true, markdown: '', total_chars: full!.length, truncated: false });
    expect(past.metadata.credits_used).toBe(0); // a repeat of the same page
  });
});

describe('query', () => {
  it('returns the passages of the right section on a page of many topics', async () => {
    const url = fresh('/topics');
    const [full] = await fullContents([url]);
    const res = await s.engine.extract({ urls: [url], query: 'magma erupts from a volcano caldera' }, ORG);
    const r = res.results[0]!;
    expect(md(r)).toContain(topicText('Volcanoes'));
    expect(md(r)).toContain('Volcanoes'); // under its heading
    for (const other of ['Violins', 'Penguins', 'Typography']) expect(md(r)).not.toContain(topicText(other));
    expect(r).toMatchObject({ total_chars: full!.length, truncated: true });
    expect(passagesContentLength(md(r))).toBeLessThanOrEqual(2000); // the default without max_chars
    expect(passagesContentLength(md(r))).toBeGreaterThan(100);
    expect(res.metadata.credits_used).toBe(1);
  });

  it('on a long page (passages picked on a worker) too', async () => {
    const url = fresh('/big-topics');
    const [full] = await fullContents([url]);
    expect(full!.length).toBeGreaterThan(HOST_PASSAGE_CHARS);
    const res = await s.engine.extract({ urls: [url], query: 'worker bees nectar pollen hive', max_chars: 700 }, ORG);
    expect(md(res.results[0])).toContain(topicText('Honeybees'));
    expect(passagesContentLength(md(res.results[0]))).toBeLessThanOrEqual(700);
    expect(res.results[0]).toMatchObject({ total_chars: full!.length, truncated: true });
  });

  it('the request deadline passing while passages are ranked delivers the page cut from start_char, not a 504', async () => {
    const url = fresh('/huge-topics');
    const [full] = await fullContents([url]);
    await s.engine.extract({ urls: [url] }, ORG); // charged and cached: the repeat below has only the ranking to do
    const call = s.engine.extract({ urls: [url], query: 'worker bees nectar pollen hive', max_chars: 700 }, ORG);
    // The free repeat fetches nothing and converts nothing: the pool's only work is the ranking.
    while (s.engine.stats().conversion.converting + s.engine.stats().conversion.queued === 0) await new Promise((r) => setImmediate(r));
    await s.clock.advance(30_000);
    const res = await call;
    const r = res.results[0]!;
    expect(r).toMatchObject({ success: true, total_chars: full!.length, truncated: true });
    expect(pieceOf(md(r), full!, 0).length).toBeGreaterThan(0); // the top of the page, as a cut from 0 gives it
    expect(md(r)).not.toContain(topicText('Honeybees'));
    expect(res.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
  }, 60_000);

  it('keeps to max_chars, and another query on the same page is a free repeat', async () => {
    const url = fresh('/topics');
    await s.engine.extract({ urls: [url], query: 'rennet curds cheese' }, ORG);
    const res = await s.engine.extract({ urls: [url], query: 'photovoltaic inverter solar panels', max_chars: 400 }, ORG);
    expect(res.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
    expect(md(res.results[0])).toContain(topicText('Solar panels'));
    expect(passagesContentLength(md(res.results[0]))).toBeLessThanOrEqual(400);
  });

  it('with format html is a 400 naming query, nothing charged, nothing fetched', async () => {
    const url = fresh('/topics');
    const before = await balance(s.engine);
    const hits = s.hits('/topics');
    const error = await s.engine.extract({ urls: [url], format: 'html', query: 'volcano' }, ORG).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).problems.map((p) => p.field)).toEqual(['query']);
    expect(await balance(s.engine)).toBe(before);
    expect(s.hits('/topics')).toBe(hits);
  });
});

describe('validation', () => {
  it.each([
    [{ max_chars: 0 }, 'max_chars'],
    [{ max_chars: 'many' }, 'max_chars'],
    [{ start_char: -1 }, 'start_char'],
    [{ query: '' }, 'query'],
  ])('%j is a 400 naming the field; nothing charged or fetched', async (extra, field) => {
    const url = fresh('/long');
    const before = await balance(s.engine);
    const hits = s.hits('/long');
    const error = await s.engine.extract({ urls: [url], ...extra } as unknown as ExtractParams, ORG).catch((e: unknown) => e);
    expect((error as InvalidRequestError).status).toBe(400);
    expect((error as InvalidRequestError).problems.map((p) => p.field)).toEqual([field]);
    expect(await balance(s.engine)).toBe(before);
    expect(s.hits('/long')).toBe(hits);
  });
});

describe('without the extensions', () => {
  it('the answer is what it was: the whole page, no total_chars or truncated', async () => {
    const url = fresh('/long');
    const res = await s.engine.extract({ urls: [url, s.server.url('/gone')] }, ORG);
    expect(Object.keys(res.results[0]!)).toEqual(['url', 'success', 'markdown', 'status_code', 'metadata']);
    expect(Object.keys(res.results[1]!)).toEqual(['url', 'success', 'markdown', 'status_code', 'error', 'error_type']);
    expect(Object.keys(res.metadata)).toEqual([
      'total_urls',
      'processed_urls',
      'successful_crawls',
      'failed_crawls',
      'credits_used',
      'response_time',
      'timestamp',
    ]);
    const [full] = await fullContents([url]);
    expect(md(res.results[0])).toBe(full);
    // A failed page never carries them, even when reading in parts.
    const parts = await s.engine.extract({ urls: [s.server.url('/gone'), url], max_chars: 100 }, ORG);
    expect(parts.results[0]).not.toHaveProperty('total_chars');
    expect(parts.results[0]).not.toHaveProperty('truncated');
    expect(parts.results[1]).toHaveProperty('total_chars');
  });
});

describe('search with include_content and max_chars', () => {
  const search = (q: string, extra: { max_chars?: number } = {}) =>
    s.engine.search({ q, include_content: true, content_results: 3, ...extra }, ORG) as Promise<SearchResponse>;

  it("bounds the pages' content, each page's passages picked by q, and a repeat with another budget is free", async () => {
    const res = await search('glaciers carve valleys moraines', { max_chars: 1500 });
    expect(res.metadata).toMatchObject({ credits_used: 3, content_delivered: 2 });
    const [topics, long, gone] = res.results;
    expect(topics!.content).toContain(topicText('Glaciers'));
    expect(topics!.content).not.toContain(topicText('Origami'));
    expect(topics).toMatchObject({ truncated: true });
    expect(long).toHaveProperty('total_chars');
    expect(gone).not.toHaveProperty('total_chars');
    const total = res.results.reduce((sum, r) => sum + passagesContentLength(r.content ?? ''), 0);
    expect(total).toBeLessThanOrEqual(1500);
    expect(total).toBeGreaterThan(750); // both pages had more than their share

    // The repeat window keeps the full pages: another budget, and none, are free and cut afresh.
    const wider = await search('glaciers carve valleys moraines', { max_chars: 100_000 });
    expect(wider.metadata).toMatchObject({ credits_used: 0, from_cache: true });
    expect(wider.results[1]).toMatchObject({ truncated: false });
    const whole = await search('glaciers carve valleys moraines');
    expect(whole.metadata.credits_used).toBe(0);
    expect(whole.results[0]).not.toHaveProperty('total_chars');
    expect(whole.results[0]!.content!.length).toBe(topics!.total_chars);
    expect(whole.results[0]!.content).toContain(topicText('Origami'));
  });

  it('without include_content max_chars changes nothing', async () => {
    const res = await s.engine.search({ q: 'plain results please', max_chars: 10 }, ORG);
    for (const r of res.results) expect(Object.keys(r)).toEqual(['title', 'url', 'snippet', 'position', 'engine']);
  });

  it('a bad max_chars is a 400 naming it, nothing charged', async () => {
    const before = await balance(s.engine);
    const error = await s.engine.search({ q: 'x', include_content: true, max_chars: 0 }, ORG).catch((e: unknown) => e);
    expect((error as InvalidRequestError).problems.map((p) => p.field)).toEqual(['max_chars']);
    expect(await balance(s.engine)).toBe(before);
  });
});
