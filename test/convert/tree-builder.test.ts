// The tree builder (tree-builder.ts): one handler driven by htmlparser2's Tokenizer in place of its Parser
// and linkedom's handler. Every shape here is parsed both ways and the two documents must hold the same
// nodes, in the same order, with the same parents, values and own keys.

import { parseHTML } from 'linkedom';
import { afterEach, describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { parseWatched } from '../../src/convert/parse-depth.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import {
  AUDITED_PARSE,
  documentNodes,
  nameHash,
  parseDocument,
  parseSourcesHash,
  setNameHashBasis,
  setTreeBuilder,
  treeBuilderApplied,
} from '../../src/convert/tree-builder.js';

const page = (body: string) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;

const SHAPES: Record<string, string> = {
  'p closed by p, div, list, table, heading': page('<p>a<p>b<div>c</div><p>d<ul><li>e</ul><p>f<table><tr><td>g</table><p>h<h2>i</h2>'),
  'li, dt, dd, option, optgroup closed by their siblings': page(
    '<ul><li>1<li>2<li>3</ul><dl><dt>t<dd>d<dt>u<dd>e</dl><select><option>a<option>b<optgroup><option>c<optgroup>x</select>',
  ),
  'h1–h6 inside p': page('<p>x<h1>1</h1><p>y<h2>2</h2><p>z<h3>3<p>in</h3><h4>4</h4><h5>5</h5><h6>6</h6>'),
  'td, th, tr, thead, tbody, tfoot implied': page('<table><thead><tr><th>a<th>b<tbody><tr><td>1<td>2<tr><td>3<tfoot><tr><td>f</table>'),
  'form controls closing each other': page('<form><select><option>a<input name=x><button>b<textarea>t</textarea><output>o</form>'),
  'rt and rp': page('<ruby>漢<rp>(<rt>kan<rp>)<rt>ji</ruby>'),
  '</br>, </p> with no open p, stray end tags': page('<div>a</br>b</p>c</span></table></li></div></div></body>d</p></br></html>'),
  'void elements with and without /, and as end tags': page(
    '<p>a<br>b<br/>c<br />d<img src=x>e<img src=y/>f</img><hr/><input type=text><wbr></p>',
  ),
  'upper-case names, classes to normalise': page(
    '<div class=" b  a\tb "></div><svg class=" s  t s"></svg><DIV ID=a CLASS="B  c"><P>x<BR>y</P><TaBlE><TR><TD>z</TABLE></DIV>',
  ),
  'svg: camelCase children, self-closing, foreign lower-casing, nested svg': page(
    '<svg viewBox="0 0 10 10" xmlns:xlink="x"><linearGradient id=g><stop offset=0 /></linearGradient><clipPath/>' +
      '<foreignObject><p/>html<b>b</b></foreignObject><g><path d="M0 0"/><svg><rect/></svg></g><desc>d</desc><p>in svg</svg><p/>after',
  ),
  'svg self-closed leaves a foreign context behind': page('<svg/><div/>x<span/>y</span></div>'),
  'math and its integration points': page('<math><mi>x</mi><mo/>+<mrow><mn>1</mn></mrow><annotation-xml><p/>q</annotation-xml></math><p>a'),
  'attributes: entities, duplicates, quotes, no value': page(
    `<a href="/x?a=1&amp;b=2&lt;&#39;&unknown;" title='it&apos;s' data-u=a&gt;b checked id=a id=b ID=c class=k class=l>x</a>`,
  ),
  'attributes: array-index names, __proto__, repeated past the scan': page(
    `<div b=1 2=two 10=ten 1=one 0=zero 01=z 4294967295=big 4294967294=max __proto__=p constructor=c>x</div><p ${Array.from(
      { length: 40 },
      (_, i) => `a${i % 13}=v${i}`,
    ).join(' ')} class="m  n" 7=a class=dup 7=b a3=late 3=c>y</p>`,
  ),
  'CDATA in svg and in html': page('<svg><![CDATA[ a < b ]]><text>t</text></svg><div><![CDATA[ x > <b>bold</b> ]]>after</div>'),
  'doctype variants and processing instructions': `<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "http://x/y.dtd"><html><body><!doctype other>x</body></html>`,
  'comments, short and odd': page('<!-- a --><!----><!--->x<!-- b -- c --><!--[CDATA[ d ]]--><? pi ?><!bogus>y</ a>'),
  'text with entities': page('<p>&amp;&lt;&gt;&quot;&nbsp;&copy;&#169;&#xA9;&#x1F600;&amp &notin; &notit; &unknown; tail</p>'),
  'raw text elements': page(
    '<script>if (a < b && c > d) { x = "</div>"; }</script><style>p > a { }</style><textarea><b>&amp;</textarea><title>&lt;t&gt;</title><xmp><i></xmp>',
  ),
  'content after </html> and a second body': '<html><head></head><body><p>a</p></body></html><p>after</p><body class=x><div>more',
  'unclosed tags at the end of the input': page('<div><span><b>x<i>y'),
  'a tag the input ends inside': '<html><body><div class="a">x<p id="b" class="c',
  'an attribute value the input ends inside': '<div><a href="/x?a=1&amp;b',
  'a comment the input ends inside': '<div>x<!-- not closed <p>y',
  'a CDATA section the input ends inside': '<svg><![CDATA[ never closed',
  'a fragment without html or body': '<p>one</p><p>two',
  'empty input': '',
  'text only': 'just text &amp; more',
};

