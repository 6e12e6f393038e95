// The parse watch (parse-depth.ts): a page is parsed as it came unless htmlparser2 nests it deeper than
// the watch's limit or meets a CDATA section; then it takes capNesting's replay as before. Either way
// the document is the one the replay alone gives.

import { createRequire } from 'node:module';
import * as linkedom from 'linkedom';
import { afterEach, describe, expect, it } from 'vitest';
import { measureDom } from '../../src/convert/dom-guard.js';
import { MAX_PARSE_DEPTH } from '../../src/convert/nesting-cap.js';
import { AUDITED_PARSER, parserHash, parseWatchApplied, parseWatched, setParseWatch } from '../../src/convert/parse-depth.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

const stock = createRequire(import.meta.url)('linkedom') as typeof linkedom;

const open = (tag: string, n: number) => `<${tag}>`.repeat(n);
const close = (tag: string, n: number) => `</${tag}>`.repeat(n);
const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

// Shapes at and around the watch's limit (MAX_PARSE_DEPTH / 2) and the cap, and the markup the replay
// reads as the parser does: implied closes, void and self-closing tags, raw text, comments, CDATA.
const PAGES: Record<string, string> = {
  'deeper than the cap': page(`${open('div', 1_200)}deep${close('div', 1_200)}<p>after</p>`),
  'between the limit and the cap': page(`${open('div', 700)}deep${close('div', 700)}<p>after</p>`),
  'at the limit': page(`${open('div', 497)}<p>x</p>${close('div', 497)}`),
  'just past the limit': page(`${open('div', 498)}<p>x</p>${close('div', 498)}`),
  'unclosed <b> past the cap, a stray </p> at the bottom': page(`${'<b>x'.repeat(1_500)}</p></br>end`),
  'implied closes: 5,000 cells, items and paragraphs': page(
    `<table><tr>${'<td>a'.repeat(5_000)}</table><ul>${'<li>b'.repeat(5_000)}</ul>${'<p>c'.repeat(5_000)}`,
  ),
  'void elements at the cap': page(`${open('span', 999)}<br><img src=x><input>${close('span', 999)}`),
  'self-closing tags in SVG past the cap': page(`<svg>${open('g', 1_100)}<path/><rect/>${close('g', 1_100)}</svg><p>after</p>`),
  'tags in a script, a style, a title, a textarea and a comment': page(
    `<script>${open('div', 2_000)}</script><style>${open('div', 2_000)}</style><textarea>${open('div', 2_000)}</textarea>` +
      `<title>${open('div', 2_000)}</title><!--${open('div', 2_000)}--><p>after</p>`,
  ),
  'a CDATA section in HTML holding deep markup': `<html><body><![CDATA[>${open('div', 1_500)}deep${close('div', 1_500)}]]></body></html>`,
  'a CDATA section in SVG': page(`<svg><![CDATA[${open('div', 1_500)}]]></svg>${open('div', 600)}x`),
  'CDATA in a script, a comment starting [CDATA[ in the body': page(
    `<script>//<![CDATA[\nvar a = 1 < 2;\n//]]></script><p>one</p><!--[CDATA[ x > <b>bold</b> -->${open('div', 60)}x`,
  ),
  'CDATA in a script only': page(`<script>//<![CDATA[\nvar a = "<div>";\n//]]></script><p>one</p><!-- [CDATA[ > <b>not</b> -->`),
  'quoted > in attributes, deep': page(`${'<div title="a>b" data-x=\'<div>\'>'.repeat(1_100)}deep`),
  'ordinary: many start tags, shallow': page(
    `<main>${'<section><h2>T</h2><p>Some <a href="/x">words</a>.</p></section>'.repeat(2_000)}</main>`,
  ),
};

afterEach(() => {
  setParseWatch(true);
});

const build = (html: string) => parseHtmlDocument(html).documentElement.outerHTML;

describe('the parse watch (parse-depth.ts)', () => {
  it('applies to the installed htmlparser2, whose Parser is the audited one', () => {
    expect(parserHash(stock.parseHTML)).toBe(AUDITED_PARSER);
    expect(parserHash()).toBe(AUDITED_PARSER);
    expect(parseWatchApplied()).toBe(true);
  });

  it.each(Object.entries(PAGES))('builds the document the replay alone builds: %s', (_name, html) => {
    const watched = build(html);
    setParseWatch(false);
    const replayed = build(html);
    expect(watched).toBe(replayed);
    expect(measureDom(parseHtmlDocument(html).documentElement).maxDepth).toBeLessThanOrEqual(MAX_PARSE_DEPTH + 2);
  });

  it('parses a page within the limit once, and gives up a deeper one or one with CDATA', () => {
    const parse = (html: string) => parseWatched(() => linkedom.parseHTML(html), MAX_PARSE_DEPTH / 2);
    expect(parse(PAGES['ordinary: many start tags, shallow']!)).toBeDefined();
    expect(parse(PAGES['at the limit']!)).toBeDefined();
    expect(parse(PAGES['tags in a script, a style, a title, a textarea and a comment']!)).toBeDefined();
    expect(parse(PAGES['just past the limit']!)).toBeUndefined();
    expect(parse(PAGES['deeper than the cap']!)).toBeUndefined();
    expect(parse(PAGES['a CDATA section in SVG']!)).toBeUndefined();
    // A comment starting `[CDATA[` is reported: parseHtmlDocument re-reads it (reopenCdata) as before.
    expect(parse(PAGES['CDATA in a script only']!)?.cdataComments).toBe(false);
    expect(parse(page('<!--[CDATA[ x > <b>bold</b> --><p>x</p>'))?.cdataComments).toBe(true);
    expect(
      parseHtmlDocument(page('<script>//<![CDATA[\n//]]></script><!--[CDATA[ x > <b>bold</b> -->')).querySelector('b')?.textContent,
    ).toBe('bold');
    expect(parseHtmlDocument(PAGES['CDATA in a script only']!).querySelector('b')).toBeNull();
    // Given up or not, the next parse is whole and unwatched.
    expect(linkedom.parseHTML(PAGES['deeper than the cap']!).document.body.textContent).toContain('deep');
    setParseWatch(false);
    expect(parse(PAGES['ordinary: many start tags, shallow']!)).toBeUndefined();
  });
});
