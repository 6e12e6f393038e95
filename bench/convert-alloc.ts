// What a conversion allocates (issue 33): V8's sampling heap profiler over traf pages (every k-th, so that
// --limit remain) after three warm-up passes, then one pass sampled every 512 bytes, young and old garbage
// included. Prints KiB allocated per page by file, by function, and native allocations (Map.set, push,
// split, a rope's flattening in charCodeAt…) by their nearest JS caller. Sampled, so the machine's load does
// not move it (two runs of one tree agree within ~0.5 %); functions show line 1 under tsx.
// Why allocation: convert-speed charges the whole process, and every byte brings the next scavenge, which
// copies what is still alive (docs/conversion.md, "Speed: what a page allocates").
//   npx tsx bench/convert-alloc.ts [--limit 100] [--top 40] [--root DIR]   (DIR: another checkout's code)

import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';

interface SampleNode {
  selfSize: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: SampleNode[];
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const root = resolve(arg('root') ?? process.cwd());
const limit = Number(arg('limit') ?? 100);
const top = Number(arg('top') ?? 40);
const { htmlToMarkdown } = (await import(`${root}/src/convert/html-to-markdown.ts`)) as typeof import('../src/convert/html-to-markdown.js');
const { corpusPages } = (await import(`${root}/bench/lib/convert-corpora.ts`)) as typeof import('./lib/convert-corpora.js');

const all = [...corpusPages(['traf'])];
const step = Math.max(1, all.length / limit);
const pages: typeof all = [];
for (let i = 0; i < all.length && pages.length < limit; i += step) pages.push(all[Math.floor(i)]!);
const convert = (p: (typeof all)[number]) => htmlToMarkdown(p.html, p.url ? { url: p.url } : {});
for (let w = 0; w < 3; w++) for (const p of pages) convert(p);

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 512,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
let chars = 0;
for (const p of pages) {
  chars += p.html.length;
  convert(p);
}
const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SampleNode } };

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
const byCaller = new Map<string, number>();
const add = (m: Map<string, number>, key: string, bytes: number) => m.set(key, (m.get(key) ?? 0) + bytes);
let total = 0;
const walk = (node: SampleNode, caller: string) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = (url || '(native)').replace(/^.*node_modules\//, 'nm/').replace(/^.*\/src\//, 'src/');
  const name = functionName || '(anon)';
  total += node.selfSize;
  add(byFunction, `${name} ${file}:${lineNumber + 1}`, node.selfSize);
  add(byFile, file, node.selfSize);
  if (!url && caller) add(byCaller, `${name} <- ${caller}`, node.selfSize);
  for (const child of node.children) walk(child, url ? `${name} ${file}` : caller);
};
walk(profile.head, '');

const kib = (bytes: number) => (bytes / pages.length / 1024).toFixed(1).padStart(8);
const print = (title: string, m: Map<string, number>, n: number) => {
  console.log(`\n${title} (KiB/page):`);
  for (const [key, bytes] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${kib(bytes)}  ${key}`);
};
console.log(
  `${pages.length} traf pages, ${(chars / pages.length / 1024).toFixed(1)} KiB of HTML (chars) a page; ` +
    `allocated ~${kib(total).trim()} KiB a page (sampled); code: ${root}`,
);
print('per file', byFile, 25);
print('per function', byFunction, top);
print('native allocations by their JS caller', byCaller, top);
