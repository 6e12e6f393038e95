// segmentPage's one walk over linkedom's node list gives what segmentBlocks, computeTextStats and
// descendants give apart (it stands in for all three in analyzeHtml).

import { describe, expect, it } from 'vitest';
import { removeInvisible } from '../../src/convert/clean-dom.js';
import { descendants } from '../../src/convert/dom-utils.js';
import { linkedomReadsApplied } from '../../src/convert/linkedom-reads.js';
import { segmentBlocks } from '../../src/convert/model/blocks.js';
import { countElements, type PageText, segmentPage } from '../../src/convert/model/segment-page.js';
import { computeTextStats } from '../../src/convert/model/text-stats.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';

const PAGES = [
  '<div>Lead words <p>First <a href="/x">linked words</a> end</p><ul><li>One item</li></ul> tail</div>',
  '<pre><div>code line</div>\n<p>more code</p></pre><p>Ελληνικά κείμενο, 日本語 and café_au_lait 4090</p>',
  '<nav><a href="/">Home</a> <a href="/a"><span>About <b>us</b></span></a></nav><article><h1>Title</h1><p>One <img src=x alt=y> two</p></article>',
  '<table><tr><td>cell <a href=#>link <a href=#>nested</a></a></td><td></td></tr></table><template><p>t words</p></template><br>tail',
  '<div class="x"><!-- comment --><p>a</p>text<![CDATA[ data ]]><A HREF="/">Upper case link</A><IMG SRC=z></div><p>   </p><p>é</p>',
  '<main><section><div><div><p>deep <em>inline <strong>text</strong></em> here</p></div></div></section></main><footer>foot, words</footer>',
  '',
  'just text in the body',
];

function expectSame(body: Element): void {
  const page = segmentPage(body);
  const elements = descendants(body);
  expect(page.elements).toEqual(elements);
  expect(page.elements.every((e, i) => e === elements[i])).toBe(true);
  const blocks = segmentBlocks(body);
  expect(page.blocks.map(({ el, ...rest }) => rest)).toEqual(blocks.map(({ el, ...rest }) => rest));
  expect(page.blocks.every((b, i) => b.el === blocks[i]!.el)).toBe(true);
  // The counts by number: computeTextStats' word counts, each element's parent and subtree end.
  const stats = computeTextStats(body, elements);
  const c = page.counts;
  expect(c.root).toBe(body);
  expect(c.words.length).toBe(stats.size);
  const all = [body, ...elements];
  all.forEach((el, n) => {
    expect(statsAt(page, n)).toEqual(stats.get(el));
    expect(c.parent[n]).toBe(n === 0 ? -1 : all.indexOf(el.parentElement!));
    const below = descendants(el).length;
    expect(c.last[n]).toBe(n + below);
  });
  expect([...c.blockNode]).toEqual(page.blocks.map((b) => all.indexOf(b.el)));
  // The walk's fallback (countElements) gives the same.
  const fallback = countElements(body, page.blocks, elements);
  for (const k of ['words', 'linkWords', 'links', 'parent', 'last', 'blockNode'] as const) expect([...fallback[k]]).toEqual([...c[k]]);
}

const statsAt = (page: PageText, n: number) => ({
  words: page.counts.words[n],
  linkWords: page.counts.linkWords[n],
  links: page.counts.links[n],
});

describe('segmentPage', () => {
  it('reads linkedom’s node list here (the fast paths are on)', () => {
    parseHtmlDocument('<p>x</p>');
    expect(linkedomReadsApplied()).toBe(true);
  });

  it.each(PAGES.map((html, i) => [i, html]))('page %i: the blocks, word counts and elements of the three passes', (_, html) => {
    const doc = parseHtmlDocument(`<html><body>${html}</body></html>`);
    expectSame(doc.body);
    removeInvisible(doc.documentElement);
    expectSame(doc.body);
  });

  it('counts words per script as each pass did: other scripts only for blocks', () => {
    const body = parseHtmlDocument('<html><body><p>Ελληνικά κείμενο and <a href="/">one é</a></p></body></html>').body;
    const page = segmentPage(body);
    const p = page.blocks.find((b) => b.el.localName === 'p')!;
    expect(p.tokens).toBe(5);
    expect(p.linkTokens).toBe(2);
    expect(statsAt(page, page.elements.indexOf(p.el) + 1)).toEqual({ words: 2, linkWords: 1, links: 1 });
  });

  it('gives a subtree root its own counts and a root block', () => {
    const body = parseHtmlDocument('<html><body><div><a href="/">two words</a> three</div><p>four</p></body></html>').body;
    const div = body.firstElementChild!;
    expectSame(div);
    expect(statsAt(segmentPage(div), 0)).toEqual({ words: 3, linkWords: 2, links: 1 });
  });
});
