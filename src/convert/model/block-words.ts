// What block-features.ts reads of a block's text, in one pass over its characters: the word counts
// (the words are what /[\p{L}\p{N}_]+/gu matches, but no array of them is built and an ASCII word is
// looked up (stopwords, title) only when it is short enough to be one), the phrase kinds (textKinds)
// and the hash duplicate texts are told apart by (duplicateCounts). This ran as a match, a lower-cased
// copy per word and more regex scans per block, then as three character loops over each text.

import { isSpace } from '../space.js';

/** Counts over the words of one text; one object reused for every block of a page. */
export interface BlockWords {
  words: number;
  /** UTF-16 units in the words. */
  chars: number;
  stop: number;
  /** Words whose first character changes when lower-cased. */
  caps: number;
  /** Words starting with an ASCII digit. */
  digits: number;
  /** Words (lower-cased) in `title`. */
  inTitle: number;
  commas: number;
  /** The text ends with sentence punctuation, trailing whitespace aside (/[.!?:;"”)]\s*$/). */
  endsSentence: boolean;
  /** The KIND_* bits of the text (textKinds). */
  kinds: number;
  /** The key of normalText(text) that duplicateCounts compares texts by first (equal texts, equal keys). */
  normalKey: number;
}

export function newBlockWords(): BlockWords {
  return { words: 0, chars: 0, stop: 0, caps: 0, digits: 0, inTitle: 0, commas: 0, endsSentence: false, kinds: 0, normalKey: 0 };
}

// Non-ASCII BMP code units: 0 not yet known, 1 a letter or number, 2 neither (filled as met).
const bmp = new Uint8Array(0x10000);
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;

function wordCodePoint(cp: number): boolean {
  if (cp < 128) return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95;
  if (cp < 0x10000) {
    let k = bmp[cp]!;
    if (k === 0) bmp[cp] = k = LETTER_OR_NUMBER.test(String.fromCharCode(cp)) ? 1 : 2;
    return k === 1;
  }
  return LETTER_OR_NUMBER.test(String.fromCodePoint(cp));
}

// As an int32 (its bits are the same): 0x811c9dc5 itself is above 2^31, a double, and a hash
// variable starting from it was kept as a double through its loop (normalHash ran at half speed).
// The hashes are the same int32s after a first step and the same keys (asciiWordKey) always.
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

// An ASCII word is looked up in the stopwords and the title by the FNV-1a hash of its lower case,
// taken while its characters are scanned, and compared character by character with the few words
// of that hash: no lower-cased copy of each word is made (that slice, lower-casing and the sets'
// hashing of it were half of this pass).
const HASH_MASK = 0x3fffffff; // a small integer, kept unboxed as a Map key

/** The hash of a word's lower case before its first character (asciiWordKey, lowerHashStep). */
export const WORD_HASH_START = FNV_OFFSET;

/** `h` (WORD_HASH_START or a previous step) extended by the ASCII unit `c`, lower-cased. */
export const lowerHashStep = (h: number, c: number): number => Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);

/** The table key of a word hashed by lowerHashStep. */
export const asciiWordKey = (h: number): number => h & HASH_MASK;

/**
 * Values by asciiWordKey, open-addressed in a typed array: a word's look-up is a probe or two of
 * `keys`, not a Map call (two or three look-ups per word of every row's text).
 */
export interface KeyTable<T> {
  mask: number;
  /** The key in each slot; -1 where empty (asciiWordKey's keys are not negative). */
  keys: Int32Array;
  values: (T | undefined)[];
}

function keyTable<T>(entries: ReadonlyMap<number, T>): KeyTable<T> {
  let size = 16;
  while (size < entries.size * 4) size *= 2;
  const keys = new Int32Array(size).fill(-1);
  const values: (T | undefined)[] = new Array(size).fill(undefined);
  for (const [key, value] of entries) {
    let slot = key & (size - 1);
    while (keys[slot] !== -1) slot = (slot + 1) & (size - 1);
    keys[slot] = key;
    values[slot] = value;
  }
  return { mask: size - 1, keys, values };
}

/** The value of `key` in `table`, undefined when it has none. */
export function keyed<T>(table: KeyTable<T>, key: number): T | undefined {
  const { keys, mask } = table;
  let slot = key & mask;
  for (let k = keys[slot]!; k !== -1; k = keys[slot]!) {
    if (k === key) return table.values[slot];
    slot = (slot + 1) & mask;
  }
  return undefined;
}

/** A set's ASCII words by hash (the others cannot equal a lower-cased ASCII word). */
export type WordTable = KeyTable<string[]>;
const wordTables = new WeakMap<ReadonlySet<string>, WordTable>();

