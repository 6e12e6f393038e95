// The block features' own cost, against another version of block-features.ts in the same process:
// for each page the classifier's inputs are built once (analyzeHtml's steps), then both versions
// compute the rows, the order alternating page by page, CPU time (process.cpuUsage) around each call;
// the ratio of the round's totals, median and range over rounds. It also checks the two versions'
// rows are bit-identical (features and groups).
//
//   npx tsx bench/block-features-speed.ts --other /path/to/other/src/convert/model/block-features.ts
//     [--corpus traf] [--rounds 5] [--limit 200] [--min 15]
// --min K: instead of rounds, each page's call timed K times per version (alternating) and its fastest
// time kept; the ratio of the sums of those minima. Under load the round totals swing by ±30 % (a
// preempted call, a scavenge charged to whichever version tripped it); the minima hold still, but
// leave out the GC a version's garbage costs, so they understate a cut that allocates less.

import { readFileSync } from 'node:fs';
import { descendants } from '../src/convert/dom-utils.js';
import { analyzeHtml } from '../src/convert/html-to-markdown.js';
import {
  blockFeatures,
  computeTextStats,
  countElements,
  defaultClassifier,
  findBoilerplate,
  insideAny,
} from '../src/convert/model/index.js';
import { type CorpusName, corpusPages } from './lib/convert-corpora.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const other = arg('other');
if (!other) throw new Error('--other <path to block-features.ts> is required');
const corpora = (arg('corpus') ?? 'traf').split(',') as CorpusName[];
const rounds = Number(arg('rounds') ?? 5);
const limit = Number(arg('limit') ?? 200);
const { blockFeatures: otherFeatures } = (await import(other)) as { blockFeatures: (...a: unknown[]) => ReturnType<typeof blockFeatures> };
// A version before ElementCounts takes the word counts as a Map (computeTextStats).
const otherTakesMap = !readFileSync(other, 'utf8').includes('ElementCounts');
const lexicon = defaultClassifier().lexicon;

type Args = Parameters<typeof blockFeatures>;
const inputs: Args[] = [];
const otherInputs: unknown[][] = [];
const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
for (let i = 0; i < all.length; i += step) {
  const p = all[Math.floor(i)]!;
  const page = analyzeHtml(p.html, p.url, lexicon);
  if (!page) continue;
  const els = descendants(page.body);
  const counts = countElements(page.body, page.blocks, els);
  const boilerplate = findBoilerplate(page.body, {}, els);
  const cleaned = new Set<number>();
  for (const b of page.blocks) if (!insideAny(b.el, boilerplate, page.body)) cleaned.add(b.id);
  const a: Args = [page.blocks, counts, page.data, cleaned, page.body.ownerDocument.title, lexicon];
  inputs.push(a);
  otherInputs.push(otherTakesMap ? [page.blocks, computeTextStats(page.body, els), ...a.slice(2)] : a);
}

let differ = 0;
for (const [i, a] of inputs.entries()) {
  const x = blockFeatures(...a);
  const y = otherFeatures(...otherInputs[i]!);
  const same = (p: ArrayLike<number>, q: ArrayLike<number>) => p.length === q.length && Array.from(p).every((v, i) => Object.is(v, q[i]));
  if (!same(x.x, y.x) || !same(x.groups, y.groups)) differ++;
}
console.log(`${inputs.length} pages; rows differ on ${differ}`);

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

const minOf = arg('min');
if (minOf !== undefined) {
  const k = Number(minOf);
  for (let w = 0; w < 3; w++) {
    for (const [i, a] of inputs.entries()) {
      blockFeatures(...a);
      otherFeatures(...otherInputs[i]!);
    }
  }
  const mine = new Array<number>(inputs.length).fill(Infinity);
  const theirs = new Array<number>(inputs.length).fill(Infinity);
  for (let j = 0; j < k; j++) {
    inputs.forEach((a, i) => {
      for (const v of (i + j) % 2 === 0 ? [0, 1] : [1, 0]) {
        const t = cpu();
        if (v === 0) blockFeatures(...a);
        else otherFeatures(...otherInputs[i]!);
        const d = cpu() - t;
        if (v === 0) mine[i] = Math.min(mine[i]!, d);
        else theirs[i] = Math.min(theirs[i]!, d);
      }
    });
  }
  const sum = (xs: number[]) => xs.reduce((p, q) => p + q, 0);
  console.log(`fastest of ${k} per page: this ${(sum(mine) / 1000).toFixed(1)} ms, other ${(sum(theirs) / 1000).toFixed(1)} ms`);
  console.log(`this / other: ${(sum(mine) / sum(theirs)).toFixed(3)}`);
  process.exit(0);
}
const ratios: number[] = [];
for (let r = 0; r <= rounds; r++) {
  let mine = 0;
  let theirs = 0;
  inputs.forEach((a, i) => {
    const order = (i + r) % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) {
      const t = cpu();
      if (k === 0) blockFeatures(...a);
      else otherFeatures(...otherInputs[i]!);
      const d = cpu() - t;
      if (k === 0) mine += d;
      else theirs += d;
    }
  });
  if (r > 0) ratios.push(mine / theirs); // round 0 warms up
  console.log(`round ${r}: this ${(mine / 1000).toFixed(1)} ms, other ${(theirs / 1000).toFixed(1)} ms`);
}
ratios.sort((a, b) => a - b);
// --rounds 0: the identity check and the warm-up round only, no ratio to report.
if (ratios.length > 0)
  console.log(`this / other: ${ratios[Math.floor(ratios.length / 2)]!.toFixed(3)} (${ratios[0]!.toFixed(3)}–${ratios.at(-1)!.toFixed(3)})`);
