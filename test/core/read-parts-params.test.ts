// The reading-in-parts parameters (max_chars, start_char, query) as the engine parses them: every bad
// value named in one 400, absent when not given (so a call without them keeps its idempotency
// fingerprint), and never part of a search's sameness key.

import { describe, expect, it } from 'vitest';
import { callFingerprint } from '../../src/core/books/idempotency.js';
import { parseExtractParams } from '../../src/core/extract/params.js';
import { parseSearchParams } from '../../src/core/search/params.js';
import { searchKey } from '../../src/core/search/query.js';
import { InvalidRequestError } from '../../src/errors.js';

const URL = 'https://a.test/page';

function problems(parse: () => unknown): { field: string; message: string }[] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).problems;
  }
  throw new Error('expected a 400');
}
const extractProblems = (body: Record<string, unknown>) => problems(() => parseExtractParams({ urls: [URL], ...body }));
const fields = (list: { field: string }[]) => list.map((p) => p.field);

describe('extract: max_chars, start_char, query', () => {
  it('are parsed when given (integers also as strings, the query collapsed) and absent when not', () => {
    expect(parseExtractParams({ urls: [URL] })).toEqual({ urls: [URL], format: 'markdown', stealth: false });
    expect(parseExtractParams({ urls: [URL], max_chars: '8000', start_char: 0, query: '  proxy   settings ' })).toEqual({
      urls: [URL],
      format: 'markdown',
      stealth: false,
      maxChars: 8000,
      startChar: 0,
      query: 'proxy settings',
    });
    expect(parseExtractParams({ urls: [URL], max_chars: null, start_char: null, query: null })).toEqual({
      urls: [URL],
      format: 'markdown',
      stealth: false,
    });
  });

  it.each([
    [{ max_chars: 0 }, 'max_chars'],
    [{ max_chars: -5 }, 'max_chars'],
    [{ max_chars: 1.5 }, 'max_chars'],
    [{ max_chars: 'lots' }, 'max_chars'],
    [{ max_chars: true }, 'max_chars'],
    [{ start_char: -1 }, 'start_char'],
    [{ start_char: 2.5 }, 'start_char'],
    [{ start_char: '10k' }, 'start_char'],
    [{ query: '' }, 'query'],
    [{ query: '   ' }, 'query'],
    [{ query: 42 }, 'query'],
    [{ query: 'x'.repeat(2001) }, 'query'],
    [{ query: 'proxy settings', format: 'html' }, 'query'],
  ])('%j → 400 naming %s', (body, field) => {
    expect(fields(extractProblems(body))).toEqual([field]);
  });

  it('names every bad field in one 400, the html refusal of query too', () => {
    const list = extractProblems({ urls: ['ftp://x'], max_chars: 0, start_char: -1, query: 'x', format: 'html' });
    expect(fields(list)).toEqual(['urls[0]', 'max_chars', 'start_char', 'query']);
    expect(list.find((p) => p.field === 'query')?.message).toMatch(/markdown/);
  });

  it('a query of 2,000 characters (code points) is accepted, emoji counted once', () => {
    expect(parseExtractParams({ urls: [URL], query: '😀'.repeat(2000) }).query).toHaveLength(4000);
  });
});

describe('search: max_chars', () => {
  it('is parsed when given and absent when not', () => {
    expect(parseSearchParams({ q: 'cats' })).not.toHaveProperty('maxChars');
    expect(parseSearchParams({ q: 'cats', include_content: true, max_chars: '300' }).maxChars).toBe(300);
  });

  it('a bad one is a 400 naming it', () => {
    expect(fields(problems(() => parseSearchParams({ q: 'cats', max_chars: 0 })))).toEqual(['max_chars']);
    expect(fields(problems(() => parseSearchParams({ q: 'cats', max_chars: 'x' })))).toEqual(['max_chars']);
  });

  it('is not part of the sameness key (a repeat with another budget is a repeat)', () => {
    const key = (body: Record<string, unknown>) => searchKey('cats', parseSearchParams({ q: 'cats', ...body }));
    expect(key({ include_content: true, max_chars: 100 })).toBe(key({ include_content: true }));
    expect(key({ include_content: true, max_chars: 100 })).toBe(key({ include_content: true, max_chars: 5000 }));
  });
});

describe('idempotency fingerprints', () => {
  // Computed with the code before the extensions existed: keys in use keep their fingerprint.
  const search = (body: Record<string, unknown>) => {
    const { deprecatedEngine: _ignored, ...identity } = parseSearchParams(body);
    return callFingerprint('search', identity);
  };

  it('of calls without the extensions are unchanged', () => {
    expect(callFingerprint('extract', parseExtractParams({ urls: [URL] }))).toBe(
      'aa0b31a0347fedc5cf58c0ceb76bfd824077fc6868c7b154427d7d043a0f027b',
    );
    expect(callFingerprint('extract', parseExtractParams({ urls: [URL], format: 'html', include_links: true }))).toBe(
      'ff95ba4561c8514a00f901a58c6b3ca1e4a1ca68c0b64d930b33f75dc3a882e8',
    );
    expect(search({ q: 'cats', include_content: true, content_results: 3 })).toBe(
      'fdd45449cb708b00a4c70aab300a49f1baddcb0b0a0b2ae680ef1f76f824b072',
    );
  });

  it('differ with each extension given, and between values', () => {
    const of = (body: Record<string, unknown>) => callFingerprint('extract', parseExtractParams({ urls: [URL], ...body }));
    const all = [
      of({}),
      of({ max_chars: 100 }),
      of({ max_chars: 200 }),
      of({ start_char: 0 }),
      of({ start_char: 100 }),
      of({ query: 'a' }),
      of({ query: 'b' }),
    ];
    expect(new Set(all).size).toBe(all.length);
    expect(of({ max_chars: '100' })).toBe(of({ max_chars: 100 })); // the same call, spelt two ways
    expect(search({ q: 'cats', include_content: true, max_chars: 100 })).not.toBe(search({ q: 'cats', include_content: true }));
  });
});
