// Page metadata (src/convert/metadata/) on small documents: each field from each source, the
// precedence between sources, URL resolution, and hostile values (capped, dropped, never guessed).

import { describe, expect, it } from 'vitest';
import { convertPage } from '../../src/conversion/convert-page.js';
import { parseXmlRoot, xmlKind } from '../../src/convert/formats/xml.js';
import { htmlMetadata, htmlToMarkdown, htmlToMarkdownWithMetadata } from '../../src/convert/html-to-markdown.js';
import { feedMetadata, languageTag, MAX_LINKS, normalizeDate } from '../../src/convert/metadata/index.js';

const URL_ = 'https://example.com/news/story.html';
const page = (head: string, body = '<p>Body text.</p>', htmlAttrs = '') =>
  `<!doctype html><html${htmlAttrs}><head>${head}</head><body>${body}</body></html>`;
const meta = (head: string, body?: string, htmlAttrs?: string, extra: { links?: boolean; contentLanguage?: string } = {}) =>
  htmlMetadata(page(head, body, htmlAttrs), { url: URL_, ...extra }).metadata;
const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

describe('title and description', () => {
  it('takes <title>, then og:title, twitter:title, Dublin Core, JSON-LD headline', () => {
    expect(meta('<title>  The\n  Title </title><meta property="og:title" content="OG">').title).toBe('The Title');
    expect(meta('<meta property="og:title" content="OG"><meta name="twitter:title" content="TW">').title).toBe('OG');
    expect(meta('<meta name="twitter:title" content="TW">').title).toBe('TW');
    expect(meta('<meta name="DC.title" content="Dublin">').title).toBe('Dublin');
    expect(meta(ld({ '@type': 'NewsArticle', headline: 'Head &amp; line' })).title).toBe('Head & line');
    expect(meta('<title>   </title><meta property="og:title" content="OG">').title).toBe('OG');
  });

  it('never takes an SVG <title> for the page title', () => {
    expect(meta('', '<svg><title>icon</title></svg><p>x</p>').title).toBeUndefined();
    expect(meta('<title>Page</title>', '<svg><title>icon</title></svg>').title).toBe('Page');
  });

  it('takes meta description, then og:description, twitter:description, JSON-LD description', () => {
    expect(meta('<meta name="Description" content=" Plain "><meta property="og:description" content="OG">').description).toBe('Plain');
    expect(meta('<meta property="og:description" content="OG"><meta name="twitter:description" content="TW">').description).toBe('OG');
    expect(meta('<meta name="twitter:description" content="TW">').description).toBe('TW');
    expect(meta(ld({ '@type': 'Article', description: 'From <b>LD</b>' })).description).toBe('From LD');
  });

  it('caps hostile lengths (title 500, description 1,000) and strips control characters', () => {
    const m = meta(`<title>${'t'.repeat(5_000)}</title><meta name="description" content="${'word '.repeat(100_000)}">`);
    expect(m.title).toHaveLength(500);
    expect(m.description!.length).toBeLessThanOrEqual(1_000);
    expect(m.description!.startsWith('word word')).toBe(true);
    expect(meta('<title>a\u0000b\u0007c</title>').title).toBe('abc');
  });

  it('does not cut a surrogate pair in half', () => {
    const t = meta(`<title>${'a'.repeat(499)}😀😀</title>`).title!;
    expect(t).toBe('a'.repeat(499));
  });

  it('a page that states nothing has no fields', () => {
    expect(meta('', '<p>Just text.</p>')).toEqual({});
  });
});

describe('language', () => {
  it('takes <html lang>, then the content-language meta, then the HTTP header', () => {
    expect(meta('<meta http-equiv="Content-Language" content="de">', undefined, ' lang="fr-ca"').language).toBe('fr-CA');
    expect(meta('<meta http-equiv="content-language" content="de, en">').language).toBe('de');
    expect(meta('', undefined, '', { contentLanguage: 'pt-br' }).language).toBe('pt-BR');
    expect(meta('', undefined, ' lang="zh-hant-tw"').language).toBe('zh-Hant-TW');
    expect(meta('', undefined, ' xmlns="http://www.w3.org/1999/xhtml" xml:lang="nl"').language).toBe('nl');
  });

  it('skips values that are not language tags', () => {
    expect(meta('<meta http-equiv="content-language" content="es">', undefined, ' lang="{{lang}}"').language).toBe('es');
    expect(meta('', undefined, ` lang="${'x'.repeat(100)}"`).language).toBeUndefined();
    expect(languageTag('en_GB')).toBe('en-GB');
    expect(languageTag('english please')).toBeUndefined();
  });
});