afterEach(() => {
  setTreeBuilder(true);
});

const both = (parse: (html: string) => Document, html: string) => {
  setTreeBuilder(true);
  const built = documentNodes(parse(html));
  setTreeBuilder(false);
  const linkedomOwn = documentNodes(parse(html));
  setTreeBuilder(true);
  return { built, linkedomOwn };
};

describe('the tree builder (tree-builder.ts)', () => {
  it('applies to the installed htmlparser2 and linkedom, whose sources are the audited ones', () => {
    expect(AUDITED_PARSE).toContain(parseSourcesHash());
    expect(treeBuilderApplied()).toBe(true);
  });

  it('gives linkedom the document linkedom builds when switched off', () => {
    setTreeBuilder(false);
    expect(treeBuilderApplied()).toBe(false);
    const html = SHAPES['attributes: entities, duplicates, quotes, no value']!;
    expect(documentNodes(parseDocument(html))).toBe(documentNodes(parseHTML(html).document as unknown as Document));
  });

  it('keeps the first of repeated names when the names past the scan are made to collide (the hashes given up for a sort)', () => {
    // 80 names whose hashes share their low 8 bits under a known basis: more than MAX_PROBES (64) in one run
    // of slots, also while the table grows, so the tag's repeats are found by the sort.
    const before = setNameHashBasis(0x2545f491);
    try {
      const buckets = new Map<number, string[]>();
      let colliding: string[] = [];
      for (let i = 0; colliding.length < 80; i++) {
        const name = `n${i.toString(36)}`;
        const low = nameHash(name) & 255;
        const list = buckets.get(low) ?? [];
        list.push(name);
        buckets.set(low, list);
        if (list.length > colliding.length) colliding = list;
      }
      const scan = Array.from({ length: 8 }, (_, i) => `s${i}="${i}"`).join(' ');
      const names = colliding.map((n, i) => `${n}="v${i}"`).join(' ');
      const repeats = `${colliding[3]}="again" ${colliding[70]}="again" class="first" class="second" s2="again"`;
      const html = page(`<p ${scan} ${names} ${repeats}>text</p>`);
      const { built, linkedomOwn } = both(parseDocument, html);
      expect(built).toBe(linkedomOwn);
      expect(built).toContain('v3');
      expect(built).not.toContain('again');
    } finally {
      setNameHashBasis(before);
    }
  });

  it.each(Object.entries(SHAPES))('builds the nodes linkedom builds: %s', (_name, html) => {
    const { built, linkedomOwn } = both(parseDocument, html);
    expect(built).toBe(linkedomOwn);
  });

  it('builds the pages parseHtmlDocument makes and their Markdown alike', () => {
    for (const html of Object.values(SHAPES)) {
      const { built, linkedomOwn } = both(parseHtmlDocument, html);
      expect(built).toBe(linkedomOwn);
    }
    const html = page(`<h1>Title</h1>${'<p>Some words of the page, &amp; more of them <a href="/x">here</a>.</p>'.repeat(20)}`);
    const md = htmlToMarkdown(html);
    setTreeBuilder(false);
    expect(htmlToMarkdown(html)).toBe(md);
  });

  it('keeps the parse watch: given up past the depth and at CDATA, a [CDATA[ comment reported', () => {
    const deep = page(`${'<div>'.repeat(600)}x`);
    expect(parseWatched(() => parseDocument(deep), 500)).toBeUndefined();
    expect(parseWatched(() => parseDocument(deep), 602)?.value).toBeDefined();
    const stray = page(`${'<b>'.repeat(497)}</p>`);
    expect(parseWatched(() => parseDocument(stray.replace('</p>', '')), 499)?.value).toBeDefined();
    expect(parseWatched(() => parseDocument(stray), 499)).toBeUndefined();
    expect(parseWatched(() => parseDocument(SHAPES['CDATA in svg and in html']!), 500)).toBeUndefined();
    expect(parseWatched(() => parseDocument(page('<!--[CDATA[ x -->')), 500)?.cdataComments).toBe(true);
    expect(parseWatched(() => parseDocument(page('<!-- [CDATA[ x -->')), 500)?.cdataComments).toBe(false);
  });
});
