// parseQuery skips its quote replaces for a query without `"` and the operator pattern for a token
// without `:` (src/core/search/query.ts). Held here to the full parse (the code before the shortcut)
// on generated queries mixing phrases, stray quotes, operators, colons and Unicode whitespace.

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/core/search/query.js';
import { collapseWhitespace } from '../../src/schema/index.js';
import { seededRandom } from '../../src/testing/seeded-random.js';
import type { SearchQuery } from '../../src/types/index.js';

/** The parse without shortcuts: both replaces always, the pattern on every token. */
function fullParse(raw: string): SearchQuery {
  const q = collapseWhitespace(raw);
  const parsed: SearchQuery = { q, phrases: [], sites: [], excludedSites: [], filetypes: [], terms: [] };
  let rest = q;
  rest = rest.replace(/"([^"]*)"/gu, (_, phrase: string) => {
    const p = collapseWhitespace(phrase);
    if (p) parsed.phrases.push(p);
    return ' ';
  });
  for (const token of rest.replace(/"/gu, ' ').split(' ')) {
    if (!token) continue;
    const op = /^(-?)(site|filetype):(.+)$/iu.exec(token);
    if (!op) {
      parsed.terms.push(token);
      continue;
    }
    const [, minus, name, value] = op as unknown as [string, string, string, string];
    if (name.toLowerCase() === 'filetype') {
      if (minus) parsed.terms.push(token);
      else parsed.filetypes.push(value.toLowerCase().replace(/^\.+/u, ''));
    } else {
      const site = value
        .toLowerCase()
        .replace(/^[a-z][a-z0-9+.-]*:\/\//u, '')
        .replace(/\/+$/u, '');
      (minus ? parsed.excludedSites : parsed.sites).push(site);
    }
  }
  return parsed;
}

const PIECES = [
  'cats',
  'Dogs',
  '"',
  '"a phrase"',
  '" spaced  phrase "',
  'site:Example.com',
  '-site:https://x.test/path/',
  'filetype:PDF',
  '-filetype:doc',
  'filetype:.Txt',
  'site:',
  ':',
  'a:b',
  'http://x.test',
  'SITE:Upper.test',
  'naïve',
  '日本語',
  '😀',
  '\u00a0',
  '\t',
  '\n',
  '  ',
  ' ',
  '""',
  '"site:in.phrase"',
  'x"y',
  '-',
  '--site:z',
];

describe('parseQuery', () => {
  it('parses as the full parse on 5,000 generated queries', () => {
    const random = seededRandom(33);
    for (let i = 0; i < 5000; i++) {
      const n = 1 + Math.floor(random() * 8);
      const parts: string[] = [];
      for (let j = 0; j < n; j++) parts.push(PIECES[Math.floor(random() * PIECES.length)]!);
      const raw = parts.join(random() < 0.7 ? ' ' : '');
      expect(parseQuery(raw), JSON.stringify(raw)).toEqual(fullParse(raw));
    }
  });

  it('parses queries without quotes or colons, and with them, as before', () => {
    for (const raw of ['plain words only', 'a "b c" d', 'site:a.test x', 'x -site:b.test:8080 filetype:pdf', 'un"closed quote', 'c: d:']) {
      expect(parseQuery(raw)).toEqual(fullParse(raw));
    }
  });
});
