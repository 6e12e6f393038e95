// The block classifier's training data: every text block of every page with its features
// (src/convert/model/block-features.ts), its label (block-labels.ts) and what is needed to score a
// page fast from kept blocks alone (its metric tokens), cached on disk because building it runs
// the whole conversion on each page.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadTrafilaturaHtml, type TrafilaturaEntry } from '../../bench/lib/trafilatura-data.js';
import { loadPage, type WcxbIndexEntry } from '../../bench/lib/wcxb-data.js';
import { scoreTokens, tokens } from '../../bench/lib/wcxb-metric.js';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { FEATURES, GROUP_LEVELS, type Lexicon } from '../../src/convert/model/block-features.js';
import { blockMatches, indexGroundTruth } from './block-labels.js';
import { snippetLabels } from './snippet-labels.js';

export interface PageRows {
  id: string;
  pageType: string;
  split: 'train' | 'validation';
  /** First row of this page in the dataset, and how many. */
  start: number;
  count: number;
  /** Ground-truth tokens. */
  reference: string[];
  /** Tokens of the blocks rule-based clean-up keeps (for comparison). */
  heuristic: string[];
  /** BlockRows.offersProduct: the calibration's productShift applies. */
  offersProduct: boolean;
}

export interface BlockDataset {
  features: string[];
  x: Float32Array;
  rows: number;
  cols: number;
  /** Share of the block's trigrams found in the ground truth; -1 when it has no metric tokens. */
  match: Float32Array;
  /** Metric tokens of each row. */
  rowTokens: string[][];
  /** The block's token count as the library counts it (the context features' weights). */
  blockTokens: Float32Array;
  /** Container numbers per row (BlockRows.groups), GROUP_LEVELS.length per row, numbered per page. */
  groups: Int32Array;
  pages: PageRows[];
}

/** Bumped when what a row stores changes (the feature list is checked by name). */
const VERSION = `5:${GROUP_LEVELS.join(',')}`;

/** One training page: its HTML, and how its blocks are labelled (blockMatches' scale, -1 unknown). */
export interface TrainingPage {
  id: string;
  pageType: string;
  split: 'train' | 'validation';
  html: string;
  url: string;
  /** Ground-truth tokens (empty when the ground truth is snippets). */
  reference: string[];
  label(texts: readonly string[]): (number | null)[];
}

/** WCXB dev pages, labelled by their whole ground truth. */
export function wcxbPages(entries: readonly WcxbIndexEntry[]): Iterable<TrainingPage> {
  return (function* () {
    for (const entry of entries) {
      const page = loadPage(entry);
      const gt = indexGroundTruth(page.mainContent);
      yield {
        id: entry.id,
        pageType: entry.pageType,
        split: entry.split,
        html: page.html,
        url: page.url,
        reference: tokens(page.mainContent),
        label: (texts) => blockMatches(texts, gt),
      };
    }
  })();
}

/** Trafilatura-eval tuning pages, labelled by their snippets (snippet-labels.ts); page type "snippets". */
export function snippetPages(entries: readonly TrafilaturaEntry[]): Iterable<TrainingPage> {
  return (function* () {
    for (const entry of entries) {
      if (entry.split !== 'train') continue; // the held-out part never trains
      yield {
        id: `t${entry.id}`,
        pageType: 'snippets',
        split: 'train' as const,
        html: loadTrafilaturaHtml(entry),
        url: entry.url,
        reference: [],
        label: (texts) => snippetLabels(texts, entry.with, entry.without),
      };
    }
  })();
}

