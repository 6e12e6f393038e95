import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { adjustStory } from '../../src/convert/model/article-tail.js';
import { dropCommentThreads } from '../../src/convert/model/comment-threads.js';

const story = `<h1>A headline for the story</h1>
  <p>The first paragraph of the story says what happened, where and when it happened to everyone.</p>
  <p>The second paragraph of the story quotes a witness at length, with every detail that matters here.</p>`;
const comments = (cls: string) => `<div class="${cls}">
    <div class="comment-author">Reader One</div><div class="comment-meta">March 3, 2012 at 9:14 pm</div>
    <p>First reader comment that disagrees with the whole story and says so at length, twice over.</p>
    <div class="comment-author">Reader Two</div><div class="comment-meta">March 4, 2012 at 7:02 am</div>
    <p>Second reader comment that agrees with the first one.</p></div>`;

/** The texts dropped when every block is kept before the rule. */
function dropped(html: string, rule: typeof dropCommentThreads | 'adjustStory' = dropCommentThreads, declared = false): string[] {
  const page = analyzeHtml(html)!;
  const kept = new Set(page.rows.blocks.map((b) => b.id));
  if (rule === 'adjustStory') adjustStory(page.rows, kept, page.data);
  else rule(page.rows, kept, declared);
  return page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.text.replace(/\s+/g, ' ').trim());
}

describe('dropCommentThreads (reader comments on any page)', () => {
  it('drops the comments after a story on a page that declares nothing (no og:type, JSON-LD, <article>, hentry)', () => {
    expect(dropped(`<html><body><div id="main">${story}</div>${comments('commentlist')}</body></html>`)).toEqual([
      'Reader One',
      'March 3, 2012 at 9:14 pm',
      'First reader comment that disagrees with the whole story and says so at length, twice over.',
      'Reader Two',
      'March 4, 2012 at 7:02 am',
      'Second reader comment that agrees with the first one.',
    ]);
  });

  it('starts a photo post (no prose before its comments) at its title heading, a heading whose words are all in <title>', () => {
    const post = (docTitle: string) => `<html><head><title>${docTitle}</title></head><body><div id="main">
      <h1>My new project at home</h1><p>Born this week. Future reader.</p></div>${comments('commentlist')}
      <div id="sidebar"><p>About me: I write about study habits, working deeply and the careers of people who work hard.</p></div></body></html>`;
    expect(dropped(post('Study: My new project at home'))).toHaveLength(6);
    // Without a title heading the story is the sidebar's prose, after the thread: nothing goes.
    expect(dropped(post('Study'))).toEqual([]);
  });

  it('reads the joined names of older blog engines (commentbody), but not commentary', () => {
    const page = (cls: string) =>
      `<html><body><div id="main">${story}</div><div class="${cls}"><p>A reader writes back about the vulnerability and its fix, at length.</p></div></body></html>`;
    expect(dropped(page('commentbody by-reader'))).toEqual(['A reader writes back about the vulnerability and its fix, at length.']);
    expect(dropped(page('commentary'))).toEqual([]);
  });

  it('finds the story even when the comments outweigh it', () => {
    const many = Array.from(
      { length: 20 },
      (_, i) =>
        `<li class="comment"><p>Reader comment number ${i} goes on and on about the story, longer than any paragraph of the story itself ever was.</p></li>`,
    ).join('');
    const out = dropped(`<html><body><div>${story}</div><ol id="comments">${many}</ol></body></html>`);
    expect(out).toHaveLength(20);
    expect(out.every((t) => t.startsWith('Reader comment number'))).toBe(true);
  });

  it('keeps a story inside a wrapper whose class only states that comments are open, or that holds the title', () => {
    expect(dropped(`<html><body><div class="post comments-open">${story}</div></body></html>`)).toEqual([]);
    expect(dropped(`<html><body><div class="comment-wrapper">${story}</div></body></html>`)).toEqual([]);
  });

  it('leaves forum posts, replies, testimonials and reviews named after comments, and a heading slug', () => {
    // Even with comment-named parts inside, a board's, a discussion's, testimonials' or reviews' posts stay.
    for (const cls of ['forum-post-reply', 'DiscussionBoard comments', 'testimonials-comments', 'review-comments']) {
      expect(dropped(`<html><body><div>${story}</div>${comments(cls)}</body></html>`)).toEqual([]);
    }
    const replies = `<div class="reply"><div class="author">Poster One</div><p>A forum post that answers the first post in a thread, at some length.</p></div>`;
    expect(dropped(`<html><body><div>${story}</div>${replies}</body></html>`)).toEqual([]);
    const slug = `<html><body><div>${story}</div><section id="receive-and-reply-to-a-comment-today"><p>A section of the documentation that explains how to answer every message you receive.</p></section></body></html>`;
    expect(dropped(slug)).toEqual([]);
  });

  it('leaves posts in an <article> of their own on a page that declares no story, and drops them after a declared one', () => {
    const posts = `<div class="comments"><article class="comment-node"><div class="comment-content"><p>A reply in a thread of a link aggregator, an entry of its own.</p></div></article></div>`;
    const html = `<html><body><div>${story}</div>${posts}</body></html>`;
    expect(dropped(html)).toEqual([]);
    expect(dropped(html, dropCommentThreads, true)).toEqual(['A reply in a thread of a link aggregator, an entry of its own.']);
  });

  it('keeps comments that come before any prose (nothing shows a story above them)', () => {
    expect(dropped(`<html><body>${comments('comments')}</body></html>`)).toEqual([]);
  });

  it('runs in adjustStory on any page but a thread', () => {
    const page = `<div>${story}</div>${comments('comments')}`;
    expect(dropped(`<html><body>${page}</body></html>`, 'adjustStory')).toContain('Second reader comment that agrees with the first one.');
    const thread = `<html><head><script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script></head><body>${page}</body></html>`;
    expect(dropped(thread, 'adjustStory')).toEqual([]);
  });
});
