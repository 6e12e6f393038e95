// class-tokens' split by hand stands in for a look-behind regex split, and the features score an
// element with an id from its class's memo plus its id's words: both must give what they replaced.

import { describe, expect, it } from 'vitest';
import { blockFeatures, FEATURES } from '../../src/convert/model/block-features.js';
import { segmentBlocks } from '../../src/convert/model/blocks.js';
import { wordsOf, wordsOfByRegex } from '../../src/convert/model/class-tokens.js';
import { countElements } from '../../src/convert/model/segment-page.js';
import { parseHtmlDocument } from '../../src/convert/parse-html.js';
import { readStructuredData } from '../../src/convert/structured-data.js';

const TRICKY = [
  'post-content__body col-6 jsHeroBanner',
  'entryContent mainBody',
  'aBCdEf ABC abcDEFghi',
  '  lead trail  ',
  '\u212Aelvin \u212Aey', // lower-cases to ASCII "kelvin"
  '\u0130stanbul', // İ lower-cases to two units
  'ünicode-wörd Straße',
  'a\u00a0b\u2003c\ufeffdef\u3000ghi\u2028jkl',
  'fooBarBaz-qux_quux:corge.grault/garply',
  'abc abc ABC Abc',
  'abcdefghijklmnopqrst abcdefghijklmnopqrstu ab',
  'x1y abc2 a-b',
  '',
  '-_:./',
  'wp-block-group__inner-container is-layout-flow',
];

describe('wordsOf', () => {
  it('splits as the regex did on spaces, separators, camel case and other scripts', () => {
    for (const s of TRICKY) expect(wordsOf(s), JSON.stringify(s)).toEqual(wordsOfByRegex(s));
  });

  it('splits as the regex did on random strings', () => {
    const alphabet = ['a', 'b', 'c', 'e', 'A', 'B', 'K', 'x', '-', '_', ':', '.', '/', ' ', '\t', '\u00a0', '1', '\u212a', 'é', 'ß', '😀'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let k = 0; k < 20_000; k++) {
      let s = '';
      const n = 1 + Math.floor(next() * 14);
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
      expect(wordsOf(s), JSON.stringify(s)).toEqual(wordsOfByRegex(s));
    }
  });
});

describe('class and id scores', () => {
  const lexicon = { side: 2, note: -1, promo: -3, box: 0.5, content: 1.25 };
  const page = (body: string) => {
    const doc = parseHtmlDocument(`<html><body>${body}</body></html>`);
    const blocks = segmentBlocks(doc.body);
    const kept = new Set(blocks.map((b) => b.id));
    const rows = blockFeatures(blocks, countElements(doc.body, blocks), readStructuredData(doc), kept, '', lexicon);
    return (text: string, name: (typeof FEATURES)[number]) => {
      const r = rows.blocks.findIndex((b) => b.text.trim() === text);
      return rows.x[r * FEATURES.length + FEATURES.indexOf(name)];
    };
  };
  /** The mean score of the words of "class id" split together, as a float32 row holds it. */
  const joined = (cls: string, id: string) => {
    const scores = wordsOfByRegex(`${cls} ${id}`)
      .map((t) => (lexicon as Record<string, number>)[t])
      .filter((s) => s !== undefined);
    return Math.fround(scores.reduce((a, b) => a + b, 0) / scores.length);
  };

  it('an id adds its words to its class words, each word once, summed in the joined order', () => {
    const value = page(
      '<p class="side-note">one two three</p><p class="side-note" id="promo-box-side">four five six</p>' +
        '<p id="box-promo">seven eight nine</p><p class="note" id="side">ten eleven</p>',
    );
    expect(value('one two three', 'lex_self')).toBe(joined('side-note', ''));
    expect(value('four five six', 'lex_self')).toBe(joined('side-note', 'promo-box-side'));
    expect(value('seven eight nine', 'lex_self')).toBe(joined('', 'box-promo'));
    expect(value('ten eleven', 'lex_self')).toBe(joined('note', 'side'));
  });

  it('reads an id’s words as the split gives them: case, camelCase, repeats, unknown and non-ASCII words', () => {
    const ids = ['PromoBox-promo-unknownWord-SIDE', 'side_side:box.Note', 'xx-café-sideNote-promo', 'nothing-known-here'];
    const value = page(ids.map((id, i) => `<p class="box" id="${id}">row ${i} words</p>`).join(''));
    ids.forEach((id, i) => expect(value(`row ${i} words`, 'lex_self')).toBe(joined('box', id)));
  });

  it("a class first seen with an id gives a later element without one the class's own hints", () => {
    const value = page(
      '<div class="content" id="top"><p>one two three</p></div><div class="content"><p>four five six</p></div>' +
        '<div class="sidebar" id="y"><p>seven eight</p></div><div class="sidebar"><p>nine ten</p></div>',
    );
    expect(value('one two three', 'hint_bad_distance')).toBe(99);
    expect(value('four five six', 'hint_bad_distance')).toBe(99);
    expect(value('four five six', 'hint_content_distance')).toBe(1);
    expect(value('seven eight', 'hint_bad_distance')).toBe(1);
    expect(value('nine ten', 'hint_bad_distance')).toBe(1);
    expect(value('nine ten', 'hint_post_distance')).toBe(99);
  });
});
