// Runs websift and the Readability baseline over Trafilatura's evaluation corpus, interleaved page
// by page (alternating which goes first) like quality-run.ts, and scores them with the corpus's own
// metric: after collapsing whitespace, each `with` snippet found verbatim in the extracted text is
// a true positive (missing: a false negative), each `without` snippet found a false positive
// (missing: a true negative); precision, recall and F1 from the corpus-level sums.

import { performance } from 'node:perf_hooks';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { plainReadabilityMarkdown } from './baseline.js';
import { stripMarkdown } from './strip-markdown.js';
import { loadTrafilaturaHtml, loadTrafilaturaIndex, type TrafilaturaEntry } from './trafilatura-data.js';

export type TrafSystem = 'websift' | 'readability';

export interface TrafRow {
  id: string;
  split: 'train' | 'validation';
  system: TrafSystem;
  ms: number;
  tp: number;
  fn: number;
  fp: number;
  tn: number;
  /** `with` snippets not found, and `without` snippets found. */
  missed: string[];
  leaked: string[];
}

export interface TrafOptions {
  limit?: number;
  split?: 'train' | 'validation' | 'all';
  ids?: string[];
  baseline?: boolean;
  dir?: string;
  /** Keep each system's extracted text (diagnostics). */
  onText?: (id: string, system: TrafSystem, text: string) => void;
}

/** The fixed sample the CI regression test scores (first pages of the seeded rank, both parts). */
export const TRAFILATURA_SAMPLE_SIZE = 200;

/** The metric's text normalisation: whitespace runs collapsed to one space, ends trimmed. */
export const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The corpus metric's counts for one page's plain text. */
export function scoreSnippets(text: string, withs: readonly string[], withouts: readonly string[]) {
  const hay = collapse(text);
  const found = (s: string) => collapse(s) !== '' && hay.includes(collapse(s));
  const missed = withs.filter((s) => !found(s));
  const leaked = withouts.filter(found);
  return { tp: withs.length - missed.length, fn: missed.length, fp: leaked.length, tn: withouts.length - leaked.length, missed, leaked };
}

export function selectTrafilaturaPages(opts: TrafOptions): TrafilaturaEntry[] {
  let entries = loadTrafilaturaIndex(opts.dir);
  if (opts.ids?.length) entries = entries.filter((e) => opts.ids!.includes(e.id));
  if (opts.split && opts.split !== 'all') entries = entries.filter((e) => e.split === opts.split);
  return opts.limit !== undefined ? entries.slice(0, opts.limit) : entries;
}

export function runTrafilatura(opts: TrafOptions, onPage?: (done: number, total: number) => void): TrafRow[] {
  const entries = selectTrafilaturaPages(opts);
  const systems: Array<[TrafSystem, (html: string, url: string) => string]> = [['websift', (html, url) => htmlToMarkdown(html, { url })]];
  if (opts.baseline !== false) systems.push(['readability', (html) => plainReadabilityMarkdown(html)]);
  const rows: TrafRow[] = [];
  entries.forEach((entry, i) => {
    const html = loadTrafilaturaHtml(entry, opts.dir);
    const order = i % 2 === 0 ? systems : [...systems].reverse();
    for (const [system, convert] of order) {
      const t0 = performance.now();
      const md = convert(html, entry.url);
      const ms = performance.now() - t0;
      const text = stripMarkdown(md);
      opts.onText?.(entry.id, system, text);
      rows.push({ id: entry.id, split: entry.split, system, ms, ...scoreSnippets(text, entry.with, entry.without) });
    }
    onPage?.(i + 1, entries.length);
  });
  return rows;
}

export interface TrafAggregate {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
  msPerPage: number;
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}

/** Corpus-level precision, recall and F1 from the rows' summed counts. */
export function aggregateTrafilatura(rows: readonly Pick<TrafRow, 'tp' | 'fn' | 'fp' | 'tn' | 'ms'>[]): TrafAggregate {
  const sum = (f: (r: Pick<TrafRow, 'tp' | 'fn' | 'fp' | 'tn' | 'ms'>) => number) => rows.reduce((s, r) => s + f(r), 0);
  const tp = sum((r) => r.tp);
  const fn = sum((r) => r.fn);
  const fp = sum((r) => r.fp);
  const tn = sum((r) => r.tn);
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { pages: rows.length, precision, recall, f1, msPerPage: sum((r) => r.ms) / (rows.length || 1), tp, fn, fp, tn };
}

export function formatTrafilaturaReport(rows: readonly TrafRow[]): string {
  const out: string[] = [];
  const systems = [...new Set(rows.map((r) => r.system))];
  const f = (x: number) => x.toFixed(3);
  for (const split of ['train', 'validation'] as const) {
    const inSplit = rows.filter((r) => r.split === split);
    if (inSplit.length === 0) continue;
    out.push(
      `\n### trafilatura-eval ${split === 'train' ? 'tuning (80%)' : 'held out (20%)'} — ${inSplit.length / systems.length} pages\n`,
    );
    out.push('| system | F1 | P | R | TP | FN | FP | TN | ms/page |');
    out.push('|---|---|---|---|---|---|---|---|---|');
    for (const system of systems) {
      const a = aggregateTrafilatura(inSplit.filter((r) => r.system === system));
      out.push(
        `| ${system} | **${f(a.f1)}** | ${f(a.precision)} | ${f(a.recall)} | ${a.tp} | ${a.fn} | ${a.fp} | ${a.tn} | ${a.msPerPage.toFixed(1)} |`,
      );
    }
  }
  if (systems.length === 2) {
    const all = (s: TrafSystem) => aggregateTrafilatura(rows.filter((r) => r.system === s));
    out.push(
      `\nAll pages: websift F1 ${f(all('websift').f1)}, readability ${f(all('readability').f1)}. ` +
        `Time ratio websift / readability (total, this run): ${(all('websift').msPerPage / all('readability').msPerPage).toFixed(2)}×`,
    );
  }
  return out.join('\n');
}
