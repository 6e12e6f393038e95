// Benchmark of the local index: bulk add, then query latency against a LIKE scan of the same table
// (the baseline, measured in the same run since the machines are noisy).
// Run: npx tsx test/sources/bench/local-index-bench.ts [documents]

import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { parseQuery } from '../src/core/query.js';
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
const docs = Array.from({ length: N }, (_, i) => ({ url: `https://h${i % 50}.example.test/p/${i}${i % 10 === 0 ? '.pdf' : ''}`, title: text(6), text: text(300) }));

let t = performance.now();
await index.add(docs);
const addMs = performance.now() - t;

const ctx = { signal: new AbortController().signal, limit: 10 };
// w0…w9 occur in nearly every document, w3k… in a few: both ends of the ranking cost.
const queries = ['w3k', 'w3k w2s', 'w10', 'w1 w2', '"w1 w2"', 'w5 site:h7.example.test', 'w5 filetype:pdf', 'w3 -w4'];
// Baseline: what an application without an index does, a full scan for the word.
const like = db.prepare("SELECT url FROM index_documents WHERE (' ' || text || ' ') LIKE '% ' || ? || ' %'");
const REPS = 30;

function time(fn: () => unknown): number {
  const start = performance.now();
  for (let i = 0; i < REPS; i++) fn();
  return (performance.now() - start) / REPS;
}

console.log(`documents: ${N}; add: ${addMs.toFixed(0)} ms (${Math.round(N / (addMs / 1000))} docs/s)`);
const baseline = time(() => like.all('w3k'));
console.log(`baseline: LIKE full scan for one word: ${baseline.toFixed(2)} ms`);
for (const query of queries) {
  const parsed = parseQuery(query);
  for (let i = 0; i < 3; i++) await index.search(parsed, ctx); // warm
  const start = performance.now();
  for (let i = 0; i < REPS; i++) await index.search(parsed, ctx);
  const ms = (performance.now() - start) / REPS;
  console.log(`${query.padEnd(28)} ${ms.toFixed(2)} ms  (${(ms / baseline).toFixed(2)}× baseline)`);
}
t = performance.now();
await index.close();
db.close();
