// Output fingerprints of htmlToMarkdown over every page of WCXB dev, trafilatura-eval and articles-dev:
// a SHA-256 of the Markdown per page id, written to bench/.cache/, so an optimisation can be checked
// to change no page's output.
//
//   npx tsx bench/convert-hashes.ts --out before.json        (writes bench/.cache/before.json)
//   npx tsx bench/convert-hashes.ts --out after.json --compare before.json
// (--out and --compare are relative to bench/.cache/; an absolute path is used as it is)

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
import { corpusPages } from './lib/convert-corpora.js';

const CACHE = resolve(fileURLToPath(new URL('.', import.meta.url)), '.cache');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

const hashes: Record<string, string> = {};
const started = Date.now();
for (const p of corpusPages()) {
  let md: string;
  try {
    md = htmlToMarkdown(p.html, p.url ? { url: p.url } : {});
  } catch (err) {
    md = `THREW ${(err as Error).name}`;
  }
  hashes[p.id] = sha(md);
}
const out = arg('out') ?? 'convert-hashes.json';
mkdirSync(CACHE, { recursive: true }); // absent on a fresh clone
const outPath = resolve(CACHE, out);
writeFileSync(outPath, JSON.stringify(hashes, null, 1));
console.log(`${Object.keys(hashes).length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s → ${outPath}`);

const compare = arg('compare');
if (compare) {
  const before = JSON.parse(readFileSync(resolve(CACHE, compare), 'utf8')) as Record<string, string>;
  const changed = Object.keys({ ...before, ...hashes }).filter((id) => before[id] !== hashes[id]);
  console.log(changed.length === 0 ? 'no page changed' : `${changed.length} pages changed:\n${changed.join('\n')}`);
  if (changed.length > 0) process.exitCode = 1;
}
