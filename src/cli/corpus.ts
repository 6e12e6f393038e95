// The demo corpus shipped with the package (corpus/ at the package root), served read-only on loopback
// so extraction and include_content run against real HTTP without network access.

import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** src/cli/ and dist/cli/ are both two levels below the package root. */
export const CORPUS_DIR = fileURLToPath(new URL('../../corpus/', import.meta.url));
export const CORPUS_PREFIX = '/corpus/';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.md': 'text/markdown; charset=utf-8' };

/** A request handler for /corpus/<file> and /robots.txt; answers false for anything else. */
export function corpusHandler(dir = CORPUS_DIR): (req: IncomingMessage, res: ServerResponse) => boolean {
  // Only names listed at start are served, so no path can escape the directory.
  const files = new Set(readdirSync(dir).filter((name) => Object.hasOwn(TYPES, extname(name))));
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('User-agent: *\nAllow: /\n');
      return true;
    }
    if (!path.startsWith(CORPUS_PREFIX)) return false;
    const name = safeDecode(path.slice(CORPUS_PREFIX.length));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (!files.has(name)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    } else {
      res.writeHead(200, { 'content-type': TYPES[extname(name)]! }).end(req.method === 'HEAD' ? undefined : readFileSync(join(dir, name)));
    }
    return true;
  };
}

/** Malformed percent-encoding names no file (and must not throw inside the server). */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}
