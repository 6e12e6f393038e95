// Where a conversion's CPU goes, phase by phase: htmlToMarkdown's steps (html-to-markdown.ts) run one
// after another as convertHtml runs them, with the process's CPU time (process.cpuUsage) taken around
// each phase; per-page means over rounds, median (range). Garbage collection is charged to whichever
// phase it falls in. Readability on stock linkedom (bench/lib/baseline.ts) runs interleaved, page by
// page, for the scale.
//
//   npx tsx bench/convert-phases.ts [--corpus traf] [--limit 100] [--rounds 3] [--warmup 1]

import { removeInvisible } from '../src/convert/clean-dom.js';
import { guardedElements } from '../src/convert/dom-guard.js';
import { descendants, descendantsIn, hasText } from '../src/convert/dom-utils.js';
import {
  absolutizeLinks,
  createTurndown,
  documentBase,
  dropRepeatedImages,
  markCodeLanguages,
  prepareTables,
  separateInlineBoxes,
  tidyMarkdown,
  turndownInPlace,
} from '../src/convert/markdown/index.js';
import {
  adjustStory,
  blockFeatures,
  boilerplateCover,
  defaultClassifier,
  dropChoiceLabels,
  dropHiddenCopies,
  findChoiceLabels,
  keepBlocks,
  keptBlocks,
  segmentPage,
} from '../src/convert/model/index.js';
import { parseHtmlDocument } from '../src/convert/parse-html.js';
import { readStructuredData } from '../src/convert/structured-data.js';
import { supplementFromStructuredData } from '../src/convert/structured-supplement.js';
import { plainReadabilityMarkdown } from './lib/baseline.js';
import { type CorpusName, type CorpusPage, corpusPages } from './lib/convert-corpora.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const corpora = (arg('corpus')?.split(',') ?? ['traf']) as CorpusName[];
const rounds = Number(arg('rounds') ?? 3);
const warmup = Number(arg('warmup') ?? 1);
const limit = Number(arg('limit') ?? 100);

const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
const pages: CorpusPage[] = [];
for (let i = 0; i < all.length && pages.length < limit; i += step) pages.push(all[Math.floor(i)]!);

const PHASES = ['parse', 'prepare', 'segment', 'features', 'model', 'rules', 'apply', 'markdown', 'readability'] as const;
type Phase = (typeof PHASES)[number];
type Totals = Record<Phase, number>;

const classifier = defaultClassifier();
const turndown = createTurndown();

function convert(p: CorpusPage, t: Totals): void {
  let t0 = process.cpuUsage();
  const lap = (phase: Phase) => {
    const d = process.cpuUsage(t0);
    t[phase] += (d.user + d.system) / 1000;
    t0 = process.cpuUsage();
  };
  const doc = parseHtmlDocument(p.html);
  lap('parse');
  const body = doc.body;
  // One element list cut and passed on, as preparePage does.
  const all = guardedElements(doc);
  const data = readStructuredData(doc, all);
  const choiceLabels = findChoiceLabels(body, descendantsIn(all, body));
  const root = doc.documentElement;
  const left = removeInvisible(root, descendantsIn(all, root));
  const base = documentBase(doc, p.url, left && all[0] === root && !root.nextElementSibling ? [root, ...left] : undefined);
  const below = left ? descendantsIn(left, body) : descendants(body);
  markCodeLanguages(body, below);
  prepareTables(body, below);
  lap('prepare');
  // segmentPage (as preparePage): the blocks, the word counts and the element list in one walk, so the
  // text stats are in this phase now (they were in "features").
  const { blocks, counts } = segmentPage(body);
  if (!hasText(body)) return;
  lap('segment');
  const { covered } = boilerplateCover(counts, {});
  const cleaned = new Set<number>();
  for (const b of blocks) if (covered[counts.blockNode[b.id]!] === 0) cleaned.add(b.id);
  const rows = blockFeatures(blocks, counts, data, cleaned, doc.title ?? '', classifier.lexicon);
  lap('features');
  const kept = keptBlocks(rows, classifier);
  lap('model');
  adjustStory(rows, kept, data);
  dropHiddenCopies(rows.blocks, kept);
  dropChoiceLabels(blocks, kept, choiceLabels);
  lap('rules');
  const remaining = keepBlocks(body, blocks, kept);
  absolutizeLinks(body, base, remaining);
  dropRepeatedImages(body, remaining);
  separateInlineBoxes(body);
  lap('apply');
  try {
    supplementFromStructuredData(tidyMarkdown(turndownInPlace(turndown, body)), data);
  } catch {}
  lap('markdown');
}

function round(): Totals {
  const t = Object.fromEntries(PHASES.map((k) => [k, 0])) as Totals;
  pages.forEach((p, i) => {
    const rd = () => {
      const t0 = process.cpuUsage();
      plainReadabilityMarkdown(p.html);
      const d = process.cpuUsage(t0);
      t.readability += (d.user + d.system) / 1000;
    };
    if (i % 2 === 0) {
      convert(p, t);
      rd();
    } else {
      rd();
      convert(p, t);
    }
  });
  return t;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (xs: number[], digits = 2) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

for (let w = 0; w < warmup; w++) round();
const rs: Totals[] = [];
for (let r = 0; r < rounds; r++) rs.push(round());
const n = pages.length;
const websift = (r: Totals) => PHASES.filter((k) => k !== 'readability').reduce((s, k) => s + r[k], 0);
console.log(`${corpora.join(',')}: ${n} pages, ${rounds} rounds (+${warmup} warm-up), node ${process.version}\n`);
console.log('| phase | CPU ms/page | share of websift | / Readability |');
console.log('|---|---|---|---|');
for (const k of PHASES)
  console.log(
    `| ${k} | ${fmt(rs.map((r) => r[k] / n))} | ${fmt(
      rs.map((r) => (100 * r[k]) / websift(r)),
      1,
    )} % | ${fmt(rs.map((r) => r[k] / r.readability))} |`,
  );
console.log(`| websift (sum) | ${fmt(rs.map((r) => websift(r) / n))} | 100 % | ${fmt(rs.map((r) => websift(r) / r.readability))} |`);
