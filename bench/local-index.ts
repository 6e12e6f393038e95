// Benchmark of the local index: bulk add, then query latency of localIndex.search against bare FTS5 on
// the same tables, in the same run (the machines are noisy): top 10 by the same bm25 weights, with the
// same snippet() call, joined to the documents for url and title, and nothing else (no operators, no
// exclusions, no lead text). What localIndex adds on top of that is the ratio. Per query: rounds of REPS
// calls of each, the two alternating which goes first; ms per query and the ratio per round, median
// (min–max) over rounds.
// Run: npx tsx bench/local-index.ts [documents=20000] [rounds=5]

import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { parseQuery } from '../src/core/search/query.js';
import { toFtsPlan } from '../src/sources/fts-query.js';
import { localIndex } from '../src/sources/local-index.js';
import { spread } from './lib/rounds.js';

const N = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 5);
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
const REPS = 10;

async function timeAsync(fn: () => unknown): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < REPS; i++) await fn();
  return (performance.now() - start) / REPS;
}

console.log(`documents: ${N}; add: ${addMs.toFixed(0)} ms (${Math.round(N / (addMs / 1000))} docs/s)`);
console.log(`${ROUNDS} rounds of ${REPS} calls each (after 3 warm-up calls), ms per query, median (min–max) over rounds`);
console.log('| query | bare FTS5 | localIndex | localIndex / bare, per round |');
console.log('|---|---|---|---|');
for (const query of queries) {
  const parsed = parseQuery(query);
  // The bare query gets the positive words only (operators and exclusions are localIndex's additions).
  const match = toFtsPlan(parsed).match!;
  const baseline = () => bare.all(match);
  const ours = () => index.search(parsed, ctx);
  for (let i = 0; i < 3; i++) {
    baseline(); // warm
    await ours();
  }
  const times = { bare: [] as number[], ours: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const which of r % 2 === 0 ? (['bare', 'ours'] as const) : (['ours', 'bare'] as const))
      times[which].push(await timeAsync(which === 'bare' ? baseline : ours));
  }
  const ratios = times.ours.map((x, r) => x / times.bare[r]!);
  console.log(`| \`${query}\` | ${spread(times.bare, 2)} | ${spread(times.ours, 2)} | ${spread(ratios, (x) => `${x.toFixed(2)}×`)} |`);
}
t = performance.now();
await index.close();
db.close();
