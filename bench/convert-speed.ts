// Conversion CPU against the baseline: websift's htmlToMarkdown and plain Readability on stock linkedom +
// turndown (bench/lib/baseline.ts), each in a process of its own per round (bench/lib/convert-speed-child.ts),
// on the same pages, with the same warm-up and the same V8 flags; the children run one at a time, the order
// of each pair's two sides alternating by round. A second pair times the parse alone: linkedom's parseHTML as
// websift runs it (lazy listeners and reads: src/convert/parse-html.ts) against stock linkedom.
//
// Why a process each: in one process the two systems shared one heap. linkedom's DOM survives the young
// generation while a page converts, so every page (either system's) is promoted to old space, which grew to
// 300–830 MiB between full GCs; each full GC on it (0.35–1.6 s of main-thread pause, --trace-gc on 100 traf
// page pairs) fell on whichever system's page tripped it (1.6 s is 16 ms on each page of a 100-page round), and
// Readability moved 35 → 64 ms/page between runs, single pages 30–680 ms (docs/benchmarks.md).
// GC is part of each system's cost, so it is charged to the system that made the garbage, not left out: a
// child's window opens after a forced full GC (outside) and closes with one (inside), so it pays for
// collecting exactly the garbage its own pages made. The window's CPU is the whole child's
// (process.cpuUsage = getrusage: the GC helper and compiler threads too), not wall time, which the shared
// machine's other jobs stretch. The GC table under it is diagnostic: main-thread GC pauses are wall time
// (stretched by load like any wall time), the full GCs a window's pages tripped, the heap's peak.
//
//   npx tsx bench/convert-speed.ts [--corpus wcxb,traf,articles] [--rounds 5] [--limit N] [--warmup 3]
//     [--passes 1] [--no-parse] [--node-flags "--single-threaded-gc"] [--verbose] [--other /path/to/checkout]
// --warmup 3: one pass left V8 still compiling websift's code (far more than Readability's) inside the window (0.65 against
// 0.57 with three, 2026-11-28); a server converts in the steady state.
// --other compares this checkout's conversion with another's instead (each in its own process, the same way).
// --limit takes every k-th page of each corpus so that N remain; --passes repeats the pages inside the window.

import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA, type CorpusName } from './lib/convert-corpora.js';
import { type ChildJob, type ChildResult, OTHER_PAIR, PAIRS, roundOrder, type SystemName } from './lib/convert-speed-run.js';
import { spread } from './lib/rounds.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const corpora = (arg('corpus')?.split(',') ?? CORPORA) as CorpusName[];
const rounds = Number(arg('rounds') ?? 5);
const warmup = Number(arg('warmup') ?? 3);
const passes = Number(arg('passes') ?? 1);
const limit = arg('limit') === undefined ? undefined : Number(arg('limit'));
const nodeFlags = arg('node-flags')?.split(/\s+/).filter(Boolean) ?? [];
const verbose = process.argv.includes('--verbose');
const other = arg('other') === undefined ? undefined : resolve(arg('other')!);
const pairs = other ? OTHER_PAIR : process.argv.includes('--no-parse') ? PAIRS.slice(0, 1) : PAIRS;
const CHILD = fileURLToPath(new URL('./lib/convert-speed-child.ts', import.meta.url));

function runChild(job: ChildJob): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    // The parent's own flags (tsx's loader) and the same extra ones for every child.
    const child = fork(CHILD, [JSON.stringify(job)], { execArgv: [...process.execArgv, '--expose-gc', ...nodeFlags] });
    let result: ChildResult | undefined;
    child.on('message', (m) => (result = m as ChildResult));
    child.on('error', reject);
    child.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`${job.system} on ${job.corpus}: the child exited ${code} with no result`)),
    );
  });
}

const loadNow = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

console.log(
  `one process per system per round; rounds ${rounds}, warm-up ${warmup} pass(es), ${passes} measured pass(es), ` +
    `node ${process.version}${nodeFlags.length ? `, flags ${nodeFlags.join(' ')}` : ''}; load ${loadNow()}`,
);
type Row = Record<string, ChildResult[]>;
const rows: [CorpusName, Row][] = [];
for (const corpus of corpora) {
  const row: Row = {};
  for (let r = 0; r < rounds; r++) {
    for (const system of roundOrder(pairs, r)) {
      const res = await runChild({ system, corpus, limit, warmup, passes, ...(other ? { other } : {}) });
      (row[system] ??= []).push(res);
      if (verbose)
        console.log(
          `  ${corpus} round ${r} ${system}: ${(res.cpuMs / res.pages).toFixed(2)} ms/page CPU, closing GC ${(res.closingGcMs / res.pages).toFixed(2)}, ` +
            `GC pauses ${(res.gcPauseMs / res.pages).toFixed(2)} ms/page, ${res.majorGcs} full GCs, peak heap ${res.peakHeapMiB.toFixed(0)} MiB; load ${loadNow()}`,
        );
    }
  }
  rows.push([corpus, row]);
}

const perPage = (xs: ChildResult[]) => xs.map((x) => x.cpuMs / x.pages);
const ratios = (a: ChildResult[], b: ChildResult[], f: (x: ChildResult) => number) => a.map((x, i) => f(x) / f(b[i]!));
const cpuOf = (x: ChildResult) => x.cpuMs;

console.log(`\nload at the end ${loadNow()}`);
const base = other ? 'websift-other' : 'readability';
const baseName = other ? `other (${other})` : 'Readability';
console.log(`\n| corpus | pages | websift CPU ms/page | ${baseName} CPU ms/page | websift / ${baseName} | parse lazy / stock |`);
console.log('|---|---|---|---|---|---|');
for (const [corpus, row] of rows) {
  const ws = row['websift']!;
  const rd = row[base]!;
  const parse = row['parse-lazy'] && row['parse-stock'] ? spread(ratios(row['parse-lazy'], row['parse-stock'], cpuOf), 3) : '—';
  console.log(
    `| ${corpus} | ${ws[0]!.pages} | ${spread(perPage(ws))} | ${spread(perPage(rd))} | **${spread(ratios(ws, rd, cpuOf), 3)}** | ${parse} |`,
  );
}
console.log('\nGC per system (main-thread pauses in the window, the closing full GC included; full GCs the pages tripped):');
console.log('| corpus | system | GC pause share of CPU | closing GC ms/page | full GCs per window | peak heap MiB |');
console.log('|---|---|---|---|---|---|');
for (const [corpus, row] of rows)
  for (const system of Object.keys(row) as SystemName[]) {
    const xs = row[system]!;
    console.log(
      `| ${corpus} | ${system} | ${spread(
        xs.map((x) => x.gcPauseMs / x.cpuMs),
        (v) => `${(v * 100).toFixed(0)} %`,
      )} | ${spread(
        xs.map((x) => x.closingGcMs / x.pages),
        2,
      )} | ${spread(
        xs.map((x) => x.majorGcs),
        0,
      )} | ${spread(
        xs.map((x) => x.peakHeapMiB),
        0,
      )} |`,
    );
  }
