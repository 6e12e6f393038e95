import { describe, expect, it } from 'vitest';
import { parseSearchParams } from '../../src/core/search/params.js';
import { InvalidRequestError } from '../../src/errors.js';

const problemsOf = (body: unknown) => {
  try {
    parseSearchParams(body as never);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).problems;
  }
  throw new Error('expected a 400');
};

describe('parseSearchParams', () => {
  it('applies defaults and collapses the query', () => {
    expect(parseSearchParams({ q: '  a   b ' })).toEqual({ q: 'a b', includeContent: false, contentResults: 5, deprecatedEngine: false });
  });

  it('lists every bad field in one 400', () => {
    const problems = problemsOf({ q: 42, include_content: 'yes', content_results: 11 });
    expect(problems.map((p) => p.field)).toEqual(['q', 'include_content', 'content_results']);
  });

  it('bounds q to 1–2000 characters after trimming', () => {
    expect(problemsOf({ q: '   ' })[0]!.field).toBe('q');
    expect(problemsOf({})[0]!.message).toBe('is required');
    expect(problemsOf({ q: 'x'.repeat(2001) })[0]!.field).toBe('q');
    expect(parseSearchParams({ q: ` ${'x'.repeat(2000)} ` }).q).toHaveLength(2000);
  });

  it('counts q in characters (code points), not UTF-16 units', () => {
    const emoji = '\u{1F600}';
    expect(parseSearchParams({ q: emoji.repeat(2000) }).q).toBe(emoji.repeat(2000));
    expect(problemsOf({ q: emoji.repeat(2001) })[0]!.field).toBe('q');
    expect(parseSearchParams({ q: `${emoji.repeat(1999)}x` }).q).toHaveLength(3999);
  });

  it('accepts GET strings for include_content and content_results', () => {
    expect(parseSearchParams({ q: 'a', include_content: 'true', content_results: '7' })).toMatchObject({
      includeContent: true,
      contentResults: 7,
    });
    expect(parseSearchParams({ q: 'a', include_content: '0' }).includeContent).toBe(false);
    expect(parseSearchParams({ q: 'a', include_content: '1' }).includeContent).toBe(true);
    expect(problemsOf({ q: 'a', content_results: '2.5' })[0]!.field).toBe('content_results');
    expect(problemsOf({ q: 'a', content_results: 0 })[0]!.field).toBe('content_results');
    expect(problemsOf({ q: 'a', content_results: 3.5 })[0]!.field).toBe('content_results');
    expect(parseSearchParams({ q: 'a', content_results: 10 }).contentResults).toBe(10);
    expect(parseSearchParams({ q: 'a', content_results: 1 }).contentResults).toBe(1);
  });

  it('ignores unknown fields and flags engine/engines', () => {
    expect(parseSearchParams({ q: 'a', foo: 1 }).deprecatedEngine).toBe(false);
    expect(parseSearchParams({ q: 'a', engine: 'google' }).deprecatedEngine).toBe(true);
    expect(parseSearchParams({ q: 'a', engines: ['x'] }).deprecatedEngine).toBe(true);
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'q=a', 3]) expect(problemsOf(body)[0]!.field).toBe('body');
  });
});
