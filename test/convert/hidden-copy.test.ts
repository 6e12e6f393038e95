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

  it('reads `hidden` and `style` wherever they stand among the attributes, and as changed after the parse', () => {
    const copy = '<p>The first paragraph of the story says what happened, where and when it happened to everyone.</p>';
    const html = `<html><body><article>${body}</article>
      <div id="a" data-x="1" style="color: red; display: none">${copy}</div>
      <div id="b" style="color: red" class="c" hidden>${copy}</div>
      <div id="c" class="c">${copy}</div>
      <div id="d" data-y="2">${copy}</div>
      <div id="e" style="color: blue">${copy}</div></body></html>`;
    const page = analyzeHtml(html)!;
    const doc = page.body.ownerDocument;
    doc.getElementById('c')!.setAttribute('hidden', '');
    doc.getElementById('d')!.setAttribute('style', 'visibility: hidden');
    const kept = new Set(page.rows.blocks.map((b) => b.id));
    dropHiddenCopies(page.rows.blocks, kept);
    const dropped = page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.el.parentElement?.id);
    expect(dropped).toEqual(['a', 'b', 'c', 'd']);
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

  it("never prints hidden RDFa: a display:none block declaring prefixes around the story's title, description and tags", () => {
    const html = `<html><body><article>${body}</article>
      <div style="display:none;" xmlns:foaf="http://xmlns.com/foaf/0.1/" xmlns:dc="http://purl.org/dc/elements/1.1/">
        <ul><li typeof="foaf:Agent"><a property="foaf:name" href="/news/storms">Storms and rivers</a></li></ul>
        <div typeof="foaf:Image" about="/img/1.jpg"><div property="dc:description">The first paragraph of the story says what happened, where and at the end of the da...</div></div></div>
      <div style="display:none"><div class="card"><span property="dc:date">Thursday 3 May 2012, 09:14 in the morning</span></div></div>
      <div style="display:none"><p>A collapsed answer that appears only here, kept because a reader opens it.</p></div></body></html>`;
    const page = analyzeHtml(html)!;
    const kept = new Set(page.rows.blocks.map((b) => b.id));
    dropHiddenCopies(page.rows.blocks, kept);
    const dropped = page.rows.blocks.filter((b) => !kept.has(b.id)).map((b) => b.text.trim());
    expect(dropped.sort()).toEqual([
      'Storms and rivers',
      'The first paragraph of the story says what happened, where and at the end of the da...',
      'Thursday 3 May 2012, 09:14 in the morning',
    ]);
    expect(htmlToMarkdown(html)).not.toContain('at the end of the da');
  });

  it("keeps a question's collapsed answer marked up as FAQ data: the reader opens it", () => {
    const html = `<html><body><article>${body}
      <div itemscope itemtype="https://schema.org/FAQPage"><div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question">
        <h3 itemprop="name">How long does the repair of the bridge take?</h3>
        <div style="display:none" itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer"><p itemprop="text">About three weeks, if the weather holds over the whole of the spring.</p></div>
      </div></div></article></body></html>`;
    const page = analyzeHtml(html)!;
    const kept = new Set(page.rows.blocks.map((b) => b.id));
    dropHiddenCopies(page.rows.blocks, kept);
    expect(page.rows.blocks.every((b) => kept.has(b.id))).toBe(true);
  });
});
