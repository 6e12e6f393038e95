// Loads Trafilatura's evaluation corpus (990 mostly article pages with `with`/`without` snippets)
// and divides it into a fixed, seeded tuning part (80 %) and a held-out part (20 %), as
// wcxb-data.ts does for WCXB: tuning never looks at the held-out pages.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { corpusAvailable, corpusDir, hash01 } from './corpus-dir.js';

export interface TrafilaturaEntry {
  id: string;
  url: string;
  split: 'train' | 'validation';
  /** Deterministic order used by --limit / the CI sample. */
  rank: number;
  with: string[];
  without: string[];
}

/** `$TRAFILATURA_DIR`, else `../shared/data/trafilatura-eval` beside the repository. */
export function trafilaturaDir(): string {
  return corpusDir('TRAFILATURA_DIR', 'trafilatura-eval');
}

export function trafilaturaAvailable(dir = trafilaturaDir()): boolean {
  return corpusAvailable(dir);
}

export const TRAFILATURA_SPLIT_SEED = 'websift-trafilatura-validation-v1';
const RANK_SEED = 'websift-trafilatura-rank-v1';

export function loadTrafilaturaIndex(dir = trafilaturaDir()): TrafilaturaEntry[] {
  const pages = JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')) as Array<{
    id: string;
    url: string;
    with: string[];
    without: string[];
  }>;
  const ids = pages.map((p) => p.id).sort((a, b) => hash01(TRAFILATURA_SPLIT_SEED, a) - hash01(TRAFILATURA_SPLIT_SEED, b));
  const validation = new Set(ids.slice(0, Math.round(ids.length * 0.2)));
  return pages
    .map((p) => ({
      id: p.id,
      url: p.url,
      with: p.with,
      without: p.without,
      split: validation.has(p.id) ? ('validation' as const) : ('train' as const),
      rank: hash01(RANK_SEED, p.id),
    }))
    .sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id));
}

/**
 * The page's text: valid UTF-8 as UTF-8; otherwise the charset its first 4 KiB declare
 * (`<meta charset>` or `http-equiv`), else windows-1252, as a browser falls back. The archive keeps
 * no HTTP headers; 27 pages are not UTF-8 (ISO-8859-1, windows-1252/1250, one undeclared).
 */
export function decodePage(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const label = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(bytes.subarray(0, 4096).toString('latin1'))?.[1]?.toLowerCase();
    for (const l of [label, 'windows-1252']) {
      if (!l || l === 'utf-8' || l === 'utf8') continue;
      try {
        return new TextDecoder(l).decode(bytes);
      } catch {
        // an unknown label
      }
    }
    return bytes.toString('utf8');
  }
}

export function loadTrafilaturaHtml(entry: { id: string }, dir = trafilaturaDir()): string {
  return decodePage(gunzipSync(readFileSync(join(dir, 'html', `${entry.id}.html.gz`))));
}
