import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LocalIndex, localIndex } from '../../src/sources/index.js';
import type { ExtractResponse } from '../../src/types/index.js';
import { describeSourceConformance } from './conformance.js';
import { ctx, q, rejection } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'websift-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${i % 17} word${i % 5}`).join(' ');

const DOCS = [
  {
    url: 'https://www.sqlite.org/fts5.html',
    title: 'SQLite FTS5 Extension',
    text: `FTS5 is a virtual table module for full-text search. ${filler(200)} The bm25 function ranks matches.`,
  },
  {
    url: 'https://docs.example.com/guide/search',
    title: 'Search guide',
    text: 'How to run a search over documents with sqlite and the fts5 module, step by step.',
  },
  {
    url: 'https://example.com/papers/ranking.pdf',
    title: 'Ranking functions',
    text: 'A paper on bm25 and other ranking functions for full text search engines.',
  },
  { url: 'https://blog.other.test/quick', title: 'Foxes', text: 'The quick brown fox jumps over the lazy dog.' },
  { url: 'https://blog.other.test/brown', title: 'Dogs', text: 'A brown dog and a quick cat; nothing jumps.' },
];

describeSourceConformance('localIndex', async () => {
  const index = localIndex({ database: ':memory:' });
  await index.add(DOCS);
  return { source: index, resultsQuery: 'search', emptyQuery: 'qzxjvkw plorbnatic fendrilous', close: () => index.close() };
});

