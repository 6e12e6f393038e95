// Output fingerprints of htmlToMarkdown over the WCXB dev pages and the trafilatura evaluation set:
// a SHA-256 of the Markdown per page id, written to bench/.cache/, so an optimisation can be checked
// to change no page's output.
//
//   npx tsx bench/convert-hashes.ts --out before.json        (writes bench/.cache/before.json)
//   npx tsx bench/convert-hashes.ts --out after.json --compare before.json

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
import { loadTrafilaturaHtml, loadTrafilaturaIndex, trafilaturaAvailable } from './lib/trafilatura-data.js';
import { loadIndex, loadPage, wcxbAvailable } from './lib/wcxb-data.js';

const CACHE = resolve(fileURLToPath(new URL('.', import.meta.url)), '.cache');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

// The corpora as quality.ts reads them ($WCXB_DIR, $TRAFILATURA_DIR; a trafilatura-eval page that
// is not UTF-8 decoded by the charset it declares).
function* pages(): Generator<{ id: string; url: string; html: string }> {
  if (wcxbAvailable()) for (const e of loadIndex()) yield { id: `wcxb:${e.id}`, url: e.url, html: loadPage(e).html };
  if (trafilaturaAvailable())
    for (const e of loadTrafilaturaIndex()) yield { id: `traf:${e.id}`, url: e.url, html: loadTrafilaturaHtml(e) };
}

const hashes: Record<string, string> = {};
const started = Date.now();
for (const p of pages()) {
  let md: string;
  try {
    md = htmlToMarkdown(p.html, { url: p.url });
  } catch (err) {
    md = `THREW ${(err as Error).name}`;
  }
  hashes[p.id] = sha(md);
}
const out = arg('out') ?? 'convert-hashes.json';
mkdirSync(CACHE, { recursive: true }); // absent on a fresh clone
writeFileSync(join(CACHE, out), JSON.stringify(hashes, null, 1));
console.log(`${Object.keys(hashes).length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s → bench/.cache/${out}`);

const compare = arg('compare');
if (compare) {
  const before = JSON.parse(readFileSync(join(CACHE, compare), 'utf8')) as Record<string, string>;
  const changed = Object.keys({ ...before, ...hashes }).filter((id) => before[id] !== hashes[id]);
  console.log(changed.length === 0 ? 'no page changed' : `${changed.length} pages changed:\n${changed.join('\n')}`);
  if (changed.length > 0) process.exitCode = 1;
}
