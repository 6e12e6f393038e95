// Turns a parsed search query into an FTS5 MATCH expression that can never be a syntax error: every
// word becomes a double-quoted FTS5 string (quotes doubled), so user text is never read as FTS5
// syntax (`AND`, `NEAR(`, `col:`, `*`, `^`). Only three things are operators, by our own reading:
// a quoted phrase, `-word` (exclusion) and an upper-case `OR` between two words.

import type { SearchQuery } from '../types/index.js';

export interface FtsPlan {
  /** MATCH expression of what must match; null when the query has no positive words. */
  match: string | null;
  /** MATCH expression of what must not match (`-word`); null when there is none. */
  exclude: string | null;
  /** The query had words, but none that can match anything (e.g. only `*` or `"`): answer empty. */
  unmatchable: boolean;
}

const WORDY = /[\p{L}\p{N}]/u;

/** An FTS5 string literal: the token sequence of `text`, never interpreted as syntax. */
export function ftsString(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** A word as an FTS5 operand; a trailing `*` keeps its documented meaning of a prefix search. */
function operand(word: string): string | null {
  const prefix = /[\p{L}\p{N}]\*+$/u.test(word);
  const body = prefix ? word.replace(/\*+$/, '') : word;
  if (!WORDY.test(body)) return null;
  return prefix ? `${ftsString(body)} *` : ftsString(body);
}

export function toFtsPlan(query: SearchQuery): FtsPlan {
  // Each clause is a list of alternatives (OR); clauses are AND-ed.
  const clauses: string[][] = [];
  const excluded: string[] = [];
  let sawWords = false;
  let orPending = false;

  for (const raw of query.terms) {
    const term = raw.trim();
    if (term === '') continue;
    if (term === 'OR') {
      orPending = clauses.length > 0;
      continue;
    }
    sawWords = true;
    if (term.startsWith('-') && term.length > 1) {
      const neg = operand(term.slice(1));
      if (neg) excluded.push(neg);
      orPending = false;
      continue;
    }
    const pos = operand(term);
    if (!pos) {
      orPending = false;
      continue;
    }
    const last = clauses[clauses.length - 1];
    if (orPending && last) last.push(pos);
    else clauses.push([pos]);
    orPending = false;
  }

  for (const phrase of query.phrases) {
    sawWords = true;
    if (WORDY.test(phrase)) clauses.push([ftsString(phrase)]);
  }

  const match = clauses.length === 0 ? null : clauses.map((c) => (c.length > 1 ? `(${c.join(' OR ')})` : c[0])).join(' AND ');
  const exclude = excluded.length === 0 ? null : excluded.join(' OR ');
  return { match, exclude, unmatchable: sawWords && match === null && exclude === null };
}
