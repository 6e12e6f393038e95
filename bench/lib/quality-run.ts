// Runs the extraction-quality benchmark: both systems on the same pages in the same process,
// interleaved per page (alternating which goes first) so machine noise and GC hit them alike; aggregates the WCXB metric.

import { performance } from 'node:perf_hooks';
import { convertHtml, htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { loadFoldClassifiers } from '../../tools/train/block-folds.js';
import { plainReadabilityMarkdown } from './baseline.js';
import { stripMarkdown } from './strip-markdown.js';
import { loadIndex, loadPage, type WcxbIndexEntry, type WcxbPage } from './wcxb-data.js';
import { type PageScore, scorePage, snippetsFound } from './wcxb-metric.js';

export type SystemName = 'websift' | 'readability';

export interface PageResult extends PageScore {
  id: string;
  pageType: string;
  split: 'train' | 'validation';
  system: SystemName;
  ms: number;
  withFound: number;
  withTotal: number;
  withoutFound: number;
  withoutTotal: number;
}

export interface QualityOptions {
  limit?: number;
  split?: 'train' | 'validation' | 'all';
  types?: string[];
  ids?: string[];
  baseline?: boolean;
  dir?: string;
  /** Convert dev-train pages with the fold model that never saw them (needs tools/train/train-blocks.ts --write). */
  oof?: boolean;
}

/** The fixed small sample used by the CI regression test. */
export const SAMPLE_SIZE = 80;

export function selectPages(opts: QualityOptions): WcxbIndexEntry[] {
  let entries = loadIndex(opts.dir);
  if (opts.ids?.length) entries = entries.filter((e) => opts.ids!.includes(e.id));
  if (opts.types?.length) entries = entries.filter((e) => opts.types!.includes(e.pageType));
  if (opts.split && opts.split !== 'all') entries = entries.filter((e) => e.split === opts.split);
  return opts.limit !== undefined ? entries.slice(0, opts.limit) : entries;
}

export function runQuality(opts: QualityOptions, onPage?: (done: number, total: number) => void): PageResult[] {
  const entries = selectPages(opts);
  const folds = opts.oof ? loadFoldClassifiers() : null;
  if (opts.oof && !folds) throw new Error('--oof needs the fold models: run npx tsx tools/train/train-blocks.ts --write first');
  const systems: Array<[SystemName, (page: WcxbPage, entry: WcxbIndexEntry) => string]> = [
    [
      'websift',
      ({ html, url }, entry) =>
        folds && entry.split === 'train' ? convertHtml(html, { url }, folds(entry.id)) : htmlToMarkdown(html, { url }),
    ],
  ];
  if (opts.baseline !== false) systems.push(['readability', ({ html }) => plainReadabilityMarkdown(html)]);
  const results: PageResult[] = [];
  entries.forEach((entry, i) => {
    const page = loadPage(entry, opts.dir);
    // Alternate which system runs first, so warm caches and GC debt are shared fairly.
    const order = i % 2 === 0 ? systems : [...systems].reverse();
    for (const [system, convert] of order) {
      const t0 = performance.now();
      const md = convert(page, entry);
      const ms = performance.now() - t0;
      const text = stripMarkdown(md);
      results.push({
        id: page.id,
        pageType: page.pageType,
        split: entry.split,
        system,
        ms,
        ...scorePage(text, page.mainContent),
        withFound: snippetsFound(text, page.with),
        withTotal: page.with.length,
        withoutFound: snippetsFound(text, page.without),
        withoutTotal: page.without.length,
      });
    }
    onPage?.(i + 1, entries.length);
  });
  return results;
}

export interface Aggregate {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
  msPerPage: number;
  /** Share of all `with` snippets found, and pages where at least one `without` snippet leaked. */
  withShare: number;
  withoutShare: number;
  pagesWithWithout: number;
}

export function aggregate(rows: readonly PageResult[]): Aggregate {
  const n = rows.length || 1;
  const sum = (f: (r: PageResult) => number) => rows.reduce((s, r) => s + f(r), 0);
  const withTotal = sum((r) => r.withTotal) || 1;
  const withoutTotal = sum((r) => r.withoutTotal) || 1;
  return {
    pages: rows.length,
    precision: sum((r) => r.precision) / n,
    recall: sum((r) => r.recall) / n,
    f1: sum((r) => r.f1) / n,
    msPerPage: sum((r) => r.ms) / n,
    withShare: sum((r) => r.withFound) / withTotal,
    withoutShare: sum((r) => r.withoutFound) / withoutTotal,
    pagesWithWithout: rows.filter((r) => r.withoutFound > 0).length,
  };
}

export const PAGE_TYPES = ['article', 'documentation', 'service', 'forum', 'collection', 'listing', 'product'] as const;

/** Markdown report: per split, per system, overall and per page type. */
export function formatReport(results: readonly PageResult[]): string {
  const out: string[] = [];
  const systems = [...new Set(results.map((r) => r.system))];
  const f = (x: number) => x.toFixed(3);
  for (const split of ['train', 'validation'] as const) {
    const inSplit = results.filter((r) => r.split === split);
    if (inSplit.length === 0) continue;
    out.push(`\n### ${split === 'train' ? 'dev-train (80%)' : 'validation (20%, held out)'} — ${inSplit.length / systems.length} pages\n`);
    out.push(`| system | F1 | P | R | ${PAGE_TYPES.join(' | ')} | with | without (pages) | ms/page |`);
    out.push(`|---|---|---|---|${PAGE_TYPES.map(() => '---').join('|')}|---|---|---|`);
    for (const system of systems) {
      const rows = inSplit.filter((r) => r.system === system);
      const all = aggregate(rows);
      const perType = PAGE_TYPES.map((t) => {
        const tr = rows.filter((r) => r.pageType === t);
        return tr.length ? f(aggregate(tr).f1) : '—';
      });
      out.push(
        `| ${system} | **${f(all.f1)}** | ${f(all.precision)} | ${f(all.recall)} | ${perType.join(' | ')} | ` +
          `${(100 * all.withShare).toFixed(1)}% | ${(100 * all.withoutShare).toFixed(1)}% (${all.pagesWithWithout}) | ${all.msPerPage.toFixed(1)} |`,
      );
    }
  }
  if (systems.length === 2) {
    const ms = (s: SystemName) => aggregate(results.filter((r) => r.system === s)).msPerPage;
    out.push(`\nTime ratio websift / readability (all pages in this run): ${(ms('websift') / ms('readability')).toFixed(2)}×`);
  }
  return out.join('\n');
}