/** `set`'s lower-case ASCII words by asciiWordKey, built once per set. */
export function wordTable(set: ReadonlySet<string>): WordTable {
  const known = wordTables.get(set);
  if (known !== undefined) return known;
  const byKey = new Map<number, string[]>();
  for (const w of set) {
    let h = WORD_HASH_START;
    let ascii = true;
    for (let k = 0; k < w.length && ascii; k++) {
      const c = w.charCodeAt(k);
      ascii = c < 128;
      h = lowerHashStep(h, c);
    }
    // A word that is not ASCII or not lower-case can equal no lower-cased ASCII word.
    if (!ascii || w.toLowerCase() !== w) continue;
    const key = asciiWordKey(h);
    const list = byKey.get(key);
    if (list) list.push(w);
    else byKey.set(key, [w]);
  }
  const table = keyTable(byKey);
  wordTables.set(set, table);
  return table;
}

/** text[start, start + len) (ASCII), lower-cased, is one of `words` (a WordTable's entry). */
export function inTable(words: string[] | undefined, text: string, start: number, len: number): boolean {
  if (words === undefined) return false;
  for (const w of words) {
    if (w.length !== len) continue;
    let k = 0;
    while (k < len) {
      let c = text.charCodeAt(start + k);
      if (c >= 65 && c <= 90) c += 32;
      if (c !== w.charCodeAt(k)) break;
      k++;
    }
    if (k === len) return true;
  }
  return false;
}

/** `text` as duplicate texts are compared: whitespace runs as one space, trimmed, lower-cased. */
export const normalText = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

// Non-ASCII BMP code units as normalText lower-cases them: 0 not yet known, NOT_ONE_UNIT where the
// text's own lower case must be taken (a surrogate, whose pair may change; U+0130, which lower-cases
// to two units; the capital sigma, whose lower case depends on the letters around it), else the one
// unit it lower-cases to. toLowerCase maps every other character on its own.
const lowerUnits = new Uint16Array(0x10000);
const NOT_ONE_UNIT = 0xffff;

function lowerUnit(c: number): number {
  let k = lowerUnits[c]!;
  if (k === 0) {
    const lower = String.fromCharCode(c).toLowerCase();
    k = (c >= 0xd800 && c <= 0xdfff) || c === 0x130 || c === 0x3a3 || lower.length !== 1 ? NOT_ONE_UNIT : lower.charCodeAt(0);
    lowerUnits[c] = k;
  }
  return k;
}

function stringHash(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * For each text, how many of `texts` share its normalText and how many of those come before it.
 * Most texts of a page are unique: they are told apart by a hash, and only texts whose hash repeats
 * are normalised and compared as strings (the counts are exact).
 */
export function duplicateCounts(
  texts: readonly string[],
  /** Each text's normalKey (countBlockWords), when the caller has read them already. */
  keys: ArrayLike<number> = textKeys(texts),
): { count: Int32Array; before: Int32Array } {
  const n = texts.length;
  const count = new Int32Array(n).fill(1);
  const before = new Int32Array(n);
  // The keys sorted: a key repeats where it meets its neighbour (no Map of every row's key).
  const sorted = Int32Array.from(keys).sort();
  let repeats = false;
  for (let i = 1; i < n && !repeats; i++) repeats = sorted[i] === sorted[i - 1];
  if (!repeats) return { count, before };
  const seen = new Map<string, number>();
  const norms: (string | undefined)[] = new Array(n);
  for (let r = 0; r < n; r++) {
    if (!repeated(sorted, keys[r]!)) continue;
    const t = (norms[r] = normalText(texts[r]!));
    const k = seen.get(t) ?? 0;
    before[r] = k;
    seen.set(t, k + 1);
  }
  for (let r = 0; r < n; r++) if (norms[r] !== undefined) count[r] = seen.get(norms[r]!)!;
  return { count, before };
}

/** Whether `key` occurs twice or more in `sorted`. */
function repeated(sorted: Int32Array, key: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1 < sorted.length && sorted[lo + 1] === key;
}

function textKeys(texts: readonly string[]): Int32Array {
  const out = newBlockWords();
  return Int32Array.from(texts, (t) => countBlockWords(t, NO_WORDS, NO_WORDS, 0, out).normalKey);
}

const NO_WORDS: ReadonlySet<string> = new Set();

/** Kinds of text (textKinds): what the phrase tests of block-features.ts found. */
export const KIND_LEGAL = 1;
export const KIND_SOCIAL = 2;
export const KIND_DATE = 4;
export const KIND_PRICE = 8;
export const KIND_META = 16;

// Phrases that mark a line's kind whatever the markup: legal and cookie notices, share bars,
// dates, prices, and the metadata lines of posts and comments.
const LEGAL = /©|\bcopyright\b|all rights reserved|privacy policy|terms of (use|service)|\bcookies?\b/i;
const DATE =
  /\b(19|20)\d\d\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}\b|\b\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\bago\b/i;
