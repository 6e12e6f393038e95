import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { dropSideLinks } from '../../src/convert/model/side-links.js';
import { singlePostBody } from '../../src/convert/model/single-post.js';

/** A blog's sidebar: an about-me paragraph, a blogroll of 30 links, an archive by month. */
const sidebar = `<div id="sidebar"><h2>About me</h2><p>I write this blog about my town, my garden and whatever else crosses my mind on the way to work every morning.</p>
  <h2>Blogroll</h2><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="http://friend${i}.example/">Friend number ${i}</a></li>`).join('')}</ul>
  <h2>Archives</h2><ul><li><a href="/2012/07/">July 2012</a> (12)</li><li><a href="/2012/06/">June 2012</a> (9)</li></ul></div>`;

/** One post: linked title, date, a short body (a photo and a line) in `bodyClass`, a footer line. */
const post = (bodyClass: string, text = 'A photo of the harbour at dawn, taken from the old pier.') =>
  `<div class="post" id="post-1"><h3><a href="/2012/08/harbour.html">The harbour at dawn</a></h3><div class="date">August 9, 2012</div>
  <div class="${bodyClass}"><p><img src="/harbour.jpg"> ${text} <a href="/pier">The pier</a> is open again.</p></div>
  <div class="postfooter">Posted by Ann at 7:02 AM</div></div>`;

/** The texts dropped when every block is kept before the rule (no story evidence from the caller). */
function dropped(html: string): string[] {
  const page = analyzeHtml(html)!;
  const kept = new Set(page.rows.blocks.map((b) => b.id));
  dropSideLinks(page.rows, kept, false);
  return page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.text.replace(/\s+/g, ' ').trim());
}

describe('singlePostBody (one post body named by the blog engine)', () => {
  // Read from the features' snapshot of the rows' ancestors (BlockRows.names) and by walking the
  // attributes: the same element.
  const body = (html: string) => {
    const page = analyzeHtml(html)!;
    const found = singlePostBody(page.rows.blocks, page.rows.names);
    expect(page.rows.names?.size).toBeGreaterThan(0);
    expect(found).toBe(singlePostBody(page.rows.blocks));
    return found?.getAttribute('class') ?? null;
  };

  it("reads the names above body that the snapshot leaves out, and body's own", () => {
    expect(body(`<html class="post-body"><body><p>One line of the post, the only one.</p></body></html>`)).toBe('post-body');
    expect(body(`<html><body class="entry-content"><p>One line of the post, the only one.</p></body></html>`)).toBe('entry-content');
    expect(body(`<html class="post-body"><body>${post('entry-content')}${sidebar}</body></html>`)).toBe('post-body');
  });

  it('answers each element alike when several share one class string (the names are read once per string)', () => {
    expect(body(`<html><body>${post('post-content')}${post('post-content')}${sidebar}</body></html>`)).toBeNull();
    expect(body(`<html><body>${post('post-content')}${sidebar}</body></html>`)).toBe('post-content');
  });

  it('finds the one element named entry-content, post-body, postbody…; the outermost of nested ones', () => {
    expect(body(`<html><body>${post('entry-content')}${sidebar}</body></html>`)).toBe('entry-content');
    expect(body(`<html><body>${post('post-body entry-content')}${sidebar}</body></html>`)).toBe('post-body entry-content');
    expect(body(`<html><body>${post('postbody')}${sidebar}</body></html>`)).toBe('postbody');
    expect(
      body(
        `<html><body><div class="entry-content"><div class="entry-body"><p>One line of the post, the only one.</p></div></div></body></html>`,
      ),
    ).toBe('entry-content');
  });

  it('reads ids as classes (each tested as it is: an id is one element, not remembered), the shortest name too', () => {
    const byId = (id: string) => {
      const page = analyzeHtml(`<html><body><div id="${id}"><p>One line of the post, the only one.</p></div>${sidebar}</body></html>`)!;
      const found = singlePostBody(page.rows.blocks, page.rows.names);
      expect(found).toBe(singlePostBody(page.rows.blocks));
      return found?.getAttribute('id') ?? null;
    };
    expect(byId('postbody')).toBe('postbody');
    expect(byId('_Post-Body_')).toBe('_Post-Body_');
    expect(byId('entry-content')).toBe('entry-content');
    expect(byId('postbod')).toBeNull();
    expect(byId('post')).toBeNull();
  });

  it('finds none on a list of posts (a front or archive page) or without the names', () => {
    expect(body(`<html><body>${post('entry-content')}${post('entry-content')}${sidebar}</body></html>`)).toBeNull();
    expect(body(`<html><body>${post('text')}${sidebar}</body></html>`)).toBeNull();
    // Whole word pairs: "content" alone, or "entry" then "meta", names no body.
    expect(body(`<html><body>${post('content entry-meta')}${sidebar}</body></html>`)).toBeNull();
  });
});

describe('dropSideLinks on a page with one post body', () => {
  it('drops what the blog keeps around a short post (sidebar prose, blogroll, archive), not the post, its title and date', () => {
    const out = dropped(`<html><body><div id="main">${post('entry-content')}</div>${sidebar}</body></html>`);
    expect(out).toContain('About me');
    expect(out).toContain('I write this blog about my town, my garden and whatever else crosses my mind on the way to work every morning.');
    expect(out).toContain('Friend number 0');
    expect(out).toContain('Friend number 29');
    expect(out).toContain('July 2012 (12)');
    expect(out.some((t) => /harbour|August 9|Posted by/.test(t))).toBe(false);
  });

  it('leaves a list of posts alone (two bodies: the blog front page)', () => {
    expect(dropped(`<html><body><div id="main">${post('entry-content')}${post('entry-content')}</div>${sidebar}</body></html>`)).toEqual(
      [],
    );
  });

  it('keeps the page title: an <h1> a few kept rows above the post, standfirst and byline between', () => {
    const html = `<html><body><div id="top"><h1>The harbour reopens</h1><p class="standfirst">After two years of works the old pier is open to walkers again, the council said.</p>
      <p>By Ann, August 9, 2012</p><p>Share this</p><p>Comments (3)</p></div>${post('entry-content')}${sidebar}</body></html>`;
    const out = dropped(html);
    expect(out.some((t) => /harbour reopens|two years|By Ann|Comments \(3\)/.test(t))).toBe(false);
    expect(out).toContain('Friend number 0');
  });

  it('leaves a body that lists entries alone (a page of <article>s), and a page whose kept entries sit outside the post (a thread)', () => {
    const teaser = (i: number) => `<article><h3><a href="/p/${i}">Project ${i}</a></h3></article>`;
    const listing = `<div class="entry-content"><p>Our work for clients in many fields, from insurance and retail to marketing and the web.</p>${teaser(1)}${teaser(2)}${teaser(3)}</div>`;
    expect(dropped(`<html><body>${listing}${sidebar}</body></html>`)).toEqual([]);
    const reply = (i: number) =>
      `<article class="reply"><p>Reply number ${i}: I agree with the post, and I would add one more thing about the pier.</p></article>`;
    expect(dropped(`<html><body>${post('entry-content')}<div id="replies">${reply(1)}${reply(2)}</div>${sidebar}</body></html>`)).toEqual(
      [],
    );
  });

  it('needs a kept paragraph of prose in the body (a header named post-body, placeholders)', () => {
    const header = `<div id="postBody"><p>94 points</p><p>Ann, 3 min read</p></div><div class="text"><p>The whole post is printed here, outside the element named for its body, in a paragraph of its own.</p></div>`;
    expect(dropped(`<html><body>${header}${sidebar}</body></html>`)).toEqual([]);
  });

  it('needs kept words inside the body', () => {
    const html = `<html><body><div id="main">${post('entry-content')}</div>${sidebar}</body></html>`;
    const page = analyzeHtml(html)!;
    const kept = new Set(page.rows.blocks.filter((b) => !b.el.closest('.entry-content')).map((b) => b.id));
    const before = kept.size;
    dropSideLinks(page.rows, kept, false);
    expect(kept.size).toBe(before);
  });
});
