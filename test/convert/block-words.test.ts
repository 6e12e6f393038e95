// The block features' character loops (block-words.ts, nameHints) stand in for regexes: each must give
// what the regex it replaced gives, on the cases where they could part (other scripts, surrogate
// pairs, characters whose lower case is ASCII or longer, Unicode spaces) and on random text.
// countBlockWords reads the words, the phrase kinds and the duplicate key in one pass: all three are
// checked on every text.

import { describe, expect, it } from 'vitest';
import { nameHints } from '../../src/convert/model/block-features.js';
import {
  asciiWordKey,
  countBlockWords,
  duplicateCounts,
  KIND_DATE,
  KIND_LEGAL,
  KIND_META,
  KIND_PRICE,
  KIND_SOCIAL,
  newBlockWords,
  normalText,
  textKinds,
} from '../../src/convert/model/block-words.js';

const STOP = new Set(['the', 'a', 'of', 'between', 'k']);

const LEGAL = /©|\bcopyright\b|all rights reserved|privacy policy|terms of (use|service)|\bcookies?\b/i;
const SOCIAL = /\b(share|tweet|facebook|twitter|linkedin|pinterest|whatsapp|instagram|youtube|subscribe|newsletter)\b/i;
const DATE =
  /\b(19|20)\d\d\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\b\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\bago\b/i;
const PRICE = /[$€£¥₹]\s?\d|\d\s?(€|usd|eur|gbp)\b/i;
const META =
  /\b(reply|replies|quote|report|posted|joined|members?|posts|views|likes?|votes?|comments?|answered|asked|edited|permalink|reputation)\b/i;

/** The kinds the phrase regexes found. */
function kindsByRegex(t: string): number {
  return (
    (LEGAL.test(t) ? KIND_LEGAL : 0) |
    (SOCIAL.test(t) ? KIND_SOCIAL : 0) |
    (DATE.test(t) ? KIND_DATE : 0) |
    (PRICE.test(t) ? KIND_PRICE : 0) |
    (META.test(t) ? KIND_META : 0)
  );
}

/** The duplicate key: FNV-1a of normalText's UTF-16 units, as asciiWordKey masks it. */
function keyByString(t: string): number {
  const s = normalText(t);
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return asciiWordKey(h);
}

