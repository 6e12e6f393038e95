// The element cap's choice of what to keep (src/convert/element-cap.ts): what it costs beside the
// tail cut it replaced, on pages over the cap, and what the conversion of such a page costs.
//
//   npx tsx bench/element-cap.ts
//
// Prints, for each page shape, capElements' time and the time of counting the page's start tags to
// the cap (what the tail cut did, the same-process baseline), and htmlToMarkdown's time for the page.

import { capElements, MAX_CONVERTED_ELEMENTS } from '../src/convert/element-cap.js';
import { htmlToMarkdown } from '../src/index.js';

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

const time = (f: () => unknown, runs = 5) => {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    samples.push(performance.now() - t);
  }
  return samples.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
};

for (const [name, page] of Object.entries(PAGES)) {
  const cut = time(() => tailCut(page));
  const cap = time(() => capElements(page));
  const convert = time(() => htmlToMarkdown(page), 1);
  console.log(
    `${name}: ${(page.length / 1024 / 1024).toFixed(1)} MiB; capElements ${cap.toFixed(1)} ms vs tail cut ${cut.toFixed(1)} ms (×${(cap / cut).toFixed(1)}); htmlToMarkdown ${convert.toFixed(0)} ms`,
  );
}
