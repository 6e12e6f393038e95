// The classifier's rule passes alone, this tree against another checkout's, in one process: each page
// is analysed once (this tree's analyzeHtml and keptBlocks), then both trees' passes run on the same
// input, alternating, CPU time (process.cpuUsage) around each: the rules after the model
// (adjustStory, dropHiddenCopies, dropChoiceLabels), the rule-based boilerplate (which blocks lie outside it) and
// segmentation (segmentBlocks, which only re-marks the same elements). Checks both give the same
// verdicts first. Per round the ratio of the totals; median and range over rounds (round 0 warms up).
// Too small a share of a conversion for convert-ab.ts to see through the noise of a loaded machine.
//
//   npx tsx bench/convert-rules-ab.ts --other /path/to/checkout [--corpus traf] [--limit 100] [--rounds 5] [--repeat 3]

import { resolve } from 'node:path';
import { analyzeHtml } from '../src/convert/html-to-markdown.js';
import * as mine from '../src/convert/model/index.js';
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
const repeat = Number(arg('repeat') ?? 3);
// A tree before ElementCounts (no countElements) takes the word counts as a Map and answers `covered` as a Set.
type OldCover = (root: Element, o: object, all: readonly Element[], stats: unknown) => { covered: Set<Element> };
type OldFind = (root: Element, o: object, all: readonly Element[], stats: unknown) => Set<Element>;
const theirs = (await import(resolve(other, 'src/convert/model/index.ts'))) as Partial<typeof mine> &
  Omit<typeof mine, 'boilerplateCover' | 'countElements' | 'findBoilerplate'> & { findBoilerplate: typeof mine.findBoilerplate | OldFind };
const { descendants } = (await import('../src/convert/dom-utils.js')) as typeof import('../src/convert/dom-utils.js');

const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
type Page = NonNullable<ReturnType<typeof analyzeHtml>> & { kept: Set<number> };
const pages: Page[] = [];
for (let i = 0; i < all.length && pages.length < limit; i += step) {
  const p = all[Math.floor(i)]!;
  const a = analyzeHtml(p.html, p.url);
  if (a) pages.push({ ...a, kept: mine.keptBlocks(a.rows) });
}

type Model = typeof theirs;
const rules = (m: Model, p: Page): Set<number> => {
  const kept = new Set(p.kept);
  m.adjustStory(p.rows, kept, p.data);
  m.dropHiddenCopies(p.rows.blocks, kept);
  m.dropChoiceLabels(p.blocks, kept, p.choiceLabels);
  return kept;
};
// The ids of the blocks outside boilerplate, as analyzeHtml takes them (a tree without boilerplateCover
// walks up from each block).
const boilerplate = (m: Model, p: Page): Set<number> => {
  const everything = descendants(p.body);
  const cleaned = new Set<number>();
  if (m.boilerplateCover && m.countElements) {
    const counts = m.countElements(p.body, p.blocks, everything);
    const { covered } = m.boilerplateCover(counts, {});
    for (const b of p.blocks) if (covered[counts.blockNode[b.id]!] === 0) cleaned.add(b.id);
  } else if (m.boilerplateCover) {
    const stats = m.computeTextStats(p.body, everything);
    const { covered } = (m.boilerplateCover as unknown as OldCover)(p.body, {}, everything, stats);
    for (const b of p.blocks) if (!covered.has(b.el)) cleaned.add(b.id);
  } else {
    const stats = m.computeTextStats(p.body, everything);
    const found = (m.findBoilerplate as OldFind)(p.body, {}, everything, stats);
    for (const b of p.blocks) if (!m.insideAny(b.el, found, p.body)) cleaned.add(b.id);
  }
  return cleaned;
};
const segment = (m: Model, p: Page) => m.segmentBlocks(p.body);

let differ = 0;
for (const p of pages) {
  const a = [...rules(mine, p)].join();
  const b = [...rules(theirs, p)].join();
  const c = [...boilerplate(mine, p)].join();
  const d = [...boilerplate(theirs, p)].join();
  if (a !== b || c !== d) differ++;
}
segment(mine, pages[0]!);
console.log(`${pages.length} pages of ${corpora.join(',')}; verdicts differ on ${differ}`);

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const PASSES = { rules, boilerplate, segment } as const;
for (const [name, pass] of Object.entries(PASSES)) {
  const ratios: number[] = [];
  const mineMs: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    let a = 0;
    let b = 0;
    pages.forEach((p, i) => {
      const order = (i + r) % 2 === 0 ? [mine, theirs] : [theirs, mine];
      for (const m of order) {
        const t = cpu();
        for (let k = 0; k < repeat; k++) pass(m, p);
        const d = cpu() - t;
        if (m === mine) a += d;
        else b += d;
      }
    });
    if (r === 0) continue;
    ratios.push(a / b);
    mineMs.push(a / 1000 / pages.length / repeat);
  }
  const summary = (v: number[], digits: number) => {
    const s = [...v].sort((x, y) => x - y);
    return `${s[Math.floor(s.length / 2)]!.toFixed(digits)} (${s[0]!.toFixed(digits)}–${s.at(-1)!.toFixed(digits)})`;
  };
  console.log(`${name}: this ${summary(mineMs, 3)} ms/page; this / other ${summary(ratios, 3)}`);
}
// segmentBlocks marked the same elements again: the ids are the same, so the pages stay as analysed.