/** What block-features.ts computed before: a match per block and a lower-cased copy per word. */
function reference(text: string, title: ReadonlySet<string>) {
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  const r = {
    words: words.length,
    chars: 0,
    stop: 0,
    caps: 0,
    digits: 0,
    inTitle: 0,
    commas: 0,
    endsSentence: false,
    kinds: kindsByRegex(text),
    normalKey: keyByString(text),
  };
  for (const w of words) {
    r.chars += w.length;
    const lower = w.toLowerCase();
    if (STOP.has(lower)) r.stop++;
    if (title.has(lower)) r.inTitle++;
    if (w[0] !== lower[0]) r.caps++;
    const c0 = w.charCodeAt(0);
    if (c0 >= 48 && c0 <= 57) r.digits++;
  }
  r.commas = text.split(',').length - 1;
  r.endsSentence = /[.!?:;"”)]\s*$/.test(text);
  return r;
}

const TRICKY = [
  '',
  '   ',
  'The cat, the hat; and A dog.',
  'Between THE lines: 4090 items, 3rd place!  ',
  'Ελληνικά ΣΟΦΙΑ Σ σ ς',
  'İstanbul İ i̇',
  '\u212A Kelvin \u212Aelvin k K',
  'café Café CAFÉ naïve',
  'слово Слово, 日本語テキスト',
  '𐐀𐐨 deseret 𝐀𝐁𝐂 math bold 😀 emoji',
  'lone \ud800 high \udc00 low x\ud800',
  'under_score __ _a a_',
  'nbsp\u00a0here\u00a0.\u00a0',
  'ends with quote”\u3000',
  'ends (with paren)\n\t',
  '١٢٣ arabic digits ٤',
  'a'.repeat(30),
];

function randomText(seed: number): string {
  const pool = [
    'a',
    'B',
    'z',
    '0',
    '9',
    '_',
    ' ',
    '\t',
    '\u00a0',
    ',',
    '.',
    '"',
    '”',
    'é',
    'É',
    'Σ',
    '\u212A',
    'İ',
    '𐐀',
    '\ud800',
    'ß',
    '-',
    '\u2028',
  ];
  let s = '';
  let x = seed;
  for (let i = 0; i < 40; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += pool[x % pool.length];
  }
  return s;
}

describe('countBlockWords', () => {
  const title = new Set(['cat', 'σοφια', 'café', 'istanbul', 'kelvin', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']);
  const lookup = Math.max(...[...STOP, ...title].map((w) => w.length));

  it("counts as the word regex and lower-cased copies did, with the regexes' kinds and the normal text's key", () => {
    const texts = [...TRICKY, ...Array.from({ length: 500 }, (_, i) => randomText(i + 1))];
    for (const t of texts)
      expect({ ...countBlockWords(t, STOP, title, lookup, newBlockWords()) }, JSON.stringify(t)).toEqual(reference(t, title));
  });
});

describe('duplicateCounts', () => {
  it('counts texts equal once whitespace is collapsed and case ignored, and the copies before each', () => {
    const texts = [
      ...TRICKY,
      'The  cat',
      ' the cat ',
      'THE\u00a0CAT',
      'the cat',
      'Café',
      'CAFÉ',
      'σοφια',
      'ΣΟΦΙΑ',
      '\u212A',
      'k',
      'nbsp here .',
      ...Array.from({ length: 300 }, (_, i) => randomText(i % 50)),
    ];
    const norm = texts.map(normalText);
    const seen = new Map<string, number>();
    const before = norm.map((t) => {
      const n = seen.get(t) ?? 0;
      seen.set(t, n + 1);
      return n;
    });
    const got = duplicateCounts(texts);
    expect(Array.from(got.count)).toEqual(norm.map((t) => seen.get(t)));
    expect(Array.from(got.before)).toEqual(before);
  });
});

describe('nameHints', () => {
  const CONTENT =
    /(?:^|[-_\s])(content|article|entry|story|body|text|main|prose|markdown|description|details?|product|recipe|post-?content|page-?content)(?:[-_\s]|$)/i;
  const POST =
    /(?:^|[-_\s])(comments?|reply|replies|message|answers?|question|thread|posts?|topic|review|reviews|card|item|result|listing|teaser)(?:[-_\s]|$)/i;
  const names = [
    '',
    'post-content',
    'postcontent entry-meta',
    'PAGE_CONTENT',
    'main\u00a0card',
    'detail details detailss',
    'mar\u212Adown \u212Aard',
    'com-ment comments_list',
    'articles contents',
    'x-item-y',
    'content-',
    '-Reply',
    'tеxt',
  ];
  it('finds the words the hint regexes found', () => {
    for (const n of names) expect(nameHints(n), n).toBe((CONTENT.test(n) ? 2 : 0) | (POST.test(n) ? 4 : 0));
  });
});

describe('textKinds', () => {
  const texts = [
    ...TRICKY,
    '© 2024 Example Inc. ALL RIGHTS RESERVED',
    'ballrights reserved, all rights reservedx',
    'xprivacy policyx and Terms of Service',
    'terms of usage; termsof use; Cookie_ cookies. Copyright1',
    'Share this: Tweet | FaceBook _share share_ sharé',
    'Posted 3 days ago by a member · 12 Likes · 4 replies',
    'Jan 5, March 12 2019, 3 Dec, agony ago_ AGO',
    'Price: $ 12, 30€, 15 USD, 7eur, 9 gbpx',
    'Reply Quote Report Permalink REPUTATION 1,234 views',
    'posts postsx xposts comment_s comments',
    '\u212Aelvin li\u212Ae like',
    'edited a while ago',
    'xago agox',
  ];
  it('finds the kinds the phrase regexes found', () => {
    for (const t of texts) expect(textKinds(t), t).toBe(kindsByRegex(t));
  });
});
