// Local files → local-index documents: HTML through htmlToMarkdown (main content only), Markdown and
// plain text as they are. Titles: an HTML page's <h1>, else its <title>; a Markdown file's first
// heading; else the file name.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { htmlToMarkdown } from '../convert/html-to-markdown.js';
import { firstHeading, markdownToText, type IndexDocument } from '../sources/extracted-docs.js';
import { CliError } from './cli-error.js';

const KINDS: Record<string, 'html' | 'markdown' | 'text'> = {
  '.html': 'html', '.htm': 'html', '.xhtml': 'html',
  '.md': 'markdown', '.markdown': 'markdown',
  '.txt': 'text',
};

export interface LocalFile {
  path: string;
  /** Path relative to the argument it was found under (the file name for a file argument). */
  relative: string;
}

/** Files to index under each argument (directories recursively, indexable extensions only, sorted). */
export function listFiles(paths: string[]): LocalFile[] {
  const files: LocalFile[] = [];
  for (const root of paths) {
    let stat;
    try {
      stat = statSync(root);
    } catch {
      throw new CliError(`no such file or directory: ${root}`);
    }
    if (stat.isFile()) {
      if (!isIndexable(root)) throw new CliError(`cannot index ${root}: only .html, .htm, .md, .markdown and .txt files`);
      files.push({ path: root, relative: basename(root) });
    } else {
      for (const path of walk(root)) if (isIndexable(path)) files.push({ path, relative: relative(root, path).split('\\').join('/') });
    }
  }
  return files;
}

const isIndexable = (path: string): boolean => Object.hasOwn(KINDS, extname(path).toLowerCase()) && basename(path) !== 'README.md';

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

export function documentFromFile(path: string, url: string): IndexDocument {
  const raw = readFileSync(path, 'utf8');
  const kind = KINDS[extname(path).toLowerCase()] ?? 'text';
  if (kind === 'text') return { url, title: basename(path), text: raw };
  const markdown = kind === 'html' ? htmlToMarkdown(raw, { url }) : raw;
  const title = (kind === 'html' ? htmlTitle(raw) : firstHeading(markdown)) ?? basename(path);
  return { url, title, text: markdownToText(markdown) };
}

/** The page's own heading (<title> often carries the site name too), else <title>. */
function htmlTitle(html: string): string | null {
  for (const pattern of [/<h1[^>]*>([\s\S]*?)<\/h1>/i, /<title[^>]*>([\s\S]*?)<\/title>/i]) {
    const text = pattern.exec(html)?.[1]?.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
    if (text) return decodeEntities(text);
  }
  return null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
const decodeEntities = (text: string): string => text.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, e: string) => ENTITIES[e] ?? _);

/** The URL a file is indexed under: `base` joined with its relative path. */
export function urlFor(base: string, file: LocalFile): string {
  const root = base.endsWith('/') ? base : `${base}/`;
  return new URL(file.relative.split('/').map(encodeURIComponent).join('/'), root).href;
}
