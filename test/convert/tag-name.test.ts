// lowerName (tag-name.ts) must answer what `toLowerCase` does, for parsed names and any other string.

import { describe, expect, it } from 'vitest';
import { tagOf } from '../../src/convert/dom-utils.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { lowerName } from '../../src/convert/tag-name.js';

describe('lowerName', () => {
  it('equals toLowerCase on capitals, non-ASCII letters and names already lower-case', () => {
    for (const name of ['div', 'DIV', 'Div', 'h1', 'H1', 'my-el', 'My-El', 'svg:Path', 'ÀBC', 'àbc', 'İ', 'x\u0130y', '', 'Z', '@[`{'])
      expect(lowerName(name)).toBe(name.toLowerCase());
  });

  it('returns the same string when nothing changes', () => {
    const name = ['d', 'iv'].join('');
    expect(lowerName(name)).toBe(name);
  });

  it("gives every parsed element's lower-cased local name (tagOf)", () => {
    const doc = parseHtmlDocument(
      '<html><body><DIV><Span>x</Span><svg><foreignObject></foreignObject></svg><my-El></my-El></DIV></body></html>',
    );
    const made = doc.createElement('SECTION');
    doc.body.append(made);
    for (const el of Array.from(doc.querySelectorAll('*'))) expect(tagOf(el)).toBe(el.localName.toLowerCase());
    expect(tagOf(made)).toBe(made.localName.toLowerCase());
  });
});
