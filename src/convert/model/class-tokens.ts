// The words of an element's class and id ("post-content__body" → post, content, body), which the
// block classifier scores through a lexicon learned on WCXB dev-train (tools/train/block-lexicon.ts):
// CMS and theme vocabularies are shared across sites, so a word seen on many pages generalizes.

import { memoByValue } from '../value-memo.js';

const SPLIT = /[\s_\-:./]+|(?<=[a-z])(?=[A-Z])/;

const NONE: readonly string[] = Object.freeze([]);

export function classTokens(el: Element): readonly string[] {
  const cls = el.getAttribute('class') ?? '';
  const id = el.getAttribute('id') ?? '';
  // Most elements have no id: their class value is the key itself (one string shared by the
  // elements of that class, its hash kept), not a string joined anew per element and hashed again.
  if (id === '') return cls === '' ? NONE : tokensOf(cls);
  return tokensOf(`${cls} ${id}`);
}

// Class and id strings repeat across a page's elements (and its rows ask of each ancestor): each
// distinct one is split once. Callers only read the words.
const tokensOf = memoByValue((raw): readonly string[] => Object.freeze(wordsOf(raw)));

function wordsOf(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(SPLIT)) {
    if (part.length < 3 || part.length > 20) continue;
    const t = part.toLowerCase();
    if (/^[a-z]+$/.test(t) && !out.includes(t)) out.push(t);
  }
  return out;
}
