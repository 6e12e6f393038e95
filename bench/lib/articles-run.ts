// Runs websift and Readability over the articles-dev corpus, interleaved page by page (alternating
// which goes first), and scores both with the corpus's own metric (its score.mjs, Dragnet's token
// metric): tokens are runs of letters and digits, case kept; per page the multiset overlap gives
// P = matched / predicted (0 when nothing is predicted) and R = matched / gold; the figures are means
// over pages. "Main content" leaves the gold's reader comments out (an extractor that keeps them
// loses precision); "with comments" counts them as content. websift's Markdown is read as the plain
// text a reader sees (markdownToText, the scorer's rewrites); the baseline is Readability 0.6 on
// linkedom, `parse().textContent`, as the corpus's README measured it.

import { performance } from 'node:perf_hooks';
import { Readability } from '@mozilla/readability';
import { htmlToMarkdown } from '../../src/convert/html-to-markdown.js';
import { type ArticlesEntry, loadArticlesIndex, loadArticlesPage } from './articles-data.js';
import { stockParseHTML } from './baseline.js';

export type ArticlesSystem = 'websift' | 'readability';

export interface ArticlesRow {
  id: string;
  group: string;
  split: 'train' | 'validation';
  comments: boolean;
  system: ArticlesSystem;
  ms: number;
  /** Main content (gold comments not counted). */
  p: number;
  r: number;
  f1: number;
  /** Content + comments. */
  f1WithComments: number;
  predicted: number;
  gold: number;
}

export interface ArticlesOptions {
  limit?: number;
  split?: 'train' | 'validation' | 'all';
  ids?: string[];
  groups?: string[];
  baseline?: boolean;
  dir?: string;
  onText?: (id: string, system: ArticlesSystem, text: string) => void;
}

/** The fixed sample the CI regression test scores (first pages of the seeded rank, every set, both parts). */
export const ARTICLES_SAMPLE_SIZE = 150;

const TOKEN = /[\p{L}\p{N}]+/gu;
export const articleTokens = (s: string): string[] => s.match(TOKEN) ?? [];

/** Dragnet's evaluation_metrics(bow=False): multiset overlap of predicted and gold tokens. */
export function tokenPRF(predicted: readonly string[], gold: readonly string[]): [number, number, number] {
  const left = new Map<string, number>();
  for (const t of gold) left.set(t, (left.get(t) ?? 0) + 1);
  let tp = 0;
  for (const t of predicted) {
    const c = left.get(t) ?? 0;
    if (c > 0) {
      tp++;
      left.set(t, c - 1);
    }
  }
  const p = predicted.length ? tp / predicted.length : 0;
  const r = gold.length ? tp / gold.length : 0;
  return [p, r, p + r > 0 ? (2 * p * r) / (p + r) : 0];
}

