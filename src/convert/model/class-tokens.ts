// The words of an element's class and id ("post-content__body" → post, content, body), which the
// block classifier scores through a lexicon learned on WCXB dev-train (tools/train/block-lexicon.ts):
// CMS and theme vocabularies are shared across sites, so a word seen on many pages generalizes.

import { isSpace } from '../space.js';
import { memoByValue } from '../value-memo.js';

/** The split wordsOf does by hand (the reference for test/convert/class-tokens.test.ts). */
export const SPLIT = /[\s_\-:./]+|(?<=[a-z])(?=[A-Z])/;

const NONE: readonly string[] = Object.freeze([]);

export function classTokens(el: Element): readonly string[] {
  return namesTokens(el.getAttribute('class') ?? '', el.getAttribute('id') ?? '');
}

/** classTokens of an element whose class and id (getAttribute's, '' when absent) are read already. */
export function namesTokens(cls: string, id: string): readonly string[] {
  // Most elements have no id: their class value is the key itself (one string shared by the
  // elements of that class, its hash kept), not a string joined anew per element and hashed again.
  if (id === '') return cls === '' ? NONE : tokensOf(cls);
  return tokensOf(`${cls} ${id}`);
}

// Class and id strings repeat across a page's elements (and its rows ask of each ancestor): each
// distinct one is split once. Callers only read the words.
/** The words of one class (or id) value, split once per distinct value. */
export const tokensOf = memoByValue((raw): readonly string[] => Object.freeze(wordsOf(raw)));

const isSeparator = (c: number) => c === 95 || c === 45 || c === 58 || c === 46 || c === 47 || isSpace(c);
const isLower = (c: number) => c >= 97 && c <= 122;
const isUpper = (c: number) => c >= 65 && c <= 90;

/** Up to this many words a list of class words is scanned for one, past it looked up in a Set (here and block-features.ts). */
export const SCAN_WORDS = 16;

/**
 * `raw.split(SPLIT)`'s parts of 3–20 code units that lower-case to ASCII letters, each once, in order:
 * one pass over the characters (the look-behind split was most of a new value's cost). A part with
 * a non-ASCII character takes the regex's own path (a Kelvin sign lower-cases to "k").
 */
export function wordsOf(raw: string): string[] {
  const out: string[] = [];
  // Words already out, once there are more than a few: a look-up each, not a scan of `out` (one
  // attribute of many distinct words was quadratic).
  let seen: Set<string> | null = null;
  const n = raw.length;
  let start = 0;
  // The part so far is ASCII letters only; it holds a non-ASCII unit.
  let letters = true;
  let wide = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? raw.charCodeAt(i) : -1;
    // Where the next part starts when a part ends at i (-1: it goes on).
    let next = -1;
    if (c === -1) next = n;
    else if (isSeparator(c)) {
      next = i + 1;
      while (next < n && isSeparator(raw.charCodeAt(next))) next++;
    } else if (i > start && isUpper(c) && isLower(raw.charCodeAt(i - 1))) next = i;
    if (next < 0) {
      if (c >= 128) wide = true;
      else if (!isLower(c) && !isUpper(c)) letters = false;
      continue;
    }
    const len = i - start;
    if (len >= 3 && len <= 20 && (letters || wide)) {
      const t = raw.slice(start, i).toLowerCase();
      if (!wide || /^[a-z]+$/.test(t)) {
        if (seen !== null) {
          if (!seen.has(t)) {
            seen.add(t);
            out.push(t);
          }
        } else if (!out.includes(t)) {
          out.push(t);
          if (out.length > SCAN_WORDS) seen = new Set(out);
        }
      }
    }
    if (c === -1) break;
    start = next;
    letters = true;
    wide = false;
    i = next - 1;
  }
  return out;
}

/** What the regex split gave (test/convert/class-tokens.test.ts checks wordsOf against it). */
export function wordsOfByRegex(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(SPLIT)) {
    if (part.length < 3 || part.length > 20) continue;
    const t = part.toLowerCase();
    if (/^[a-z]+$/.test(t) && !out.includes(t)) out.push(t);
  }
  return out;
}
