// Query parsing (quoted phrases, site:, -site:, filetype:, terms) and query sameness.

import { collapseWhitespace } from '../../schema/index.js';
import type { SearchQuery } from '../../types/index.js';

/** `site:`, `-site:`, `filetype:` (a `-filetype:` is a plain term) with a value. */
const OPERATOR = /^(-?)(site|filetype):(.+)$/iu;

/**
 * Splits a query into its operators. A `"…"` pair is a phrase; an unclosed quote is dropped and the
 * rest is read as plain terms. Operator names are case-insensitive; an operator without a value
 * (`site:`) is a plain term.
 */
export function parseQuery(raw: string): SearchQuery {
  const q = collapseWhitespace(raw);
  const parsed: SearchQuery = { q, phrases: [], sites: [], excludedSites: [], filetypes: [], terms: [] };
  // Phrases first, so operators inside quotes stay part of the phrase. A query without a quote (most)
  // skips both replaces, and a token without a colon the operator pattern: they cost ~1 µs per search.
  const rest = q.includes('"')
    ? q
        .replace(/"([^"]*)"/gu, (_, phrase: string) => {
          const p = collapseWhitespace(phrase);
          if (p) parsed.phrases.push(p);
          return ' ';
        })
        .replace(/"/gu, ' ')
    : q;
  for (const token of rest.split(' ')) {
    if (!token) continue;
    const op = token.includes(':') ? OPERATOR.exec(token) : null;
    if (!op) {
      parsed.terms.push(token);
      continue;
    }
    const [, minus, name, value] = op as unknown as [string, string, string, string];
    if (name.toLowerCase() === 'filetype') {
      if (minus) parsed.terms.push(token);
      else parsed.filetypes.push(value.toLowerCase().replace(/^\.+/u, ''));
    } else {
      (minus ? parsed.excludedSites : parsed.sites).push(siteValue(value));
    }
  }
  return parsed;
}

/** `site:` values compare as lower-case hosts (or host/path) without scheme or trailing slash. */
function siteValue(value: string): string {
  return value
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//u, '')
    .replace(/\/+$/u, '');
}

/** The sameness key of a query text: collapsed, NFKC-normalized, case-folded. */
export function queryText(q: string): string {
  // toUpperCase().toLowerCase() folds ß/ẞ to "ss" and similar, as full case folding does.
  return collapseWhitespace(q).normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

export interface ContentOptions {
  includeContent: boolean;
  contentResults: number;
}

/**
 * The sameness key of a search request: query text plus content options. `content_results` has no
 * effect without include_content, so it is left out of the key then. `max_chars` is never in it: the
 * same pages, cut at delivery (content-parts.ts), so a repeat with another budget is a free repeat.
 * `text`: the query's queryText, when the caller has it already.
 */
export function searchKey(q: string, content: ContentOptions, text = queryText(q)): string {
  const opts = content.includeContent ? `c${content.contentResults}` : 'p';
  return `${opts}|${text}`;
}