describe('dates', () => {
  it('normalizes to ISO 8601: dates stay dates, offsets become UTC, local times stay local', () => {
    expect(normalizeDate('2024-03-05')).toBe('2024-03-05');
    expect(normalizeDate('2024-03-05T10:20:30+02:00')).toBe('2024-03-05T08:20:30Z');
    expect(normalizeDate('2024-03-05T10:20:30.5-0130')).toBe('2024-03-05T11:50:30.500Z');
    expect(normalizeDate('2024-03-05T10:20Z')).toBe('2024-03-05T10:20:00Z');
    expect(normalizeDate('2024-03-05 10:20:30')).toBe('2024-03-05T10:20:30');
    expect(normalizeDate('Tue, 05 Mar 2024 10:20:30 GMT')).toBe('2024-03-05T10:20:30Z');
    expect(normalizeDate('Tue, 05 Mar 2024 10:20:30 +0100')).toBe('2024-03-05T09:20:30Z');
  });

  it('omits what does not parse', () => {
    for (const bad of [
      'yesterday',
      '2024-02-30',
      '2024-13-01',
      '2024-03-05T25:00:00Z',
      '0000-01-01',
      'March 5, 2024',
      '',
      `2024-03-05T10:20:30.${'0'.repeat(100)}Z`,
    ]) {
      expect(normalizeDate(bad), bad).toBeUndefined();
    }
    expect(meta('<meta property="article:published_time" content="not a date">').published_time).toBeUndefined();
  });

  it('published_time: Open Graph, then JSON-LD, then microdata, then Dublin Core and other names', () => {
    const og = '<meta property="article:published_time" content="2024-01-01T00:00:00Z">';
    const json = ld({ '@type': 'BlogPosting', datePublished: '2023-02-02' });
    const micro = '<meta itemprop="datePublished" content="2022-03-03">';
    const dc = '<meta name="dcterms.issued" content="2021-04-04">';
    expect(meta(og + json + micro + dc).published_time).toBe('2024-01-01T00:00:00Z');
    expect(meta(json + micro + dc).published_time).toBe('2023-02-02');
    expect(meta(micro + dc).published_time).toBe('2022-03-03');
    expect(meta(dc).published_time).toBe('2021-04-04');
    expect(meta('', '<span itemprop="datePublished">2020-05-05</span>').published_time).toBe('2020-05-05');
    // A comment's microdata date is the comment's, not the page's.
    const comment = '<div itemscope itemtype="https://schema.org/Comment"><meta itemprop="datePublished" content="2025-01-01"></div>';
    expect(
      meta(
        '',
        comment +
          '<article itemscope itemtype="https://schema.org/Article"><time itemprop="datePublished" datetime="2024-08-08">x</time></article>',
      ).published_time,
    ).toBe('2024-08-08');
    // An unparseable first source gives way to the next.
    expect(meta('<meta property="article:published_time" content="soon">' + dc).published_time).toBe('2021-04-04');
  });

  it('modified_time: Open Graph, og:updated_time, JSON-LD, microdata, Dublin Core', () => {
    expect(meta('<meta property="article:modified_time" content="2024-06-01">').modified_time).toBe('2024-06-01');
    expect(meta('<meta property="og:updated_time" content="2024-06-02T12:00:00+00:00">').modified_time).toBe('2024-06-02T12:00:00Z');
    expect(meta(ld({ '@type': 'Article', dateModified: '2024-06-03' })).modified_time).toBe('2024-06-03');
    expect(meta('<meta name="dcterms.modified" content="2024-06-04">').modified_time).toBe('2024-06-04');
  });

  it("a <time datetime> counts only when it is clearly the article's", () => {
    const art = (inner: string) => `<article>${inner}<p>Story.</p></article>`;
    expect(meta('', art('<time datetime="2024-07-01">July 1</time>')).published_time).toBe('2024-07-01');
    expect(
      meta('', art('<header><time datetime="2024-07-02">x</time></header><div><time datetime="2024-01-01">c</time></div>')).published_time,
    ).toBe('2024-07-02');
    expect(meta('', art('<time datetime="2024-07-01">a</time><time datetime="2024-07-09">b</time>')).published_time).toBeUndefined();
    expect(
      meta('', art('<time datetime="2024-07-01">a</time>') + art('<time datetime="2024-07-09">b</time>')).published_time,
    ).toBeUndefined();
    expect(meta('', '<p>Posted <time datetime="2024-07-01">July 1</time></p>').published_time).toBeUndefined();
    expect(meta('', '<p><time pubdate datetime="2024-07-03">x</time></p>').published_time).toBe('2024-07-03');
    expect(meta('', '<time datetime="2024-07-01">x</time>').modified_time).toBeUndefined();
  });
});