describe('localIndex', () => {
  let index: LocalIndex;
  beforeEach(async () => {
    index = localIndex({ database: ':memory:' });
    await index.add(DOCS);
  });
  afterEach(() => index.close());
  const urls = async (text: string, limit = 10) => (await index.search(q(text), ctx(limit))).results.map((r) => r.url);

  it('ranks with bm25, a title match above a body match', async () => {
    await index.add([
      {
        url: 'https://a.test/body',
        title: 'Unrelated heading',
        text: 'This page mentions zebras once among many other words in its body text here.',
      },
      { url: 'https://a.test/title', title: 'Zebras', text: 'A page about striped animals in its body text, with many other words here.' },
    ]);
    expect(await urls('zebras')).toEqual(['https://a.test/title', 'https://a.test/body']);
  });

  it('gives snippet() excerpts around the match, without markup', async () => {
    const [hit] = (await index.search(q('bm25 function ranks matches'), ctx(1))).results;
    expect(hit!.url).toBe('https://www.sqlite.org/fts5.html');
    expect(hit!.snippet).toMatch(/bm25 function ranks matches/);
    expect(hit!.snippet.startsWith('…')).toBe(true);
    expect(hit!.snippet.length).toBeLessThan(400);
    expect(hit!.snippet).not.toMatch(/[<>]/);
  });

  it('flattens line breaks in snippets', async () => {
    await index.add({ url: 'https://md.test/', title: 'Notes', text: '# Heading\n\nFirst line about quokkas.\nSecond line.' });
    const [hit] = (await index.search(q('quokkas'), ctx(1))).results;
    expect(hit!.snippet).not.toMatch(/\n/);
    expect(hit!.snippet).toContain('First line about quokkas. Second line.');
    await index.remove('https://md.test/');
  });

  it('stems English words (porter): "honeybees" finds "honeybee", "ranks" finds "ranking"', async () => {
    await index.add({ url: 'https://bees.test/', title: 'Hive notes', text: 'A honeybee colony in spring.' });
    expect(await urls('honeybees')).toEqual(['https://bees.test/']);
    expect(await urls('ranks papers')).toEqual(['https://example.com/papers/ranking.pdf']);
    await index.remove('https://bees.test/');
  });

  it('matches quoted phrases as adjacent words only', async () => {
    expect(await urls('"quick brown"')).toEqual(['https://blog.other.test/quick']);
    expect((await urls('quick brown')).sort()).toEqual(['https://blog.other.test/brown', 'https://blog.other.test/quick']);
  });

  it('applies site: to the URL host and its subdomains, -site: likewise, filetype: to the path extension', async () => {
    expect((await urls('search site:example.com')).sort()).toEqual([
      'https://docs.example.com/guide/search',
      'https://example.com/papers/ranking.pdf',
    ]);
    expect(await urls('search site:docs.example.com')).toEqual(['https://docs.example.com/guide/search']);
    expect(await urls('search site:example.com/papers')).toEqual(['https://example.com/papers/ranking.pdf']);
    expect(await urls('search -site:example.com')).toEqual(['https://www.sqlite.org/fts5.html']);
    expect(await urls('search filetype:pdf')).toEqual(['https://example.com/papers/ranking.pdf']);
    expect(await urls('search filetype:html')).toEqual(['https://www.sqlite.org/fts5.html']);
    expect(await urls('search site:sqlite.org site:docs.example.com')).toHaveLength(2);
  });

  it('applies filters before the limit', async () => {
    expect(await urls('search filetype:pdf', 1)).toEqual(['https://example.com/papers/ranking.pdf']);
  });

  it('answers an operator-only query from the URL filters alone', async () => {
    expect((await urls('site:other.test')).sort()).toEqual(['https://blog.other.test/brown', 'https://blog.other.test/quick']);
    const [first] = (await index.search(q('site:sqlite.org'), ctx())).results;
    expect(first!.snippet.startsWith('FTS5 is a virtual table module')).toBe(true);
    expect(first!.snippet.endsWith('…')).toBe(true);
  });

  it('supports -word exclusion, OR and prefix*', async () => {
    expect(await urls('quick -fox')).toEqual(['https://blog.other.test/brown']);
    expect((await urls('-search')).sort()).toEqual(['https://blog.other.test/brown', 'https://blog.other.test/quick']);
    expect((await urls('fox OR cat')).sort()).toEqual(['https://blog.other.test/brown', 'https://blog.other.test/quick']);
    expect(await urls('jump*')).toHaveLength(2);
  });

  it('states "no results" when nothing matches', async () => {
    expect(await index.search(q('zzzz nothing'), ctx())).toEqual({ results: [], noResultsNotice: true });
    expect(await index.search(q('search site:nowhere.test'), ctx())).toEqual({ results: [], noResultsNotice: true });
    expect(await index.search(q('search filetype:docx'), ctx())).toEqual({ results: [], noResultsNotice: true });
  });

  it('never turns hostile input into an FTS5 syntax error', async () => {
    const hostile = [
      '"',
      '""',
      '"""',
      'AND OR',
      'OR',
      'NOT',
      'AND',
      '*',
      '**',
      'col:x',
      'title:fox',
      'NEAR(a b)',
      'NEAR(quick brown, 2)',
      '^quick',
      '(',
      ')',
      '((quick',
      'quick)',
      '{title text}: fox',
      '-',
      '--',
      '- -quick',
      'a + b',
      "'",
      '\\',
      '\u0000',
      'quick AND',
      'OR quick OR',
      'rowid:1',
      'fox"',
      '"fox',
      ':',
      '.',
      'index_fts MATCH',
      "'; DROP TABLE index_documents; --",
    ];
    for (const text of hostile) {
      const answer = await index.search(q(text), ctx());
      expect(Array.isArray(answer.results), text).toBe(true);
    }
    // A pseudo-random battery over FTS5's syntax characters, reproducible.
    const alphabet = ['"', '*', '(', ')', ':', '^', '-', '+', ' ', 'AND', 'OR', 'NOT', 'NEAR', 'fox', 'x', '{', '}', ',', "'", '\\'];
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: 1 + (next() % 8) }, () => alphabet[next() % alphabet.length]).join(next() % 2 ? ' ' : '');
      await expect(index.search(q(text), ctx()), text).resolves.toHaveProperty('results');
    }
    // Queries built by hand (not by the engine's parser) may carry quotes inside terms and phrases.
    const raw = (terms: string[], phrases: string[] = []) => ({ q: 'x', phrases, sites: [], excludedSites: [], filetypes: [], terms });
    for (const query of [
      raw(['fox"']),
      raw(['"NEAR(']),
      raw(['-fox"']),
      raw(['quick', 'OR', 'fox"']),
      raw([], ['quick" OR "fox"']),
      raw([], ['"']),
    ]) {
      await expect(index.search(query, ctx()), JSON.stringify(query)).resolves.toHaveProperty('results');
    }
    expect(await index.count()).toBe(DOCS.length);
  });

  it('reads FTS5 syntax as words: "title:fox" is the phrase "title fox", not a column filter', async () => {
    expect(await urls('title:fox')).toEqual([]);
    expect(await urls('quick:brown')).toEqual(['https://blog.other.test/quick']);
  });

  it('a query with nothing searchable states "no results" instead of listing the index', async () => {
    for (const text of ['"', '*', '-', '"" ""'])
      expect(await index.search(q(text), ctx()), text).toEqual({ results: [], noResultsNotice: true });
  });

  it('upserts by URL (fragment ignored): the new text replaces the old one', async () => {
    expect(await index.add({ url: 'https://blog.other.test/quick#top', title: 'Foxes', text: 'Entirely new words about otters.' })).toBe(1);
    expect(await index.count()).toBe(DOCS.length);
    expect(await urls('otters')).toEqual(['https://blog.other.test/quick']);
    expect(await urls('"quick brown"')).toEqual([]);
  });

  it('removes by URL', async () => {
    expect(await index.remove('https://blog.other.test/quick')).toBe(true);
    expect(await index.remove('https://blog.other.test/quick')).toBe(false);
    expect(await index.count()).toBe(DOCS.length - 1);
    expect(await urls('fox')).toEqual([]);
  });

  it('indexes engine.extract output: markdown text, title from the first heading or the URL', async () => {
    const response: ExtractResponse = {
      success: true,
      results: [
        {
          url: 'https://news.test/a',
          success: true,
          status_code: 200,
          markdown: 'Intro line\n\n# Walrus **Migration**\n\nWalruses travel [far north](https://maps.test/hidden) every year.',
        },
        { url: 'https://news.test/b', success: true, status_code: 200, markdown: 'Plain text about narwhals without any heading.' },
        { url: 'https://news.test/c', success: false, status_code: 404, markdown: '', error: '404 Not Found', error_type: 'http' },
      ],
      metadata: {
        total_urls: 3,
        processed_urls: 3,
        successful_crawls: 2,
        failed_crawls: 1,
        credits_used: 2,
        response_time: 5,
        timestamp: '2026-01-01T00:00:00.000Z',
      },
    };
    expect(await index.addExtracted(response)).toBe(2);
    const [walrus] = (await index.search(q('walruses'), ctx())).results;
    expect(walrus).toMatchObject({ url: 'https://news.test/a', title: 'Walrus Migration' });
    expect(walrus!.snippet).toContain('Walruses travel far north every year');
    expect((await index.search(q('narwhals'), ctx())).results[0]!.title).toBe('https://news.test/b');
    expect(await urls('hidden')).toEqual([]); // link targets are not text
    await expect(index.addExtracted({} as never)).rejects.toThrow(/results array/);
    const asHtml = {
      ...response,
      results: [
        {
          url: 'https://news.test/h',
          success: true,
          status_code: 200,
          html: '<html><head><title>Seal &amp; Co</title><style>.x{}</style></head><body><p>Seals nap on rocks.</p></body></html>',
        },
      ],
    };
    expect(await index.addExtracted(asHtml)).toBe(1);
    expect((await index.search(q('seals'), ctx())).results[0]).toMatchObject({ title: 'Seal & Co', snippet: 'Seals nap on rocks.' });
  });

  it('rejects bad documents with a clear error, writing none of the batch', async () => {
    await expect(
      index.add([
        { url: 'https://ok.test/', title: 'ok', text: 'fine' },
        { url: 'not a url', title: 't', text: 'x' },
      ]),
    ).rejects.toThrow(/document 1: url is not an absolute URL/);
    await expect(index.add({ url: 'ftp://x.test/', title: 't', text: 'x' })).rejects.toThrow(/http/);
    await expect(index.add({ url: 'https://x.test/', title: 't' } as never)).rejects.toThrow(/text must be a string/);
    await expect(index.add(null as never)).rejects.toThrow(/must be an object/);
    expect(await index.count()).toBe(DOCS.length);
    expect(() => localIndex({} as never)).toThrow(/database/);
  });

  it('refuses calls after close()', async () => {
    await index.close();
    await expect(index.search(q('fox'), ctx())).rejects.toThrow(/closed/);
    await expect(index.add(DOCS)).rejects.toThrow(/closed/);
    await index.close(); // idempotent
  });

  it('lives in a shared database file in WAL mode, beside other tables, and persists', async () => {
    const file = join(dir, 'shared.db');
    const engineDb = new Database(file);
    engineDb.exec('CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER)');
    engineDb.prepare('INSERT INTO ledger (amount) VALUES (5)').run();
    const shared = localIndex({ database: file });
    await shared.add(DOCS);
    const probe = new Database(file, { readonly: true });
    expect(probe.pragma('journal_mode', { simple: true })).toBe('wal');
    probe.close();
    const tables = (
      engineDb.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'index_fts_%' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    expect(tables).toEqual(['index_documents', 'index_fts', 'ledger']);
    await shared.close();
    const reopened = localIndex({ database: file });
    expect(await reopened.count()).toBe(DOCS.length);
    expect((await reopened.search(q('"quick brown"'), ctx())).results).toHaveLength(1);
    await reopened.close();
    expect(engineDb.prepare('SELECT amount FROM ledger').get()).toEqual({ amount: 5 });
    engineDb.close();
  });

  it('accepts an open better-sqlite3 database and leaves it open on close()', async () => {
    const db = new Database(':memory:');
    const onDb = localIndex({ database: db, id: 'mine' });
    expect(onDb.id).toBe('mine');
    await onDb.add(DOCS[0]!);
    await onDb.close();
    expect(db.prepare('SELECT count(*) AS n FROM index_documents').get()).toEqual({ n: 1 });
    db.close();
  });

  it('commits a bulk add in chunks, so other writers of the file get in before it ends', async () => {
    const file = join(dir, 'bulk.db');
    const bulk = localIndex({ database: file });
    const other = new Database(file);
    other.pragma('busy_timeout = 0'); // never waits: it only succeeds between chunks
    other.exec('CREATE TABLE IF NOT EXISTS ledger (n INTEGER)');
    const words = (i: number) => Array.from({ length: 300 }, (_, j) => `w${(i * 7 + j * 13) % 997}`).join(' ');
    const docs = Array.from({ length: 3000 }, (_, i) => ({ url: `https://bulk.example.test/${i}`, title: `Doc ${i}`, text: words(i) }));
    let addDone = false;
    const adding = bulk.add(docs).then((n) => ((addDone = true), n));
    // Another writer, trying every turn until it gets the lock (each try fails at once while a chunk holds it).
    let seenWhenWritten = -1;
    let doneWhenWritten = true;
    await new Promise<void>((resolve) => {
      const attempt = () => {
        try {
          other.prepare('INSERT INTO ledger (n) VALUES (1)').run();
          seenWhenWritten = other.prepare('SELECT count(*) FROM index_documents').pluck().get() as number;
          doneWhenWritten = addDone;
          resolve();
        } catch {
          setImmediate(attempt);
        }
      };
      setImmediate(attempt);
    });
    expect(await adding).toBe(3000);
    expect(doneWhenWritten).toBe(false);
    expect(seenWhenWritten).toBeGreaterThan(0); // after the first chunk…
    expect(seenWhenWritten).toBeLessThan(3000); // …before the last
    expect(await bulk.count()).toBe(3000);
    other.close();
    await bulk.close();
  });

  it('rejects a bad limit and an aborted signal like every source', async () => {
    expect(await rejection(index.search(q('fox'), ctx(0)))).toBeInstanceOf(RangeError);
  });
});

