// The block classifier's training data: every text block of every page with its features
// (src/convert/model/block-features.ts), its label (block-labels.ts) and what is needed to score a
// page fast from kept blocks alone (its metric tokens), cached on disk because building it runs
// the whole conversion on each page.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FEATURES, GROUP_LEVELS, type Lexicon } from '../../src/convert/model/block-features.js';
import { analyzeHtml } from '../../src/convert/html-to-markdown.js';
import { blockMatches, indexGroundTruth } from './block-labels.js';
import { loadPage, type WcxbIndexEntry } from '../../bench/lib/wcxb-data.js';
import { scoreTokens, tokens } from '../../bench/lib/wcxb-metric.js';

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
const VERSION = `3:${GROUP_LEVELS.join(',')}`;

export function buildDataset(entries: readonly WcxbIndexEntry[], lexicon: Lexicon, onPage?: (i: number) => void): BlockDataset {
  const cols = FEATURES.length;
  const chunks: Float32Array[] = [];
  const match: number[] = [];
  const rowTokens: string[][] = [];
  const blockTokens: number[] = [];
  const groups: number[] = [];
  const pages: PageRows[] = [];
  let rows = 0;
  entries.forEach((entry, i) => {
    const page = loadPage(entry);
    const analyzed = analyzeHtml(page.html, page.url, lexicon);
    const reference = tokens(page.mainContent);
    const base = { id: entry.id, pageType: entry.pageType, split: entry.split, start: rows, reference };
    if (!analyzed) {
      pages.push({ ...base, count: 0, heuristic: [] });
    } else {
      const gt = indexGroundTruth(page.mainContent);
      const n = analyzed.rows.blocks.length;
      chunks.push(analyzed.rows.x);
      for (const m of blockMatches(analyzed.rows.blocks.map((b) => b.text), gt)) match.push(m ?? -1);
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
      pages.push({ ...base, count: n, heuristic });
      rows += n;
    }
    onPage?.(i + 1);
  });
  const x = new Float32Array(rows * cols);
  let o = 0;
  for (const c of chunks) {
    x.set(c, o);
    o += c.length;
  }
  return {
    features: [...FEATURES], x, rows, cols, match: Float32Array.from(match), rowTokens,
    blockTokens: Float32Array.from(blockTokens), groups: Int32Array.from(groups), pages,
  };
}

export function saveDataset(file: string, d: BlockDataset): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.x`, Buffer.from(d.x.buffer, d.x.byteOffset, d.x.byteLength));
  writeFileSync(
    `${file}.json`,
    JSON.stringify({
      version: VERSION, features: d.features, rows: d.rows, cols: d.cols, match: Array.from(d.match), rowTokens: d.rowTokens,
      blockTokens: Array.from(d.blockTokens), groups: Array.from(d.groups), pages: d.pages,
    }),
  );
}

export function loadDataset(file: string): BlockDataset | null {
  if (!existsSync(`${file}.json`)) return null;
  const meta = JSON.parse(readFileSync(`${file}.json`, 'utf8'));
  if (meta.version !== VERSION || meta.features.join(',') !== FEATURES.join(',')) return null;
  const buf = readFileSync(`${file}.x`);
  const x = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  return { ...meta, x, match: Float32Array.from(meta.match), blockTokens: Float32Array.from(meta.blockTokens), groups: Int32Array.from(meta.groups) };
}

/** The WCXB F1 of a page's kept tokens against its reference tokens. */
export const pageF1 = (reference: readonly string[], predicted: readonly string[]): number => scoreTokens(predicted, reference).f1;