describe('JSON-LD', () => {
  it('reads arrays and @graph, the article before the WebPage, and not nested comments', () => {
    const graph = ld({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', '@id': '#site', name: 'The Site' },
        { '@type': 'WebPage', datePublished: '2019-01-01', name: 'Page name' },
        {
          '@type': ['NewsArticle'],
          headline: 'Article headline',
          datePublished: '2024-02-02T08:00:00+01:00',
          dateModified: '2024-02-03',
          comment: [{ '@type': 'Comment', datePublished: '2025-01-01' }],
        },
      ],
    });
    expect(meta(graph)).toEqual({
      title: 'Article headline',
      published_time: '2024-02-02T07:00:00Z',
      modified_time: '2024-02-03',
      site_name: 'The Site',
    });
    const array = ld([
      { '@type': 'Comment', datePublished: '2025-01-01' },
      { '@type': 'Article', datePublished: '2024-05-05' },
    ]);
    expect(meta(array).published_time).toBe('2024-05-05');
  });

  it('takes the site name from og:site_name, a WebSite, or the publisher (also by @id)', () => {
    expect(meta('<meta property="og:site_name" content="OG Site">' + ld({ '@type': 'WebSite', name: 'LD' })).site_name).toBe('OG Site');
    expect(meta(ld({ '@type': 'Article', publisher: { '@type': 'Organization', name: 'Pub' } })).site_name).toBe('Pub');
    const byId = ld({
      '@graph': [
        { '@type': 'Article', publisher: { '@id': '#org' } },
        { '@id': '#org', '@type': 'Organization', name: 'Org' },
      ],
    });
    expect(meta(byId).site_name).toBe('Org');
  });

  it('ignores malformed blocks and keeps reading the others', () => {
    const head =
      '<script type="application/ld+json">{"@type": "Article", "datePublished": </script>' +
      ld({ '@type': 'Article', datePublished: '2024-09-09' });
    expect(meta(head).published_time).toBe('2024-09-09');
    expect(meta('<script type="application/ld+json">[[[[[[</script><title>T</title>')).toEqual({ title: 'T' });
    expect(meta(ld({ '@type': 'Article', datePublished: 12345, headline: { nested: true } }))).toEqual({});
  });
});

describe('canonical_url', () => {
  it('resolves a relative canonical against the page URL (or its <base href>), og:url as fallback', () => {
    expect(meta('<link rel="canonical" href="/canon/story">').canonical_url).toBe('https://example.com/canon/story');
    expect(meta('<link rel="Alternate Canonical" href="other.html">').canonical_url).toBe('https://example.com/news/other.html');
    expect(meta('<base href="https://cdn.example.org/x/"><link rel="canonical" href="y">').canonical_url).toBe(
      'https://cdn.example.org/x/y',
    );
    expect(meta('<meta property="og:url" content="https://example.com/og">').canonical_url).toBe('https://example.com/og');
  });

  it('drops what is not an http(s) URL, and falls back to og:url', () => {
    expect(meta('<link rel="canonical" href="javascript:alert(1)">').canonical_url).toBeUndefined();
    expect(meta('<link rel="canonical" href="data:text/html,x"><meta property="og:url" content="/og">').canonical_url).toBe(
      'https://example.com/og',
    );
    expect(meta(`<link rel="canonical" href="/${'x'.repeat(5_000)}">`).canonical_url).toBeUndefined();
    expect(meta('<link rel="canonical" href="ftp://example.com/file">').canonical_url).toBeUndefined();
  });
});

