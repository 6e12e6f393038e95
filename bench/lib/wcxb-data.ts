// Loads the WCXB development split and divides it into a fixed, seeded, per-type stratified
// train part (80%) and validation part (20%) so tuning never sees the validation pages.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { corpusAvailable, corpusDir, hash01 } from './corpus-dir.js';

export interface WcxbPage {
  id: string;
  url: string;
  pageType: string;
  html: string;
  mainContent: string;
  with: string[];
  without: string[];
}

export interface WcxbIndexEntry {
  id: string;
  url: string;
  pageType: string;
  split: 'train' | 'validation';
  /** Deterministic order used by --limit / --sample. */
  rank: number;
}

/** `$WCXB_DIR`, else `../shared/data/wcxb-dev` beside the repository. */
export function wcxbDir(): string {
  return corpusDir('WCXB_DIR', 'wcxb-dev');
}

export function wcxbAvailable(dir = wcxbDir()): boolean {
  return corpusAvailable(dir);
}

export const SPLIT_SEED = 'websift-wcxb-validation-v1';
export const VALIDATION_SHARE = 0.2;
const RANK_SEED = 'websift-wcxb-rank-v1';

export function loadIndex(dir = wcxbDir()): WcxbIndexEntry[] {
  const pages = JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')) as Record<string, { url: string; page_type: string }>;
  const byType = new Map<string, string[]>();
  for (const [id, p] of Object.entries(pages)) {
    const list = byType.get(p.page_type) ?? [];
    list.push(id);
    byType.set(p.page_type, list);
  }
  const entries: WcxbIndexEntry[] = [];
  for (const [type, ids] of byType) {
    ids.sort((a, b) => hash01(SPLIT_SEED, a) - hash01(SPLIT_SEED, b));
    const nValidation = Math.round(ids.length * VALIDATION_SHARE);
    const validation = new Set(ids.slice(0, nValidation));
    // A second, independent order gives the rank: it interleaves types, so any prefix of the
    // ranked list is roughly stratified by type and holds both splits in proportion.
    const ranked = [...ids].sort((a, b) => hash01(RANK_SEED, a) - hash01(RANK_SEED, b));
    ranked.forEach((id, j) => {
      const p = pages[id]!;
      entries.push({ id, url: p.url, pageType: type, split: validation.has(id) ? 'validation' : 'train', rank: (j + 0.5) / ids.length });
    });
  }
  return entries.sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id));
}

export function loadPage(entry: WcxbIndexEntry, dir = wcxbDir()): WcxbPage {
  const html = gunzipSync(readFileSync(join(dir, 'html', `${entry.id}.html.gz`))).toString('utf8');
  const gt = JSON.parse(readFileSync(join(dir, 'ground-truth', `${entry.id}.json`), 'utf8')) as {
    ground_truth: { main_content?: string; with?: string[]; without?: string[] };
  };
  return {
    id: entry.id,
    url: entry.url,
    pageType: entry.pageType,
    html,
    mainContent: gt.ground_truth.main_content ?? '',
    with: gt.ground_truth.with ?? [],
    without: gt.ground_truth.without ?? [],
  };
}
