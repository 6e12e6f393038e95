// The request URL split without `new URL` on the common path must read exactly as `new URL` would.

import { describe, expect, it } from 'vitest';
import { parseUrl, type RequestUrl, requestUrlOf } from '../../src/http/request-url.js';

const read = (url: RequestUrl | URL | undefined) =>
  url && {
    pathname: url.pathname,
    query: [...('searchParams' in url ? url.searchParams : typeof url.query === 'string' ? new URLSearchParams(url.query) : url.query)],
  };

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
  'http://h/',
  'http://h/Z09az_-~?',
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
  'http://h/api/sea%72ch',
  'http://h/api/search?q=a\x7f',
  'http://h/api/search?q=\u00e9',
];

describe('parseUrl', () => {
  it.each(PLAIN)('reads %s as new URL does, without it', (url) => {
    const parsed = parseUrl(url);
    expect(typeof parsed?.query).toBe('string');
    expect(read(parsed)).toEqual(read(new URL(url)));
  });

  it.each(NOT_PLAIN)('leaves %s to new URL', (url) => {
    const parsed = parseUrl(url);
    expect(parsed?.query).toBeInstanceOf(URLSearchParams);
    expect(read(parsed)).toEqual(read(new URL(url)));
  });

  it('is undefined for a URL that does not parse', () => {
    expect(parseUrl('not a url')).toBeUndefined();
    expect(parseUrl('http://a b/api/search')).toBeUndefined();
  });
});

describe('requestUrlOf', () => {
  /** As the node binding gives it: the target as received, and the absolute URL it builds from it. */
  const request = (url: string) => {
    const target = url.slice(url.indexOf('/', url.indexOf('//') + 2));
    return { method: 'GET', url, target, headers: { get: () => null }, body: null };
  };
  const targets = [...PLAIN, ...NOT_PLAIN].filter((url) => /^https?:\/\/[^/]+\//.test(url));

  it.each(targets)('reads the target of %s as new URL reads the URL', (url) => {
    expect(read(requestUrlOf(request(url)))).toEqual(read(new URL(url)));
  });

  it('splits a plain target without reading the URL', () => {
    const plain = {
      ...request('http://h/api/search?q=a'),
      get url(): string {
        throw new Error('url read');
      },
    };
    expect(requestUrlOf(plain)).toEqual({ pathname: '/api/search', query: 'q=a' });
  });
});
