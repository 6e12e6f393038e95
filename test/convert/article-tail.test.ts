import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { adjustStory } from '../../src/convert/model/article-tail.js';

const story = `<h1>A headline for the story</h1>
  <p>The first paragraph of the story says what happened, where and when it happened to everyone.</p>
  <p>The second paragraph of the story quotes a witness at length, with every detail that matters here.</p>
  <p>The third paragraph of the story ends it with what comes next for the people who were involved.</p>`;
const tail = `<div id="comments"><h3>3 comments</h3>
    <div class="comment-body"><p>First reader comment that disagrees with the whole story.</p></div>
    <div class="comment-body"><p>Second reader comment that agrees with the first one.</p></div></div>
  <div class="more"><h2>Related articles</h2><ul><li><a href="/a">Another story about something</a></li></ul></div>`;

/** The texts dropped when every block is kept before the rule. */
function dropped(html: string): string[] {
  const page = analyzeHtml(html)!;
  const kept = new Set(page.rows.blocks.map((b) => b.id));
  adjustStory(page.rows, kept, page.data);
  return page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.text.replace(/\s+/g, ' ').trim());
}

/** The texts added when only the blocks whose text includes `keep` are kept before the rule. */
function added(html: string, keep: string): string[] {
  const page = analyzeHtml(html)!;
  const kept = new Set(page.rows.blocks.filter((b) => b.text.includes(keep)).map((b) => b.id));
  const before = new Set(kept);
  adjustStory(page.rows, kept, page.data);
  return page.rows.blocks.filter((b) => kept.has(b.id) && !before.has(b.id)).map((b) => b.text.replace(/\s+/g, ' ').trim());
}

describe('dropArticleTail', () => {
  it('drops comments and related blocks after a story the page declares (og:type article)', () => {
    const html = `<html><head><meta property="og:type" content="article"></head><body><div class="story">${story}</div>${tail}</body></html>`;
    expect(dropped(html)).toEqual([
      '3 comments',
      'First reader comment that disagrees with the whole story.',
      'Second reader comment that agrees with the first one.',
      'Related articles',
      'Another story about something',
    ]);
  });

  it('reads an <article> around the story as evidence, and leaves blocks in an <article> of their own', () => {
    const html = `<html><body><article>${story}</article><div class="replies"><article class="reply"><p>A reply marked up as an article of its own.</p></article>
      <div class="reply"><p>A plain reply under the story.</p></div></div></body></html>`;
    expect(dropped(html)).toEqual(['A plain reply under the story.']);
    // In a container named after comments too (comment-threads.ts): the page declares no story.
    const comments = html.replaceAll('replies', 'comments').replaceAll('"reply"', '"comment"');
    expect(dropped(comments)).toEqual(['A plain reply under the story.']);
  });

  it('leaves threads alone, and on a page that does not say it is a story drops only the comments and the read-also heading', () => {
    const thread = `<html><head><script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script><meta property="og:type" content="article"></head><body><div>${story}</div>${tail}</body></html>`;
    expect(dropped(thread)).toEqual([]);
    // The related link goes too: outside the story's Readability-style area (story-area.ts), on a
    // page with a comment thread.
    expect(dropped(`<html><body><div>${story}</div>${tail}</body></html>`)).toEqual([
      '3 comments',
      'First reader comment that disagrees with the whole story.',
      'Second reader comment that agrees with the first one.',
      'Related articles',
      'Another story about something',
    ]);
  });

  it('keeps what sits inside the story, whatever its class says', () => {
    const html = `<html><head><meta property="og:type" content="article"></head><body><div class="story">${story}
      <blockquote class="twitter-tweet"><p>An embedded tweet quoted in the story, kept with it.</p></blockquote>
      <div class="reply-quote"><p>A reply quoted inside the story body, which stays with the story.</p></div>
      <p>The closing paragraph of the story comes after the quotes and finishes the whole account.</p></div>${tail}</body></html>`;
    expect(dropped(html)).not.toContain('A reply quoted inside the story body, which stays with the story.');
    expect(dropped(html)).not.toContain('An embedded tweet quoted in the story, kept with it.');
  });

  it("keeps the story's lead (a standfirst named so in its class) and not a byline or a caption", () => {
    const html = `<html><head><meta property="og:type" content="article"></head><body><article><header><h1>A headline</h1>
      <p class="article-lead">The lead says in one sentence what the whole story is about.</p>
      <p class="intro">By Jane Doe on 19 December 2025 in the city.</p>
      <figure><figcaption class="lead">A caption under the picture of the harbour at dawn.</figcaption></figure></header>
      ${story.replace('<h1>A headline for the story</h1>', '')}</article></body></html>`;
    expect(added(html, 'paragraph of the story')).toEqual(['The lead says in one sentence what the whole story is about.']);
  });

  it('drops lines that send the reader to other stories, and keeps prose that merely starts alike', () => {
    const html = `<html><body><article>${story}
      <p>LE PUEDE INTERESAR: <a href="/x">La ficha de un político en la lista de la semana pasada</a></p>
      <p>Mehr zum Thema</p>
      <p>Read more about the witnesses in the court papers that were published on Tuesday by the judge, who explained every step.</p></article></body></html>`;
    expect(dropped(html)).toEqual(['LE PUEDE INTERESAR: La ficha de un político en la lista de la semana pasada', 'Mehr zum Thema']);
  });

  it('keeps a quote the story embeds between its kept paragraphs', () => {
    const html = `<html><body><article>${story.replace('<p>The third', '<blockquote class="twitter-tweet"><p>A tweet quoted in the story.</p></blockquote><p>The third')}</article></body></html>`;
    expect(added(html, 'paragraph of the story')).toEqual(['A tweet quoted in the story.']);
  });

  it('drops short comment-form and photo-credit lines on any page but a thread', () => {
    const html = `<html><body><div>${story}<p>Foto: Jane Doe</p><p>Kommentare geschlossen</p>
      <p>Photo opportunities were rare that year, and the photographers who came stayed for weeks.</p></div></body></html>`;
    expect(dropped(html)).toEqual(['Foto: Jane Doe', 'Kommentare geschlossen']);
  });

  it('drops a call to subscribe or donate, and keeps a paragraph that only starts alike at length', () => {
    const long = 'Subscribe to the idea that ' + 'the council was wrong about the bridge and the river, '.repeat(4) + 'says the engineer.';
    const html = `<html><body><div>${story}<p>Subscribe now to our print edition for the full story.</p><p>${long}</p></div></body></html>`;
    expect(dropped(html)).toEqual(['Subscribe now to our print edition for the full story.']);
  });
});