export function buildDataset(
  source: Iterable<TrainingPage>,
  lexicon: Lexicon,
  onPage?: (i: number) => void,
  /** Each page's row texts, for the snippet metric. */
  onTexts?: (id: string, texts: string[]) => void,
): BlockDataset {
  const cols = FEATURES.length;
  const chunks: Float32Array[] = [];
  const match: number[] = [];
  const rowTokens: string[][] = [];
  const blockTokens: number[] = [];
  const groups: number[] = [];
  const pages: PageRows[] = [];
  let rows = 0;
  let i = 0;
  for (const page of source) {
    const analyzed = analyzeHtml(page.html, page.url, lexicon);
    const base = { id: page.id, pageType: page.pageType, split: page.split, start: rows, reference: page.reference };
    if (!analyzed) {
      pages.push({ ...base, count: 0, heuristic: [], offersProduct: false });
    } else {
      const n = analyzed.rows.blocks.length;
      chunks.push(analyzed.rows.x);
      const texts = analyzed.rows.blocks.map((b) => b.text);
      for (const m of page.label(texts)) match.push(m ?? -1);
      onTexts?.(page.id, texts);
      for (const b of analyzed.rows.blocks) {
        rowTokens.push(tokens(b.text));
        blockTokens.push(b.tokens);
      }
      for (const g of analyzed.rows.groups) groups.push(g);
      const cleanedCol = FEATURES.indexOf('in_cleaned');
      const heuristic: string[] = [];
      analyzed.rows.blocks.forEach((b, r) => {
        if (analyzed.rows.x[r * cols + cleanedCol] === 1) heuristic.push(...tokens(b.text));
      });
      pages.push({ ...base, count: n, heuristic, offersProduct: analyzed.rows.offersProduct });
      rows += n;
    }
    onPage?.(++i);
  }
  const x = new Float32Array(rows * cols);
  let o = 0;
  for (const c of chunks) {
    x.set(c, o);
    o += c.length;
  }
  return {
    features: [...FEATURES],
    x,
    rows,
    cols,
    match: Float32Array.from(match),
    rowTokens,
    blockTokens: Float32Array.from(blockTokens),
    groups: Int32Array.from(groups),
    pages,
  };
}

/** `b`'s rows after `a`'s. */
export function concatDatasets(a: BlockDataset, b: BlockDataset): BlockDataset {
  const cat = <T extends Float32Array | Int32Array>(p: T, q: T, make: (n: number) => T): T => {
    const out = make(p.length + q.length);
    out.set(p);
    out.set(q, p.length);
    return out;
  };
  return {
    features: a.features,
    cols: a.cols,
    rows: a.rows + b.rows,
    x: cat(a.x, b.x, (n) => new Float32Array(n)),
    match: cat(a.match, b.match, (n) => new Float32Array(n)),
    rowTokens: [...a.rowTokens, ...b.rowTokens],
    blockTokens: cat(a.blockTokens, b.blockTokens, (n) => new Float32Array(n)),
    groups: cat(a.groups, b.groups, (n) => new Int32Array(n)),
    pages: [...a.pages, ...b.pages.map((p) => ({ ...p, start: p.start + a.rows }))],
  };
}

export function saveDataset(file: string, d: BlockDataset): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.x`, Buffer.from(d.x.buffer, d.x.byteOffset, d.x.byteLength));
  writeFileSync(
    `${file}.json`,
    JSON.stringify({
      version: VERSION,
      features: d.features,
      rows: d.rows,
      cols: d.cols,
      match: Array.from(d.match),
      rowTokens: d.rowTokens,
      blockTokens: Array.from(d.blockTokens),
      groups: Array.from(d.groups),
      pages: d.pages,
    }),
  );
}

export function loadDataset(file: string): BlockDataset | null {
  if (!existsSync(`${file}.json`)) return null;
  const meta = JSON.parse(readFileSync(`${file}.json`, 'utf8'));
  if (meta.version !== VERSION || meta.features.join(',') !== FEATURES.join(',')) return null;
  const buf = readFileSync(`${file}.x`);
  const x = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  return {
    ...meta,
    x,
    match: Float32Array.from(meta.match),
    blockTokens: Float32Array.from(meta.blockTokens),
    groups: Int32Array.from(meta.groups),
  };
}

/** The WCXB F1 of a page's kept tokens against its reference tokens. */
export const pageF1 = (reference: readonly string[], predicted: readonly string[]): number => scoreTokens(predicted, reference).f1;
