// Reading in parts on the host thread (src/core/read-parts.ts): what a page's part costs the event
// loop, which is why query passages of a page over HOST_PASSAGE_CHARS (32 KiB) go to a conversion
// worker while a cut without query stays on the host.
//
//   npx tsx bench/read-parts.ts
//
// For Markdown pages of 32 KiB to 10 MiB (sections of headings, prose and lists): the time of
// pagePart with a query (2,000 characters of passages) and of a plain cut (8,000 characters from the
// middle) on the host, median and range of 5 runs (3 for 10 MiB); then the same query passages through
// the pool's `part` task, with the host thread's own largest turn while it runs (bench/lib/loop-probe.ts)
// against an idle loop in the same process (0.5 s before each run), median and range of as many runs.

import { createConversionPool } from '../src/conversion/conversion-pool.js';
import { pagePart } from '../src/passages/index.js';
import { probeLoop } from './lib/loop-probe.js';
import { spread } from './lib/rounds.js';

const SIZES = [32 * 1024, 100 * 1024, 1024 * 1024, 10 * 1024 * 1024];
const QUERY = 'harbour lantern topic42';

function markdownPage(chars: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const section =
      `## Section ${i}: topic${i % 97}\n\n` +
      `Paragraph ${i} is about topic${i % 97}, with the river, the market and the ${i % 5 === 0 ? 'harbour lantern' : 'orchard'} in it. ` +
      `${'Further sentences carry the words every section shares, so that they weigh little. '.repeat(4)}\n\n` +
      `- item one of ${i}\n- item two of ${i}\n\n`;
    parts.push(section);
    length += section.length;
  }
  return parts.join('').slice(0, chars);
}

function timed(runs: number, f: () => unknown): string {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return `${samples[Math.floor(runs / 2)]!.toFixed(1)} ms (${samples[0]!.toFixed(1)}–${samples.at(-1)!.toFixed(1)})`;
}

const pool = createConversionPool({ threads: 1 });
const never = new AbortController().signal;
try {
  await pool.part({ content: markdownPage(10_000), format: 'markdown', options: { query: QUERY, maxChars: 2000 } }, never); // the worker's start
  for (const size of SIZES) {
    const content = markdownPage(size);
    const runs = size > 2 * 1024 * 1024 ? 3 : 5;
    const query = timed(runs, () => pagePart(content, 'markdown', { query: QUERY, maxChars: 2000 }));
    const cut = timed(runs, () => pagePart(content, 'markdown', { startChar: size >> 1, maxChars: 8000 }));
    const idle: number[] = [];
    const wall: number[] = [];
    const turn: number[] = [];
    for (let r = 0; r < runs; r++) {
      idle.push((await probeLoop(() => new Promise((resolve) => setTimeout(resolve, 500)))).busyMaxMs);
      const started = performance.now();
      const offloaded = await probeLoop(() => pool.part({ content, format: 'markdown', options: { query: QUERY, maxChars: 2000 } }, never));
      wall.push(performance.now() - started);
      turn.push(offloaded.busyMaxMs);
    }
    console.log(
      `${(size / 1024).toFixed(0)} KiB: query passages on the host ${query}; plain cut ${cut}; ` +
        `on a worker ${spread(wall, 0)} ms wall, host thread's largest turn ${spread(turn)} ms (idle loop: ${spread(idle)} ms)`,
    );
  }
} finally {
  await pool.close();
}
