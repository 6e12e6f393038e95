import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { dropTitledSideLinks } from '../../src/convert/model/titled-story.js';

const links = (n: number, name = 'Friend') =>
  `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="https://blog${i}.example/">${name} blog ${i}</a></li>`).join('')}</ul>`;

/** A photo post: a date, a linked site banner, the post's title, two short lines, beside a blogroll. */
const photoPost = (title = 'Stud Love', docTitle = 'Kingdom Of Style: Stud Love') => `<html><head><title>${docTitle}</title></head><body>
  <div id="banner"><h1><a href="/">Kingdom Of Style</a></h1></div>
  <div id="alpha"><h2>Recent Posts</h2>${links(8, 'Recent')}<h2>Friends and favourites</h2>${links(40)}</div>
  <div id="beta"><h2 class="date-header">Thursday, 01 November 2012</h2>
    <div class="post hentry"><h3>${title}</h3><div class="entry-body"><p>I heart you....</p><p>Queen Michelle</p></div></div></div>
  </body></html>`;

/**
 * The texts dropped when every block is kept before the rule (but those the classifier dropped: `before`);
 * `evidence`: the page declares a story or has a comment thread.
 */
function dropped(html: string, before: string[] = [], evidence = false): string[] {
  const page = analyzeHtml(html)!;
  const kept = new Set(page.rows.blocks.filter((b) => !before.includes(b.text.trim())).map((b) => b.id));
  dropTitledSideLinks(page.rows, kept, evidence);
  return page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.text.replace(/\s+/g, ' ').trim());
}

describe('dropTitledSideLinks (link lists beside a short story under its title)', () => {
  it('drops the blogroll and recent posts beside a three-line post, keeping the post, its title and the headings', () => {
    const out = dropped(photoPost());
    expect(out).toHaveLength(48 + 1); // the two lists and the linked site banner
    expect(out).toContain('Kingdom Of Style');
    expect(out.filter((t) => t.startsWith('Friend blog'))).toHaveLength(40);
    expect(out).not.toContain('I heart you....');
    expect(out).not.toContain('Stud Love');
  });

  it('needs a heading whose every word is in the document title', () => {
    expect(dropped(photoPost('Stud Love', 'Kingdom Of Style'))).toEqual([]);
  });

  it('needs text that is not links under the title: a site banner followed by a menu is no story', () => {
    const html = `<html><head><title>Kingdom Of Style: Stud Love</title></head><body>
      <h1><a href="/">Kingdom Of Style</a></h1>${links(20)}<div><h2>Other things</h2><p>Some words here and there.</p></div></body></html>`;
    expect(dropped(html)).toEqual([]);
  });

  it("keeps a listing's links: its title heads the list, inside the title's container", () => {
    const html = `<html><head><title>Crafts for kids - The Crow</title></head><body>
      <div id="main"><h1>Crafts for kids</h1><p>Every craft we have posted, newest first.</p>${links(30, 'Craft')}</div></body></html>`;
    expect(dropped(html)).toEqual([]);
  });

  it('keeps the links inside a longer story (its container holds the byline and the prose below it, past a dropped share bar)', () => {
    const html = `<html><head><title>Community picks for the holiday | Food</title></head><body>
      <div class="post"><div class="header"><h1>Community picks for the holiday</h1><div class="meta">By Food | November 8, 2012</div></div>
      <div class="share"><a href="/s">Share</a></div>
      <div class="body"><p>Once again we thank the testers who cooked every recipe in their own kitchens this month, and here they are.</p>
      <p><a href="/r/1">Roast turkey with herbs</a></p><p><a href="/r/2">Turkey with sage sauce</a></p></div></div>
      <div id="sidebar">${links(10)}</div></body></html>`;
    const out = dropped(html, ['Share'], true);
    expect(out).toHaveLength(11);
    expect(out.filter((t) => t.startsWith('Friend blog'))).toHaveLength(10);
    expect(out).not.toContain('Roast turkey with herbs');
  });

  it("keeps a listing's cards when its title heads only a description box: repeated cards outweighing the box are the page", () => {
    const card = (i: number) =>
      `<div class="card"><h2><a href="/p/${i}">Garden bench number ${i}</a></h2><p>Oak, two metres, seats three people on the terrace.</p></div>`;
    const html = `<html><head><title>Garden benches - Shop</title></head><body>
      <div class="intro"><h1>Garden benches</h1><p>Benches of oak and teak for every garden.</p></div>
      <div class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</div></body></html>`;
    expect(dropped(html, [], true)).toEqual([]);
    // The same box beside a bare list of links (no cards): the links go.
    const bare = html.replace(/<div class="grid">.*<\/div><\/body>/s, `<div class="grid">${links(12)}</div></body>`);
    expect(dropped(bare, [], true)).toHaveLength(12);
  });

  it('only where the page shows a story: the title heads one entry (not one of a list), or the page declares one', () => {
    const plain = photoPost().replace('<div class="post hentry">', '<div class="post">');
    expect(dropped(plain)).toEqual([]);
    expect(dropped(plain, [], true)).toHaveLength(49);
    // An archive page: the title heads one of a list of entries.
    const archive = photoPost().replace(
      '<div class="post hentry">',
      '<div class="post hentry"><h3>Older post</h3><p>Words of an older post.</p></div><div class="post hentry">',
    );
    expect(dropped(archive)).toEqual([]);
  });

  it("leaves a shop's product page alone", () => {
    const data = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Stud Love","offers":{"@type":"Offer","price":"10","priceCurrency":"EUR"}}</script>`;
    expect(dropped(photoPost().replace('</title>', `</title>${data}`), [], true)).toEqual([]);
  });
});
