// The request URL split without `new URL` on the common path must read exactly as `new URL` would.

import { describe, expect, it } from 'vitest';
import { parseUrl } from '../../src/http/request-url.js';

const read = (url: { pathname: string; searchParams: URLSearchParams } | undefined) =>
  url && { pathname: url.pathname, query: [...url.searchParams] };

/** Taken without `new URL`: every character is one it leaves as it is (or one URLSearchParams decodes back). */
const PLAIN = [
  'http://127.0.0.1:3000/api/search?q=same+query',
  'http://localhost/api/search',
  'http://localhost/api/search?',
  'http://localhost/api/search/?q=a&q=b&&=x&y',
  'https://[::1]:8080/v1/api/usage',
  'http://h//api//search?q=%22quoted%22+%26+%25&include_content=TRUE',
  'http://h/api/search?q="a\'b<c>`d{e}|f^g[h]\\i"',
  'http://h/api/search?q=%E2%9C%93+%C3%A9&max_chars=-0012',
  'http://h/api/search?q=%zz%&q2=%2',
  'http://h/a-b_c~d/api/search?engines=a&engines=b&engine=x',
];

/** Parsed by `new URL`: it would change them (dot segments, percent-encoding, fragments, case, spaces). */
const NOT_PLAIN = [
  'http://h/api/./search?q=x',
  'http://h/v1/../api/search',
  'http://h/api/%73earch',
  'http://h/api/search?q=a#b',
  'http://h/api/search#q=a',
  'http://h/api/search?q=a b',
  'http://h/api/search?q=\tx',
  'http://h/api/sé arch?q=é',
  'http://h/api\\search?q=x',
  'HTTP://h/api/search?q=x',
  'http://h',
  'http://h/api/search.json?q=x',
];

describe('parseUrl', () => {
  it.each(PLAIN)('reads %s as new URL does, without it', (url) => {
    const parsed = parseUrl(url);
    expect(parsed).not.toBeInstanceOf(URL);
    expect(read(parsed)).toEqual(read(new URL(url)));
  });

  it.each(NOT_PLAIN)('leaves %s to new URL', (url) => {
    const parsed = parseUrl(url);
    expect(parsed).toBeInstanceOf(URL);
    expect(read(parsed)).toEqual(read(new URL(url)));
  });

  it('is undefined for a URL that does not parse', () => {
    expect(parseUrl('not a url')).toBeUndefined();
    expect(parseUrl('http://a b/api/search')).toBeUndefined();
  });
});
