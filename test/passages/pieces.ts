// Reading a page in pieces, for the passages tests.

import { expect } from 'vitest';
import { pagePart } from '../../src/passages/index.js';

/** The piece without its cut marker (the marker is the last line: `\n\n[websift: …]` or `\n<!-- websift: … -->`). */
export function pieceOf(text: string): string {
  return text.replace(/\n\n\[websift: [^\n]*\]$|\n<!-- websift: [^\n]* -->$/, '');
}

/** Every piece of a page read from 0 to the end with `maxChars` per piece. */
export function readAll(
  content: string,
  format: 'markdown' | 'html',
  maxChars: number,
): { pieces: string[]; texts: string[]; starts: number[] } {
  const pieces: string[] = [];
  const texts: string[] = [];
  const starts: number[] = [];
  let start: number | undefined = 0;
  while (start !== undefined) {
    const part = pagePart(content, format, { startChar: start, maxChars });
    starts.push(start);
    texts.push(part.text);
    pieces.push(part.truncated ? pieceOf(part.text) : part.text);
    expect(part.totalChars).toBe(content.length);
    if (part.nextStart !== undefined) expect(part.nextStart).toBeGreaterThan(start);
    start = part.nextStart;
    if (pieces.length > content.length + 1) throw new Error('no progress');
  }
  return { pieces, texts, starts };
}
