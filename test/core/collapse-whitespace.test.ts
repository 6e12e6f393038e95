// collapseWhitespace skips the replace when nothing would change (issue 33); the rule: the same text as
// trimming and replacing every whitespace run with one space, for any mix of JavaScript's whitespace.
import { describe, expect, it } from 'vitest';
import { collapseWhitespace } from '../../src/schema/common.js';

const reference = (q: string) => q.trim().replace(/\s+/gu, ' ');
const PIECES = [' ', '  ', 'a', 'bc', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u200b', '\u2028', 'é'];

describe('collapseWhitespace', () => {
  it('gives the reference result on collapsed, spaced and mixed-whitespace strings', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const cases = ['a b', 'a  b', 'a\tb', 'a\u00a0b', ' a ', 'a \u2003b', 'a\u2003 b', '', 'x'];
    for (let i = 0; i < 5000; i++) {
      let s = '';
      for (let j = 0; j < 1 + (i % 9); j++) s += PIECES[Math.floor(random() * PIECES.length)];
      cases.push(s);
    }
    for (const q of cases) expect(collapseWhitespace(q), JSON.stringify(q)).toBe(reference(q));
  });
});
