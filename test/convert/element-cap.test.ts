// The element cap: a page of more than 50,000 start tags converts only 50,000 of them, so one page's
// conversion has bounded time and memory; pages under it come through unchanged. Which ones: the
// first 10,000, then the stretch of the rest with the most prose, so content deep in a page survives.

import { describe, expect, it } from 'vitest';
import { capElements, HEAD_ELEMENTS, MAX_CONVERTED_ELEMENTS, PROSE_RUN } from '../../src/convert/element-cap.js';
import { htmlToMarkdown } from '../../src/index.js';
import { withCpuMs } from '../support/cpu-time.js';

const startTags = (html: string) => (html.match(/<[a-zA-Z]/g) ?? []).length;
const sentence = (i: number) => `Paragraph ${i} of the article says something long enough to be prose, clearly.`;

describe('element cap', () => {
  it('is 50,000 elements, the first 10,000 always kept, as docs/operating.md says', () => {
    expect([MAX_CONVERTED_ELEMENTS, HEAD_ELEMENTS, PROSE_RUN]).toEqual([50_000, 10_000, 40]);
  });

  it('leaves a page within the cap as it is, character for character', () => {
    const page = '<p>a</p>'.repeat(MAX_CONVERTED_ELEMENTS) + ' tail < 3 and <!-- x --> </p>';
    expect(capElements(page)).toEqual({ html: page });
  });

  it('cuts a longer page before its first start tag past the cap when no deeper stretch has more prose', () => {
    const page = '<i>x</i>'.repeat(5) + '<b>over</b>';
    expect(capElements(page, 5)).toEqual({ html: '<i>x</i>'.repeat(5) });
    expect(capElements('<div><p>one<p>two', 2)).toEqual({ html: '<div><p>one' });
  });

  it('keeps the head and the deeper stretch with the most prose, skipping a text-poor stretch', () => {
    const nav = '<li><a>Item</a></li>'.repeat(10); // 20 elements
    const prose = Array.from({ length: 3 }, (_, i) => `<p>${sentence(i)}</p>`).join('');
    const page = `<h1>Top</h1>${nav}${prose}<footer>end</footer>`;
    // 27 start tags; keep 10: the first 4, then the 6 with the most prose (the paragraphs).
    const capped = capElements(page, 10, 4);
    expect(startTags(capped.html)).toBe(4);
    expect(capped.html.startsWith('<h1>Top</h1>')).toBe(true);
    expect(capped.deep).toContain(sentence(0));
    expect(capped.deep).toContain(sentence(2));
    expect(startTags(capped.html) + startTags(capped.deep ?? '')).toBeLessThanOrEqual(10);
  });

  it('counts no prose inside scripts and styles', () => {
    const code = `<script>var s = "${'x'.repeat(200)}";</script>`;
    const page = `<p>a</p>${'<i>b</i>'.repeat(10)}${code}${'<i>c</i>'.repeat(10)}`;
    expect(capElements(page, 10, 2).deep).toBeUndefined();
  });

  it('at the defaults, converts the article of a page whose first 60,000 elements are a menu', () => {
    const menu = Array.from({ length: 30_000 }, (_, i) => `<li><a href="/c/${i}">Cat ${i}</a></li>`).join('');
    const article = Array.from({ length: 12 }, (_, i) => `<p>${sentence(i)}</p>`).join('');
    const page = `<html><head><title>Deep</title></head><body><nav><ul>${menu}</ul></nav><article><h1>The deep article</h1>${article}</article><footer>Footer</footer></body></html>`;
    expect(startTags(page)).toBeGreaterThan(60_000);
    const capped = capElements(page);
    expect(startTags(capped.html) + startTags(capped.deep ?? '')).toBeLessThanOrEqual(MAX_CONVERTED_ELEMENTS);
    const md = htmlToMarkdown(page);
    expect(md).toContain('The deep article');
    for (let i = 0; i < 12; i++) expect(md).toContain(sentence(i));
  }, 120_000); // 50,000 elements convert in ~6 s; the machine may be loaded

  it('converts a page of 60,000 elements without prose as its first 50,000', () => {
    const words = (from: number) => Array.from({ length: 30_000 }, (_, i) => `<span>w${from + i} </span>`).join('');
    const page = `<html><body><h1>Start</h1><p>${words(0)}</p><p>${words(30_000)}</p></body></html>`;
    const md = htmlToMarkdown(page);
    expect(md).toContain('w45000 ');
    expect(md).not.toContain('w55000 ');
  }, 120_000);

  it('stays linear on many scripts, unclosed scripts and stray angle brackets (no hang)', () => {
    for (const unit of ['<script>x</script><i>', '<script>', '<style>', '< <a', '<!--<b>']) {
      const page = unit.repeat(Math.ceil(2_000_000 / unit.length));
      expect(withCpuMs(() => capElements(page)).cpuMs).toBeLessThan(10_000); // quadratic would take hours (CPU time: load does not stretch it)
    }
  });
});