const PRICE = /[$€£¥₹]\s?\d|\d\s?(€|usd|eur|gbp)\b/i;
// What /\b(share|…)\b/i and /\b(reply|…)\b/i found: a run of ASCII word characters ([A-Za-z0-9_], what
// \b bounds without the u flag) equal to one of these words, ASCII case ignored. A run that names a
// legal word or starts a legal phrase ("all rights …", "privacy policy", "terms of …") sends the
// text to the LEGAL regex; a date needs a digit or "ago", a price a digit.
const SOCIAL_WORDS = 'share tweet facebook twitter linkedin pinterest whatsapp instagram youtube subscribe newsletter';
const META_WORDS =
  'reply replies quote report posted joined member members posts views like likes vote votes comment comments answered asked edited permalink reputation';
const LEGAL_WORDS = 'copyright cookie cookies';
const RUN_LEGAL_MAYBE = 32;
const RUN_AGO = 64;

/** Lower-cased word → its kinds, keyed by the lowerHashStep hash of its letters (a run's key). */
const runWords = new Map<number, { word: string; kinds: number }[]>();
function addRunWords(words: string, kinds: number): void {
  for (const word of words.split(' ')) {
    let h = WORD_HASH_START;
    for (let i = 0; i < word.length; i++) h = lowerHashStep(h, word.charCodeAt(i));
    h = asciiWordKey(h);
    const list = runWords.get(h) ?? [];
    const same = list.find((e) => e.word === word);
    if (same) same.kinds |= kinds;
    else list.push({ word, kinds });
    runWords.set(h, list);
  }
}
addRunWords(SOCIAL_WORDS, KIND_SOCIAL);
addRunWords(META_WORDS, KIND_META);
addRunWords(LEGAL_WORDS, KIND_LEGAL);
addRunWords('rights', RUN_LEGAL_MAYBE);
addRunWords('ago', RUN_AGO);
const runTable = keyTable(runWords);
const RUN_MAX = 12;

