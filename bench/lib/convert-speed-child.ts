// One system on one corpus in a process of its own, for bench/convert-speed.ts (forked with --expose-gc
// and the parent's flags; the job comes as argv[2], JSON). Loads only that system's modules, runs the
// warm-up passes (on other pages of the corpus: convert-speed-run.ts), then the window: a full GC before it (outside), the measured passes, and a full GC
// closing it (inside), so the window is charged for exactly the garbage its pages made, collected.
// Sends a ChildResult to the parent.

import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { type CorpusName, corpusPages } from './convert-corpora.js';
import { type ChildJob, type ChildResult, everyKth, type SystemName, warmupPages } from './convert-speed-run.js';

const job = JSON.parse(process.argv[2]!) as ChildJob;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('the child needs --expose-gc');

type Page = { html: string; url: string | undefined };
const corpus = [...corpusPages([job.corpus as CorpusName])].map((p) => ({ html: p.html, url: p.url }));
const pages: Page[] = everyKth(corpus, job.limit);
const warmPages: Page[] = warmupPages(corpus, job.limit);
corpus.length = 0;

async function convertFor(system: SystemName): Promise<(p: Page) => string | object> {
  switch (system) {
    case 'websift': {
      const { htmlToMarkdown } = await import('../../src/convert/html-to-markdown.js');
      return (p) => htmlToMarkdown(p.html, p.url ? { url: p.url } : {});
    }
    case 'websift-other': {
      const { htmlToMarkdown } = (await import(
        `${job.other}/src/convert/html-to-markdown.ts`
      )) as typeof import('../../src/convert/html-to-markdown.js');
      return (p) => htmlToMarkdown(p.html, p.url ? { url: p.url } : {});
    }
    case 'readability': {
      const { plainReadabilityMarkdown } = await import('./baseline.js');
      return (p) => plainReadabilityMarkdown(p.html);
    }
    case 'parse-lazy': {
      // linkedom as websift parses with it: parse-html.ts applies the lazy listeners and the reads at load.
      const { lazyListenersApplied } = await import('../../src/convert/lazy-listeners.js');
      await import('../../src/convert/parse-html.js');
      if (!lazyListenersApplied()) throw new Error('lazy listeners not applied');
      const { parseHTML } = await import('linkedom');
      return (p) => parseHTML(p.html);
    }
    case 'parse-stock': {
      const { stockParseHTML } = await import('./baseline.js');
      return (p) => stockParseHTML(p.html);
    }
  }
}

const convert = await convertFor(job.system);
for (let w = 0; w < job.warmup; w++) for (const p of warmPages) convert(p);

const gcs: { start: number; duration: number; major: boolean }[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    gcs.push({
      start: e.startTime,
      duration: e.duration,
      major: (e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR,
    });
});
observer.observe({ entryTypes: ['gc'] });

const cpu = () => {
  const u = process.cpuUsage(); // getrusage(RUSAGE_SELF): every thread of the process
  return (u.user + u.system) / 1000;
};

gc();
await new Promise((r) => setTimeout(r, 20)); // the GC helpers' sweeping of the warm-up's garbage ends outside
let peak = 0;
let outChars = 0;
const wallStart = performance.now();
const cpuStart = cpu();
for (let pass = 0; pass < job.passes; pass++)
  for (const p of pages) {
    const out = convert(p);
    if (pass === 0) outChars += typeof out === 'string' ? out.length : 1;
    const heap = getHeapStatistics().total_heap_size;
    if (heap > peak) peak = heap;
  }
const closeStart = cpu();
const wallClose = performance.now();
gc();
const cpuEnd = cpu();
const wallEnd = performance.now();
await new Promise((r) => setTimeout(r, 50)); // the observer's entries arrive on the event loop
observer.disconnect();

const inWindow = gcs.filter((g) => g.start >= wallStart && g.start <= wallEnd);
const result: ChildResult = {
  system: job.system,
  pages: pages.length * job.passes,
  cpuMs: cpuEnd - cpuStart,
  closingGcMs: cpuEnd - closeStart,
  gcPauseMs: inWindow.reduce((s, g) => s + g.duration, 0),
  majorGcs: inWindow.filter((g) => g.major && g.start < wallClose).length,
  peakHeapMiB: peak / 2 ** 20,
  outChars,
};
if (process.send) process.send(result);
else console.log(JSON.stringify(result)); // run by hand, or under valgrind