describe('links', () => {
  it('absolute http(s) links, fragment dropped, deduplicated, in document order', () => {
    const body =
      '<a href="/b">b</a><a href="/a#top">a</a><a href="/a">again</a><a href="https://other.test/x">x</a>' +
      '<a href="javascript:void(0)">j</a><a href="mailto:a@b.c">m</a><a href="#here">h</a><a>no href</a><map><area href="/c"></map>';
    const { links } = htmlMetadata(page('', body), { url: URL_, links: true });
    expect(links).toEqual([
      'https://example.com/b',
      'https://example.com/a',
      'https://other.test/x',
      'https://example.com/news/story.html',
      'https://example.com/c',
    ]);
    expect(htmlMetadata(page('', body), { url: URL_ }).links).toBeUndefined();
  });

  it('at most MAX_LINKS', () => {
    const body = Array.from({ length: MAX_LINKS + 50 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
    const { links } = htmlMetadata(page('', body), { url: URL_, links: true });
    expect(links).toHaveLength(MAX_LINKS);
    expect(links![0]).toBe('https://example.com/p0');
  });
});

describe('hostile pages', () => {
  it('many SVG titles, links and meta tags: one pass, the caps hold', () => {
    const body =
      '<svg><title>icon</title></svg>'.repeat(2_000) +
      Array.from({ length: 5_000 }, (_, i) => `<a href="/p${i % 3_000}#x">${i}</a>`).join('') +
      '<meta name="description" content="late">'.repeat(1_000);
    const { metadata, links } = htmlMetadata(page('', body), { url: URL_, links: true });
    expect(metadata).toEqual({ description: 'late' });
    expect(links).toHaveLength(MAX_LINKS);
    expect(new Set(links).size).toBe(MAX_LINKS);
  });

  it('a JSON-LD block of 40,000 entities is read within its node budget', () => {
    const many = ld({
      '@graph': [...Array.from({ length: 40_000 }, () => ({ '@type': 'T' })), { '@type': 'Article', datePublished: '2024-01-01' }],
    });
    expect(many.length).toBeLessThan(1_000_000); // within structured-data.ts's size limit: parsed
    expect(meta(many).published_time).toBeUndefined(); // past the budget: not read, never a crash
    expect(
      meta(
        ld([
          { '@type': 'Article', datePublished: '2024-01-01' },
          { '@graph': [{ '@graph': [{ '@graph': [{ '@graph': [{ '@graph': [{ '@type': 'Article' }] }] }] }] }] },
        ]),
      ).published_time,
    ).toBe('2024-01-01');
  });
});

describe('through the converter', () => {
  it('htmlToMarkdownWithMetadata gives the same Markdown as htmlToMarkdown, and reads head elements the clean-up removes', () => {
    const paragraphs = Array.from(
      { length: 4 },
      (_, i) => `<p>Paragraph ${i + 1}: ${'lorem ipsum dolor sit amet consectetur '.repeat(10)}</p>`,
    );
    const html = page(
      '<title>T</title><meta name="description" content="D">' + ld({ '@type': 'Article', datePublished: '2024-01-02' }),
      `<nav><a href="/">Home</a></nav><article><h1>Heading</h1>${paragraphs.join('')}</article>`,
      ' lang="en"',
    );
    const out = htmlToMarkdownWithMetadata(html, { url: URL_ });
    expect(out.markdown).toContain('Paragraph 4: lorem ipsum');
    expect(out.markdown).toBe(htmlToMarkdown(html, { url: URL_ }));
    expect(out.metadata).toEqual({ title: 'T', description: 'D', language: 'en', published_time: '2024-01-02' });
  });

  it('feeds give their title, description and language; other formats only the header language', () => {
    const rss =
      '<?xml version="1.0"?><rss version="2.0"><channel><title> Feed  title </title><description>About</description><language>en-gb</language><item><title>i</title></item></channel></rss>';
    const root = parseXmlRoot(rss);
    expect(feedMetadata(root, xmlKind(root))).toEqual({ title: 'Feed title', description: 'About', language: 'en-GB' });
    const atom = '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="de"><title>Atom feed</title><entry><title>e</title></entry></feed>';
    expect(convertPage({ mimeType: 'application/atom+xml', text: atom, finalUrl: URL_ }).metadata).toEqual({
      title: 'Atom feed',
      language: 'de',
    });
    expect(convertPage({ mimeType: 'application/json', text: '{"title":"not metadata"}', finalUrl: URL_ }).metadata).toEqual({});
    expect(convertPage({ mimeType: 'text/plain', text: 'hello', finalUrl: URL_, contentLanguage: 'fr' }).metadata).toEqual({
      language: 'fr',
    });
    expect(convertPage({ mimeType: 'text/html', text: page('<title>Only</title>'), finalUrl: URL_, want: 'metadata' })).toEqual({
      markdown: '',
      metadata: { title: 'Only' },
      hasText: true,
    });
  });
});
