import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { readabilityArea, spacedText } from '../../src/convert/model/readability-area.js';
import { keepStoryArea } from '../../src/convert/model/story-area.js';

const paragraph = (i: number) =>
  `<p>Paragraph ${i} of the story tells, at some length, one more part of what happened to the town, to its people and to the river that runs through it all year long.</p>`;
const story = (n: number) => Array.from({ length: n }, (_, i) => paragraph(i)).join('');
/** Other stories' headline + dek units: prose, not all links, so no link rule drops them. */
const teasers = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<div class="teaser"><h3><a href="/news/${i}">Headline of another story number ${i}</a></h3><p>A dek of twenty words or so that sums up the other story, with a comma, and sends the reader there.</p></div>`,
  ).join('');

/** The texts dropped when every block is kept before the rule. */
function dropped(html: string, evidence = true): string[] {
  const page = analyzeHtml(html)!;
  const kept = new Set(page.rows.blocks.map((b) => b.id));
  keepStoryArea(page.rows, kept, evidence, evidence);
  return page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.text.replace(/\s+/g, ' ').trim());
}

describe('readabilityArea (Readability-style candidate on websift blocks)', () => {
  it("finds the story's container, not the teaser river nor the sidebar", () => {
    const page = analyzeHtml(
      `<html><body><div id="main"><div class="entry">${story(10)}</div></div><div id="rail"><div class="river">${teasers(6)}</div></div></body></html>`,
    )!;
    const area = readabilityArea(page.rows)!;
    // The entry is its wrapper's only child: Readability moves up to the wrapper.
    expect(area.top.getAttribute('id')).toBe('main');
    expect(area.parts).toEqual([area.top]);
  });

  it('moves to the common container of close rivals (a story split over sibling <div>s)', () => {
    const page = analyzeHtml(
      `<html><body><div id="story"><div>${story(2)}</div><div>${story(2)}</div><div>${story(2)}</div><div>${story(2)}</div></div><div id="rail">${teasers(2)}</div></body></html>`,
    )!;
    expect(readabilityArea(page.rows)!.top.getAttribute('id')).toBe('story');
  });
});

describe('keepStoryArea (what lies outside the story area goes)', () => {
  it("drops a teaser river of headlines and deks beside the story, and keeps the story's title and byline", () => {
    const out = dropped(
      `<html><body><h1>The town and its river</h1><p class="byline">By A. Writer, May 3, 2012</p><div id="main"><div class="entry">${story(10)}</div></div><div id="rail"><div class="river">${teasers(6)}</div></div></body></html>`,
    );
    expect(out).toHaveLength(12);
    expect(out.every((t) => t.startsWith('Headline of another') || t.startsWith('A dek'))).toBe(true);
  });

  it('drops a sponsor box and a blogroll outside the story on a short post', () => {
    const out = dropped(
      `<html><body><div id="sidebar"><h3>Blogroll</h3><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/b${i}">Blog ${i}</a></li>`).join('')}</ul></div><div id="post"><h2>A short post</h2><div class="entry">${story(1)}</div></div><div class="box"><p>Sponsored: our partner sells the finest boats on the river, at prices that float.</p></div></body></html>`,
    );
    expect(out).toContain('Blog 0');
    expect(out).toContain('Sponsored: our partner sells the finest boats on the river, at prices that float.');
    expect(out).not.toContain('A short post');
    expect(out.some((t) => t.startsWith('Paragraph'))).toBe(false);
  });

  it('leaves the page alone when the largest paragraph lies outside the area (the candidate is a fact box)', () => {
    const box = Array.from(
      { length: 8 },
      (_, i) => `<tr><td>Fact ${i}, with a comma, and another comma, and a third one, for the score.</td></tr>`,
    ).join('');
    const long = `<p>${'A long paragraph of the real story that holds more words than any other block on the page. '.repeat(4)}</p>`;
    expect(dropped(`<html><body><div class="b"><table>${box}</table></div><section>${long}<p>Short.</p></section></body></html>`)).toEqual(
      [],
    );
  });

  it('leaves a list of entries alone (an infinite-scroll page of articles)', () => {
    const longer = `<p>${'The second story is told in longer paragraphs, with commas, than the first one is. '.repeat(3)}</p>`;
    const html = `<html><body><article><h1>First</h1><div class="text">${story(8)}</div></article><article><h1>Second</h1><div class="text">${longer.repeat(5)}</div></article></body></html>`;
    expect(dropped(html)).toEqual([]);
  });

  it('needs page evidence: a declared story or a thread (caller), an entry, or an area with most of the prose', () => {
    const page = (river: number, story = '') =>
      `<html><body><div id="main"><div class="entry">${story}</div></div><div id="rail"><div class="river">${teasers(river)}</div></div></body></html>`;
    const body = Array.from({ length: 10 }, (_, i) => paragraph(i)).join('');
    // Six deks make a quarter of the prose: not dominant, so only with evidence.
    expect(dropped(page(6, body), false)).toEqual([]);
    expect(dropped(page(6, body), true)).toHaveLength(12);
    // The story in an <article>: an entry.
    expect(dropped(page(6, `<article>${body}</article>`), false)).toHaveLength(12);
    // Three deks: the area holds over 80 % of the prose.
    expect(dropped(page(3, body), false)).toHaveLength(6);
  });

  it("leaves the page alone when the area holds under 30 % of the kept words that are not links (a listing's cards)", () => {
    const cards = Array.from({ length: 40 }, (_, i) => `<li><h4>Award ${i}</h4><span>Winner of the year in its class</span></li>`).join('');
    const html = `<html><body><div id="top"><div class="box">${story(2)}</div></div><ul id="grid">${cards}</ul></body></html>`;
    expect(dropped(html)).toEqual([]);
  });

  it("leaves a listing alone whose cards outweigh the area (the area is the listing's description box)", () => {
    const cards = (n: number) =>
      Array.from(
        { length: n },
        (_, i) =>
          `<div class="card"><h3><a href="/recipe/${i}">Recipe number ${i} for the air fryer</a></h3><p>A short line on recipe ${i}: crisp, quick, and ready in twenty minutes with little oil at all.</p></div>`,
      ).join('');
    const page = (n: number) =>
      `<html><body><div id="main"><div class="description">${story(6)}</div></div><div id="rail"><div class="grid">${cards(n)}</div></div></body></html>`;
    // Eight cards (200 words) outweigh the description (192 words that are not links): the cards are the page.
    expect(dropped(page(8))).toEqual([]);
    // Three cards are too few to make a listing: they go as a teaser river would.
    expect(dropped(page(3))).toHaveLength(6);
  });

  it("leaves a shop's product page alone", () => {
    const data = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Boat","offers":{"@type":"Offer","price":"10","priceCurrency":"EUR"}}</script>`;
    const html = `<html><head>${data}</head><body><div id="main"><div class="entry">${story(10)}</div></div><div id="rail"><div class="river">${teasers(6)}</div></div></body></html>`;
    expect(dropped(html)).toEqual([]);
  });
});

describe("spacedText (a block text's length and commas as Readability reads them)", () => {
  const reference = (text: string) => {
    const t = text.replace(/\s+/g, ' ').trim();
    return { length: t.length, commas: t.match(/[\u002C\u060C\uFE50\uFE10\uFE11\u2E41\u2E34\u2E32\uFF0C]/g)?.length ?? 0 };
  };

  it('counts what the collapsed, trimmed text holds, for every UTF-16 code unit as a space or a letter', () => {
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      const text = `${ch}a${ch}${ch}b,${ch}`;
      const [got, want] = [spacedText(text), reference(text)];
      if (got.length !== want.length || got.commas !== want.commas) wrong.push(`U+${c.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('agrees on texts with runs of mixed spaces, edges and every comma Readability counts', () => {
    for (const text of ['', '   ', ' \n\t a  b \u00a0\u3000 c ', 'x,y،z﹐、︑⹁⸴⸲，', '\ufeffword\u2028\u2029end\u202f', 'a'.repeat(300)])
      expect(spacedText(text)).toEqual(reference(text));
  });
});
