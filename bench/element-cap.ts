// The element cap's choice of what to keep (src/convert/element-cap.ts): what it costs beside the
// tail cut it replaced, on pages over the cap, and what the conversion of such a page costs.
//
//   npx tsx bench/element-cap.ts [--runs 5] [--convert-runs 3]     (--convert-runs 0: no htmlToMarkdown column)
//
// Prints, for each page shape, capElements' time and the time of counting the page's start tags to
// the cap (what the tail cut did, the baseline: the two alternate within each run, which goes first
// alternating), their ratio per run, and htmlToMarkdown's time for the page; median (min–max) over runs.

import { parseArgs } from 'node:util';
import { capElements, MAX_CONVERTED_ELEMENTS } from '../src/convert/element-cap.js';
import { htmlToMarkdown } from '../src/index.js';
import { spread } from './lib/rounds.js';

const { values } = parseArgs({ options: { runs: { type: 'string' }, 'convert-runs': { type: 'string' } } });
const RUNS = Number(values.runs ?? 5);
const CONVERT_RUNS = Number(values['convert-runs'] ?? 3);

const sentence = (i: number) => `Paragraph ${i} of the article says something long enough to be prose, clearly.`;
const article = Array.from({ length: 12 }, (_, i) => `<p>${sentence(i)}</p>`).join('');
const PAGES: Record<string, string> = {
  'deep article (60,000 menu elements first)': `<html><body><ul>${Array.from({ length: 30_000 }, (_, i) => `<li><a href="/c/${i}">Cat ${i}</a></li>`).join('')}</ul><article>${article}</article></body></html>`,
  '10 MiB of tiny cells (no prose)': `<table>${'<tr><td>1</td><td>2</td></tr>'.repeat(Math.floor((10 * 1024 * 1024) / 30))}</table>`,
  '10 MiB of paragraphs': `<div>${`<p>${sentence(1)}</p>`.repeat(Math.floor((10 * 1024 * 1024) / 90))}</div>`,
};

function tailCut(html: string, max = MAX_CONVERTED_ELEMENTS): string {
  const startTag = /<[a-zA-Z]/g;
  let count = 0;
  while (startTag.exec(html) !== null) if (++count > max) return html.slice(0, startTag.lastIndex - 2);
  return html;
}

const timed = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

console.log(`median (min–max) of ${RUNS} runs (htmlToMarkdown: ${CONVERT_RUNS}), ms`);
console.log('| page | MiB | capElements | tail cut (baseline) | cap / cut, per run | htmlToMarkdown |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [name, page] of Object.entries(PAGES)) {
  const cut: number[] = [];
  const cap: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    if (r % 2 === 0) {
      cut.push(timed(() => tailCut(page)));
      cap.push(timed(() => capElements(page)));
    } else {
      cap.push(timed(() => capElements(page)));
      cut.push(timed(() => tailCut(page)));
    }
  }
  const convert = Array.from({ length: CONVERT_RUNS }, () => timed(() => htmlToMarkdown(page)));
  console.log(
    `| ${name} | ${(page.length / 1024 / 1024).toFixed(1)} | ${spread(cap)} | ${spread(cut)} | ${spread(
      cap.map((x, r) => x / cut[r]!),
      (x) => `×${x.toFixed(1)}`,
    )} | ${convert.length ? spread(convert, 0) : '–'} |`,
  );
}