// The scorer's Markdown-to-text rewrites, in its order (score.mjs, markdownToText).
const MD_TO_TEXT: Array<[RegExp, string]> = [
  [/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1'],
  [/!\[[^\]]*\]\([^)]*\)/g, ' '],
  [/\[([^\]]*)\]\([^)]*\)/g, '$1'],
  [/^\s*\[[^\]]+\]:\s*\S+.*$/gm, ' '],
  [/\]\((?:https?:|\/)[^)\s]*(?:\s+"[^"]*")?\)/g, ' '],
  [/<(https?:[^>]*)>/g, '$1'],
  [/^\s*(```|~~~)[^\n]*$/gm, ' '],
  [/^\s*\|?\s*:?-{2,}.*$/gm, ' '],
  [/<\/?[a-z][^>]*>/gi, ' '],
  [/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, ' '],
];
export const markdownToText = (md: string): string => MD_TO_TEXT.reduce((text, [pattern, by]) => text.replace(pattern, by), md);

export function readabilityText(html: string): string {
  try {
    const { document } = stockParseHTML(html);
    return new Readability(document as unknown as Document).parse()?.textContent ?? '';
  } catch {
    return '';
  }
}

export function selectArticlesPages(opts: ArticlesOptions): ArticlesEntry[] {
  let entries = loadArticlesIndex(opts.dir);
  if (opts.ids?.length) entries = entries.filter((e) => opts.ids!.includes(e.id));
  if (opts.groups?.length) entries = entries.filter((e) => opts.groups!.includes(e.group));
  if (opts.split && opts.split !== 'all') entries = entries.filter((e) => e.split === opts.split);
  return opts.limit !== undefined ? entries.slice(0, opts.limit) : entries;
}

export function runArticles(opts: ArticlesOptions, onPage?: (done: number, total: number) => void): ArticlesRow[] {
  const entries = selectArticlesPages(opts);
  const systems: Array<[ArticlesSystem, (html: string, url: string | undefined) => string]> = [
    ['websift', (html, url) => markdownToText(htmlToMarkdown(html, url ? { url } : {}))],
  ];
  if (opts.baseline !== false) systems.push(['readability', (html) => readabilityText(html)]);
  const rows: ArticlesRow[] = [];
  entries.forEach((entry, i) => {
    const page = loadArticlesPage(entry, opts.dir);
    const main = articleTokens(page.content);
    const all = articleTokens(`${page.content} ${page.commentsText}`);
    const order = i % 2 === 0 ? systems : [...systems].reverse();
    for (const [system, convert] of order) {
      const t0 = performance.now();
      const text = convert(page.html, entry.url);
      const ms = performance.now() - t0;
      opts.onText?.(entry.id, system, text);
      const predicted = articleTokens(text);
      const [p, r, f1] = tokenPRF(predicted, main);
      rows.push({
        id: entry.id,
        group: entry.group,
        split: entry.split,
        comments: entry.comments,
        system,
        ms,
        p,
        r,
        f1,
        f1WithComments: tokenPRF(predicted, all)[2],
        predicted: predicted.length,
        gold: main.length,
      });
    }
    onPage?.(i + 1, entries.length);
  });
  return rows;
}

export interface ArticlesAggregate {
  pages: number;
  p: number;
  r: number;
  f1: number;
  f1WithComments: number;
  msPerPage: number;
}

/** Means over the pages whose gold has tokens (the scorer skips the others). */
export function aggregateArticles(rows: readonly ArticlesRow[]): ArticlesAggregate {
  const scored = rows.filter((r) => r.gold > 0);
  const mean = (f: (r: ArticlesRow) => number) => scored.reduce((s, r) => s + f(r), 0) / (scored.length || 1);
  return {
    pages: scored.length,
    p: mean((r) => r.p),
    r: mean((r) => r.r),
    f1: mean((r) => r.f1),
    f1WithComments: mean((r) => r.f1WithComments),
    msPerPage: rows.reduce((s, r) => s + r.ms, 0) / (rows.length || 1),
  };
}

export function formatArticlesReport(rows: readonly ArticlesRow[]): string {
  const out: string[] = [];
  const systems = [...new Set(rows.map((r) => r.system))];
  const f = (x: number) => x.toFixed(3);
  out.push('| set | part | pages | system | F1 | P | R | F1 with comments | comment pages F1 | ms/page |');
  out.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const group of [...new Set(rows.map((r) => r.group))].sort()) {
    for (const split of ['train', 'validation', 'all'] as const) {
      const inPart = rows.filter((r) => r.group === group && (split === 'all' || r.split === split));
      if (inPart.length === 0) continue;
      for (const system of systems) {
        const mine = inPart.filter((r) => r.system === system);
        const a = aggregateArticles(mine);
        const c = aggregateArticles(mine.filter((r) => r.comments));
        out.push(
          `| ${group} | ${split === 'train' ? 'tuning' : split === 'validation' ? 'held apart' : 'all'} | ${a.pages} | ${system} | **${f(a.f1)}** | ${f(a.p)} | ${f(a.r)} | ${f(a.f1WithComments)} | ${c.pages ? f(c.f1) : '–'} | ${a.msPerPage.toFixed(1)} |`,
        );
      }
    }
  }
  if (systems.length === 2) {
    const real = rows.filter((r) => !r.group.endsWith('synthetic'));
    const ms = (s: ArticlesSystem) => aggregateArticles(real.filter((r) => r.system === s)).msPerPage;
    out.push(
      `\nTime ratio websift / readability (total over the real pages, this run): ${(ms('websift') / ms('readability')).toFixed(2)}×`,
    );
  }
  return out.join('\n');
}
