import { describe, expect, it } from 'vitest';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { declaresArticle, readStructuredData } from '../../src/convert/structured-data.js';
import { supplementFromStructuredData } from '../../src/convert/structured-supplement.js';

const withLd = (...blocks: string[]) =>
  parseHtmlDocument(`<html><head>${blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join('')}</head><body></body></html>`);

describe('readStructuredData', () => {
  it('collects types from graphs and arrays, and skips malformed blocks', () => {
    const data = readStructuredData(
      withLd('{ not json', JSON.stringify({ '@graph': [{ '@type': 'WebPage' }, { '@type': ['NewsArticle', 'Thing'] }] }), JSON.stringify([{ '@type': 'https://schema.org/Person' }])),
    );
    expect([...data.types].sort()).toEqual(['NewsArticle', 'Person', 'Thing', 'WebPage']);
  });

  it('reads product descriptions (tags stripped) and forum post texts in document order', () => {
    const data = readStructuredData(
      withLd(
        JSON.stringify({ '@type': 'Product', description: '<p>Solid &amp; sturdy</p>' }),
        JSON.stringify({ '@type': 'QAPage', mainEntity: { '@type': 'Question', text: 'Q text', acceptedAnswer: { '@type': 'Answer', text: 'A1' }, suggestedAnswer: [{ '@type': 'Answer', text: 'A2' }] } }),
      ),
    );
    expect(data.productDescriptions).toEqual(['Solid & sturdy']);
    expect(data.postTexts).toEqual(['Q text', 'A1', 'A2']);
  });

  it('treats a page as a single article only without many-item types', () => {
    expect(declaresArticle(readStructuredData(withLd('{"@type":"BlogPosting"}')))).toBe(true);
    expect(declaresArticle(readStructuredData(withLd('{"@type":"BlogPosting"}', '{"@type":"Product"}')))).toBe(false);
    expect(declaresArticle(readStructuredData(withLd('{"@type":"WebPage"}')))).toBe(false);
  });
});

describe('supplementFromStructuredData', () => {
  const data = (postTexts: string[], productDescriptions: string[] = []) => ({ types: new Set<string>(), postTexts, productDescriptions });

  it('appends texts whose words are missing from the Markdown', () => {
    const md = supplementFromStructuredData('The question was asked here.', data(['An answer that only the structured data carries, in full.']));
    expect(md).toBe('The question was asked here.\n\nAn answer that only the structured data carries, in full.');
  });

  it('does not repeat what the page already shows, nor short labels', () => {
    const shown = 'An answer that the page shows in its own markup, word for word.';
    expect(supplementFromStructuredData(shown, data([shown, 'Too short']))).toBe(shown);
  });
});