describe('localIndex ranking query (ranked and limited before the documents are joined)', () => {
  it('answers exactly what a single ranking query with snippet() per match answers', async () => {
    // Few distinct words, so ties in bm25 are common and the id tie-break matters.
    const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma', 'theta'];
    let seed = 7;
    const pick = () => words[Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * words.length)]!;
    const docs = Array.from({ length: 1500 }, (_, i) => ({
      url: `https://h${i % 7}.example.test/p/${i}${i % 5 === 0 ? '.pdf' : ''}`,
      title: Array.from({ length: 3 }, pick).join(' '),
      text: Array.from({ length: 20 + (i % 40) }, pick).join(' '),
    }));
    const db = new Database(':memory:');
    const index = localIndex({ database: db });
    await index.add(docs);
    // The former single query: snippet() and the documents' join ahead of ORDER BY … LIMIT.
    const reference = db.prepare(
      `SELECT d.url, d.title, snippet(index_fts, 1, '', '', '…', 32) AS snippet
         FROM index_fts JOIN index_documents d ON d.id = index_fts.rowid
        WHERE index_fts MATCH ? ORDER BY bm25(index_fts, 10, 1.0), d.id LIMIT ?`,
    );
    for (const [query, match] of [
      ['alpha', '"alpha"'],
      ['beta gamma', '"beta" AND "gamma"'],
      ['"omega kappa"', '"omega kappa"'],
      ['sig*', '"sig" *'],
    ] as const) {
      for (const limit of [1, 10]) {
        const expected = (reference.all(match, limit) as { url: string; title: string; snippet: string }[]).map((r) => ({
          title: r.title,
          url: r.url,
          snippet: r.snippet.replace(/\s+/g, ' ').trim(),
        }));
        expect(expected).toHaveLength(limit);
        expect((await index.search(q(query), ctx(limit))).results).toEqual(expected);
      }
    }
    await index.close();
    db.close();
  });
});
