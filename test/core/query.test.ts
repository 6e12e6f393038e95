import { describe, expect, it } from 'vitest';
import { parseQuery, queryText, searchKey } from '../../src/core/search/query.js';

describe('parseQuery', () => {
  it('splits phrases, site:, -site:, filetype: and terms', () => {
    const q = parseQuery('  rust  "borrow checker" site:Docs.rs -site:reddit.com filetype:PDF -tutorial "async fn" ');
    expect(q).toEqual({
      q: 'rust "borrow checker" site:Docs.rs -site:reddit.com filetype:PDF -tutorial "async fn"',
      phrases: ['borrow checker', 'async fn'],
      sites: ['docs.rs'],
      excludedSites: ['reddit.com'],
      filetypes: ['pdf'],
      terms: ['rust', '-tutorial'],
    });
  });

  it('keeps operators inside quotes as phrase text', () => {
    expect(parseQuery('"site:example.com is here"').phrases).toEqual(['site:example.com is here']);
    expect(parseQuery('"site:example.com is here"').sites).toEqual([]);
  });

  it('reads an unclosed quote as plain terms and ignores empty phrases', () => {
    const q = parseQuery('say "hello world');
    expect(q.phrases).toEqual([]);
    expect(q.terms).toEqual(['say', 'hello', 'world']);
    expect(parseQuery('a "" b').phrases).toEqual([]);
  });

  it('normalizes operator values and names', () => {
    const q = parseQuery('SITE:https://Example.com/ FileType:.Docx -Site:http://x.org/a/');
    expect(q.sites).toEqual(['example.com']);
    expect(q.filetypes).toEqual(['docx']);
    expect(q.excludedSites).toEqual(['x.org/a']);
  });

  it('treats operators without a value, and -filetype:, as terms', () => {
    expect(parseQuery('site: filetype: -filetype:pdf').terms).toEqual(['site:', 'filetype:', '-filetype:pdf']);
  });
});

describe('query sameness', () => {
  it('folds whitespace, Unicode compatibility forms and case', () => {
    expect(queryText('  Hello\t\nWORLD ')).toBe('hello world');
    expect(queryText('ｆｕｌｌｗｉｄｔｈ')).toBe('fullwidth');
    expect(queryText('Straße')).toBe(queryText('STRASSE'));
  });

  it('includes the content options, and content_results only with include_content', () => {
    expect(searchKey('a', { includeContent: false, contentResults: 5 })).toBe(searchKey('A', { includeContent: false, contentResults: 9 }));
    expect(searchKey('a', { includeContent: true, contentResults: 5 })).not.toBe(
      searchKey('a', { includeContent: false, contentResults: 5 }),
    );
    expect(searchKey('a', { includeContent: true, contentResults: 5 })).not.toBe(
      searchKey('a', { includeContent: true, contentResults: 6 }),
    );
  });
});
