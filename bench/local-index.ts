// Benchmark of the local index: bulk add, then query latency of localIndex.search against bare FTS5 on
// the same tables, in the same run (the machines are noisy): top 10 by the same bm25 weights, with the
// same snippet() call, joined to the documents for url and title, and nothing else (no operators, no
// exclusions, no lead text). What localIndex adds on top of that is the ratio.
// Run: npx tsx bench/local-index.ts [documents]

import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { parseQuery } from '../src/core/search/query.js';
import { toFtsPlan } from '../src/sources/fts-query.js';
import { localIndex } from '../src/sources/local-index.js';

const N = Number(process.argv[2] ?? 20_000);
const WORDS = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
// Zipf-like word choice, like natural text.
const word = () => WORDS[Math.floor(WORDS.length * rand() ** 3)]!;
const text = (n: number) => Array.from({ length: n }, word).join(' ');

const db = new Database(':memory:');
const index = localIndex({ database: db });
const docs = Array.from({ length: N }, (_, i) => ({
  url: `https://h${i % 50}.example.test/p/${i}${i % 10 === 0 ? '.pdf' : ''}`,
  title: text(6),
  text: text(300),
}));

let t = performance.now();
await index.add(docs);
const addMs = performance.now() - t;

const ctx = { signal: new AbortController().signal, limit: 10 };
// w0…w9 occur in nearly every document, w3k… in a few: both ends of the ranking cost.
const queries = ['w3k', 'w3k w2s', 'w10', 'w1 w2', '"w1 w2"', 'w5 site:h7.example.test', 'w5 filetype:pdf', 'w3 -w4'];
// Baseline: bare FTS5, top 10 with snippets, ranked in the virtual table (ORDER BY rank).
const bare = db.prepare(
  `SELECT d.url, d.title, snippet(index_fts, 1, '', '', '…', 32) AS snippet
     FROM index_fts JOIN index_documents d ON d.id = index_fts.rowid
    WHERE index_fts MATCH ? AND rank MATCH 'bm25(10.0, 1.0)'
    ORDER BY rank LIMIT 10`,
);
const REPS = 30;

function time(fn: () => unknown): number {
  for (let i = 0; i < 3; i++) fn(); // warm
  const start = performance.now();
  for (let i = 0; i < REPS; i++) fn();
  return (performance.now() - start) / REPS;
}
async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn(); // warm
  const start = performance.now();
  for (let i = 0; i < REPS; i++) await fn();
  return (performance.now() - start) / REPS;
}

console.log(`documents: ${N}; add: ${addMs.toFixed(0)} ms (${Math.round(N / (addMs / 1000))} docs/s)`);
console.log(`${'query'.padEnd(28)} ${'bare FTS5'.padStart(10)} ${'localIndex'.padStart(11)}  ratio`);
for (const query of queries) {
  const parsed = parseQuery(query);
  // The bare query gets the positive words only (operators and exclusions are localIndex's additions).
  const match = toFtsPlan(parsed).match!;
  const baseline = time(() => bare.all(match));
  const ms = await timeAsync(() => index.search(parsed, ctx));
  console.log(`${query.padEnd(28)} ${baseline.toFixed(2).padStart(7)} ms ${ms.toFixed(2).padStart(8)} ms  ${(ms / baseline).toFixed(2)}×`);
}
t = performance.now();
await index.close();
db.close();
