// The cost of page metadata (src/convert/metadata/) in conversion: htmlToMarkdown alone
// against htmlToMarkdownWithMetadata (metadata and links, as extract runs it) on the WCXB dev pages,
// alternating which goes first on each page; also the metadata-only read of the `html` format, how
// often each field is found, and a check that the Markdown is unchanged. Per round one pass over the pages;
// ms per page and the ratio per round, median (min–max) over rounds.
//
//   npx tsx bench/page-metadata.ts [--limit N] [--rounds 3]

import { performance } from 'node:perf_hooks';
import { htmlMetadata, htmlToMarkdown, htmlToMarkdownWithMetadata } from '../src/convert/html-to-markdown.js';
import { readPageMetadata } from '../src/convert/metadata/index.js';
import { parseHtmlDocument } from '../src/convert/parse-html.js';
import { readStructuredData } from '../src/convert/structured-data.js';
import type { PageMetadata } from '../src/types/index.js';
import { spread } from './lib/rounds.js';
import { loadIndex, loadPage, wcxbAvailable } from './lib/wcxb-data.js';

if (!wcxbAvailable()) {
  console.error('WCXB dev pages not found (set WCXB_DIR)');
  process.exit(1);
}
const limitArg = process.argv.indexOf('--limit');
const limit = limitArg >= 0 ? Number(process.argv[limitArg + 1]) : Infinity;
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg >= 0 ? Number(process.argv[roundsArg + 1]) : 3;
const entries = loadIndex().slice(0, limit);
const pages = entries.map((e) => loadPage(e));

type Totals = { plainMs: number; withMs: number; onlyMs: number; readMs: number };
const rounds: Totals[] = [];
let differing = 0;
let links = 0;
const found = new Map<keyof PageMetadata, number>();

// Warm-up: the first conversions pay for JIT and the classifier's load.
for (const e of entries.slice(0, 20)) htmlToMarkdownWithMetadata(loadPage(e).html, { url: e.url, links: true });

for (let round = 0; round < ROUNDS; round++) {
  const t0: Totals = { plainMs: 0, withMs: 0, onlyMs: 0, readMs: 0 };
  rounds.push(t0);
  for (const [i, { html, url }] of pages.entries()) {
    let plain = '';
    let withMeta: ReturnType<typeof htmlToMarkdownWithMetadata> | undefined;
    const runPlain = () => {
      const t = performance.now();
      plain = htmlToMarkdown(html, { url });
      t0.plainMs += performance.now() - t;
    };
    const runWith = () => {
      const t = performance.now();
      withMeta = htmlToMarkdownWithMetadata(html, { url, links: true });
      t0.withMs += performance.now() - t;
    };
    if ((i + round) % 2 === 0) {
      runPlain();
      runWith();
    } else {
      runWith();
      runPlain();
    }
    const t = performance.now();
    htmlMetadata(html, { url, links: true });
    t0.onlyMs += performance.now() - t;
    // The metadata read alone, on a document already parsed (what the worker adds to a conversion).
    const doc = parseHtmlDocument(html);
    const jsonLd = readStructuredData(doc).jsonLd;
    const r = performance.now();
    readPageMetadata(doc, { url, links: true, jsonLd });
    t0.readMs += performance.now() - r;
    if (round > 0) continue;
    if (withMeta!.markdown !== plain) differing++;
    links += withMeta!.links?.length ?? 0;
    for (const key of Object.keys(withMeta!.metadata) as (keyof PageMetadata)[]) found.set(key, (found.get(key) ?? 0) + 1);
  }
}

const n = entries.length;
const per = (k: keyof Totals) =>
  spread(
    rounds.map((t) => t[k] / n),
    2,
  );
const of = (k: keyof Totals, digits: number, f: (x: number) => number = (x) => x) =>
  spread(
    rounds.map((t) => f(t[k] / t.plainMs)),
    digits,
  );
console.log(`${n} pages; Markdown differing: ${differing}; ms per page, median (min–max) over ${ROUNDS} rounds`);
console.log(`htmlToMarkdown:             ${per('plainMs')} ms/page`);
console.log(`with metadata and links:    ${per('withMs')} ms/page (× ${of('withMs', 3)} per round)`);
console.log(`metadata only (html format): ${per('onlyMs')} ms/page`);
console.log(`the metadata read alone:    ${per('readMs')} ms/page (${of('readMs', 1, (x) => x * 100)} % of htmlToMarkdown)`);
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
