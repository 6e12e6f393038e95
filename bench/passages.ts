// Query passages against the page prefix (issue 29), on Trafilatura's evaluation corpus and WCXB dev.
// Usage: NODE_OPTIONS=--expose-gc npx tsx bench/passages.ts [--corpus wcxb|trafilatura|all] [--limit N] [--words N] [--json out.json]
//
// Each page is converted with the project's converter (htmlToMarkdown, timed). A ground-truth sentence
// is drawn (seeded) from the second half of its Markdown: prose only (no heading, table row or code),
// 6–50 words, found once on the page. Its query is a paraphrase by selection: the sentence's words
// (Intl.Segmenter), function words and words of one or two letters dropped, 4 (--words) of the rest drawn at
// random, lowercased, in a shuffled order. A hit is the sentence found whole in what is returned:
// pagePart with the query (passages) vs pagePart from the top (the first N characters, cut at a word
// boundary by the same rule), at budgets 500, 2,000 and 8,000. The ranking's cost is pagePart with the
// query at 2,000 (repeated for 20 ms, after a warm-up page) over the page's conversion time (once), both
// in CPU time of the process (the shared machine's preemption would otherwise swamp sub-millisecond times),
// each after a full collection (--expose-gc): CPU time counts V8's collector threads, and a step must not
// pay for the garbage of the page converted before it. Rows per seeded split (the corpora's
// own train/validation splits): any tuning looked at train only.

import { writeFileSync } from 'node:fs';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
import { pagePart } from '../src/passages/index.js';
import { hash01 } from './lib/corpus-dir.js';
import { loadTrafilaturaHtml, loadTrafilaturaIndex, trafilaturaAvailable } from './lib/trafilatura-data.js';
import { loadIndex, loadPage, wcxbAvailable } from './lib/wcxb-data.js';

const BUDGETS = [500, 2_000, 8_000] as const;
const SEED = 'websift-passages-bench-v1';

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this to too us was we were what when where which ' +
    'who whom why will with would you your also about after all any more most other some such only just over very der die das und ist ' +
    'ein eine le la les des et est une un el los las del que por para con les il di che per non'
  ).split(' '),
);

interface Row {
  corpus: string;
  id: string;
  split: string;
  chars: number;
  convertMs: number;
  rankMs: number;
  passages: boolean[];
  prefix: boolean[];
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const sentenceSeg = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const wordSeg = new Intl.Segmenter(undefined, { granularity: 'word' });
const wordsOf = (s: string) =>
  Array.from(wordSeg.segment(s))
    .filter((w) => w.isWordLike)
    .map((w) => w.segment);

/** The prose sentences of the content's second half (whole sentences, outside code, tables and headings). */
function candidateSentences(md: string): string[] {
  const half = md.length / 2;
  const out: string[] = [];
  let inFence = false;
  let offset = 0;
  for (const line of md.split('\n')) {
    const at = offset;
    offset += line.length + 1;
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence || at < half || /^\s*(#|\||>|!\[)/.test(line) || line.length > 5_000) continue;
    const text = line.replace(/^\s*([-*+]|\d+[.)])\s+/, '');
    for (const { segment } of sentenceSeg.segment(text)) {
      const s = segment.trim();
      const n = wordsOf(s).length;
      if (n >= 6 && n <= 50 && s.length >= 30 && md.indexOf(s) === md.lastIndexOf(s)) out.push(s);
    }
  }
  return out;
}

/** A few of the sentence's words, function words dropped, drawn and shuffled with the page's seed. */
function queryOf(sentence: string, rand: () => number, count: number): string {
  const words = [...new Set(wordsOf(sentence).map((w) => w.toLowerCase()))].filter(
    (w) => !STOP.has(w) && (w.length > 2 || /[^\u0000-\u0dff]/.test(w)),
  );
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [words[i], words[j]] = [words[j]!, words[i]!];
  }
  return words.slice(0, count).join(' ');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[(s.length - 1) >> 1]!;
}

/** CPU time of the process in ms (user + system): a busy shared machine's preemption is not counted. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** A full collection before a timed step, so it is not charged for the garbage of the step before. */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});

