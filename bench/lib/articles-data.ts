// Loads the articles-dev corpus (../shared/data/articles-dev: 962 blog and news pages of 2012 with
// hand-cut gold, reader comments marked apart, and Mozilla Readability's test pages) and divides
// each set into a fixed, seeded tuning part (80 %) and a held-apart part (20 %), as wcxb-data.ts and
// trafilatura-data.ts do. Its data is AGPL-3.0 (dragnet): measure and check rules on it, never train
// the shipped model's weights on it (tools/train reads only wcxb-dev and trafilatura-eval).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { corpusAvailable, corpusDir, hash01 } from './corpus-dir.js';

export interface ArticlesEntry {
  id: string;
  /** `dragnet`, `readability`, or `readability-synthetic` (Readability's hand-written unit pages). */
  group: string;
  url?: string;
  comments: boolean;
  split: 'train' | 'validation';
  /** Deterministic order used by --limit / the CI sample. */
  rank: number;
}

export interface ArticlesPage extends ArticlesEntry {
  html: string;
  /** The gold's main content and, apart, its reader comments. */
  content: string;
  commentsText: string;
}

/** `$ARTICLES_DIR`, else `../shared/data/articles-dev` beside the repository. */
export function articlesDir(): string {
  return corpusDir('ARTICLES_DIR', 'articles-dev');
}

export function articlesAvailable(dir = articlesDir()): boolean {
  return corpusAvailable(dir);
}

export const ARTICLES_SPLIT_SEED = 'websift-articles-validation-v1';
const RANK_SEED = 'websift-articles-rank-v1';

export function loadArticlesIndex(dir = articlesDir()): ArticlesEntry[] {
  const listed = JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')) as Array<{
    id: string;
    set: string;
    url?: string;
    comments: boolean;
    synthetic?: boolean;
  }>;
  const byGroup = new Map<string, typeof listed>();
  for (const p of listed) {
    const group = p.synthetic ? `${p.set}-synthetic` : p.set;
    byGroup.set(group, [...(byGroup.get(group) ?? []), p]);
  }
  const entries: ArticlesEntry[] = [];
  for (const [group, pages] of byGroup) {
    // Stratified per set: each set's held-apart part is 20 % of it.
    const ids = pages.map((p) => p.id).sort((a, b) => hash01(ARTICLES_SPLIT_SEED, a) - hash01(ARTICLES_SPLIT_SEED, b));
    const validation = new Set(ids.slice(0, Math.round(ids.length * 0.2)));
    for (const p of pages) {
      entries.push({
        id: p.id,
        group,
        ...(p.url ? { url: p.url } : {}),
        comments: p.comments,
        split: validation.has(p.id) ? 'validation' : 'train',
        rank: hash01(RANK_SEED, p.id),
      });
    }
  }
  return entries.sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id));
}

/**
 * Bytes to text as the corpus's scorer (`score.mjs`, `decodeBytes`) reads them: a BOM decides, else
 * valid UTF-8, else the charset a `<meta>` declares in the first 4 KiB, else windows-1252.
 */
export function decodeArticleBytes(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf);
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    // not UTF-8: fall through to the declared charset
  }
  const cs = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(buf.subarray(0, 4096).toString('latin1'))?.[1];
  try {
    if (cs && !/^utf-?8$/i.test(cs)) return new TextDecoder(cs).decode(buf);
  } catch {
    // an unknown label
  }
  return new TextDecoder('windows-1252').decode(buf);
}

// Dragnet's gold layout: main content, then optionally this line and the reader comments.
const COMMENTS_DELIM = /\n*!@#\$%\^&\*\(\)\s+COMMENTS\n*/;

export function splitGold(gold: string): [string, string] {
  const m = COMMENTS_DELIM.exec(gold);
  if (!m) return [gold.trim(), ''];
  return [gold.slice(0, m.index).trim(), gold.slice(m.index + m[0].length).trim()];
}

export function loadArticlesPage(entry: ArticlesEntry, dir = articlesDir()): ArticlesPage {
  const html = decodeArticleBytes(gunzipSync(readFileSync(join(dir, 'html', `${entry.id}.html.gz`))));
  const [content, commentsText] = splitGold(decodeArticleBytes(readFileSync(join(dir, 'gold', `${entry.id}.txt`))).replace(/\r\n?/g, '\n'));
  return { ...entry, html, content, commentsText };
}
