// The cost of page metadata (src/convert/metadata/) in conversion: htmlToMarkdown alone
// against htmlToMarkdownWithMetadata (metadata and links, as extract runs it) on the WCXB dev pages,
// alternating which goes first on each page; also the metadata-only read of the `html` format, how
// often each field is found, and a check that the Markdown is unchanged.
//
//   npx tsx bench/page-metadata.ts [--limit N]

import { performance } from 'node:perf_hooks';
import { htmlMetadata, htmlToMarkdown, htmlToMarkdownWithMetadata } from '../src/convert/html-to-markdown.js';
import { readPageMetadata } from '../src/convert/metadata/index.js';
import { parseHtmlDocument } from '../src/convert/parse-html.js';
import { readStructuredData } from '../src/convert/structured-data.js';
import type { PageMetadata } from '../src/types/index.js';
import { loadIndex, loadPage, wcxbAvailable } from './lib/wcxb-data.js';

if (!wcxbAvailable()) {
  console.error('WCXB dev pages not found (set WCXB_DIR)');
  process.exit(1);
}
const limitArg = process.argv.indexOf('--limit');
const limit = limitArg >= 0 ? Number(process.argv[limitArg + 1]) : Infinity;
const entries = loadIndex().slice(0, limit);

let plainMs = 0;
let withMs = 0;
let onlyMs = 0;
let readMs = 0;
let differing = 0;
let links = 0;
const found = new Map<keyof PageMetadata, number>();

// Warm-up: the first conversions pay for JIT and the classifier's load.
for (const e of entries.slice(0, 20)) htmlToMarkdownWithMetadata(loadPage(e).html, { url: e.url, links: true });

for (const [i, e] of entries.entries()) {
  const { html, url } = loadPage(e);
  let plain = '';
  let withMeta: ReturnType<typeof htmlToMarkdownWithMetadata> | undefined;
  const runPlain = () => {
    const t = performance.now();
    plain = htmlToMarkdown(html, { url });
    plainMs += performance.now() - t;
  };
  const runWith = () => {
    const t = performance.now();
    withMeta = htmlToMarkdownWithMetadata(html, { url, links: true });
    withMs += performance.now() - t;
  };
  if (i % 2 === 0) {
    runPlain();
    runWith();
  } else {
    runWith();
    runPlain();
  }
  const t = performance.now();
  htmlMetadata(html, { url, links: true });
  onlyMs += performance.now() - t;
  // The metadata read alone, on a document already parsed (what the worker adds to a conversion).
  const doc = parseHtmlDocument(html);
  const jsonLd = readStructuredData(doc).jsonLd;
  const r = performance.now();
  readPageMetadata(doc, { url, links: true, jsonLd });
  readMs += performance.now() - r;
  if (withMeta!.markdown !== plain) differing++;
  links += withMeta!.links?.length ?? 0;
  for (const key of Object.keys(withMeta!.metadata) as (keyof PageMetadata)[]) found.set(key, (found.get(key) ?? 0) + 1);
}

const n = entries.length;
console.log(`${n} pages; Markdown differing: ${differing}`);
console.log(`htmlToMarkdown:             ${(plainMs / n).toFixed(2)} ms/page`);
console.log(`with metadata and links:    ${(withMs / n).toFixed(2)} ms/page (×${(withMs / plainMs).toFixed(3)})`);
console.log(`metadata only (html format): ${(onlyMs / n).toFixed(2)} ms/page`);
console.log(
  `the metadata read alone:    ${(readMs / n).toFixed(2)} ms/page (${((readMs / plainMs) * 100).toFixed(1)} % of htmlToMarkdown)`,
);
console.log(`links per page: ${(links / n).toFixed(1)}`);
const fields: (keyof PageMetadata)[] = [
  'title',
  'description',
  'language',
  'published_time',
  'modified_time',
  'site_name',
  'canonical_url',
];
console.log(fields.map((f) => `${f} ${(((found.get(f) ?? 0) / n) * 100).toFixed(0)}%`).join(', '));
