import { describe, expect, it } from 'vitest';
import { analyzeHtml, htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { dropHiddenCopies } from '../../src/convert/model/hidden-copy.js';

const body = `<h1>A headline for the story</h1>
  <p>The first paragraph of the story says what happened, where and when it happened to everyone.</p>
  <p>The second paragraph of the story quotes a witness at length, with every detail that matters here.</p>`;

describe('dropHiddenCopies', () => {
  it('does not print a hidden second copy of the story again', () => {
    const html = `<html><body><article>${body}</article>
      <div style="display: none"><p>The first paragraph of the story says what happened, where and when it happened to everyone.</p></div>
      <div hidden><p>The second paragraph of the story quotes a witness at length, with every detail that matters here.</p></div></body></html>`;
    const page = analyzeHtml(html)!;
    const kept = new Set(page.rows.blocks.map((b) => b.id));
    dropHiddenCopies(page.rows.blocks, kept);
    const dropped = page.rows.blocks
      .filter((b) => !kept.has(b.id))
      .map((b) => b.el.parentElement?.hasAttribute('hidden') || b.el.parentElement?.getAttribute('style'));
    expect(dropped).toEqual(['display: none', true]);
    expect(htmlToMarkdown(html).split('The first paragraph').length - 1).toBe(1);
  });

  it('keeps collapsed content that the page shows nowhere else (a tab, an accordion)', () => {
    const html = `<html><body><article>${body}
      <div style="display:none"><p>A collapsed answer that appears only here, kept because a reader opens it.</p></div></article></body></html>`;
    const page = analyzeHtml(html)!;
    const kept = new Set(page.rows.blocks.map((b) => b.id));
    dropHiddenCopies(page.rows.blocks, kept);
    expect(page.rows.blocks.every((b) => kept.has(b.id))).toBe(true);
  });

  it('never prints hidden structured data, even when its text is shown nowhere else', () => {
    const html = `<html><body><article>${body}</article>
      <div style="display:none" itemscope itemtype="https://schema.org/NewsArticle"><p>The full body again, with what only machines read: 1200 by 800 pixels, published by a newspaper.</p><span itemprop="keywords">storms, rivers, towns</span></div>
      <div itemprop="datePublished" style="display:none">2012-05-03 09:14 in the morning</div>
      <div style="display:none"><p>A collapsed answer that appears only here, kept because a reader opens it.</p></div></body></html>`;
    const page = analyzeHtml(html)!;
    const kept = new Set(page.rows.blocks.map((b) => b.id));
    dropHiddenCopies(page.rows.blocks, kept);
    const dropped = page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.text.trim());
    expect(dropped.sort()).toEqual([
      '2012-05-03 09:14 in the morning',
      'The full body again, with what only machines read: 1200 by 800 pixels, published by a newspaper.',
      'storms, rivers, towns',
    ]);
  });
});
