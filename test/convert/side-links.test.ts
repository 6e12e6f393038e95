import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { dropSideLinks } from '../../src/convert/model/side-links.js';

const paragraph = (i: number) =>
  `<p>Paragraph ${i} of the story tells one more part of what happened to the town, to its people and to the river that runs through it all year.</p>`;
/** A story of `n` paragraphs of 27 words each (150 words of prose from six). */
const story = (
  n: number,
) => `<h2><a href="/2012/05/the-story">The story's own title, linked to its permalink</a></h2><div class="byline">May 3, 2012</div>
  ${Array.from({ length: n }, (_, i) => paragraph(i)).join('')}`;
const links = (n: number) =>
  `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/other/${i}">Another story number ${i} on this blog</a></li>`).join('')}</ul>`;

/** The texts dropped when every block is kept before the rule. */
function dropped(html: string, evidence = true): string[] {
  const page = analyzeHtml(html)!;
  const kept = new Set(page.rows.blocks.map((b) => b.id));
  dropSideLinks(page.rows, kept, evidence);
  return page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.text.replace(/\s+/g, ' ').trim());
}

describe('dropSideLinks (link lists beside a story, on any page)', () => {
  it('drops a sidebar of links that outweighs the story, and keeps the story with its linked title', () => {
    const out = dropped(
      `<html><body><div id="content">${story(6)}</div><div id="sidebar"><h3>Most popular</h3>${links(45)}</div></body></html>`,
    );
    expect(out).toHaveLength(45);
    expect(out.every((t) => t.startsWith('Another story number'))).toBe(true);
  });

  it('keeps links inside the story, and a heading that is not all links', () => {
    const html = `<html><body><div id="content">${story(6)}<p><a href="/source">The source the story quotes</a></p></div><div id="sidebar"><h3>Blogroll</h3>${links(3)}</div></body></html>`;
    expect(dropped(html)).toEqual([
      'Another story number 0 on this blog',
      'Another story number 1 on this blog',
      'Another story number 2 on this blog',
    ]);
  });

  it('needs a page that shows a story: evidence from its caller, or its prose in one entry that is not one of a list', () => {
    const page = (main: string) => `<html><body>${main}<div id="sidebar"><h3>Most popular</h3>${links(45)}</div></body></html>`;
    expect(dropped(page(`<div id="content">${story(6)}</div>`), false)).toEqual([]);
    expect(dropped(page(`<article>${story(6)}</article>`), false)).toHaveLength(45);
    expect(dropped(page(`<article>${story(6)}</article><article>${story(6)}</article>`), false)).toEqual([]);
  });

  it("leaves a page without a story's worth of prose alone (a listing: its links are the page)", () => {
    expect(dropped(`<html><body><div id="content">${story(3)}</div><div id="list">${links(45)}</div></body></html>`)).toEqual([]);
  });
});
