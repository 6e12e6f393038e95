// Conversion time against the baseline, interleaved in one process: websift's htmlToMarkdown and
// plain Readability on stock linkedom + turndown (bench/lib/baseline.ts) on the same pages, page by
// page, the order of the two alternating from page to page; the time ratio websift / Readability per
// corpus per round, then the median and range over rounds. A third pair times the parse alone,
// linkedom's parseHTML as websift runs it (lazy listeners, src/convert/lazy-listeners.ts) against stock
// linkedom, to show that change apart. Garbage collection falls where it falls (one system's garbage may
// be collected during the other's turn); page-by-page alternation spreads it over both. Times are the
// process's CPU time (process.cpuUsage, user + system) around each call, not wall time: on the shared
// machine other jobs' load stretches wall time by whatever share of the cores they take.
//
//   npx tsx bench/convert-speed.ts [--corpus wcxb,traf,articles] [--rounds 3] [--limit N] [--warmup 1]
// --limit takes every k-th page of each corpus so that N remain.

import { parseHTML } from 'linkedom';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
import { lazyListenersApplied } from '../src/convert/lazy-listeners.js';
import { plainReadabilityMarkdown, stockParseHTML } from './lib/baseline.js';
import { CORPORA, type CorpusName, type CorpusPage, corpusPages } from './lib/convert-corpora.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const corpora = (arg('corpus')?.split(',') ?? CORPORA) as CorpusName[];
const rounds = Number(arg('rounds') ?? 3);
const warmup = Number(arg('warmup') ?? 1);
const limit = arg('limit') === undefined ? undefined : Number(arg('limit'));

const byCorpus = new Map<CorpusName, CorpusPage[]>();
for (const p of corpusPages(corpora)) {
  const list = byCorpus.get(p.corpus) ?? [];
  list.push(p);
  byCorpus.set(p.corpus, list);
}
for (const [name, list] of byCorpus) {
  if (limit === undefined || list.length <= limit) continue;
  const step = list.length / limit;
  byCorpus.set(
    name,
    Array.from({ length: limit }, (_, i) => list[Math.floor(i * step)]!),
  );
}

type Totals = { websift: number; readability: number; parseLazy: number; parseStock: number };
const time = (fn: () => unknown) => {
  const t0 = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
};

function round(pages: CorpusPage[]): Totals {
  const t: Totals = { websift: 0, readability: 0, parseLazy: 0, parseStock: 0 };
  pages.forEach((p, i) => {
    const ws = () => (t.websift += time(() => htmlToMarkdown(p.html, p.url ? { url: p.url } : {})));
    const rd = () => (t.readability += time(() => plainReadabilityMarkdown(p.html)));
    const pl = () => (t.parseLazy += time(() => parseHTML(p.html)));
    const ps = () => (t.parseStock += time(() => stockParseHTML(p.html)));
    if (i % 2 === 0) {
      ws();
      rd();
      pl();
      ps();
    } else {
      ps();
      pl();
      rd();
      ws();
    }
  });
  return t;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (xs: number[], digits = 3) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

console.log(`lazy listeners applied: ${lazyListenersApplied()}; rounds ${rounds} (+${warmup} warm-up), node ${process.version}`);
console.log('\n| corpus | pages | websift CPU ms/page | Readability CPU ms/page | websift / Readability | parse lazy / stock |');
console.log('|---|---|---|---|---|---|');
for (const [name, pages] of byCorpus) {
  for (let w = 0; w < warmup; w++) round(pages);
  const rs: Totals[] = [];
  for (let r = 0; r < rounds; r++) rs.push(round(pages));
  const n = pages.length;
  console.log(
    `| ${name} | ${n} | ${fmt(
      rs.map((r) => r.websift / n),
      1,
    )} | ${fmt(
      rs.map((r) => r.readability / n),
      1,
    )} | ${fmt(rs.map((r) => r.websift / r.readability))} | ${fmt(rs.map((r) => r.parseLazy / r.parseStock))} |`,
  );
}
