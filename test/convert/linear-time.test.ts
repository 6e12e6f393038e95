// No super-linear step on any input (issue 32): each converter is fed growing inputs of each hostile
// shape — long runs of whitespace, punctuation, `*`, `_`, backticks, brackets and line breaks, deep
// nesting, wide rows — and its time at 4n is compared with its time at n. n·log n grows ~4.5× from n
// to 4n, a quadratic step 16×: a ratio over 10 fails. Sizes grow until the time at n is measurable
// (≥ 25 ms; a time at 4n under 250 ms passes whatever the ratio), each time is the median of 5 interleaved runs less the time of a tiny input, and a shape is measured again (up to 3
// times) before it fails, so a busy machine slows both sizes alike and does not fail the test; a
// quadratic step fails every time. (Before the fixes of issue 32: fence's `/\s+$/` 26×, turndown's
// final trim 16×, the CSV cell regex 15×, plainTextOfHtml 16×, tidy's link-target regex 8–16×.)
// The check itself is test/support/growth.ts (the passages share it).

import { describe, it } from 'vitest';
import { plainTextOfHtml } from '../../src/conversion/plain-text.js';
import { documentToMarkdown } from '../../src/convert/document-to-markdown.js';
import { tidyMarkdown } from '../../src/convert/markdown/tidy.js';
import { expectLinear, type Shape } from '../support/growth.js';

const as = (mimeType: string) => (text: string) => documentToMarkdown({ mimeType, text, finalUrl: 'https://example.test/page' });
const html = as('text/html');
const rep = (s: string, n: number) => s.repeat(Math.max(1, Math.floor(n / s.length)));

const NBSP = '\u00a0';

/** A four-letter word of its own for each i below 26^4 (a class word: letters, 3–20 of them). */
const distinctWord = (i: number) => {
  let s = '';
  for (let k = 0; k < 4; k++, i = Math.floor(i / 26)) s += String.fromCharCode(97 + (i % 26));
  return s;
};

const HTML_SHAPES: Record<string, Shape> = {
  'spaces in <pre>': (n) => `<pre>a${' '.repeat(n)}b</pre><p>Some words of text here.</p>`,
  'spaces then &nbsp; in <pre>': (n) => `<pre><b>x${' '.repeat(n)}&nbsp;</b>y</pre>`,
  'newlines in <pre>': (n) => `<pre>a${'\n'.repeat(n)}b</pre>`,
  '&nbsp; entities in a paragraph': (n) => `<p>a${rep('&nbsp;', n)}b</p>`,
  'no-break spaces in bold': (n) => `<p><b>a${NBSP.repeat(n)}b</b> text</p>`,
  'no-break spaces in a heading': (n) => `<h1>a${NBSP.repeat(n)}b</h1><p>Text of the page.</p>`,
  'no-break spaces in a table cell': (n) => `<table><tr><th>a</th><th>b</th></tr><tr><td>x${NBSP.repeat(n)}y</td><td>z</td></tr></table>`,
  '<br> in a list item': (n) => `<ul><li>a${rep('<br>', n)}b</li></ul>`,
  '<br> in a heading': (n) => `<h2>a${rep('<br>', n)}b</h2><p>Text of the page.</p>`,
  asterisks: (n) => `<p>${'*'.repeat(n)}</p>`,
  underscores: (n) => `<p>${'_'.repeat(n)}</p>`,
  backticks: (n) => `<p>${'`'.repeat(n)}</p>`,
  'backtick words': (n) => `<p>${rep('`a ', n)}</p>`,
  brackets: (n) => `<p>${rep('[](', n)}</p>`,
  'unclosed link targets after a title': (n) => `<h1>T</h1><p>T ${rep('](', n)}</p>`,
  'backslashes and signs': (n) => `<p>${rep('\\- 1. # > ', n)}</p>`,
  punctuation: (n) => `<p>${rep('!?.,;:-–—|/', n)}</p>`,
  'one long word': (n) => `<p>${'a'.repeat(n)}</p>`,
  'nested divs': (n) => `${rep('<div>', n)}text${rep('</div>', n)}`,
  'nested spans': (n) => `<p>${rep('<span>', n)}text${rep('</span>', n)}</p>`,
  'nested lists': (n) => `${rep('<ul><li>a', n)}${rep('</li></ul>', n)}`,
  'nested quotes': (n) => `${rep('<blockquote>q', n)}${rep('</blockquote>', n)}`,
  'wide table': (n) => `<table><tr>${rep('<th>h</th>', n)}</tr><tr><td>x</td></tr><tr>${rep('<td>y</td>', n)}</tr></table>`,
  'long table': (n) => `<table>${rep('<tr><td>a</td><td>b</td></tr>', n)}</table>`,
  'long list': (n) => `<ol>${rep('<li>item</li>', n)}</ol>`,
  'many paragraphs': (n) => rep('<p>Some words.</p>', n),
  'inline boxes': (n) => `<p>${rep('<span>a</span>', n)}</p>`,
  'many links': (n) => `<p>${rep('<a href="/x">x</a> ', n)}</p>`,
  'many images': (n) => `<p>${rep('<img src="/i.png" alt="i">', n)}</p>`,
};

