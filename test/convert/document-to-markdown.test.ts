import { describe, expect, it } from 'vitest';
import { documentKind, documentToMarkdown } from '../../src/convert/document-to-markdown.js';

const doc = (mimeType: string, text: string, finalUrl = 'https://site.test/dir/file') => ({ mimeType, text, finalUrl });

describe('documentToMarkdown dispatch', () => {
  it('classifies media types, ignoring parameters and case', () => {
    expect(documentKind('Text/HTML; charset=UTF-8')).toBe('html');
    expect(documentKind('application/xhtml+xml')).toBe('html');
    expect(documentKind('application/ld+json')).toBe('json');
    expect(documentKind('application/vnd.api+json')).toBe('json');
    expect(documentKind('application/rss+xml')).toBe('xml');
    expect(documentKind('text/csv')).toBe('csv');
    expect(documentKind('text/markdown')).toBe('markdown');
    expect(documentKind('text/plain')).toBe('text');
    expect(documentKind('image/png')).toBeUndefined();
  });

  it('converts HTML and XHTML with absolute links against the final URL', () => {
    const html = '<html><body><p>Short page with <a href="other">a link</a>.</p></body></html>';
    expect(documentToMarkdown(doc('text/html', html))).toBe('Short page with [a link](https://site.test/dir/other).');
    const xhtml = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>XHTML body text.</p></body></html>';
    expect(documentToMarkdown(doc('application/xhtml+xml', xhtml))).toContain('XHTML body text.');
  });

  it('passes plain text and Markdown through (line endings normalised)', () => {
    expect(documentToMarkdown(doc('text/plain', 'line one\r\nline two\n'))).toBe('line one\nline two');
    expect(documentToMarkdown(doc('text/markdown', '# Title\n\n- a\n- b'))).toBe('# Title\n\n- a\n- b');
  });

  it('returns the empty string only for a document without text', () => {
    expect(documentToMarkdown(doc('text/plain', '  \n '))).toBe('');
    expect(documentToMarkdown(doc('application/json', ''))).toBe('');
    expect(documentToMarkdown(doc('text/html', '<html><body>   </body></html>'))).toBe('');
  });
});

describe('JSON', () => {
  it('pretty-prints JSON and +json types in a fenced block', () => {
    expect(documentToMarkdown(doc('application/json', '{"a":1,"b":[true,null]}'))).toBe(
      '```json\n{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}\n```',
    );
    expect(documentToMarkdown(doc('application/ld+json', '{"@type":"Article"}'))).toBe('```json\n{\n  "@type": "Article"\n}\n```');
  });

  it('fences invalid JSON as served', () => {
    expect(documentToMarkdown(doc('application/json', '{"a": oops}'))).toBe('```json\n{"a": oops}\n```');
  });
});

describe('CSV', () => {
  it('renders a table with the first row as header, quoted fields and escaped pipes', () => {
    const csv = 'name,notes\r\n"Smith, J.","said ""hi"""\nalpha,"multi\nline"\nbeta,a|b\n';
    expect(documentToMarkdown(doc('text/csv', csv))).toBe(
      '| name | notes |\n| --- | --- |\n| Smith, J. | said "hi" |\n| alpha | multi line |\n| beta | a\\|b |',
    );
  });

  it('sniffs semicolons and tabs, and pads short rows', () => {
    expect(documentToMarkdown(doc('text/csv', 'a;b;c\n1;2\n'))).toBe('| a | b | c |\n| --- | --- | --- |\n| 1 | 2 |  |');
    expect(documentToMarkdown(doc('text/tab-separated-values', 'x\ty\n1\t2'))).toBe('| x | y |\n| --- | --- |\n| 1 | 2 |');
  });
});

describe('XML', () => {
  it('lists RSS items with title, link and date', () => {
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>My Feed</title><description>News</description>
      <item><title>First post</title><link>https://site.test/1</link><pubDate>Mon, 02 Feb 2026 10:00:00 GMT</pubDate></item>
      <item><title>Second [post]</title><link>https://site.test/2</link></item></channel></rss>`;
    expect(documentToMarkdown(doc('application/rss+xml', rss))).toBe(
      '# My Feed\n\nNews\n\n- [First post](https://site.test/1) — Mon, 02 Feb 2026 10:00:00 GMT\n- [Second \\[post\\]](https://site.test/2)',
    );
  });

  it('lists Atom entries with their alternate link and date', () => {
    const atom = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Feed</title>
      <entry><title>Entry one</title><link rel="self" href="https://site.test/self"/><link rel="alternate" href="https://site.test/e1"/>
      <updated>2026-01-02T00:00:00Z</updated></entry></feed>`;
    expect(documentToMarkdown(doc('application/atom+xml', atom))).toBe(
      '# Atom Feed\n\n- [Entry one](https://site.test/e1) — 2026-01-02T00:00:00Z',
    );
  });

  it('lists RSS 1.0 (RDF) items', () => {
    const rdf = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel><title>RDF Feed</title></channel><item><title>R1</title><link>https://site.test/r1</link><dc:date>2026-03-01</dc:date></item></rdf:RDF>`;
    expect(documentToMarkdown(doc('application/rdf+xml', rdf))).toBe('# RDF Feed\n\n- [R1](https://site.test/r1) — 2026-03-01');
  });

  it('lists sitemap and sitemap-index URLs', () => {
    const sm = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>https://site.test/a</loc><lastmod>2026-01-01</lastmod></url><url><loc>https://site.test/b</loc></url></urlset>`;
    expect(documentToMarkdown(doc('application/xml', sm))).toBe('- https://site.test/a — 2026-01-01\n- https://site.test/b');
    const idx = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://site.test/s1.xml</loc></sitemap></sitemapindex>`;
    expect(documentToMarkdown(doc('text/xml', idx))).toBe('- https://site.test/s1.xml');
  });

  it('fences any other XML as served', () => {
    const xml = '<?xml version="1.0"?><config><entry key="a">1</entry></config>';
    expect(documentToMarkdown(doc('application/xml', xml))).toBe('```xml\n' + xml + '\n```');
  });

  it('fences malformed XML instead of throwing', () => {
    const bad = '<rss><channel><item><title>unclosed';
    expect(() => documentToMarkdown(doc('application/rss+xml', bad))).not.toThrow();
    expect(documentToMarkdown(doc('application/rss+xml', bad))).toContain('unclosed');
  });
});
