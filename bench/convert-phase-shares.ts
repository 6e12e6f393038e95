// Where a conversion's time goes by phase: converts pages under the V8 profiler and prints, for each
// step of the pipeline (html-to-markdown.ts, model/*), its share of the samples *including* what it
// calls (a function counted once per sample however deep it recurses), and CPU ms per page from
// the run's total. The sampler's overhead stretches every phase alike: read the shares.
//
//   npx tsx bench/convert-phase-shares.ts [--corpus traf] [--limit 200] [--under adjustStory] [--top 25]
// --under also lists the functions with the most self time inside that step.

import { Session } from 'node:inspector/promises';
import { htmlToMarkdown } from '../src/convert/html-to-markdown.js';
import { type CorpusName, type CorpusPage, corpusPages } from './lib/convert-corpora.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The pipeline's steps, by function name, in pipeline order (nesting shown by indent). */
const PHASES: [string, number][] = [
  ['convertHtml', 0],
  ['analyzeHtml', 1],
  ['preparePage', 2],
  ['parseHtmlDocument', 3],
  ['readStructuredData', 3],
  ['findChoiceLabels', 3],
  ['removeInvisible', 3],
  ['markCodeLanguages', 3],
  ['prepareTables', 3],
  ['segmentPage', 3],
  ['findBoilerplate', 2],
  ['blockFeatures', 2],
  ['keptBlocks', 1],
  ['blockScores', 2],
  ['predictRaw', 3],
  ['predictRows', 3],
  ['contextFeatures', 3],
  ['selectRows', 2],
  ['adjustStory', 1],
  ['dropReadAlso', 2],
  ['dropCommentThreads', 2],
  ['dropSideLinks', 2],
  ['dropTitledSideLinks', 2],
  ['keepStoryArea', 2],
  ['findStory', 2],
  ['dropArticleTail', 2],
  ['dropLinkLines', 2],
  ['dropHiddenCopies', 1],
  ['dropChoiceLabels', 1],
  ['keepBlocks', 1],
  ['absolutizeLinks', 1],
  ['dropRepeatedImages', 1],
  ['separateInlineBoxes', 1],
  ['toMarkdown', 1],
  ['supplementFromStructuredData', 1],
  ['(garbage collector)', 0],
];

const corpora = (arg('corpus')?.split(',') ?? ['traf']) as CorpusName[];
const limit = Number(arg('limit') ?? 200);
const all = [...corpusPages(corpora)];
const step = Math.max(1, all.length / limit);
const pages: CorpusPage[] = [];
for (let i = 0; i < all.length && pages.length < limit; i += step) pages.push(all[Math.floor(i)]!);

for (const p of pages.slice(0, 30)) htmlToMarkdown(p.html, p.url ? { url: p.url } : {}); // warm-up

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
  children?: number[];
}
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const cpu0 = process.cpuUsage();
for (const p of pages) htmlToMarkdown(p.html, p.url ? { url: p.url } : {});
const cpu = process.cpuUsage(cpu0);
const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
session.disconnect();

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const under = arg('under');
const wanted = new Set(PHASES.map(([name]) => name));
if (under) wanted.add(under);
const selfUnder = new Map<string, number>();
const inclusive = new Map<string, number>();
const onPath = new Map<string, number>();
let total = 0;
// Iterative DFS from the root; a name's hits count once while it is on the path.
const stack: [ProfileNode, boolean][] = [[profile.nodes[0]!, false]];
while (stack.length) {
  const [n, leaving] = stack.pop()!;
  const name = n.callFrame.functionName;
  if (leaving) {
    if (wanted.has(name)) onPath.set(name, onPath.get(name)! - 1);
    continue;
  }
  if (wanted.has(name)) onPath.set(name, (onPath.get(name) ?? 0) + 1);
  const hits = n.hitCount ?? 0;
  total += hits;
  for (const [k, v] of onPath) if (v > 0) inclusive.set(k, (inclusive.get(k) ?? 0) + hits);
  if (under && (onPath.get(under) ?? 0) > 0) {
    const where = `${name || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/src\//, 'src/')}`;
    selfUnder.set(where, (selfUnder.get(where) ?? 0) + hits);
  }
  stack.push([n, true]);
  for (const c of n.children ?? []) stack.push([byId.get(c)!, false]);
}
const msPerPage = (cpu.user + cpu.system) / 1000 / pages.length;
console.log(`${pages.length} pages of ${corpora.join(',')}, ${msPerPage.toFixed(1)} CPU ms/page under the profiler\n`);
for (const [name, depth] of PHASES) {
  const h = inclusive.get(name) ?? 0;
  const share = h / total;
  console.log(`${(100 * share).toFixed(1).padStart(6)} %  ${(share * msPerPage).toFixed(2).padStart(6)} ms  ${'  '.repeat(depth)}${name}`);
}
if (under) {
  console.log(`\nself time inside ${under}:`);
  const top = Number(arg('top') ?? 25);
  for (const [where, h] of [...selfUnder].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * h) / total).toFixed(1).padStart(6)} %  ${((h / total) * msPerPage).toFixed(2).padStart(6)} ms  ${where}`);
}
