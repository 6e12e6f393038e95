// Where conversion time goes: converts pages of the corpora in a loop under the V8 profiler and
// prints the functions with the most self time (and garbage collection's share).
//
//   npx tsx bench/convert-profile.ts [--corpus wcxb,traf,articles] [--limit 300] [--top 30]
// --limit takes every k-th page of each corpus so that N remain (default 300 over WCXB dev).

import { Session } from 'node:inspector/promises';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
import { type CorpusName, type CorpusPage, corpusPages } from './lib/convert-corpora.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const corpora = (arg('corpus')?.split(',') ?? ['wcxb']) as CorpusName[];
const limit = Number(arg('limit') ?? 300);
const top = Number(arg('top') ?? 30);

const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
const pages: CorpusPage[] = [];
for (let i = 0; i < all.length && pages.length < limit; i += step) pages.push(all[Math.floor(i)]!);

for (const p of pages.slice(0, 30)) htmlToMarkdown(p.html, p.url ? { url: p.url } : {}); // warm-up

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const t0 = performance.now();
for (const p of pages) htmlToMarkdown(p.html, p.url ? { url: p.url } : {});
const ms = performance.now() - t0;
const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
session.disconnect();

const self = new Map<string, number>();
let total = 0;
for (const n of profile.nodes) {
  const hits = n.hitCount ?? 0;
  total += hits;
  const where = n.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/src\//, 'src/');
  const key = `${n.callFrame.functionName || '(anonymous)'} ${where}:${n.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + hits);
}
// Per file as well: which module the time is in.
const perFile = new Map<string, number>();
for (const [key, hits] of self) {
  const file = key.split(' ').at(-1)!.replace(/:\d+$/, '') || '(native)';
  perFile.set(file, (perFile.get(file) ?? 0) + hits);
}
const pct = (h: number) => `${((100 * h) / total).toFixed(1)} %`;
console.log(`${pages.length} pages, ${(ms / pages.length).toFixed(1)} ms/page under the profiler\n`);
console.log('self time by function:');
for (const [key, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(hits).padStart(7)}  ${key}`);
console.log('\nself time by file:');
for (const [file, hits] of [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(hits).padStart(7)}  ${file}`);
