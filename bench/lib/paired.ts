// Paired comparison of two WCXB runs (bench/quality.ts --json): per page type, the mean of the
// page-by-page F1 differences and its standard error. Pairing removes what the pages themselves
// vary by, so a change of a few thousandths on 20 pages can be told from noise (or shown not to be).

import { PAGE_TYPES, type PageResult } from './quality-run.js';

export type Part = 'train' | 'validation' | 'dev';

export interface PairedDiff {
  /** Pages found in both runs. */
  pages: number;
  /** Pages whose F1 differs. */
  changed: number;
  /** Mean of after − before, and its standard error (0 with fewer than two pages). */
  mean: number;
  se: number;
}

type Row = Pick<PageResult, 'id' | 'pageType' | 'split' | 'system' | 'f1'>;

/** A page both runs hold: its row in the second run, and its websift F1 there and in the first. */
export interface Pair<R extends Row = Row> {
  after: R;
  before: number;
  diff: number;
}

/** websift's rows of `after` paired by page id with `before`'s; pages only one run holds are left out. */
export function pairPages<R extends Row>(before: readonly Row[], after: readonly R[]): Pair<R>[] {
  const old = new Map(before.filter((r) => r.system === 'websift').map((r) => [r.id, r.f1]));
  const pairs: Pair<R>[] = [];
  for (const r of after) {
    const f1 = old.get(r.id);
    if (r.system === 'websift' && f1 !== undefined) pairs.push({ after: r, before: f1, diff: r.f1 - f1 });
  }
  return pairs;
}

/** A difference this small is no change (float noise). */
export const changed = (diff: number) => Math.abs(diff) > 1e-9;

/**
 * Per part (each split, and `dev`: both pooled) and per page type (`all` first): websift's
 * F1 after − before on the pages both runs hold.
 */
export function pairedDiffs(before: readonly Row[], after: readonly Row[]): Record<Part, Record<string, PairedDiff>> {
  const diffs = { train: new Map<string, number[]>(), validation: new Map<string, number[]>(), dev: new Map<string, number[]>() };
  const push = (m: Map<string, number[]>, key: string, d: number) => (m.get(key) ?? m.set(key, []).get(key)!).push(d);
  for (const { after: r, diff } of pairPages(before, after)) {
    for (const part of [r.split, 'dev'] as const) {
      push(diffs[part], 'all', diff);
      push(diffs[part], r.pageType, diff);
    }
  }
  const out = {} as Record<Part, Record<string, PairedDiff>>;
  for (const part of ['train', 'validation', 'dev'] as const) {
    out[part] = {};
    for (const t of ['all', ...PAGE_TYPES]) {
      const d = diffs[part].get(t);
      if (d) out[part][t] = summarize(d);
    }
  }
  return out;
}

function summarize(d: readonly number[]): PairedDiff {
  const n = d.length;
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const variance = n > 1 ? d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : 0;
  return { pages: n, changed: d.filter(changed).length, mean, se: Math.sqrt(variance / n) };
}

/** Markdown table: one row per part, `mean ± se` per type. */
export function formatPaired(p: Record<Part, Record<string, PairedDiff>>): string {
  const types = ['all', ...PAGE_TYPES];
  const sign = (x: number) => (Math.abs(x) < 5e-5 ? '0.0000' : `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(4)}`);
  const lines = [`| part | ${types.join(' | ')} |`, `|---|${types.map(() => '---').join('|')}|`];
  for (const part of ['train', 'validation', 'dev'] as const) {
    const row = p[part];
    if (!row.all) continue;
    const name = part === 'dev' ? 'dev, both parts' : part;
    lines.push(
      `| ${name} (${row.all.pages}) | ${types.map((t) => (row[t] ? `${sign(row[t].mean)} ± ${row[t].se.toFixed(4)}` : '—')).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}
