// A fresh process's first big pages against another checkout's (a baseline branch): each run is a new
// Node process (as a new conversion worker starts cold) that converts a small article (the engine's
// warm-up), then a 49,000-cell table page (test/extract/fair-conversion.test.ts's slow page) three
// times, and reports the CPU (process.cpuUsage) of each; this tree's and the other's runs alternate.
// Per table conversion: the median over runs of this / other, and each side's median ms.
// With --trees: the classifier's trees alone (blockScores) on the table page's 49,000 rows, three
// times, in a fresh process after the article and the table's rows were built (the trees' cold cost
// apart from the rest of the conversion).
//
//   npx tsx bench/convert-cold.ts --other /path/to/other/checkout [--runs 7] [--trees]

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const TABLES = 3;

const bigTable = (): string => {
  const row = `<tr>${Array.from({ length: 7 }, (_, c) => `<td>${c}`).join('')}`;
  return `<!doctype html><html><head><title>Inventory</title></head><body><main><h1>Inventory</h1>
    <table>${row.repeat(7_000)}</table></main></body></html>`;
};
const article = `<!doctype html><html><head><title>Warm</title></head><body><article><h1>Warm</h1>${'<p>lorem ipsum dolor sit amet consectetur</p>'.repeat(8)}</article></body></html>`;

const child = arg('child');
if (child) {
  const { htmlToMarkdown } = (await import(resolve(child, 'src/convert/html-to-markdown.ts'))) as {
    htmlToMarkdown: (html: string, opts?: { url?: string }) => string;
  };
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  htmlToMarkdown(article, { url: 'https://x.test/' });
  const page = bigTable();
  const ms: number[] = [];
  if (process.argv.includes('--trees')) {
    const { analyzeHtml } = (await import(resolve(child, 'src/convert/html-to-markdown.ts'))) as {
      analyzeHtml: (html: string, url?: string) => { rows: unknown } | null;
    };
    const { blockScores } = (await import(resolve(child, 'src/convert/model/block-model.ts'))) as {
      blockScores: (rows: unknown) => Float64Array | null;
    };
    const rows = analyzeHtml(page, 'https://x.test/')!.rows;
    for (let i = 0; i < TABLES; i++) {
      const t = cpu();
      blockScores(rows);
      ms.push((cpu() - t) / 1000);
    }
  } else {
    for (let i = 0; i < TABLES; i++) {
      const t = cpu();
      htmlToMarkdown(page, { url: 'https://x.test/' });
      ms.push((cpu() - t) / 1000);
    }
  }
  console.log(JSON.stringify(ms));
} else {
  const other = arg('other');
  if (!other) throw new Error('--other <checkout> is required');
  const runs = Number(arg('runs') ?? 7);
  const trees = process.argv.includes('--trees');
  const self = fileURLToPath(import.meta.url);
  const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const run = (tree: string): number[] =>
    JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, self, '--child', tree, ...(trees ? ['--trees'] : [])], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1)!,
    );
  const mine: number[][] = [];
  const theirs: number[][] = [];
  for (let r = 0; r < runs; r++) {
    if (r % 2 === 0) {
      mine.push(run(here));
      theirs.push(run(resolve(other)));
    } else {
      theirs.push(run(resolve(other)));
      mine.push(run(here));
    }
    console.log(
      `run ${r}: this ${mine
        .at(-1)!
        .map((v) => v.toFixed(0))
        .join(', ')} ms; other ${theirs
        .at(-1)!
        .map((v) => v.toFixed(0))
        .join(', ')} ms`,
    );
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  for (let i = 0; i < TABLES; i++) {
    const ratios = mine.map((m, r) => m[i]! / theirs[r]![i]!).sort((a, b) => a - b);
    console.log(
      `${trees ? 'trees on the table rows' : 'table page'} ${i + 1}: this ${median(mine.map((m) => m[i]!)).toFixed(0)} ms, other ${median(theirs.map((m) => m[i]!)).toFixed(0)} ms; this / other ${median(ratios).toFixed(3)} (${ratios[0]!.toFixed(3)}–${ratios.at(-1)!.toFixed(3)})`,
    );
  }
}
