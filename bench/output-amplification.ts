// Output amplification and long-run timing of the converters (issue 32): for each hostile document,
// its size in, its Markdown out and the time to convert it, beside an ordinary document of the same
// size converted in the same process (the ratio is what compares across machines): per round one of
// each, which goes first alternating; time and ratio per round, median (min–max) over rounds.
//
//   npx tsx bench/output-amplification.ts [rounds=3]
//
// Run against an older checkout of src/ for the "before" column of docs/benchmarks.md.

import { documentToMarkdown } from '../src/convert/document-to-markdown.js';
import { spread } from './lib/rounds.js';

const ROUNDS = Number(process.argv[2] ?? 3);

const doc = (mimeType: string, text: string) => ({ mimeType, text, finalUrl: 'https://example.test/' });
const words = (n: number) => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);

const CASES: Array<[string, string, string, string]> = [
  // name, media type, hostile text, ordinary text of the same size
  ['CSV 2,000 columns, 2,000 one-cell rows', 'text/csv', `${Array(2000).fill('a').join(',')}\n${'x\n'.repeat(2000)}`, ''],
  [
    'HTML table 2,000 columns, 2,000 one-cell rows',
    'text/html',
    `<table><tr>${'<th>a</th>'.repeat(2000)}</tr>${'<tr><td>x</td></tr>'.repeat(2000)}</table>`,
    '',
  ],
  ['JSON nested 4,000 levels (16 KB)', 'application/json', '{"a":['.repeat(2000) + '1' + ']}'.repeat(2000), ''],
  ['JSON 600,000 × 1e20 (3 MB)', 'application/json', `[${Array(600_000).fill('1e20').join(',')}]`, ''],
  ['JSON 40,000 spaces mid-document', 'application/json', `{"a": 1${' '.repeat(40_000)}, "b": 2`, ''],
  ['<pre> 40,000 spaces', 'text/html', `<pre>a${' '.repeat(40_000)}b</pre>`, ''],
  ['<pre> 160,000 spaces', 'text/html', `<pre>a${' '.repeat(160_000)}b</pre>`, ''],
  ['<li> 20,000 <br>', 'text/html', `<ul><li>a${'<br>'.repeat(20_000)}b</li></ul>`, ''],
  ['CSV cell 160,000 spaces', 'text/csv', `a,b\n"x${' '.repeat(160_000)}y",z\n`, ''],
  ['XML 160,000 spaces', 'application/xml', `<a>x${' '.repeat(160_000)}y</a>`, ''],
];

function timed(mimeType: string, text: string): { ms: number; out: number } {
  const start = performance.now();
  const out = documentToMarkdown(doc(mimeType, text)).length;
  return { ms: performance.now() - start, out };
}

const ordinary = (mimeType: string, size: number) =>
  mimeType === 'text/html'
    ? `<p>${words(size)}</p>`
    : mimeType === 'application/json'
      ? JSON.stringify({ text: words(size) })
      : mimeType === 'text/csv'
        ? `a,b\n${words(size).replace(/ /g, ',')}\n`
        : `<a>${words(size)}</a>`;

timed('text/html', '<p>warm up</p>');
console.log(`median (min–max) over ${ROUNDS} rounds`);
console.log('| document | in | Markdown out | out / in | time ms | time / ordinary of same size, per round |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [name, mime, text] of CASES) {
  const plain = ordinary(mime, text.length);
  const base: number[] = [];
  const hostile: number[] = [];
  let out = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const runBase = () => base.push(timed(mime, plain).ms);
    const runHostile = () => {
      const h = timed(mime, text);
      hostile.push(h.ms);
      out = h.out;
    };
    if (r % 2 === 0) {
      runBase();
      runHostile();
    } else {
      runHostile();
      runBase();
    }
  }
  const kb = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} KB`);
  console.log(
    `| ${name} | ${kb(text.length)} | ${kb(out)} | ${(out / text.length).toFixed(2)} | ${spread(hostile, 0)} | ${spread(
      hostile.map((h, r) => h / Math.max(base[r]!, 0.1)),
      (x) => `${x.toFixed(1)}×`,
    )} |`,
  );
}