describe('dropLinkLines', () => {
  const head = '<html><head><meta property="og:type" content="article"></head><body>';
  it('drops blocks that are all links on a story page, wherever they sit', () => {
    const html = `${head}<ul class="crumbs"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
      <div class="story">${story}<p><a href="/x">A teaser title pointing to another story</a></p>
      <p>A closing paragraph of the story with <a href="/y">one link</a> in the middle of its prose.</p></div></body></html>`;
    expect(dropped(html)).toEqual(['Home', 'News', 'A teaser title pointing to another story']);
  });

  it('keeps them when links-only blocks hold more than a fifth of the kept words (a listing)', () => {
    const items = Array.from({ length: 6 }, (_, i) => `<li><a href="/s${i}">Title of listed story number ${i} on the hub</a></li>`).join(
      '',
    );
    const html = `${head}<div class="story">${story}<ul>${items}</ul></div></body></html>`;
    expect(dropped(html)).toEqual([]);
  });

  it('leaves threads alone', () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"QAPage"}</script></head><body>${story}<p><a href="/x">A link alone on its line</a></p></body></html>`;
    expect(dropped(html)).toEqual([]);
  });
});

describe('site menus on a story page', () => {
  it('drops a long list of links outside the story, even when its links outweigh the story', () => {
    const items = Array.from({ length: 150 }, (_, i) => `<li><a href="/s${i}">Section number ${i} of the site</a></li>`).join('');
    const html = `<html><head><meta property="og:type" content="article"></head><body><div class="menu"><ul>${items}</ul></div>
      <div class="story">${story}<ul class="facts"><li>A short list item of the page with no link in it at all.</li></ul></div></body></html>`;
    const gone = dropped(html);
    expect(gone).toHaveLength(150);
    expect(gone).not.toContain('A short list item of the page with no link in it at all.');
  });
});
