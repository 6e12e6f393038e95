// Compares two runs of bench/quality.ts saved with --json, page by page. Usage:
//   npx tsx bench/quality-compare.ts BEFORE.json AFTER.json [--pages N]
// WCXB: per page type, the mean F1 difference (after − before) ± its standard error, on dev-train,
// on validation and on both pooled (run with --oof, so dev-train is out of fold); --pages N lists
// the N pages that changed most either way. trafilatura-eval: TP and FP per split.
// A file from an older bench/quality.ts that holds the WCXB rows as a bare array is read too.

import { readFileSync } from 'node:fs';
import { changed, formatPaired, pairedDiffs, pairPages } from './lib/paired.js';
import type { PageResult } from './lib/quality-run.js';
import type { TrafRow } from './lib/trafilatura-run.js';

interface Run {
  wcxb: PageResult[];
  trafilatura: TrafRow[];
}

function load(file: string): Run {
  const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (Array.isArray(json)) return { wcxb: json as PageResult[], trafilatura: [] };
  const { wcxb, trafilatura } = json as Partial<Run>;
  return { wcxb: wcxb ?? [], trafilatura: trafilatura ?? [] };
}

const args = process.argv.slice(2);
const at = args.indexOf('--pages');
const pages = at >= 0 ? Number(args.splice(at, 2)[1]) : 0;
if (args.length !== 2 || !(pages >= 0)) {
  console.error('usage: npx tsx bench/quality-compare.ts BEFORE.json AFTER.json [--pages N]');
  process.exit(2);
}
const [before, after] = args.map(load) as [Run, Run];

if (before.wcxb.length && after.wcxb.length) {
  console.log('## WCXB dev: websift F1, after − before, paired by page (mean ± standard error)\n');
  console.log(formatPaired(pairedDiffs(before.wcxb, after.wcxb)));
  if (pages > 0) {
    const largest = pairPages(before.wcxb, after.wcxb)
      .filter((p) => changed(p.diff))
      .sort((a, b) => Math.abs(b.diff) - Math.abs(a.diff))
      .slice(0, pages);
    console.log('');
    for (const { after: r, before: f1, diff } of largest)
      console.log(`${r.id} ${r.pageType} ${r.split} ${f1.toFixed(3)} → ${r.f1.toFixed(3)} (${diff >= 0 ? '+' : ''}${diff.toFixed(3)})`);
  }
}

if (before.trafilatura.length && after.trafilatura.length) {
  console.log('\n## trafilatura-eval: websift snippets, before → after\n');
  for (const split of ['train', 'validation'] as const) {
    const sum = (run: Run, k: 'tp' | 'fp') =>
      run.trafilatura.filter((r) => r.system === 'websift' && r.split === split).reduce((s, r) => s + r[k], 0);
    console.log(
      `${split === 'train' ? 'tuning' : 'held out'}: TP ${sum(before, 'tp')} → ${sum(after, 'tp')}, FP ${sum(before, 'fp')} → ${sum(after, 'fp')}`,
    );
  }
}
