// Bounded output, at the defaults users ship (10 MiB page cap, 32 MiB of content per answer): the
// amplifying documents of issue 32 (an 8 KB CSV that became 12 MB of Markdown, a 24 KB nested JSON
// that pretty-printed to 32 MB) stay small; a page whose content is still over the page cap, or
// that would take an answer past its budget, fails alone as `too_large`, uncharged, while the other
// pages of the call — and another organization's call — are delivered and charged.

import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_CHARS } from '../../src/core/extract/output-bounds.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { ExtractResultItem, SearchResponse } from '../../src/types/index.js';
import { article, balance, type ExtractSetup, extractSetup, html, ORG, OTHER, withOrgs } from './helpers.js';

const MiB = 1024 * 1024;
const PAGE_CAP = 10 * MiB; // the default maxBytes

/** 2,000 columns, 2,000 one-cell rows: 8 KB. */
const WIDE_CSV = `${Array(2000).fill('a').join(',')}\n${'x\n'.repeat(2000)}`;
/** 16 KB of nesting: JSON.stringify(…, null, 2) wrote 2 spaces per level on every line, 32 MB. */
const NESTED_JSON = '{"a":['.repeat(2000) + '1' + ']}'.repeat(2000);
/** 3 MB of numbers that print five times longer ("1e20" → "100000000000000000000"): over the page cap. */
const SWELLING_JSON = `[${Array(600_000).fill('1e20').join(',')}]`;
/** Plain text of 9 MiB: under the page cap; four of them are over an answer's budget. */
const BIG_TEXT = ('lorem ipsum dolor sit amet '.repeat(40) + '\n').repeat(Math.ceil((9 * MiB) / 1081)).slice(0, 9 * MiB);

const typed = (type: string, body: string) => ({ status: 200, headers: { 'content-type': type }, body });
const outcome = (r: ExtractResultItem) => (r.success ? 'ok' : r.error_type);
const size = (r: ExtractResultItem) => (r.markdown ?? '').length;