/** The run text[end - word.length, end) ends with `word` (lower-case ASCII letters), case ignored. */
function endsWith(text: string, end: number, len: number, word: string): boolean {
  if (len < word.length) return false;
  for (let k = 0; k < word.length; k++) if ((text.charCodeAt(end - word.length + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * The KIND_* bits of `text`, as LEGAL, SOCIAL, DATE, PRICE and META tested on it would set them
 * (countBlockWords' `kinds`).
 */
export function textKinds(text: string): number {
  return countBlockWords(text, NO_WORDS, NO_WORDS, 0, newBlockWords()).kinds;
}

/**
 * Fills `out` with what block-features.ts reads of `text`, in one pass over its characters:
 * - the word counts: `stopwords` and `title` hold lower-cased words; `lookupChars` is the length of
 *   the longest word in either (a longer ASCII word is in neither);
 * - the phrase kinds (textKinds): runs of ASCII word characters ([A-Za-z0-9_], what \b bounds without
 *   the u flag) looked up as words, the LEGAL/DATE/PRICE regexes run only where a run or a digit says
 *   they could match;
 * - the key of normalText(text): FNV-1a of it, read off the text without building that string unless
 *   a character's lower case is not one unit of its own (normalText is hashed then).
 * An ASCII word is a run too (its hash is the run's); a word with a non-ASCII letter holds several.
 */
export function countBlockWords(
  text: string,
  stopwords: ReadonlySet<string>,
  title: ReadonlySet<string>,
  lookupChars: number,
  out: BlockWords,
): BlockWords {
  let words = 0;
  let chars = 0;
  let stop = 0;
  let caps = 0;
  let digits = 0;
  let inTitle = 0;
  let commas = 0;
  const stopTable = wordTable(stopwords);
  const titleTable = wordTable(title);
  // The word being read (start -1: none) and whether its units are all ASCII.
  let wordStart = -1;
  let wordAscii = true;
  // The run of ASCII word characters being read (start -1: none) and its lowerHashStep hash.
  let runStart = -1;
  let h = WORD_HASH_START;
  let kinds = 0;
  let digit = false;
  // normalText's hash: whitespace runs as one space (`space`: one is pending), none before the
  // first character or after the last; `whole`: hash normalText itself.
  let nh = FNV_OFFSET;
  let content = false;
  let space = false;
  let whole = false;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    // Past the end: a unit that ends the word and the run and adds nothing.
    const c = i < n ? text.charCodeAt(i) : 32;
    let units = 1;
    let word: boolean;
    if (c < 128) {
      word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
      if (word) {
        if (runStart < 0) {
          runStart = i;
          h = WORD_HASH_START;
        }
        h = lowerHashStep(h, c);
        if (c <= 57) digit = true;
        if (wordStart < 0) {
          wordStart = i;
          wordAscii = true;
        }
      } else if (c === 44) commas++;
      if (c === 32 || (c >= 9 && c <= 13)) space = content;
      else {
        if (space) {
          nh = Math.imul(nh ^ 32, FNV_PRIME);
          space = false;
        }
        content = true;
        nh = Math.imul(nh ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
      }
      if (word) continue;
    } else {
      if (c === 0xa9) kinds |= KIND_LEGAL; // ©
      if (isSpace(c)) space = content;
      else {
        const lower = lowerUnit(c);
        if (lower === NOT_ONE_UNIT) whole = true;
        if (space) {
          nh = Math.imul(nh ^ 32, FNV_PRIME);
          space = false;
        }
        content = true;
        nh = Math.imul(nh ^ lower, FNV_PRIME);
      }
      // The code point at i (a surrogate pair read as one, as the u flag does).
      let cp = c;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
          units = 2;
        }
      }
      word = wordCodePoint(cp);
    }
    // A run ends at any unit that is not an ASCII word character.
    if (runStart >= 0) {
      const len = i - runStart;
      if (len <= RUN_MAX) {
        const list = keyed(runTable, asciiWordKey(h));
        if (list !== undefined) {
          for (const e of list) {
            if (e.word.length === len && endsWith(text, i, len, e.word)) kinds |= e.kinds;
          }
        }
      }
      if (endsWith(text, i, len, 'privacy') || endsWith(text, i, len, 'terms')) kinds |= RUN_LEGAL_MAYBE;
      runStart = -1;
    }
    if (word) {
      // A non-ASCII letter or number: it starts or continues a word that is not ASCII.
      if (wordStart < 0) wordStart = i;
      wordAscii = false;
    } else if (wordStart >= 0) {
      const start = wordStart;
      const len = i - start;
      words++;
      chars += len;
      const c0 = text.charCodeAt(start);
      // An ASCII digit first, as /^\d/ without the u flag reads it.
      if (c0 >= 48 && c0 <= 57) digits++;
      if (wordAscii) {
        // The word is the run that just ended: `h` is its hash.
        if (c0 >= 65 && c0 <= 90) caps++;
        if (len <= lookupChars) {
          const key = asciiWordKey(h);
          if (inTable(keyed(stopTable, key), text, start, len)) stop++;
          if (inTable(keyed(titleTable, key), text, start, len)) inTitle++;
        }
      } else {
        const w = text.slice(start, i);
        const lower = w.toLowerCase();
        if (stopwords.has(lower)) stop++;
        if (title.has(lower)) inTitle++;
        if (w[0] !== lower[0]) caps++;
      }
      wordStart = -1;
    }
    i += units - 1;
  }
  let end = n - 1;
  while (end >= 0 && isSpace(text.charCodeAt(end))) end--;
  const last = end >= 0 ? text.charCodeAt(end) : -1;
  out.endsSentence =
    last === 46 || last === 33 || last === 63 || last === 58 || last === 59 || last === 34 || last === 0x201d || last === 41;
  out.words = words;
  out.chars = chars;
  out.stop = stop;
  out.caps = caps;
  out.digits = digits;
  out.inTitle = inTitle;
  out.commas = commas;
  if (kinds & RUN_LEGAL_MAYBE && !(kinds & KIND_LEGAL) && LEGAL.test(text)) kinds |= KIND_LEGAL;
  if (kinds & RUN_AGO) kinds |= KIND_DATE;
  else if (digit && DATE.test(text)) kinds |= KIND_DATE;
  if (digit && PRICE.test(text)) kinds |= KIND_PRICE;
  out.kinds = kinds & (KIND_LEGAL | KIND_SOCIAL | KIND_DATE | KIND_PRICE | KIND_META);
  // A small integer: an unboxed Map key.
  out.normalKey = asciiWordKey(whole ? stringHash(normalText(text)) : nh);
  return out;
}
