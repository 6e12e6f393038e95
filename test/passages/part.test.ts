// pagePart without a query (docs/passages.md): the budgeted piece, its marker, and reading on.

import { describe, expect, it } from 'vitest';
import { pagePart } from '../../src/passages/index.js';
import { pieceOf, readAll } from './pieces.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('pagePart without a query', () => {
  it('no option: the content itself, byte for byte, not truncated, no marker', () => {
    const content = `# Title\n\n${words(500)}\n`;
    expect(pagePart(content, 'markdown', {})).toEqual({ text: content, totalChars: content.length, truncated: false });
    expect(pagePart(content, 'html', {})).toEqual({ text: content, totalChars: content.length, truncated: false });
  });

  it('a budget the content fits: the content, no marker, nothing to read on', () => {
    const content = words(20);
    expect(pagePart(content, 'markdown', { maxChars: content.length })).toEqual({
      text: content,
      totalChars: content.length,
      truncated: false,
    });
  });

  it('start_char alone: the rest of the content', () => {
    const content = words(50);
    expect(pagePart(content, 'markdown', { startChar: 10 })).toEqual({
      text: content.slice(10),
      totalChars: content.length,
      truncated: false,
    });
    expect(pagePart(content, 'markdown', { startChar: content.length + 5 })).toEqual({
      text: '',
      totalChars: content.length,
      truncated: false,
    });
  });

  it('a cut piece ends at a whitespace, holds at most max_chars, and its marker names the next start and the total', () => {
    const content = `${words(3000)}`;
    const part = pagePart(content, 'markdown', { maxChars: 1000 });
    expect(part.truncated).toBe(true);
    const piece = pieceOf(part.text);
    expect(piece.length).toBeLessThanOrEqual(1000);
    expect(piece.length).toBeGreaterThan(990); // the last whitespace, not far back
    expect(content.startsWith(piece)).toBe(true);
    expect(/\s/.test(content[piece.length]!) || /\s/.test(content[piece.length - 1]!)).toBe(true);
    expect(part.nextStart).toBe(piece.length);
    const marker = part.text.slice(piece.length);
    expect(marker.startsWith('\n\n[')).toBe(true); // a line of its own
    expect(marker).toContain(`start_char=${piece.length}`);
    expect(marker).toContain(content.length.toLocaleString('en-US'));
    expect(marker.length).toBeLessThan(100);
  });

  it('never cuts mid-word: every piece ends and starts at a word boundary', () => {
    const content = `# A heading\n\n${words(400)}\n\n- a list item with some words\n- another one\n\n${words(300)}`;
    for (const budget of [7, 13, 50, 333]) {
      const { pieces } = readAll(content, 'markdown', budget);
      let at = 0;
      for (const piece of pieces) {
        at += piece.length;
        if (at < content.length) expect(/\s/.test(content[at]!) || /\s/.test(content[at - 1]!)).toBe(true);
      }
    }
  });

  it('a single word longer than the allowance is cut at the allowance, never inside a surrogate pair', () => {
    const content = `${'😀'.repeat(40)} tail`;
    const part = pagePart(content, 'markdown', { maxChars: 11 });
    expect(part.nextStart).toBe(10);
    const { pieces } = readAll(content, 'markdown', 11);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(11);
      expect(piece).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
    expect(pieces.join('')).toBe(content);
    const long = 'x'.repeat(100);
    expect(pieceOf(pagePart(long, 'markdown', { maxChars: 30 }).text)).toBe('x'.repeat(30));
  });

  it('paging reaches the end and the pieces join back to the whole content exactly', () => {
    const content = `# Title\n\n${words(2000)}\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n\`\`\`\ncode here\n\`\`\`\n\n${words(500)}\n`;
    for (const budget of [1, 2, 100, 1234, 100_000]) {
      const { pieces, texts } = readAll(content, 'markdown', budget);
      expect(pieces.join('')).toBe(content);
      for (const [i, piece] of pieces.entries()) {
        expect(piece.length).toBeLessThanOrEqual(budget);
        expect(texts[i]!.length - piece.length).toBeLessThan(100); // the marker is short
      }
      expect(texts.at(-1)).toBe(pieces.at(-1)); // the last piece has no marker
    }
  });

  it('html: cut only between tags (an allowance longer than any tag), with an HTML comment marker', () => {
    const content = Array.from(
      { length: 200 },
      (_, i) => `<p class="para number-${i}">Text <a href="/x/${i}" title="a link">link ${i}</a> after.</p>`,
    ).join('\n');
    for (const budget of [40, 57, 300]) {
      const { pieces, texts } = readAll(content, 'html', budget);
      expect(pieces.join('')).toBe(content);
      let at = 0;
      for (const [i, piece] of pieces.entries()) {
        at += piece.length;
        expect(piece.length).toBeLessThanOrEqual(budget);
        // Not inside a tag: the last '<' before the cut is closed before it.
        const head = content.slice(0, at);
        expect(head.lastIndexOf('<')).toBeLessThan(head.lastIndexOf('>'));
        if (at < content.length) expect(texts[i]).toMatch(new RegExp(`\\n<!-- websift: [^\\n]*start_char=${at}[^\\n]* -->$`));
      }
    }
  });

  it('Chinese and Japanese without spaces: never over the budget, cut at a word boundary, joins back', () => {
    const zh =
      '自然语言处理是计算机科学领域与人工智能领域中的一个重要方向。它研究能实现人与计算机之间用自然语言进行有效通信的各种理论和方法。'.repeat(
        20,
      );
    const ja = '東京都は日本の首都であり、政治や経済の中心地です。多くの人々が毎日電車で通勤しています。'.repeat(20);
    for (const content of [zh, ja, `Mixed text 混合文本 with ${zh}`]) {
      for (const budget of [5, 16, 100]) {
        const { pieces } = readAll(content, 'markdown', budget);
        expect(pieces.join('')).toBe(content);
        for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(budget);
        // Progress is close to the budget (a word boundary nearby), not one character at a time.
        expect(pieces.length).toBeLessThan((content.length / budget) * 2 + 2);
      }
    }
    // A Japanese cut lands between words, not inside one (東京 stays whole).
    const part = pagePart('東京都は日本の首都です。', 'markdown', { maxChars: 2 });
    expect(pieceOf(part.text)).toBe('東京');
  });

  it('odd numbers: fractions round down, negatives are 0, an infinite budget is no budget', () => {
    const content = words(100);
    expect(pagePart(content, 'markdown', { maxChars: 20.9, startChar: -3 }).nextStart).toBe(
      pagePart(content, 'markdown', { maxChars: 20 }).nextStart,
    );
    expect(pagePart(content, 'markdown', { maxChars: Infinity, startChar: 6.5 })).toEqual({
      text: content.slice(6),
      totalChars: content.length,
      truncated: false,
    });
  });

  it('a budget of zero: an empty piece that reads on from where it is', () => {
    const content = words(10);
    expect(pagePart(content, 'markdown', { maxChars: 0, startChar: 5 })).toMatchObject({ truncated: true, nextStart: 5 });
  });
});