let s: ExtractSetup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('bounded output', () => {
  it('ten 8 KB CSVs of 2,000 columns and one-cell rows stay small in one answer, and read as the table', async () => {
    s = await extractSetup({ '/wide.csv': typed('text/csv', WIDE_CSV) });
    await withOrgs(s.engine);
    expect(WIDE_CSV.length).toBeLessThan(8_100);
    const urls = Array.from({ length: 10 }, (_, i) => s!.server.url(`/wide.csv?copy=${i}`));
    const res = await s.engine.extract({ urls }, ORG);
    expect(res.results.map(outcome)).toEqual(Array(10).fill('ok'));
    for (const r of res.results) {
      // 12 MB each before; now the header, its rule and 2,000 short rows (GFM reads missing cells as empty).
      expect(size(r)).toBeLessThan(5 * WIDE_CSV.length);
      const lines = r.markdown!.split('\n');
      expect(lines[0]!.split(' | ')).toHaveLength(2000);
      expect(lines[1]).toBe('|' + ' --- |'.repeat(2000));
      expect(lines.slice(2)).toEqual(Array(2000).fill('| x |'));
    }
    expect(res.results.reduce((n, r) => n + size(r), 0)).toBeLessThan(400_000); // 115 MB before
    expect(res.metadata.credits_used).toBe(10);
  });

  it('a 16 KB nested JSON (32 MB pretty-printed) is indented 8 levels deep and written compactly below: no larger than it came', async () => {
    s = await extractSetup({ '/nested.json': typed('application/json', NESTED_JSON) });
    await withOrgs(s.engine);
    const [r] = (await s.engine.extract({ urls: [s.server.url('/nested.json')] }, ORG)).results;
    expect(outcome(r!)).toBe('ok');
    expect(size(r!)).toBeLessThan(NESTED_JSON.length + 200); // 32 MB before
    const lines = r!.markdown!.split('\n');
    expect(lines[1]).toBe('{');
    expect(lines.filter((l) => /^ {16}\{"a":\[\{"a":\[/.test(l))).toHaveLength(1); // the rest on one line
    expect(Math.max(...lines.map((l) => /^ */.exec(l)![0].length))).toBe(16);
    expect(lines.slice(1, -1).join('').replace(/\s/g, '')).toBe(NESTED_JSON); // the same document
  });

  it('a page whose Markdown is over the 10 MiB page cap fails alone as too_large, uncharged', async () => {
    s = await extractSetup({ '/swell.json': typed('application/json', SWELLING_JSON), '/ok': html(article('Fine')) });
    await withOrgs(s.engine);
    expect(SWELLING_JSON.length).toBeLessThan(PAGE_CAP / 3);
    const res = await s.engine.extract({ urls: [s.server.url('/swell.json'), s.server.url('/ok')] }, ORG);
    expect(res.results.map(outcome)).toEqual(['too_large', 'ok']);
    expect(res.results[0]).toMatchObject({ status_code: 200, markdown: '' });
    expect(res.results[0]!.error).toMatch(/over the 10485760-character limit/);
    expect(res.metadata.credits_used).toBe(1);
    expect(await balance(s.engine)).toBe(99);
  });

  it('pages past the 32 MiB answer budget fail alone as too_large, uncharged; later smaller pages and another organization are served', async () => {
    s = await extractSetup({ '/big.txt': typed('text/plain; charset=utf-8', BIG_TEXT), '/ok': html(article('Fine')) });
    await withOrgs(s.engine);
    const big = (i: number) => s!.server.url(`/big.txt?n=${i}`);
    const [res, other] = await Promise.all([
      s.engine.extract({ urls: [big(1), big(2), big(3), big(4), s.server.url('/ok')] }, ORG),
      s.engine.extract({ urls: [big(1), s.server.url('/ok')] }, OTHER),
    ]);
    // 3 × 9 MiB fit in 32 MiB; the fourth would not; the small page after it does.
    expect(res.results.map(outcome)).toEqual(['ok', 'ok', 'ok', 'too_large', 'ok']);
    expect(res.results[3]!.error).toMatch(/more than 33554432 characters/);
    expect(res.results.reduce((n, r) => n + size(r), 0)).toBeLessThanOrEqual(ANSWER_CHARS);
    expect(res.metadata.credits_used).toBe(4);
    expect(await balance(s.engine)).toBe(96);
    expect(other.results.map(outcome)).toEqual(['ok', 'ok']);
    expect(await balance(s.engine, OTHER)).toBe(98);
    // Not charged, not remembered: asked again alone, the page is fetched and charged.
    const again = await s.engine.extract({ urls: [big(4)] }, ORG);
    expect(again.results.map(outcome)).toEqual(['ok']);
    expect(again.metadata.credits_used).toBe(1);
  }, 60_000);

  it('reading in parts, what is delivered counts: four 9 MiB pages under max_chars all fit, and are charged', async () => {
    s = await extractSetup({ '/big.txt': typed('text/plain; charset=utf-8', BIG_TEXT) });
    await withOrgs(s.engine);
    const urls = [1, 2, 3, 4].map((i) => s!.server.url(`/big.txt?parts=${i}`));
    const res = await s.engine.extract({ urls, max_chars: 4000 }, ORG);
    expect(res.results.map(outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
    for (const r of res.results) {
      expect(r.total_chars).toBeGreaterThan(9 * MiB - 10); // the text, trimmed
      expect(r.markdown!.length).toBeLessThan(4000);
    }
    expect(res.metadata.credits_used).toBe(4);
  }, 60_000);

  it('a URL asked for twice counts twice toward the answer', async () => {
    s = await extractSetup({ '/big.txt': typed('text/plain; charset=utf-8', BIG_TEXT) });
    await withOrgs(s.engine);
    const a = s.server.url('/big.txt?n=a');
    const b = s.server.url('/big.txt?n=b');
    const res = await s.engine.extract({ urls: [a, a, a, b] }, ORG);
    expect(res.results.map(outcome)).toEqual(['ok', 'ok', 'ok', 'too_large']);
    expect(res.metadata.credits_used).toBe(1);
  }, 60_000);

  it('include_content: a page past the answer budget is content_error too_large and not paid for', async () => {
    s = await extractSetup(
      { '/big.txt': typed('text/plain; charset=utf-8', BIG_TEXT), '/swell.json': typed('application/json', SWELLING_JSON) },
      (server) => ({
        sources: [
          scriptedSource('scripted', () => ({
            results: [1, 2, 3, 4]
              .map((i) => ({ title: `T${i}`, url: server.url(`/big.txt?n=${i}`), snippet: '' }))
              .concat([{ title: 'J', url: server.url('/swell.json'), snippet: '' }]),
          })),
        ],
      }),
    );
    await withOrgs(s.engine, 1000);
    const res = (await s.engine.search({ q: 'big pages', include_content: true, content_results: 5 }, ORG)) as SearchResponse;
    expect(res.results.map((r) => r.content_error ?? 'content')).toEqual(['content', 'content', 'content', 'too_large', 'too_large']);
    expect(res.metadata).toMatchObject({ content_requested: 5, content_delivered: 3 });
    expect(res.results.reduce((n, r) => n + (r.content ?? '').length, 0)).toBeLessThanOrEqual(ANSWER_CHARS);
  }, 60_000);
});
