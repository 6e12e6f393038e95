// parseSearchParams takes the usual body `{ q }` without zod (issue 33: validation was a few µs of every
// search). The rule: for every body, the answer (or the 400 and its problems) is the schema's.
import { describe, expect, it } from 'vitest';
import { parseSearchParams, parseWithSchema } from '../../src/core/search/params.js';

const outcome = (parse: () => unknown) => {
  try {
    return { ok: parse() };
  } catch (error) {
    return { error: (error as { problems?: unknown }).problems ?? String(error) };
  }
};

const inherited = Object.create({ q: 'from the prototype' }) as Record<string, unknown>;
const emoji = '😀'.repeat(2000);
const bodies: Record<string, unknown>[] = [
  { q: 'plain query' },
  { q: '  a \n\t b  ' },
  { q: 'a\u00a0b\u2003c' },
  { q: '"exact phrase" site:example.org -site:other.org filetype:pdf' },
  { q: '' },
  { q: ' \n ' },
  { q: 'x'.repeat(2000) },
  { q: 'x'.repeat(2001) },
  { q: emoji },
  { q: `${emoji}x` },
  { q: 42 },
  { q: null },
  {},
  inherited,
  { q: 'with an unknown field', page: 3 },
  { q: 'a', include_content: true },
  { q: 'a', include_content: 'false' },
  { q: 'a', include_content: null },
  { q: 'a', include_content: undefined },
  { q: 'a', content_results: 3 },
  { q: 'a', content_results: 11 },
  { q: 'a', max_chars: 500 },
  { q: 'a', engine: 'google' },
  { q: 'a', engines: null },
  { q: 'a', engines: ['x'] },
];

describe('parseSearchParams fast path', () => {
  it.each(bodies.map((body, i) => [i, body] as const))('body %i: the same answer or the same 400 as the schema', (_, body) => {
    expect(outcome(() => parseSearchParams(body))).toEqual(outcome(() => parseWithSchema(body)));
  });

  it('gives the schema defaults for { q }', () => {
    expect(parseSearchParams({ q: ' a  b ' })).toEqual(parseWithSchema({ q: 'a b' }));
    expect(parseSearchParams({ q: ' a  b ' })).toStrictEqual({
      q: 'a b',
      includeContent: false,
      contentResults: 5,
      deprecatedEngine: false,
    });
  });
});
