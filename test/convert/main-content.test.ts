// The choice between Readability's article and the cleaned page (src/convert/main-content.ts), and
// what each of them reads: the parts the benchmark cannot pin to one page.
import { describe, expect, it } from 'vitest';
import { removeBoilerplate } from '../../src/convert/boilerplate.js';
import { selectMainContent, tuning } from '../../src/convert/main-content.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import type { StructuredData } from '../../src/convert/structured-data.js';
import { wordsIn } from '../../src/convert/text-stats.js';
import { lorem } from './fixtures.js';

const page = (body: string) => `<html><head></head><body>${body}</body></html>`;
const noData = (): StructuredData => ({ types: new Set(), productDescriptions: [], postTexts: [] });
const articleData = (): StructuredData => ({ types: new Set(['NewsArticle']), productDescriptions: [], postTexts: [] });
const menu = (n: number) => `<nav><ul>${Array.from({ length: n }, (_, i) => `<li><a href="/c/${i}">Category ${i}</a></li>`).join('')}</ul></nav>`;
const article = `<article><h1>Title</h1><p>${lorem(120)}</p><p>${lorem(80)}</p></article>`;

/** Runs the choice with a counting `fresh`: how often the untouched page had to be prepared again. */
function choose(html: string, data: StructuredData) {
  let freshCalls = 0;
  const doc = parseHtmlDocument(html);
  const elements = doc.body.querySelectorAll('*').length;
  const result = selectMainContent(doc, elements, data, () => {
    freshCalls++;
    return parseHtmlDocument(html);
  });
  return { ...result, freshCalls, text: result.element.textContent ?? '' };
}

describe('wordsIn and removeBoilerplate counts', () => {
  it('count words per text node; removeBoilerplate returns the count before removal', () => {
    const body = parseHtmlDocument(page(`${menu(5)}${menu(5)}${menu(5)}<p>one two three</p>`)).body;
    const before = wordsIn(body);
    expect(before).toBe(33); // 15 × "Category N" + 3
    expect(removeBoilerplate(body)).toBe(before);
    expect(wordsIn(body)).toBe(3);
  });
});

describe('selectMainContent', () => {
  it('on a page declaring an Article, takes Readability\'s article without preparing the page again', () => {
    const r = choose(page(`${menu(5)}${article}`), articleData());
    expect(r.source).toBe('readability');
    expect(r.text).toContain('number 119');
    expect(r.freshCalls).toBe(0);
  });

  it('runs Readability on the cleaned page when clean-up kept most of it', () => {
    const r = choose(page(`${menu(5)}${article}`), noData());
    expect(r.text).toContain('number 119');
    expect(r.text).not.toContain('Category');
    expect(r.freshCalls).toBe(0);
  });

  it(`hands Readability the untouched page when clean-up removed over ${100 * (1 - tuning.minKeptShare)} % of the words`, () => {
    // The menu is most of the page: clean-up keeps under a fifth, so it may have misread the page.
    const r = choose(page(`${menu(50)}${menu(50)}${menu(50)}<p>${lorem(2)}</p>`), noData());
    expect(r.freshCalls).toBe(1);
    expect(r.text).toContain('number 1 ');
  });

  it('falls back to the cleaned page (prepared again) when Readability finds nothing on an Article page', () => {
    const r = choose(page('<p>Short.</p>'), articleData());
    expect(r.source).not.toBe('readability');
    expect(r.freshCalls).toBe(1);
    expect(r.text).toContain('Short.');
  });
});
