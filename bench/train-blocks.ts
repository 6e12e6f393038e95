// Trains the block classifier (src/convert/block-model.ts) on WCXB dev-train and reports it the
// way the quality benchmark does, per page type:
//   npx tsx bench/train-blocks.ts [--rebuild] [--folds 5] [--trees 150] [--depth 6] [--lr 0.1] [--write]
// - dev-train figures are out-of-fold (each page scored by a model that never saw it, k folds);
// - validation figures come from the final model trained on all of dev-train, never tuned on;
// - the threshold is chosen on the out-of-fold predictions only;
// - --write stores the final model and threshold in src/convert/block-model-weights.ts.
// Scoring here is fast (kept blocks' tokens); `npx tsx bench/quality.ts` scores the real Markdown.
// The dataset is cached in bench/.cache/ (rebuilt when the feature list changes, or with --rebuild).

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GbdtModel } from '../src/convert/gbdt.js';
import { predictRaw } from '../src/convert/gbdt.js';
import { buildDataset, loadDataset, pageF1, saveDataset, type BlockDataset, type PageRows } from './lib/block-dataset.js';
import { trainGbdt } from './lib/gbdt-train.js';
import { loadIndex } from './lib/wcxb-data.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const num = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const opts = {
  folds: num('folds', 5),
  trees: num('trees', 150),
  depth: num('depth', 6),
  learningRate: num('lr', 0.1),
  minLeafWeight: num('min-leaf', 1),
  weighting: num('weighting', 1),
  labelCut: num('label-cut', 0.5),
};

const here = fileURLToPath(new URL('.', import.meta.url));
const cacheFile = resolve(here, '.cache', 'blocks');
let data = flag('rebuild') ? null : loadDataset(cacheFile);
if (!data) {
  const entries = loadIndex();
  const t0 = Date.now();
  data = buildDataset(entries, (i) => process.stderr.isTTY && i % 50 === 0 && process.stderr.write(`\r${i}/${entries.length}`));
  saveDataset(cacheFile, data);
  console.log(`dataset: ${data.rows} rows from ${data.pages.length} pages in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
const d: BlockDataset = data;

/** Label and weight of every row: each page weighs the same in total (the metric is a mean per page). */
function labels(d: BlockDataset): { y: Uint8Array; w: Float32Array } {
  const y = new Uint8Array(d.rows);
  const w = new Float32Array(d.rows);
  for (const p of d.pages) {
    let total = 0;
    for (let r = p.start; r < p.start + p.count; r++) total += d.rowTokens[r]!.length;
    const norm = opts.weighting === 1 ? Math.max(1, total) : Math.sqrt(Math.max(1, total)) * 10;
    for (let r = p.start; r < p.start + p.count; r++) {
      const m = d.match[r]!;
      y[r] = m >= opts.labelCut ? 1 : 0;
      w[r] = m < 0 ? 0 : (d.rowTokens[r]!.length / norm) * 100;
    }
  }
  return { y, w };
}

function subset(d: BlockDataset, pages: PageRows[], y: Uint8Array, w: Float32Array) {
  let n = 0;
  for (const p of pages) n += p.count;
  const x = new Float32Array(n * d.cols);
  const ys = new Uint8Array(n);
  const ws = new Float32Array(n);
  let o = 0;
  for (const p of pages) {
    x.set(d.x.subarray(p.start * d.cols, (p.start + p.count) * d.cols), o * d.cols);
    ys.set(y.subarray(p.start, p.start + p.count), o);
    ws.set(w.subarray(p.start, p.start + p.count), o);
    o += p.count;
  }
  return { x, rows: n, cols: d.cols, y: ys, weight: ws };
}

function train(pages: PageRows[], y: Uint8Array, w: Float32Array): GbdtModel {
  return trainGbdt(subset(d, pages, y, w), {
    trees: opts.trees, depth: opts.depth, learningRate: opts.learningRate, minLeafWeight: opts.minLeafWeight,
    bins: 64, rowSample: 0.8, colSample: 0.8, l2: 1, seed: 7, featureNames: d.features,
  });
}

function score(model: GbdtModel, pages: PageRows[], into: Float64Array): void {
  for (const p of pages) for (let r = p.start; r < p.start + p.count; r++) into[r] = predictRaw(model, d.x, r * d.cols);
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
const trainPages = d.pages.filter((p) => p.split === 'train');
const validationPages = d.pages.filter((p) => p.split === 'validation');
const fold = (id: string) => {
  let h = 2166136261;
  for (const ch of `fold:${id}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h % opts.folds;
};

console.log(`rows ${d.rows}, features ${d.cols}, options ${JSON.stringify(opts)}`);
const oof = new Float64Array(d.rows);
const t0 = Date.now();
for (let k = 0; k < opts.folds; k++) {
  const model = train(trainPages.filter((p) => fold(p.id) !== k), y, w);
  score(model, trainPages.filter((p) => fold(p.id) === k), oof);
  process.stderr.write(`fold ${k + 1}/${opts.folds} ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}
// The threshold: the best mean page F1 out of fold.
let best = { t: 0, f1: -1 };
for (let t = -2; t <= 2.001; t += 0.25) {
  let s = 0;
  for (const p of trainPages) s += pageF1(p.reference, keptTokens(p, (r) => oof[r]! >= t));
  if (s / trainPages.length > best.f1) best = { t, f1: s / trainPages.length };
}
console.log(`threshold ${best.t.toFixed(2)}\n`);
console.log(`| dev-train (out of fold) | F1 | ${TYPES.join(' | ')} |\n|---|---|${TYPES.map(() => '---|').join('')}`);
report('heuristic choice', trainPages, (p) => pageF1(p.reference, p.heuristic));
report('classifier', trainPages, (p) => pageF1(p.reference, keptTokens(p, (r) => oof[r]! >= best.t)));
report('labels (ceiling)', trainPages, (p) => pageF1(p.reference, keptTokens(p, (r) => y[r] === 1)));

const final = train(trainPages, y, w);
const pred = new Float64Array(d.rows);
score(final, validationPages, pred);
console.log(`\n| validation (held out) | F1 | ${TYPES.join(' | ')} |\n|---|---|${TYPES.map(() => '---|').join('')}`);
report('heuristic choice', validationPages, (p) => pageF1(p.reference, p.heuristic));
report('classifier', validationPages, (p) => pageF1(p.reference, keptTokens(p, (r) => pred[r]! >= best.t)));
report('labels (ceiling)', validationPages, (p) => pageF1(p.reference, keptTokens(p, (r) => y[r] === 1)));

if (flag('write')) {
  const file = resolve(here, '..', 'src', 'convert', 'block-model-weights.ts');
  writeFileSync(
    file,
    `// Generated by bench/train-blocks.ts — do not edit by hand. Options: ${JSON.stringify(opts)}\n` +
      `import type { GbdtModel } from './gbdt.js';\n` +
      `export const BLOCK_THRESHOLD = ${best.t};\n` +
      `export const BLOCK_MODEL: GbdtModel | null = ${JSON.stringify(final)};\n`,
  );
  console.log(`\nwrote ${file}`);
}
