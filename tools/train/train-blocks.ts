// Trains the block classifier (src/convert/model/block-model.ts) on WCXB dev-train (and, with
// --snippets W, trafilatura-eval's tuning part) and reports it the way the quality benchmark does,
// per page type:
//   npx tsx tools/train/train-blocks.ts [--rebuild] [--folds 5] [--trees 120] [--depth 6] [--lr 0.1] [--write]
//     [--dump] [--drop f1,f2] [--weighting 1|2] [--label-cut 0.5] [--short-context] [--one-stage] [--seed 7]
//     [--snippets W] [--seeds K]
// - dev-train figures are out-of-fold (each page scored by a model that never saw it, k folds);
// - validation figures come from the final model trained on all of dev-train, never tuned on;
// - the calibration of scores into probabilities (selectRows) is chosen on the out-of-fold predictions only;
// - --write stores the final model and calibration in src/convert/model/block-model.json.
// Scoring here is fast (kept blocks' tokens); `npx tsx bench/quality.ts` scores the real Markdown.
// The datasets are cached in tools/train/.cache/ (rebuilt when the feature list changes, or with --rebuild).

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTrafilaturaIndex } from '../../bench/lib/trafilatura-data.js';
import { aggregateTrafilatura, scoreSnippets } from '../../bench/lib/trafilatura-run.js';
import { loadIndex } from '../../bench/lib/wcxb-data.js';
import { CONTEXT_FEATURES, contextFeatures } from '../../src/convert/model/block-context.js';
import { GROUP_LEVELS } from '../../src/convert/model/block-features.js';
import { type Calibration, selectRows } from '../../src/convert/model/block-model.js';
import { featureHash, formatModelFile, MODEL_FORMAT, modelFileUrl, readModelFile } from '../../src/convert/model/block-model-file.js';
import type { GbdtModel } from '../../src/convert/model/gbdt.js';
import { predictRaw } from '../../src/convert/model/gbdt.js';
import {
  type BlockDataset,
  buildDataset,
  concatDatasets,
  loadDataset,
  type PageRows,
  pageF1,
  saveDataset,
  snippetPages,
  wcxbPages,
} from './block-dataset.js';
import { foldOf, saveFoldClassifiers } from './block-folds.js';
import { buildLexicon } from './block-lexicon.js';
import { averageModels, trainGbdt } from './gbdt-train.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const num = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const opts = {
  folds: num('folds', 5),
  trees: num('trees', 120),
  depth: num('depth', 6),
  learningRate: num('lr', 0.1),
  minLeafWeight: num('min-leaf', 1),
  weighting: num('weighting', 1),
  labelCut: num('label-cut', 0.5),
  seed: num('seed', 7),
  seeds: num('seeds', 1),
  snippets: num('snippets', 0),
};