function measure(corpus: string, id: string, split: string, html: string, url: string): Row | null {
  collect();
  let t = cpuMs();
  const md = htmlToMarkdown(html, { url });
  const convertMs = cpuMs() - t;
  const rand = rng(Math.floor(hash01(SEED, `${corpus}:${id}`) * 2 ** 32));
  const candidates = candidateSentences(md);
  if (candidates.length === 0) return null;
  const sentence = candidates[Math.floor(rand() * candidates.length)]!;
  const query = queryOf(sentence, rand, queryWords);
  if (query === '') return null;
  // CPU time is counted in scheduler ticks (a few ms): the ranking is repeated for at least 20 ms.
  let runs = 0;
  collect();
  t = cpuMs();
  do {
    pagePart(md, 'markdown', { query, maxChars: 2_000 });
    runs++;
  } while (cpuMs() - t < 20 || runs < 3);
  const rankMs = (cpuMs() - t) / runs;
  return {
    corpus,
    id,
    split,
    chars: md.length,
    convertMs,
    rankMs,
    passages: BUDGETS.map((b) => pagePart(md, 'markdown', { query, maxChars: b }).text.includes(sentence)),
    prefix: BUDGETS.map((b) => pagePart(md, 'markdown', { maxChars: b }).text.includes(sentence)),
  };
}

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const corpus = arg('--corpus') ?? 'all';
const limit = arg('--limit') ? Number(arg('--limit')) : Infinity;
const queryWords = arg('--words') ? Number(arg('--words')) : 4;
const rows: Row[] = [];
// A warm-up, so the first page does not pay for compiling the ranking.
for (let i = 0; i < 20; i++)
  pagePart(`# Warm-up\n\n${'Some words of a page about warming up. '.repeat(300)}`, 'markdown', { query: 'warm page', maxChars: 500 });
const progress = (n: number) => process.stderr.isTTY && n % 50 === 0 && process.stderr.write(`\r${n}`);

if (corpus !== 'wcxb' && trafilaturaAvailable()) {
  for (const e of loadTrafilaturaIndex().slice(0, limit)) {
    const row = measure('trafilatura', e.id, e.split, loadTrafilaturaHtml(e), e.url);
    if (row) rows.push(row);
    progress(rows.length);
  }
}
if (corpus !== 'trafilatura' && wcxbAvailable()) {
  for (const e of loadIndex().slice(0, limit)) {
    const p = loadPage(e);
    const row = measure('wcxb', e.id, e.split, p.html, p.url);
    if (row) rows.push(row);
    progress(rows.length);
  }
}

const pct = (hits: number, n: number) => `${((100 * hits) / n).toFixed(1)} %`;
console.log(`\n| corpus | split | pages | ${BUDGETS.map((b) => `${b.toLocaleString('en-US')}: passages / prefix`).join(' | ')} |`);
console.log(`|---|---|---|${BUDGETS.map(() => '---|').join('')}`);
const groups = new Map<string, Row[]>();
for (const r of rows) {
  for (const key of [`${r.corpus}|${r.split}`, `${r.corpus}|all`, 'both|all']) groups.set(key, [...(groups.get(key) ?? []), r]);
}
for (const [key, rs] of [...groups].sort()) {
  const [c, s] = key.split('|');
  console.log(
    `| ${c} | ${s} | ${rs.length} | ${BUDGETS.map((_, i) => `${pct(rs.filter((r) => r.passages[i]).length, rs.length)} / ${pct(rs.filter((r) => r.prefix[i]).length, rs.length)}`).join(' | ')} |`,
  );
}
const long = rows.filter((r) => r.chars > 8_000);
console.log(
  `\npages longer than 8,000 characters (${long.length}): ${BUDGETS.map((b, i) => `${b}: ${pct(long.filter((r) => r.passages[i]).length, long.length)} / ${pct(long.filter((r) => r.prefix[i]).length, long.length)}`).join('; ')}`,
);
const ratios = rows.map((r) => r.rankMs / r.convertMs);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log(
  `ranking cost / conversion time: all pages ${((100 * sum(rows.map((r) => r.rankMs))) / sum(rows.map((r) => r.convertMs))).toFixed(2)} %, ` +
    `per page median ${(100 * median(ratios)).toFixed(2)} % (p90 ${(100 * [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length * 0.9)]!).toFixed(2)} %, max ${(100 * Math.max(...ratios)).toFixed(2)} %); ` +
    `ranking median ${median(rows.map((r) => r.rankMs)).toFixed(2)} ms, conversion median ${median(rows.map((r) => r.convertMs)).toFixed(1)} ms`,
);
const out = arg('--json');
if (out) writeFileSync(out, JSON.stringify(rows, null, 1));
