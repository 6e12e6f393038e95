// The benchmark's own metric and Markdown stripping (bench/lib), which every quality figure rests on.

import { describe, expect, it } from 'vitest';
import { stripMarkdown } from '../../bench/lib/strip-markdown.js';
import { loadIndex, VALIDATION_SHARE, wcxbAvailable } from '../../bench/lib/wcxb-data.js';
import { scorePage, snippetsFound, tokens } from '../../bench/lib/wcxb-metric.js';

describe('WCXB metric', () => {
  it('tokenizes lower-case \\w+ words', () => {
    expect(tokens("It's A test_case, 42!")).toEqual(['it', 's', 'a', 'test_case', '42']);
  });

  it('scores bag-of-words overlap as a multiset', () => {
    const s = scorePage('a a b c', 'a b b d');
    // overlap = min(2,1) for a + min(1,2) for b = 2; P = 2/4, R = 2/4.
    expect(s.precision).toBe(0.5);
    expect(s.recall).toBe(0.5);
    expect(s.f1).toBe(0.5);
    expect(scorePage('', 'x').f1).toBe(0);
    expect(scorePage('', '').f1).toBe(1);
  });

  it('finds snippets case-insensitively across whitespace', () => {
    expect(snippetsFound('Hello   big\nWorld', ['hello big world', 'absent'])).toBe(1);
  });
});

describe('stripMarkdown', () => {
  it('removes link targets, images, emphasis, heading marks, fence languages and table pipes', () => {
    const md =
      '# Title\n\nSome **bold** and _it_ [link text](https://x.test/a_b) ![alt](https://x.test/i.png)\n\n```python\ncode_here\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n- item\n> quote \\_escaped\\_';
    const text = stripMarkdown(md);
    expect(tokens(text)).toEqual([
      'title',
      'some',
      'bold',
      'and',
      'it',
      'link',
      'text',
      'code_here',
      'a',
      'b',
      '1',
      '2',
      'item',
      'quote',
      '_escaped_',
    ]);
  });

  it("reads a number starting a heading as the heading's text, not a list marker", () => {
    expect(tokens(stripMarkdown('### 1. Multimeter\n\n- ## Pliers\n\n2. Tape'))).toEqual(['1', 'multimeter', 'pliers', 'tape']);
  });

  it('reads escaped brackets inside link text and alt text, so no URL leaks', () => {
    const md = String.raw`- [![\[X-Info\]](https://o.test/info.gif)](https://o.test/l?key=ha1) Cited [\[Chen '20\]](https://arxiv.test/abs/2004)`;
    expect(tokens(stripMarkdown(md))).toEqual(['cited', 'chen', '20']);
  });
});

describe.skipIf(!wcxbAvailable())('WCXB split', () => {
  it('is a fixed, stratified 20% validation slice', () => {
    const a = loadIndex();
    const b = loadIndex();
    expect(a.map((e) => `${e.id}:${e.split}`)).toEqual(b.map((e) => `${e.id}:${e.split}`));
    const types = new Set(a.map((e) => e.pageType));
    for (const t of types) {
      const ofType = a.filter((e) => e.pageType === t);
      const share = ofType.filter((e) => e.split === 'validation').length / ofType.length;
      expect(Math.abs(share - VALIDATION_SHARE)).toBeLessThan(0.02);
    }
  });
});
