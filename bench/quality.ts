// Extraction-quality benchmark on WCXB-dev (see bench/lib/*). Usage:
//   npx tsx bench/quality.ts [--limit N | --sample] [--split train|validation|all] [--type forum,...]
//                            [--ids 0001,0002] [--no-baseline] [--oof] [--json out.json] [--record]
// --oof converts each dev-train page with the block-classifier fold model that never saw it (saved by
// `npx tsx bench/train-blocks.ts --write`): honest dev-train figures for a model trained on dev-train.
// --record (with --sample) stores websift's F1 on the fixed sample in bench/quality-sample.json,
// the figure the CI regression test (test/convert/quality-regression.test.ts) holds the code to.
// Data: $WCXB_DIR, else ../shared/data/wcxb-dev beside the repository.

import { writeFileSync } from 'node:fs';
import { aggregate, formatReport, runQuality, SAMPLE_SIZE, type QualityOptions } from './lib/quality-run.js';
import { RECORD_FILE } from './lib/quality-record.js';
import { wcxbAvailable, wcxbDir } from './lib/wcxb-data.js';

type CliOptions = QualityOptions & { json?: string; record?: boolean };

function parseArgs(argv: string[]): CliOptions {
  const opts: CliOptions = {};
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
    else if (arg === '--oof') opts.oof = true;
    else if (arg === '--json') opts.json = next();
    else if (arg === '--record') opts.record = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (opts.record && (opts.limit !== SAMPLE_SIZE || opts.split || opts.types || opts.ids)) throw new Error('--record needs --sample alone');
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
if (opts.record) {
  const f1 = aggregate(results.filter((r) => r.system === 'websift')).f1;
  writeFileSync(RECORD_FILE, JSON.stringify({ sample: SAMPLE_SIZE, f1: Number(f1.toFixed(4)), command: 'npx tsx bench/quality.ts --sample --record' }, null, 2) + '\n');
  console.log(`recorded F1 ${f1.toFixed(4)} on the ${SAMPLE_SIZE}-page sample in ${RECORD_FILE}`);
}
