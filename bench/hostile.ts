// Hostile pages (issue 19): htmlToMarkdown's time on each shape of bench/lib/hostile-pages.ts at
// growing element counts, against stock linkedom's bare parseHTML of the same page (interleaved in the same
// process: each run parses, then converts; median (min–max) over --runs), and peak memory per MiB of HTML
// for a 10 MiB article and table (one conversion in a fresh process each: a peak, not a timing).
//
//   node --expose-gc --import tsx bench/hostile.ts          all shapes at 25k/50k/100k/300k, then memory
//   node --expose-gc --import tsx bench/hostile.ts --shapes flat,table --sizes 25000,100000 --runs 3 --no-memory
//   npx tsx bench/hostile.ts --memory-only
//
// Pages over 12 MiB are skipped (the fetcher's cap is 10 MiB). Figures go to docs/benchmarks.md.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { capElements } from '../src/convert/element-cap.js';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
// Stock linkedom (its CJS instance): the reference parse, without websift's lazy-listener change.
import { stockParseHTML as parseHTML } from './lib/baseline.js';
import { articleOfSize, HOSTILE_SHAPES, type HostileShape, hostilePage } from './lib/hostile-pages.js';
import { median, spread } from './lib/rounds.js';

const MiB = 1024 * 1024;
const MAX_BYTES = 12 * MiB;
const SLOW_MS = 10_000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Start tags the conversion builds: the element cap keeps at most 50,000 of a page (element-cap.ts). */
function convertedElements(html: string): number {
  const capped = capElements(html);
  const count = (s: string | undefined) => s?.match(/<[a-zA-Z]/g)?.length ?? 0;
  return count(capped.html) + count(capped.deep);
}

// With --expose-gc each run starts from a collected heap: otherwise the previous page's garbage
// (hundreds of MiB) is collected during whichever call comes next, parse or convert.
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function timed(fn: () => unknown): number {
  collect();
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** A 10 MiB table of `<td>cell</td>` rows of 100 cells. */
function tableOfSize(bytes: number): string {
  return hostilePage('table', Math.floor(bytes / '<td>cell</td>'.length));
}

/** Child mode: peak RSS of one conversion (or one bare parse) of a generated page, in a fresh process. */
function memoryChild(kind: string, what: 'convert' | 'parse'): void {
  const html = kind === 'article' ? articleOfSize(10 * MiB) : tableOfSize(10 * MiB);
  const before = process.resourceUsage().maxRSS * 1024;
  if (what === 'convert') htmlToMarkdown(html);
  else parseHTML(html);
  const after = process.resourceUsage().maxRSS * 1024;
  const mib = Buffer.byteLength(html) / MiB;
  console.log(JSON.stringify({ mib, rssPerMiB: (after - before) / MiB / mib }));
}

function memoryRow(kind: string): string {
  const run = (what: string) =>
    JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--memory-child', kind, what], {
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .at(-1)!,
    ) as { mib: number; rssPerMiB: number };
  const parse = run('parse');
  const convert = run('convert');
  return `| ${kind} | ${convert.mib.toFixed(1)} | ${parse.rssPerMiB.toFixed(0)} | ${convert.rssPerMiB.toFixed(0)} | ${(convert.rssPerMiB / parse.rssPerMiB).toFixed(1)} |`;
}

function main(): void {
  const child = process.argv.indexOf('--memory-child');
  if (child >= 0) {
    memoryChild(process.argv[child + 1]!, process.argv[child + 2] as 'convert' | 'parse');
    return;
  }

  const shapes = (arg('shapes')?.split(',') ?? HOSTILE_SHAPES) as HostileShape[];
  const sizes = (arg('sizes') ?? '25000,50000,100000,300000').split(',').map(Number);
  const runs = Number(arg('runs') ?? '3');
  if (!process.argv.includes('--memory-only')) timings(shapes, sizes, runs);
  if (process.argv.includes('--no-memory')) return;
  console.log('\n| 10 MiB page | MiB | parse: peak RSS per MiB | convert: peak RSS per MiB | convert / parse |');
  console.log('|---|---:|---:|---:|---:|');
  for (const kind of ['article', 'table']) console.log(memoryRow(kind));
}

function timings(shapes: HostileShape[], sizes: number[], runs: number): void {
  // Warm both paths up (JIT) on a small page of every shape.
  for (const shape of shapes) {
    parseHTML(hostilePage(shape, 2000));
    htmlToMarkdown(hostilePage(shape, 2000));
  }

  // Per 1k elements *converted*: over the cap the page's other elements are never built, and dividing
  // by them made the cost per element look like it fell with the page's size.
  console.log(`median (min–max) of ${runs} runs per cell, parse and convert alternating which goes first`);
  console.log('| shape | elements | converted | MiB | parse ms | convert ms | convert / parse, per run | convert ms per 1k converted |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const shape of shapes) {
    const perK: number[] = [];
    let slowParse = false;
    for (const n of sizes) {
      const html = hostilePage(shape, n);
      const mib = Buffer.byteLength(html) / MiB;
      if (mib > MAX_BYTES / MiB) {
        console.log(`| ${shape} | ${n.toLocaleString('en')} | – | ${mib.toFixed(1)} | – | – | – | skipped (over 12 MiB) |`);
        continue;
      }
      const parse: number[] = [];
      const convert: number[] = [];
      // A run over 10 s is not repeated, and linkedom's bare parse is not run again at a larger size
      // once it took that long (on deep pages it is quadratic: minutes).
      for (let r = 0; r < runs; r++) {
        const runParse = () => !slowParse && (r === 0 || parse[0]! < SLOW_MS) && parse.push(timed(() => parseHTML(html)));
        const runConvert = () => (r === 0 || convert[0]! < SLOW_MS) && convert.push(timed(() => htmlToMarkdown(html)));
        if (r % 2 === 0) {
          runParse();
          runConvert();
        } else {
          runConvert();
          runParse();
        }
      }
      const c = median(convert);
      const built = convertedElements(html);
      perK.push((c / built) * 1000);
      const p = parse.length > 0 ? median(parse) : undefined;
      const pText = p === undefined ? `> ${SLOW_MS} (not run)` : spread(parse, 0);
      // The convert and the parse of the same run (back to back), per run.
      const ratios = parse.slice(0, convert.length).map((x, r) => convert[r]! / x);
      const ratio = p === undefined ? '< ' + (c / SLOW_MS).toFixed(3) : spread(ratios, p > c ? 3 : 1);
      if (p !== undefined && p > SLOW_MS) slowParse = true;
      console.log(
        `| ${shape} | ${n.toLocaleString('en')} | ${built.toLocaleString('en')} | ${mib.toFixed(2)} | ${pText} | ${spread(convert, 0)} | ${ratio} | ${((c / built) * 1000).toFixed(1)} |`,
      );
    }
    if (perK.length > 1)
      console.log(`| ${shape} | growth | | | | | | largest / smallest per converted element: ${(perK.at(-1)! / perK[0]!).toFixed(2)} |`);
  }
}

main();
