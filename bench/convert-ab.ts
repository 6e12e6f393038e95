// websift's htmlToMarkdown against another checkout's (a baseline branch) in one process: page by
// page, the order alternating, CPU time (process.cpuUsage) around each call; per round the ratio of
// the totals, median and range over rounds (round 0 warms up). Checks the Markdown is equal on every
// page first.
// Caveat (found 2026-11-28): linkedom's run-time changes (linkedom-reads.ts, fast-nodes.ts, text-scan.ts) patch the
// one linkedom both checkouts share; the checkout imported second finds it already changed and runs without its
// fast walks, so the first side looks ~5 % faster than it is, and a change to those files applies to both sides.
// `bench/convert-speed.ts --other <checkout>` runs each side in its own process and has neither problem.
//
//   npx tsx bench/convert-ab.ts --other /path/to/other/checkout [--corpus traf] [--limit 100] [--rounds 5]

import { resolve } from 'node:path';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
import { type CorpusName, corpusPages } from './lib/convert-corpora.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const other = arg('other');
if (!other) throw new Error('--other <checkout> is required');
const corpora = (arg('corpus') ?? 'traf').split(',') as CorpusName[];
const rounds = Number(arg('rounds') ?? 5);
const limit = Number(arg('limit') ?? 100);
const { htmlToMarkdown: otherConvert } = (await import(resolve(other, 'src/convert/html-to-markdown.ts'))) as {
  htmlToMarkdown: typeof htmlToMarkdown;
};

const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
const pages: { html: string; opts: { url?: string } }[] = [];
for (let i = 0; i < all.length && pages.length < limit; i += step) {
  const p = all[Math.floor(i)]!;
  pages.push({ html: p.html, opts: p.url ? { url: p.url } : {} });
}
let differ = 0;
for (const p of pages) if (htmlToMarkdown(p.html, p.opts) !== otherConvert(p.html, p.opts)) differ++;
console.log(`${pages.length} pages of ${corpora.join(',')}; Markdown differs on ${differ}`);

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const ratios: number[] = [];
const mineMs: number[] = [];
const theirsMs: number[] = [];
for (let r = 0; r <= rounds; r++) {
  let mine = 0;
  let theirs = 0;
  pages.forEach((p, i) => {
    const order = (i + r) % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) {
      const t = cpu();
      if (k === 0) htmlToMarkdown(p.html, p.opts);
      else otherConvert(p.html, p.opts);
      const d = cpu() - t;
      if (k === 0) mine += d;
      else theirs += d;
    }
  });
  console.log(
    `round ${r}: this ${(mine / 1000 / pages.length).toFixed(2)} ms/page, other ${(theirs / 1000 / pages.length).toFixed(2)} ms/page`,
  );
  if (r === 0) continue; // warm-up
  ratios.push(mine / theirs);
  mineMs.push(mine / 1000 / pages.length);
  theirsMs.push(theirs / 1000 / pages.length);
}
const summary = (v: number[], d: number) => {
  const s = [...v].sort((a, b) => a - b);
  return `${s[Math.floor(s.length / 2)]!.toFixed(d)} (${s[0]!.toFixed(d)}–${s.at(-1)!.toFixed(d)})`;
};
console.log(`this ${summary(mineMs, 1)} ms/page, other ${summary(theirsMs, 1)} ms/page; this / other ${summary(ratios, 3)}`);
