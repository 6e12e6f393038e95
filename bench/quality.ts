// Extraction-quality benchmark on WCXB-dev (see bench/lib/*). Usage:
//   npx tsx bench/quality.ts [--limit N | --sample] [--split train|validation|all] [--type forum,...]
//                            [--ids 0001,0002] [--no-baseline] [--json out.json]
// Data: $WCXB_DIR, else ../shared/data/wcxb-dev beside the repository.

import { writeFileSync } from 'node:fs';
import { formatReport, runQuality, SAMPLE_SIZE, type QualityOptions } from './lib/quality-run.js';
import { wcxbAvailable, wcxbDir } from './lib/wcxb-data.js';

function parseArgs(argv: string[]): QualityOptions & { json?: string } {
  const opts: QualityOptions & { json?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--limit') opts.limit = Number(next());
    else if (arg === '--sample') opts.limit = SAMPLE_SIZE;
    else if (arg === '--split') opts.split = next() as NonNullable<QualityOptions['split']>;
    else if (arg === '--type') opts.types = next().split(',');
    else if (arg === '--ids') opts.ids = next().split(',');
    else if (arg === '--no-baseline') opts.baseline = false;
    else if (arg === '--json') opts.json = next();
    else throw new Error(`unknown argument ${arg}`);
  }
  if (opts.limit !== undefined && !(Number.isInteger(opts.limit) && opts.limit > 0)) throw new Error('--limit must be a positive integer');
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
if (!wcxbAvailable()) {
  console.error(`WCXB data not found at ${wcxbDir()} (set WCXB_DIR)`);
  process.exit(2);
}
const started = Date.now();
const results = runQuality(opts, (done, total) => {
  if (process.stderr.isTTY && (done % 20 === 0 || done === total)) process.stderr.write(`\r${done}/${total}`);
});
if (process.stderr.isTTY) process.stderr.write('\n');
console.log(formatReport(results));
console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s wall)`);
if (opts.json) writeFileSync(opts.json, JSON.stringify(results, null, 0));
