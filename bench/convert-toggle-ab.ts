// A change to linkedom's module instance (fast-nodes.ts) cannot be A/B'd against another checkout in
// one process (both checkouts load the same linkedom through the shared node_modules). This turns it
// on and off page by page instead: htmlToMarkdown (or the parse alone, --parse) with the fast node
// constructors and with linkedom's, the order alternating, CPU time of the process around each call;
// per round the ratio of the totals, median and range over rounds (round 0 warms up). Checks the
// Markdown is equal on every page first.
//
//   npx tsx bench/convert-toggle-ab.ts [--corpus traf] [--limit 100] [--rounds 5] [--parse] [--change nodes|text|both]
// --change text toggles the tokenizer's text skip (text-scan.ts) instead of the node constructors, both both.

import { setFastNodes as setNodes } from '../src/convert/fast-nodes.js';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
import { parseHtmlDocument } from '../src/convert/parse-html.js';
import { setTextScan } from '../src/convert/text-scan.js';
import { type CorpusName, corpusPages } from './lib/convert-corpora.js';
import { median } from './lib/rounds.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const corpora = (arg('corpus') ?? 'traf').split(',') as CorpusName[];
const rounds = Number(arg('rounds') ?? 5);
const limit = Number(arg('limit') ?? 100);
const parseOnly = process.argv.includes('--parse');
const change = arg('change') ?? 'nodes';
const both = (on: boolean) => {
  const nodes = setNodes(on);
  const text = setTextScan(on);
  return nodes && text;
};
const setFastNodes = change === 'text' ? setTextScan : change === 'both' ? both : setNodes;

const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
const pages: { html: string; opts: { url?: string } }[] = [];
for (let i = 0; i < all.length && pages.length < limit; i += step) {
  const p = all[Math.floor(i)]!;
  pages.push({ html: p.html, opts: p.url ? { url: p.url } : {} });
}
if (!setFastNodes(true)) throw new Error('the change does not apply to this linkedom');
let differ = 0;
for (const p of pages) {
  setFastNodes(true);
  const a = htmlToMarkdown(p.html, p.opts);
  setFastNodes(false);
  if (a !== htmlToMarkdown(p.html, p.opts)) differ++;
}
console.log(`${pages.length} pages of ${corpora.join(',')}${parseOnly ? ', parse only' : ''}; Markdown differs on ${differ}`);

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const run = parseOnly ? (p: (typeof pages)[0]) => parseHtmlDocument(p.html) : (p: (typeof pages)[0]) => htmlToMarkdown(p.html, p.opts);
const ratios: number[] = [];
const fastMs: number[] = [];
const stockMs: number[] = [];
for (let r = 0; r <= rounds; r++) {
  let fast = 0;
  let stock = 0;
  pages.forEach((p, i) => {
    for (const on of (i + r) % 2 === 0 ? [true, false] : [false, true]) {
      setFastNodes(on);
      const t = cpu();
      run(p);
      const d = cpu() - t;
      if (on) fast += d;
      else stock += d;
    }
  });
  console.log(
    `round ${r}: fast ${(fast / 1000 / pages.length).toFixed(2)} ms/page, stock ${(stock / 1000 / pages.length).toFixed(2)} ms/page`,
  );
  if (r === 0) continue;
  ratios.push(fast / stock);
  fastMs.push(fast / 1000 / pages.length);
  stockMs.push(stock / 1000 / pages.length);
}
setFastNodes(true);
const fmt = (v: number[], d: number) => `${median(v).toFixed(d)} (${Math.min(...v).toFixed(d)}–${Math.max(...v).toFixed(d)})`;
console.log(`fast ${fmt(fastMs, 2)} ms/page, stock ${fmt(stockMs, 2)} ms/page; fast / stock ${fmt(ratios, 3)}`);
