// writer.ts against turndown itself: the same rules (createTurndown's service) must give the same
// Markdown, whether turndown converts (`service.turndown`, on a copy) or the writer (in place).

import { describe, expect, it } from 'vitest';
import { corpusPages } from '../../bench/lib/convert-corpora.js';
import { trafilaturaAvailable } from '../../bench/lib/trafilatura-data.js';
import { createTurndown } from '../../src/convert/markdown/index.js';
import { isWrappingRule, writeMarkdown } from '../../src/convert/markdown/writer.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

const service = createTurndown();
const stock = (html: string) => service.turndown(parseHtmlDocument(html).body as unknown as HTMLElement);
const written = (html: string) => writeMarkdown(service, parseHtmlDocument(html).body);
// The same service with turndown's own paragraph and list rules in place of websift's wrapping ones.
const reference = createTurndown();
const referenceRules = reference.rules as unknown as { array: object[] };
referenceRules.array = referenceRules.array.filter((rule) => !isWrappingRule(rule));
const turndownOwn = (html: string) => reference.turndown(parseHtmlDocument(html).body as unknown as HTMLElement);
const body = (inner: string) => `<html><body>${inner}</body></html>`;

// Each case exercises one of turndown's tests the writer reproduces.
const CASES: Record<string, string> = {
  // Every kind of element the rules tell apart: blank ones, removed ones, tables, lists, code, links.
  rules: `<h2>Title <em>here</em></h2><p>Text with <b>bold</b>, <i>it</i>, <s>gone</s>, <code>x_y</code>,
  <a href="/a" data-ws-href="https://e.example/a">a link</a> and <img data-ws-src="https://e.example/i.png" alt="pic">.</p>
  <div><span> </span><span></span><p>   </p><br><hr></div><blockquote><p>Quoted</p></blockquote>
  <ol start="3"><li>three</li><li>four<ul><li>nested</li></ul></li></ol><pre data-ws-lang="js">let a = 1;</pre>
  <table data-ws-cols="2"><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table>
  <dl><dt>Term</dt><dd>Definition</dd></dl><custom-el>custom</custom-el><script>gone()</script><button>Press</button>
  <table><tr><td></td></tr></table><a href="/b"></a><abbr>ABBR</abbr>`,
  // Edge whitespace: ASCII kept or dropped by the neighbour's space, other spaces (nbsp) kept.
  flanking: `<p>a <b> bold </b> b<i>\u00a0it\u00a0</i>c <em>\u00a0 x \u00a0</em> d<span> s </span><b>t </b> <i> u</i></p>
  <p><b> </b>x<b>\u00a0</b>y<strong> \u00a0 </strong>z <em><span> deep </span></em><em>e</em><span>f</span> g</p>`,
  // Blank elements: one holding a void or "meaningful when blank" element is not blank.
  blank: `<p>x<span> <img data-ws-src="https://e.example/i.png" alt="i"> </span>y<span> <a href="/q"> </a> </span>z
  <em> <br> </em>w<div>\u00a0</div><section> <table><tr><td> </td></tr></table> </section><b>\u2003</b>v</p>
  <table data-ws-cols="2"><tr><th>k</th><th>v</th></tr><tr><td> </td><td></td></tr></table>`,
  // Code: no escaping inside, nested code, and escaping outside.
  code: `<p>1. not a list * star _under_ [b] <code>a_b*c</code> <code><b>x_</b></code> # h</p>
  <p>- dash</p><p>+ plus</p><p>## hash</p><p>&gt; quote</p><p>=== eq</p><p>~~~ t</p><p>back\\slash \`tick\`</p>`,
  // Newlines joining blocks and inlines, comments and CDATA-like text, whitespace runs.
  joins: `text<div>block</div>more<br><br><br>after<p></p><p>\n\n  spaced \t\n out  </p><!-- c -->tail
  <ul><li><p>para</p><p>two</p></li><li>x</li></ul><div><div><div>deep</div></div>after</div>  `,
  // Inline elements at the very start and end; a trailing space to trim.
  ends: ` <span> lead</span> mid <b>end </b> `,
  // Whitespace runs: single spaces left as they are, every other run (two spaces, tab, CR, LF) as one space.
  // Lists in lists (a last child of its item, or not), empty and blank paragraphs and lists, and
  // newlines at an inline element's edges (a <br>, a <pre>'s text, beside non-ASCII spaces).
  nesting: `<ul><li>a<ul><li>b<ol><li>c</li></ol></li></ul></li><li>d<ol><li>e</li></ol>tail</li><li><ul></ul></li></ul>
  <p></p><p><span></span></p><p><br></p><ol><li></li></ol><div><p>in</p></div><p>x<span>\u00a0<br></span>y</p>
  <p>x <span>\u00a0<pre>\ncode\n\n</pre>\u00a0</span> y</p><p><b>\u00a0<br><br></b></p><span><pre>\n\n</pre></span>z`,
  runs: `<p>one two three</p><p>a\nb</p><p>a\tb  c</p><p> lead</p><p>trail </p><p>x\r\ny</p><p>\n</p><p>  </p>
  <p>u <b> v</b>\t<i>w </i> <span>\n</span>z</p>`,
};

describe('the Markdown writer (writer.ts) against turndown', () => {
  for (const [name, html] of Object.entries(CASES)) {
    it(`gives turndown's Markdown: ${name}`, () => {
      const md = written(body(html));
      expect(md).toBe(stock(body(html)));
      expect(md).not.toBe('');
    });
  }

  it("gives Markdown of turndown's own paragraph and list rules (wrappingRule)", () => {
    expect(referenceRules.array.length).toBe((service.rules as unknown as { array: object[] }).array.length - 2);
    for (const html of Object.values(CASES)) expect(written(body(html))).toBe(turndownOwn(body(html)));
  });

  it('keeps websift rules and turndown defaults (a few outputs spelled out)', () => {
    const md = written(body(CASES.rules!));
    expect(md).toContain('## Title *here*');
    expect(md).toContain('| 1 | 2 |');
    expect(md).toContain('3. three');
    expect(md).toContain('> Quoted');
    expect(written(body(CASES.code!))).toContain('`a_b*c`');
  });

  it.skipIf(!trafilaturaAvailable())(
    'gives turndown Markdown on whole trafilatura-eval pages (every 40th)',
    () => {
      let i = 0;
      let n = 0;
      for (const p of corpusPages(['traf'])) {
        if (i++ % 40 !== 0) continue;
        expect(written(p.html), p.id).toBe(stock(p.html));
        n++;
      }
      expect(n).toBeGreaterThan(10);
    },
    120_000,
  );
});
