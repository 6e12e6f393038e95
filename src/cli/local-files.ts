// Local files → local-index documents: HTML through htmlToMarkdown (main content only), Markdown and
// plain text as they are. Titles: an HTML page's <h1>, else its <title>; a Markdown file's first
// heading; else the file name.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { htmlToMarkdown } from '../convert/html-to-markdown.js';
import { firstHeading, type IndexDocument, markdownToText } from '../sources/extracted-docs.js';
import { CliError } from './cli-error.js';

const KINDS: Record<string, 'html' | 'markdown' | 'text'> = {
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
};

export interface LocalFile {
  path: string;
  /** Path relative to the argument it was found under (the file name for a file argument). */
  relative: string;
}

/** A file `index add` leaves out, and why (reported on stderr and in its JSON). */
export interface SkippedFile {
  source: string;
  reason: string;
}

export interface FileList {
  files: LocalFile[];
  skipped: SkippedFile[];
}

/** Larger files are skipped: a document this size is most likely a dump, not a page to search. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

const SUPPORTED = '.html, .htm, .xhtml, .md, .markdown and .txt';

/**
 * Files to index under each argument (directories recursively, sorted), and the files left out with
 * their reason. Dot-files, dot-directories and node_modules are passed over silently.
 */
export function listFiles(paths: string[]): FileList {
  const list: FileList = { files: [], skipped: [] };
  for (const root of paths) {
    let stat;
    try {
      stat = statSync(root);
    } catch {
      throw new CliError(`no such file or directory: ${root}`);
    }
    if (stat.isFile()) consider(list, root, basename(root), stat.size);
    else for (const path of walk(root)) consider(list, path, relative(root, path).split('\\').join('/'));
  }
  return list;
}

function consider(list: FileList, path: string, rel: string, size?: number): void {
  const reason = skipReason(path, size);
  if (reason) list.skipped.push({ source: path, reason });
  else list.files.push({ path, relative: rel });
}

function skipReason(path: string, knownSize?: number): string | undefined {
  const ext = extname(path).toLowerCase();
  if (!Object.hasOwn(KINDS, ext)) return `unsupported type ${ext || '(no extension)'} (only ${SUPPORTED} files)`;
  if (basename(path) === 'README.md') return 'README.md files are not indexed';
  let size = knownSize;
  try {
    size ??= statSync(path).size;
  } catch (error) {
    return `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  if (size > MAX_FILE_BYTES) return `too large (${mib(size)} MiB; the limit is ${mib(MAX_FILE_BYTES)} MiB)`;
  if (size === 0) return 'empty';
  return undefined;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

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

/** The document of a listed file, or why it is skipped after all (unreadable, no text once converted). */
export function loadFile(file: LocalFile, url: string): IndexDocument | SkippedFile {
  let document: IndexDocument;
  try {
    document = documentFromFile(file.path, url);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    return { source: file.path, reason: `unreadable (${code})` };
  }
  if (document.text.trim() === '') return { source: file.path, reason: 'empty (no text once converted)' };
  return document;
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
    const text = pattern
      .exec(html)?.[1]
      ?.replace(/<[^>]*>/g, '')
      .replace(/\s+/g, ' ')
      .trim();
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
