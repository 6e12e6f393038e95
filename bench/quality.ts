// Extraction-quality benchmark on WCXB-dev and on Trafilatura's evaluation corpus (see bench/lib/*). Usage:
//   npx tsx bench/quality.ts [--corpus wcxb|trafilatura|articles|all] [--limit N | --sample] [--split train|validation|all]
//                            [--type forum,...] [--ids 0001,0002] [--no-baseline] [--oof] [--json out.json]
//                            [--record] [--worst N]
// --corpus picks the corpus (default: all three: WCXB, trafilatura-eval, articles-dev); --type and --oof
// apply to WCXB only, --set (dragnet, readability, readability-synthetic) to articles-dev only.
// --worst N lists websift's N worst trafilatura-eval pages (most wrong snippets) with the snippets
// it missed and leaked: the per-page diagnostic.
// --oof converts each dev-train page with the block-classifier fold model that never saw it (saved by
// `npx tsx tools/train/train-blocks.ts --write`): honest dev-train figures for a model trained on dev-train.
// --record (with --sample) stores websift's F1 on the fixed sample in bench/quality-sample.json,
// the figure the CI regression test (test/convert/quality-regression.test.ts) holds the code to.
// For trafilatura-eval, --sample is its fixed 200-page sample and --record stores that figure in
// bench/quality-sample-trafilatura.json (test/convert/quality-regression.test.ts holds both).
// For articles-dev, --sample is its fixed 150-page sample, --record stores its F1 in
// bench/quality-sample-articles.json, and --worst N lists the N pages with the most excess tokens.
// Data: $WCXB_DIR, else ../shared/data/wcxb-dev; $TRAFILATURA_DIR, else ../shared/data/trafilatura-eval;
// $ARTICLES_DIR, else ../shared/data/articles-dev.

import { writeFileSync } from 'node:fs';
import { articlesAvailable, articlesDir } from './lib/articles-data.js';
import { ARTICLES_SAMPLE_SIZE, type ArticlesRow, aggregateArticles, formatArticlesReport, runArticles } from './lib/articles-run.js';
import { ARTICLES_RECORD_FILE, RECORD_FILE, TRAFILATURA_RECORD_FILE } from './lib/quality-record.js';
import { aggregate, formatReport, type QualityOptions, runQuality, SAMPLE_SIZE } from './lib/quality-run.js';
import { trafilaturaAvailable, trafilaturaDir } from './lib/trafilatura-data.js';
import {
  aggregateTrafilatura,
  formatTrafilaturaReport,
  runTrafilatura,
  TRAFILATURA_SAMPLE_SIZE,
  type TrafRow,
} from './lib/trafilatura-run.js';
import { wcxbAvailable, wcxbDir } from './lib/wcxb-data.js';

type CliOptions = QualityOptions & {
  json?: string;
  record?: boolean;
  sample?: boolean;
  corpus?: 'wcxb' | 'trafilatura' | 'articles' | 'all';
  worst?: number;
  sets?: string[];
};

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
    else if (arg === '--sample') opts.sample = true;
    else if (arg === '--corpus') opts.corpus = next() as NonNullable<CliOptions['corpus']>;
    else if (arg === '--worst') opts.worst = Number(next());
    else if (arg === '--split') opts.split = next() as NonNullable<QualityOptions['split']>;
    else if (arg === '--type') opts.types = next().split(',');
    else if (arg === '--set') opts.sets = next().split(',');
    else if (arg === '--ids') opts.ids = next().split(',');
    else if (arg === '--no-baseline') opts.baseline = false;
    else if (arg === '--oof') opts.oof = true;
    else if (arg === '--json') opts.json = next();
    else if (arg === '--record') opts.record = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (opts.record && (!opts.sample || opts.limit !== undefined || opts.split || opts.types || opts.ids))
    throw new Error('--record needs --sample alone');
  if (opts.sample && opts.limit !== undefined) throw new Error('--sample and --limit exclude each other');
  if (opts.limit !== undefined && !(Number.isInteger(opts.limit) && opts.limit > 0)) throw new Error('--limit must be a positive integer');
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const corpus = opts.corpus ?? 'all';
const progress = (done: number, total: number) => {
  if (process.stderr.isTTY && (done % 20 === 0 || done === total)) process.stderr.write(`\r${done}/${total}`);
};
const started = Date.now();
const json: { wcxb?: unknown; trafilatura?: TrafRow[]; articles?: ArticlesRow[] } = {};

if (corpus === 'wcxb' || corpus === 'all') {
  if (!wcxbAvailable()) {
    console.error(`WCXB data not found at ${wcxbDir()} (set WCXB_DIR)`);
    process.exit(2);
  }
  const results = runQuality(opts.sample ? { ...opts, limit: SAMPLE_SIZE } : opts, progress);
  if (process.stderr.isTTY) process.stderr.write('\n');
  console.log('\n## WCXB dev');
  console.log(formatReport(results));
  json.wcxb = results;
  if (opts.record) {
    const f1 = aggregate(results.filter((r) => r.system === 'websift')).f1;
    writeFileSync(
      RECORD_FILE,
      JSON.stringify(
        { sample: SAMPLE_SIZE, f1: Number(f1.toFixed(4)), command: 'npx tsx bench/quality.ts --corpus wcxb --sample --record' },
        null,
        2,
      ) + '\n',
    );
    console.log(`recorded F1 ${f1.toFixed(4)} on the ${SAMPLE_SIZE}-page sample in ${RECORD_FILE}`);
  }
}

