import { describe, expect, it } from 'vitest';
import { toFtsPlan } from '../../src/sources/fts-query.js';
import {
  filterResults,
  hostMatches,
  parseSite,
  renderQuery,
  urlExtension,
  urlMatchesSite,
  urlPasses,
} from '../../src/sources/operators.js';
import { q } from './helpers.js';

describe('site matching', () => {
  it('normalises site: values', () => {
    expect(parseSite('HTTPS://Docs.Example.COM/Guide/')).toEqual({ host: 'docs.example.com', path: '/guide' });
    expect(parseSite('*.example.com')).toEqual({ host: 'example.com', path: '' });
    expect(parseSite('example.com:8080')).toEqual({ host: 'example.com', path: '' });
  });

  it('matches the host and its subdomains, never a lookalike', () => {
    expect(hostMatches('example.com', 'example.com')).toBe(true);
    expect(hostMatches('a.b.example.com', 'example.com')).toBe(true);
    expect(hostMatches('EXAMPLE.com.', 'example.com')).toBe(true);
    expect(hostMatches('badexample.com', 'example.com')).toBe(false);
    expect(hostMatches('example.com.evil.test', 'example.com')).toBe(false);
    expect(hostMatches('example.com', '')).toBe(false);
  });

  it('matches a path prefix on whole segments', () => {
    expect(urlMatchesSite('https://x.test/docs/a', 'x.test/docs')).toBe(true);
    expect(urlMatchesSite('https://x.test/docs', 'x.test/docs/')).toBe(true);
    expect(urlMatchesSite('https://x.test/docsearch', 'x.test/docs')).toBe(false);
    expect(urlMatchesSite('not a url', 'x.test')).toBe(false);
  });

  it('reads the URL path extension, lower-case, ignoring query and fragment', () => {
    expect(urlExtension('https://x.test/a/Report.PDF?download=1#p2')).toBe('pdf');
    expect(urlExtension('https://x.test/a/')).toBe('');
    expect(urlExtension('https://x.test/.hidden')).toBe('');
    expect(urlExtension('https://x.test/archive.tar.gz')).toBe('gz');
  });

  it('filters -site: always, site: by default, filetype: only when asked', () => {
    const query = q('x site:a.test -site:b.a.test filetype:pdf');
    expect(urlPasses('https://a.test/x.html', query)).toBe(true);
    expect(urlPasses('https://a.test/x.html', query, { filetypes: true })).toBe(false);
    expect(urlPasses('https://c.b.a.test/x.pdf', query, { filetypes: true })).toBe(false);
    expect(urlPasses('https://other.test/x.pdf', query)).toBe(false);
    expect(urlPasses('https://other.test/x.pdf', query, { sites: false })).toBe(true);
    const results = [
      { title: 't', url: 'https://a.test/1', snippet: '' },
      { title: 't', url: 'https://b.a.test/2', snippet: '' },
    ];
    expect(filterResults(results, query).map((r) => r.url)).toEqual(['https://a.test/1']);
  });
});

describe('renderQuery', () => {
  it('writes terms, phrases, filetypes, OR-ed sites and excluded sites', () => {
    expect(renderQuery(q('rust "error handling" -unsafe site:a.test site:b.test -site:c.test filetype:pdf'))).toBe(
      'rust -unsafe "error handling" filetype:pdf site:a.test OR site:b.test -site:c.test',
    );
    expect(renderQuery(q('rust site:a.test filetype:pdf'), { sites: false, filetypes: false })).toBe('rust');
  });
});

describe('toFtsPlan', () => {
  it('quotes every word and doubles embedded quotes', () => {
    expect(toFtsPlan(q('NEAR(a AND col:x'))).toEqual({ match: '"NEAR(a" AND "AND" AND "col:x"', exclude: null, unmatchable: false });
    expect(toFtsPlan({ q: '', phrases: ['say "hi"'], sites: [], excludedSites: [], filetypes: [], terms: [] }).match).toBe('"say ""hi"""');
  });

  it('reads -word, OR between words and a trailing * as operators', () => {
    expect(toFtsPlan(q('a OR b c -d -e'))).toEqual({ match: '("a" OR "b") AND "c"', exclude: '"d" OR "e"', unmatchable: false });
    expect(toFtsPlan(q('OR a OR'))).toEqual({ match: '"a"', exclude: null, unmatchable: false });
    expect(toFtsPlan(q('pre*')).match).toBe('"pre" *');
  });

  it('marks a query whose words can match nothing', () => {
    expect(toFtsPlan(q('* - **')).unmatchable).toBe(true);
    expect(toFtsPlan(q('site:a.test')).unmatchable).toBe(false);
  });
});