const here = fileURLToPath(new URL('.', import.meta.url));
const cacheFile = resolve(here, '.cache', 'blocks');
const lexiconFile = resolve(here, '.cache', 'lexicon.json');
// Stage one's cache, one file per training key (so runs with other options keep theirs).
const stageOneFile = (key: string) => resolve(here, '.cache', `stage1-${createHash('sha256').update(key).digest('hex').slice(0, 12)}.json`);
// The lexicon is learned from dev-train pages only; the dataset is built with it.
let lexicon: Record<string, number>;
let data = flag('rebuild') || !existsSync(lexiconFile) ? null : loadDataset(cacheFile);
if (!data) {
  const entries = loadIndex();
  const t0 = Date.now();
  lexicon = buildLexicon(entries.filter((e) => e.split === 'train'));
  mkdirSync(dirname(lexiconFile), { recursive: true });
  writeFileSync(lexiconFile, JSON.stringify(lexicon));
  console.log(`lexicon: ${Object.keys(lexicon).length} words in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  data = buildDataset(
    wcxbPages(entries),
    lexicon,
    (i) => process.stderr.isTTY && i % 50 === 0 && process.stderr.write(`\r${i}/${entries.length}`),
  );
  saveDataset(cacheFile, data);
  for (const f of readdirSync(dirname(lexiconFile))) if (f.startsWith('stage1')) rmSync(resolve(dirname(lexiconFile), f)); // trained on the old dataset
  console.log(`dataset: ${data.rows} rows from ${data.pages.length} pages in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
} else lexicon = JSON.parse(readFileSync(lexiconFile, 'utf8'));
// --snippets W adds trafilatura-eval's tuning pages (never its held-out part), labelled by their
// snippets (snippet-labels.ts), each weighing W times a WCXB page: article evidence WCXB lacks.
const snippetFile = resolve(here, '.cache', 'snippets');
if (opts.snippets > 0) {
  let snippets = loadDataset(snippetFile);
  if (!snippets || flag('rebuild') || !existsSync(`${snippetFile}.texts.json`)) {
    const t0 = Date.now();
    const texts: Record<string, string[]> = {};
    snippets = buildDataset(snippetPages(loadTrafilaturaIndex()), lexicon, undefined, (id, t) => (texts[id] = t));
    saveDataset(snippetFile, snippets);
    writeFileSync(`${snippetFile}.texts.json`, JSON.stringify(texts));
    console.log(`snippet dataset: ${snippets.rows} rows from ${snippets.pages.length} pages in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  data = concatDatasets(data, snippets);
}
const d: BlockDataset = data;
// Ablation: --drop a,b blanks those features (to measure what each is worth).
const dropIdx = args.indexOf('--drop');
if (dropIdx >= 0) {
  const cols = args[dropIdx + 1]!.split(',').map((n) => d.features.indexOf(n));
  if (cols.includes(-1)) throw new Error('--drop: unknown feature');
  for (let r = 0; r < d.rows; r++) for (const c of cols) d.x[r * d.cols + c] = 0;
}

/** Label and weight of every row: each page weighs the same in total (the metric is a mean per page). */
function labels(d: BlockDataset): { y: Uint8Array; w: Float32Array } {
  const y = new Uint8Array(d.rows);
  const w = new Float32Array(d.rows);
  for (const p of d.pages) {
    let total = 0;
    for (let r = p.start; r < p.start + p.count; r++) total += d.rowTokens[r]!.length;
    const norm = opts.weighting === 1 ? Math.max(1, total) : Math.sqrt(Math.max(1, total)) * 10;
    if (p.pageType === 'snippets') {
      // Each labelled block weighs the same: the corpus metric counts snippets, not words.
      let labelled = 0;
      for (let r = p.start; r < p.start + p.count; r++) if (d.match[r]! >= 0) labelled++;
      for (let r = p.start; r < p.start + p.count; r++) {
        y[r] = d.match[r]! >= 0.5 ? 1 : 0;
        w[r] = d.match[r]! < 0 ? 0 : (opts.snippets * 100) / Math.max(1, labelled);
      }
      continue;
    }
    for (let r = p.start; r < p.start + p.count; r++) {
      const m = d.match[r]!;
      y[r] = m >= opts.labelCut ? 1 : 0;
      // --short-context: a block of one or two words ("Home", "Reply") matches the ground truth by
      // chance; count it as content only next to a longer block that is.
      if (flag('short-context') && y[r] === 1 && d.rowTokens[r]!.length < 3) {
        let near = false;
        for (let k = Math.max(p.start, r - 2); k <= Math.min(p.start + p.count - 1, r + 2); k++) {
          if (k !== r && d.rowTokens[k]!.length >= 3 && d.match[k]! >= opts.labelCut) near = true;
        }
        if (!near) y[r] = 0;
      }
      w[r] = m < 0 ? 0 : (d.rowTokens[r]!.length / norm) * 100;
    }
  }
  return { y, w };
}

/** A feature matrix over all rows of the dataset. */
interface Matrix {
  x: Float32Array;
  cols: number;
  names: string[];
}

function subset(m: Matrix, pages: PageRows[], y: Uint8Array, w: Float32Array) {
  let n = 0;
  for (const p of pages) n += p.count;
  const x = new Float32Array(n * m.cols);
  const ys = new Uint8Array(n);
  const ws = new Float32Array(n);
  let o = 0;
  for (const p of pages) {
    x.set(m.x.subarray(p.start * m.cols, (p.start + p.count) * m.cols), o * m.cols);
    ys.set(y.subarray(p.start, p.start + p.count), o);
    ws.set(w.subarray(p.start, p.start + p.count), o);
    o += p.count;
  }
  return { x, rows: n, cols: m.cols, y: ys, weight: ws };
}

/** --seeds K: the mean of K models, each on its own row and feature samples (seeds seed … seed+K−1). */
function train(m: Matrix, pages: PageRows[], y: Uint8Array, w: Float32Array): GbdtModel {
  const data = subset(m, pages, y, w);
  return averageModels(
    Array.from({ length: opts.seeds }, (_, i) =>
      trainGbdt(data, {
        trees: opts.trees,
        depth: opts.depth,
        learningRate: opts.learningRate,
        minLeafWeight: opts.minLeafWeight,
        bins: 64,
        rowSample: 0.8,
        colSample: 0.8,
        l2: 1,
        seed: opts.seed + i,
        featureNames: m.names,
      }),
    ),
  );
}

function score(model: GbdtModel, m: Matrix, pages: PageRows[], into: Float64Array): void {
  for (const p of pages) for (let r = p.start; r < p.start + p.count; r++) into[r] = predictRaw(model, m.x, r * m.cols);
}

/** Stage two's matrix: the block features and the context of stage one's scores `s1`. */
function withContext(s1: Float64Array): Matrix {
  const cc = CONTEXT_FEATURES.length;
  const cols = d.cols + cc;
  const x = new Float32Array(d.rows * cols);
  const levels = GROUP_LEVELS.length;
  for (const p of d.pages) {
    if (p.count === 0) continue;
    const ctx = contextFeatures(
      { groups: d.groups.subarray(p.start * levels, (p.start + p.count) * levels) },
      s1.subarray(p.start, p.start + p.count),
      d.blockTokens.subarray(p.start, p.start + p.count),
    );
    for (let i = 0; i < p.count; i++) {
      const r = p.start + i;
      x.set(d.x.subarray(r * d.cols, (r + 1) * d.cols), r * cols);
      x.set(ctx.subarray(i * cc, (i + 1) * cc), r * cols + d.cols);
    }
  }
  return { x, cols, names: [...d.features, ...CONTEXT_FEATURES] };
}

/**
 * Stage one depends only on the dataset and the options: cached in tools/train/.cache/stage1-KEY.json
 * (removed when the dataset is rebuilt), so trying stage-two context features retrains stage two
 * alone.
 */
function cachedStageOne(runFit: () => ReturnType<typeof crossFit>): ReturnType<typeof crossFit> {
  // What stage one's training reads: options, dataset, blanked features, labels.
  const key = JSON.stringify([opts, d.features, d.rows, dropIdx >= 0 ? args[dropIdx + 1] : null, flag('short-context')]);
  if (existsSync(stageOneFile(key))) {
    const cached = JSON.parse(readFileSync(stageOneFile(key), 'utf8'));
    if (cached.key === key) return { scores: Float64Array.from(cached.scores), final: cached.final, folds: cached.folds };
  }
  const fitted = runFit();
  writeFileSync(stageOneFile(key), JSON.stringify({ key, scores: Array.from(fitted.scores), final: fitted.final, folds: fitted.folds }));
  return fitted;
}

/** Out-of-fold scores on dev-train, and the final model's scores on validation. */
function crossFit(m: Matrix): { scores: Float64Array; final: GbdtModel; folds: GbdtModel[] } {
  const scores = new Float64Array(d.rows);
  const folds: GbdtModel[] = [];
  const t0 = Date.now();
  for (let k = 0; k < opts.folds; k++) {
    const model = train(
      m,
      fitPages.filter((p) => fold(p.id) !== k),
      y,
      w,
    );
    folds.push(model);
    score(
      model,
      m,
      fitPages.filter((p) => fold(p.id) === k),
      scores,
    );
    process.stderr.write(`fold ${k + 1}/${opts.folds} ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }
  const final = train(m, fitPages, y, w);
  score(final, m, validationPages, scores);
  return { scores, final, folds };
}

function keptTokens(p: PageRows, keep: (r: number) => boolean): string[] {
  const out: string[] = [];
  for (let r = p.start; r < p.start + p.count; r++) if (keep(r)) for (const t of d.rowTokens[r]!) out.push(t);
  return out;
}

const TYPES = ['article', 'documentation', 'service', 'forum', 'collection', 'listing', 'product'];
function report(name: string, pages: PageRows[], f1: (p: PageRows) => number): number {
  const byType = new Map<string, number[]>();
  let sum = 0;
  for (const p of pages) {
    const v = f1(p);
    sum += v;
    const list = byType.get(p.pageType) ?? [];
    list.push(v);
    byType.set(p.pageType, list);
  }
  const mean = sum / pages.length;
  const cells = TYPES.map((t) => {
    const l = byType.get(t) ?? [];
    return l.length ? (l.reduce((a, b) => a + b, 0) / l.length).toFixed(3) : '—';
  });
  console.log(`| ${name} | **${mean.toFixed(3)}** | ${cells.join(' | ')} |`);
  return mean;
}

const { y, w } = labels(d);
// Fitting uses the snippet pages too; calibration and the figures are WCXB's.
const fitPages = d.pages.filter((p) => p.split === 'train');
const trainPages = fitPages.filter((p) => p.pageType !== 'snippets');
const validationPages = d.pages.filter((p) => p.split === 'validation');
const fold = (id: string) => foldOf(id, opts.folds);

console.log(`rows ${d.rows}, features ${d.cols}, options ${JSON.stringify(opts)}`);
const stage1 = cachedStageOne(() => crossFit({ x: d.x, cols: d.cols, names: d.features }));
const stage2 = flag('one-stage') ? null : crossFit(withContext(stage1.scores));
const finalScores = stage2?.scores ?? stage1.scores;

// The calibration (selectRows): the best mean page F1 out of fold. For a given scale, the shift of
// pages that offer a product for sale and that of the others act on disjoint pages, so each is the
// best on its own pages: one grid over (scale, shift) per group finds the joint best.
const keptBy = (scores: Float64Array, c: Calibration) => {
  const keep = new Uint8Array(d.rows);
  for (const p of d.pages) {
    const sel = selectRows(
      scores.subarray(p.start, p.start + p.count),
      d.blockTokens.subarray(p.start, p.start + p.count),
      c,
      p.offersProduct,
    );
    sel.forEach((k, i) => (keep[p.start + i] = k ? 1 : 0));
  }
  return keep;
};
const sumF1 = (pages: PageRows[], c: Calibration) => {
  let s = 0;
  for (const p of pages) {
    const sel = selectRows(finalScores.subarray(p.start, p.start + p.count), d.blockTokens.subarray(p.start, p.start + p.count), c);
    s += pageF1(
      p.reference,
      keptTokens(p, (r) => sel[r - p.start]!),
    );
  }
  return s;
};
const shifts = (from: number, to: number) => Array.from({ length: Math.round((to - from) / 0.25) + 1 }, (_, i) => from + i * 0.25);
// --no-product-shift: one shift for all pages (the calibration before session 13).
const groups = flag('no-product-shift')
  ? [trainPages]
  : [trainPages.filter((p) => !p.offersProduct), trainPages.filter((p) => p.offersProduct)];
let best = { scale: 1, shift: 0, productShift: 0, f1: -1 };
for (let scale = 0.4; scale <= 1.201; scale += 0.1) {
  // Per group, its best shift and the F1 sum over its pages at that shift.
  const tops = groups.map((pages, g) => {
    let top = { shift: 0, sum: -1 };
    for (const shift of g === 0 ? shifts(-1.5, 0.5) : shifts(-3, 0.5)) {
      const sum = sumF1(pages, { scale, shift });
      if (sum > top.sum) top = { shift, sum };
    }
    return top;
  });
  const f1 = tops.reduce((a, t) => a + t.sum, 0) / trainPages.length;
  const shift = tops[0]!.shift;
  if (f1 > best.f1) best = { scale: Number(scale.toFixed(2)), shift, productShift: (tops[1]?.shift ?? shift) - shift, f1 };
}
const calibration: Calibration = { scale: best.scale, shift: best.shift, productShift: best.productShift };
const kept1 = keptBy(stage1.scores, calibration);
const kept2 = keptBy(finalScores, calibration);
console.log(`calibration: scale ${calibration.scale}, shift ${calibration.shift}, product shift ${calibration.productShift}\n`);
for (const [name, pages] of [
  ['dev-train (out of fold)', trainPages],
  ['validation (held out)', validationPages],
] as const) {
  console.log(`| ${name} | F1 | ${TYPES.join(' | ')} |\n|---|---|${TYPES.map(() => '---|').join('')}`);
  report('rule-based clean-up', pages, (p) => pageF1(p.reference, p.heuristic));
  report('stage 1', pages, (p) =>
    pageF1(
      p.reference,
      keptTokens(p, (r) => kept1[r] === 1),
    ),
  );
  if (stage2)
    report('stage 2', pages, (p) =>
      pageF1(
        p.reference,
        keptTokens(p, (r) => kept2[r] === 1),
      ),
    );
  report('labels (ceiling)', pages, (p) =>
    pageF1(
      p.reference,
      keptTokens(p, (r) => y[r] === 1),
    ),
  );
  console.log('');
}

// The snippet pages' corpus metric, from kept blocks' text alone (no rules after the model, no
// Markdown): a proxy that ranks models out of fold; bench/quality.ts gives the real figures.
const snippetPagesOf = d.pages.filter((p) => p.pageType === 'snippets');
if (snippetPagesOf.length > 0) {
  const entries = new Map(loadTrafilaturaIndex().map((e) => [`t${e.id}`, e]));
  const texts = JSON.parse(readFileSync(`${snippetFile}.texts.json`, 'utf8')) as Record<string, string[]>;
  const proxy = (keep: (r: number) => boolean) => {
    const a = aggregateTrafilatura(
      snippetPagesOf.map((p) => {
        const e = entries.get(p.id)!;
        const kept = (texts[p.id] ?? []).filter((_, i) => keep(p.start + i)).join(' ');
        return { ...scoreSnippets(kept, e.with, e.without), ms: 0 };
      }),
    );
    return `F1 ${a.f1.toFixed(3)} (P ${a.precision.toFixed(3)}, R ${a.recall.toFixed(3)}; TP ${a.tp} FP ${a.fp})`;
  };
  const cleanedCol = d.features.indexOf('in_cleaned');
  console.log('trafilatura-eval tuning pages, out of fold, blocks only:');
  console.log(`  rule-based clean-up ${proxy((r) => d.x[r * d.cols + cleanedCol] === 1)}`);
  console.log(`  stage 1 ${proxy((r) => kept1[r] === 1)}`);
  if (stage2) console.log(`  stage 2 ${proxy((r) => kept2[r] === 1)}`);
  console.log('');
}

if (flag('dump')) {
  // For error analysis: final and stage-one scores per row (out of fold on dev-train) and labels.
  writeFileSync(
    resolve(here, '.cache', 'scores.json'),
    JSON.stringify({ calibration, scores: Array.from(finalScores), stageOne: Array.from(stage1.scores), y: Array.from(y) }),
  );
}

if (flag('write')) {
  const url = modelFileUrl();
  const previous = existsSync(url) ? readModelFile(url).version : 0;
  const command =
    `npx tsx tools/train/train-blocks.ts ${args.filter((a) => a !== '--write' && a !== '--rebuild' && a !== '--dump').join(' ')} --write`.replace(
      /\s+/g,
      ' ',
    );
  writeFileSync(
    url,
    formatModelFile({
      format: MODEL_FORMAT,
      version: previous + 1,
      trained: new Date().toISOString().slice(0, 10),
      command,
      featureHash: featureHash(),
      calibration,
      lexicon,
      stageOne: stage1.final,
      stageTwo: stage2?.final ?? null,
    }),
  );
  const file = fileURLToPath(url);
  saveFoldClassifiers({
    folds: opts.folds,
    calibration,
    lexicon,
    models: stage1.folds.map((stageOne, k) => ({ stageOne, stageTwo: stage2?.folds[k] ?? null })),
  });
  console.log(`\nwrote ${file} (and the fold models for quality.ts --oof)`);
}