if (corpus === 'trafilatura' || corpus === 'all') {
  if (!trafilaturaAvailable()) {
    console.error(`trafilatura-eval data not found at ${trafilaturaDir()} (set TRAFILATURA_DIR)`);
    process.exit(2);
  }
  const rows = runTrafilatura(
    {
      ...(opts.sample ? { limit: TRAFILATURA_SAMPLE_SIZE } : opts.limit !== undefined ? { limit: opts.limit } : {}),
      ...(opts.split ? { split: opts.split } : {}),
      ...(opts.ids ? { ids: opts.ids } : {}),
      ...(opts.baseline !== undefined ? { baseline: opts.baseline } : {}),
    },
    progress,
  );
  if (process.stderr.isTTY) process.stderr.write('\n');
  console.log('\n## trafilatura-eval');
  console.log(formatTrafilaturaReport(rows));
  json.trafilatura = rows;
  if (opts.worst) {
    const ws = rows.filter((r) => r.system === 'websift').sort((a, b) => b.fp + b.fn - (a.fp + a.fn) || a.id.localeCompare(b.id));
    const rd = new Map(rows.filter((r) => r.system === 'readability').map((r) => [r.id, r]));
    console.log(`\n### websift's ${opts.worst} worst trafilatura-eval pages (FP + FN)\n`);
    for (const r of ws.slice(0, opts.worst)) {
      if (r.fp + r.fn === 0) break;
      const b = rd.get(r.id);
      console.log(`${r.id} [${r.split}] FP ${r.fp} FN ${r.fn}${b ? ` (readability FP ${b.fp} FN ${b.fn})` : ''}`);
      for (const s of r.missed) console.log(`   missed: ${JSON.stringify(s.slice(0, 120))}`);
      for (const s of r.leaked) console.log(`   leaked: ${JSON.stringify(s.slice(0, 120))}`);
    }
  }
  if (opts.record) {
    const f1 = aggregateTrafilatura(rows.filter((r) => r.system === 'websift')).f1;
    writeFileSync(
      TRAFILATURA_RECORD_FILE,
      JSON.stringify(
        {
          sample: TRAFILATURA_SAMPLE_SIZE,
          f1: Number(f1.toFixed(4)),
          command: 'npx tsx bench/quality.ts --corpus trafilatura --sample --record',
        },
        null,
        2,
      ) + '\n',
    );
    console.log(`recorded F1 ${f1.toFixed(4)} on the ${TRAFILATURA_SAMPLE_SIZE}-page sample in ${TRAFILATURA_RECORD_FILE}`);
  }
}

if (corpus === 'articles' || corpus === 'all') {
  if (!articlesAvailable()) {
    console.error(`articles-dev data not found at ${articlesDir()} (set ARTICLES_DIR)`);
    process.exit(2);
  }
  const rows = runArticles(
    {
      ...(opts.sample ? { limit: ARTICLES_SAMPLE_SIZE } : opts.limit !== undefined ? { limit: opts.limit } : {}),
      ...(opts.split ? { split: opts.split } : {}),
      ...(opts.ids ? { ids: opts.ids } : {}),
      ...(opts.sets ? { groups: opts.sets } : {}),
      ...(opts.baseline !== undefined ? { baseline: opts.baseline } : {}),
    },
    progress,
  );
  if (process.stderr.isTTY) process.stderr.write('\n');
  console.log('\n## articles-dev');
  console.log(formatArticlesReport(rows));
  json.articles = rows;
  if (opts.worst) {
    const ws = rows
      .filter((r) => r.system === 'websift' && r.gold > 0)
      .sort((a, b) => b.predicted * (1 - b.p) - a.predicted * (1 - a.p) || a.id.localeCompare(b.id));
    console.log(`\n### websift's ${opts.worst} articles-dev pages with the most excess tokens\n`);
    for (const r of ws.slice(0, opts.worst))
      console.log(
        `${r.id} [${r.split}] excess ${Math.round(r.predicted * (1 - r.p))} F1 ${r.f1.toFixed(3)} P ${r.p.toFixed(3)} R ${r.r.toFixed(3)}${r.comments ? ' (comments)' : ''}`,
      );
  }
  if (opts.record) {
    const f1 = aggregateArticles(rows.filter((r) => r.system === 'websift')).f1;
    writeFileSync(
      ARTICLES_RECORD_FILE,
      JSON.stringify(
        {
          sample: ARTICLES_SAMPLE_SIZE,
          f1: Number(f1.toFixed(4)),
          command: 'npx tsx bench/quality.ts --corpus articles --sample --record',
        },
        null,
        2,
      ) + '\n',
    );
    console.log(`recorded F1 ${f1.toFixed(4)} on the ${ARTICLES_SAMPLE_SIZE}-page sample in ${ARTICLES_RECORD_FILE}`);
  }
}

console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s wall)`);
if (opts.json) writeFileSync(opts.json, JSON.stringify(json, null, 0));
