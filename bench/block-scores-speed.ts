// The classifier's two stages of trees (blockScores: gbdt.ts predictRows, gbdt-wasm.ts' WebAssembly walk)
// against the packed walk a row at a time (predictRaw, as blockScores was until 2026-11-28), in one
// process: each page's rows are built once (analyzeHtml), then both score them, the order alternating
// page by page, CPU time (process.cpuUsage) around each call; ratio of the round's totals, median
// and range over rounds. Checks the scores are bit-identical (Object.is per row) first.
//
//   npx tsx bench/block-scores-speed.ts [--corpus traf] [--rounds 7] [--limit 300]

import { analyzeHtml } from '../src/convert/html-to-markdown.js';
import { CONTEXT_FEATURES, contextFeatures } from '../src/convert/model/block-context.js';
import { type BlockRows, FEATURES } from '../src/convert/model/block-features.js';
import { blockScores, defaultClassifier } from '../src/convert/model/block-model.js';
import { predictRaw } from '../src/convert/model/gbdt.js';
import { type CorpusName, corpusPages } from './lib/convert-corpora.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const corpora = (arg('corpus') ?? 'traf').split(',') as CorpusName[];
const rounds = Number(arg('rounds') ?? 7);
const limit = Number(arg('limit') ?? 300);
const c = defaultClassifier();

/** blockScores as it was: predictRaw row by row, stage two on a joined copy per row. */
function packedScores(rows: BlockRows): Float64Array {
  const cols = FEATURES.length;
  const n = rows.blocks.length;
  const first = new Float64Array(n);
  for (let r = 0; r < n; r++) first[r] = predictRaw(c.stageOne!, rows.x, r * cols);
  const context = contextFeatures(
    rows,
    first,
    rows.blocks.map((b) => b.tokens),
  );
  const cc = CONTEXT_FEATURES.length;
  const both = new Float32Array(cols + cc);
  const out = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    both.set(rows.x.subarray(r * cols, (r + 1) * cols), 0);
    both.set(context.subarray(r * cc, (r + 1) * cc), cols);
    out[r] = predictRaw(c.stageTwo!, both);
  }
  return out;
}

const inputs: BlockRows[] = [];
const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
for (let i = 0; i < all.length; i += step) {
  const p = all[Math.floor(i)]!;
  const page = analyzeHtml(p.html, p.url, c.lexicon);
  if (page) inputs.push(page.rows);
}

let differ = 0;
let rowCount = 0;
for (const rows of inputs) {
  const a = blockScores(rows, c)!;
  const b = packedScores(rows);
  rowCount += a.length;
  if (a.length !== b.length || !Array.from(a).every((v, i) => Object.is(v, b[i]))) differ++;
}
console.log(`${inputs.length} pages, ${rowCount} rows; scores differ on ${differ} pages`);

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const ratios: number[] = [];
for (let r = 0; r <= rounds; r++) {
  let mine = 0;
  let theirs = 0;
  inputs.forEach((rows, i) => {
    const order = (i + r) % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) {
      const t = cpu();
      if (k === 0) blockScores(rows, c);
      else packedScores(rows);
      const d = cpu() - t;
      if (k === 0) mine += d;
      else theirs += d;
    }
  });
  if (r > 0) ratios.push(mine / theirs); // round 0 warms up
  console.log(`round ${r}: rows ${(mine / 1000).toFixed(1)} ms, packed ${(theirs / 1000).toFixed(1)} ms`);
}
ratios.sort((a, b) => a - b);
console.log(
  `predictRows / predictRaw: ${ratios[Math.floor(ratios.length / 2)]!.toFixed(3)} (${ratios[0]!.toFixed(3)}–${ratios.at(-1)!.toFixed(3)})`,
);