// One tag's attributes, from a size where a quadratic step shows (each name checked against the tag's
// earlier ones was: a parse cut tried on 2026-12-06 took 2 s on 40,000 attributes and passed at 16,000 bytes).
const ATTRIBUTE_SHAPES: Record<string, Shape> = {
  'attributes on one tag': (n) => `<p ${Array.from({ length: Math.max(1, Math.floor(n / 8)) }, (_, i) => `a${i}="x"`).join(' ')}>text</p>`,
  'one attribute repeated on one tag': (n) => `<p ${rep('a="x" ', n)}>text</p>`,
  // The block features split an element's class and id into words, each kept once (each word checked
  // against the earlier ones was: 400 KB took 30 s on 2026-12-06).
  'a class and an id of many distinct words': (n) => {
    const words = (from: number) => Array.from({ length: Math.max(1, Math.floor(n / 10)) }, (_, i) => distinctWord(from + i));
    return `<div class="${words(0).join(' ')}" id="${words(n).join('-')}"><p>Some words of the page.</p></div>`;
  },
};

describe('converters take no super-linear step', () => {
  it.each(Object.entries(HTML_SHAPES))('HTML: %s', (_name, shape) => expectLinear(html, shape, 16_000));
  it.each(Object.entries(ATTRIBUTE_SHAPES))('HTML: %s', (_name, shape) => expectLinear(html, shape, 100_000, 1_600_000));

  it.each(
    Object.entries<Shape>({
      'spaces in a quoted cell': (n) => `a,b\n"x${' '.repeat(n)}y",z\n`,
      'line breaks in a quoted cell': (n) => `a,b\n"x${'\n'.repeat(n)}y",z\n`,
      'doubled quotes': (n) => `a,b\n"${'""'.repeat(n / 2)}",z\n`,
      'wide header, one-cell rows': (n) => `${rep('a,', n / 2)}\n${rep('x\n', n / 2)}`,
      'many rows': (n) => rep('a,b,c\n', n),
      pipes: (n) => `a,b\n${'|'.repeat(n)},z\n`,
    }),
  )('CSV: %s', (_name, shape) => expectLinear(as('text/csv'), shape));

  it.each(
    Object.entries<Shape>({
      'whitespace in the middle': (n) => `{"a": 1${' '.repeat(n)}, "b": 2`,
      'whitespace in a valid document': (n) => `{"a":${' '.repeat(n)}1}`,
      'nested arrays': (n) => `${'['.repeat(n / 2)}${']'.repeat(n / 2)}`,
      'nested objects': (n) => `${rep('{"a":', n)}1${'}'.repeat(Math.floor(n / 5))}`,
      'nested objects, broken': (n) => `${rep('{"a":', n)}1`,
      'long string': (n) => `{"a": "${'x'.repeat(n)}"}`,
      'backticks in a string': (n) => `{"a": "${'`'.repeat(n)}"}`,
      'many keys': (n) => `{${Array.from({ length: Math.floor(n / 10) }, (_, i) => `"k${i}":1`).join(',')}}`,
      'many numbers': (n) => `[${rep('1e20,', n)}1]`,
    }),
  )('JSON: %s', (_name, shape) => expectLinear(as('application/json'), shape));

  it.each(
    Object.entries<Shape>({
      'whitespace in a document': (n) => `<a>x${' '.repeat(n)}y</a>`,
      'nested elements': (n) => `${rep('<a>', n)}${rep('</a>', n)}`,
      'spaces in a feed title': (n) => `<rss><channel><title>x${' '.repeat(n)}y</title><item><title>t</title></item></channel></rss>`,
      'many feed items': (n) =>
        `<rss><channel><title>x</title>${rep('<item><title>t</title><link>https://e.test/</link></item>', n)}</channel></rss>`,
      'many atom entries': (n) => `<feed><title>x</title>${rep('<entry><title>t</title><link href="https://e.test/"/></entry>', n)}</feed>`,
      'many sitemap urls': (n) => `<urlset>${rep('<url><loc>https://e.test/</loc></url>', n)}</urlset>`,
    }),
  )('XML: %s', (_name, shape) => expectLinear(as('application/xml'), shape));

  it.each(
    Object.entries<Shape>({
      'line breaks': (n) => `a${'\r\n'.repeat(n / 2)}b`,
      spaces: (n) => `a${' '.repeat(n)}b`,
    }),
  )('plain text: %s', (_name, shape) => expectLinear(as('text/plain'), shape));

  it.each(
    Object.entries<Shape>({
      'unclosed <script>': (n) => rep('<script>', n),
      'unclosed <script without >': (n) => rep('<script', n),
      'unclosed comments': (n) => rep('<!--', n),
      'unclosed tags': (n) => '<'.repeat(n),
      'unclosed block tags': (n) => rep('<p', n),
      'spaces and a line break': (n) => `a${'\u00a0'.repeat(n)}b\nc`,
    }),
  )('plain text of HTML (the fallback): %s', (_name, shape) => expectLinear(plainTextOfHtml, shape));

  it.each(
    Object.entries<Shape>({
      'trailing blanks mid-line': (n) => `a${' '.repeat(n)}b`,
      'backticks and escapes': (n) => `text ${rep('`\\-', Math.min(n, 1_990))}`,
      'unclosed link targets': (n) => `# T\n\nT ${rep('](', n)}`,
      'many lines': (n) => rep('line\n\n', n),
      'table rows': (n) => `| a | b |\n| --- | --- |\n${rep('| | |\n', n)}`,
    }),
  )('Markdown tidy: %s', (_name, shape) => expectLinear(tidyMarkdown, shape));
});
