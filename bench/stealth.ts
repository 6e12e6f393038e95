// Stealth rendering throughput and cost, over loopback, in one run:
//  - renders per second at concurrency 1 and 4 (fresh context per page, one browser);
//  - the cost of a stealth extract (render + Markdown) against a plain one (page loader + Markdown) of the
//    same pages, as ratios of wall time and of CPU time (Node + all Chromium processes, from /proc).
// Run: npx tsx bench/stealth.ts [renders-per-phase] [executablePath]

import { readdirSync, readFileSync } from 'node:fs';
import { documentToMarkdown } from '../src/convert/document-to-markdown.js';
import { decodeBody } from '../src/fetch/charset.js';
import { createPageLoader } from '../src/fetch/load-page.js';
import { createUndiciFetcher } from '../src/fetch/undici-fetcher.js';
import { createPlaywrightRenderer } from '../src/render/index.js';
import { ManualClock } from '../src/testing/manual-clock.js';
import { startPageServer } from '../src/testing/page-server.js';

const perPhase = Number(process.argv[2] ?? 24);
const executablePath = process.argv[3] ?? '/usr/bin/chromium';
const MAX_BYTES = 10 * 1024 * 1024;
const paragraphs = Array.from(
  { length: 40 },
  (_, i) => `<p>Paragraph ${i}: the keeper logged wind, swell and every passing ship.</p>`,
).join('');

const server = await startPageServer({
  '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private\n' },
  '/static': {
    body: `<!doctype html><html><head><title>Static</title></head><body><nav>Home</nav><article><h1>Log</h1>${paragraphs}</article></body></html>`,
  },
  // The article arrives by fetch after load, as on a script-rendered site.
  '/scripted': {
    body: `<!doctype html><html><head><title>Scripted</title></head><body><main id="app">Loading</main><script>
fetch('/api').then((r) => r.text()).then((t) => { document.getElementById('app').innerHTML = t; });</script></body></html>`,
  },
  '/api': { headers: { 'content-type': 'text/html' }, body: `<article><h1>Log</h1>${paragraphs}</article>` },
});
const allow = [`127.0.0.1:${server.port}`];

/** CPU seconds used so far by this process and every Chromium process under it (incl. reaped children). */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let ticks = 0;
  const tree = new Map<number, number[]>();
  const stats = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      const ppid = fields[1]!;
      tree.set(ppid, [...(tree.get(ppid) ?? []), Number(name)]);
      // utime, stime, cutime, cstime are fields 14–17 of /proc/pid/stat (indexes 11–14 after the comm).
      stats.set(Number(name), [fields[11]!, fields[12]!, fields[13]!, fields[14]!]);
    } catch {
      // exited meanwhile
    }
  }
  const stack = [...(tree.get(process.pid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    ticks += (stats.get(pid) ?? []).reduce((a, b) => a + b, 0);
    stack.push(...(tree.get(pid) ?? []));
  }
  return (own.user + own.system) / 1e6 + ticks / 100;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function rendersPerSecond(concurrency: number): Promise<number> {
  const renderer = createPlaywrightRenderer({ executablePath, allowEndpoints: allow, concurrency, settleMs: 100 });
  const signal = new AbortController().signal;
  await renderer.render(server.url('/scripted'), { signal, maxBytes: MAX_BYTES }); // launch + warm-up
  const start = performance.now();
  // `concurrency` callers, each taking the next page (queueing longer would count against per-URL timeouts).
  let next = 0;
  const worker = async () => {
    while (next < perPhase) await renderer.render(server.url(`/scripted?i=${next++}`), { signal, maxBytes: MAX_BYTES });
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const rate = perPhase / ((performance.now() - start) / 1000);
  await renderer.close();
  return rate;
}

async function extractCost(): Promise<void> {
  const fetcher = createUndiciFetcher({ allowEndpoints: allow });
  const loader = createPageLoader({ fetcher, clock: new ManualClock(), userAgent: 'websift-bench/1.0' });
  const renderer = createPlaywrightRenderer({ executablePath, allowEndpoints: allow, concurrency: 1, settleMs: 100 });
  const signal = new AbortController().signal;
  const plain = async (path: string) => {
    const doc = await loader.load(server.url(path));
    return documentToMarkdown({ mimeType: doc.mimeType, text: decodeBody(doc.body, doc.contentType).text, finalUrl: doc.finalUrl });
  };
  const stealth = async (path: string) => {
    const page = await renderer.render(server.url(path), { signal, maxBytes: MAX_BYTES });
    return documentToMarkdown({ mimeType: page.contentType, text: page.html, finalUrl: page.url });
  };
  await plain('/static');
  await stealth('/static');
  for (const path of ['/static', '/scripted']) {
    const wall = { plain: [] as number[], stealth: [] as number[] };
    const cpu = { plain: 0, stealth: 0 };
    let words = { plain: 0, stealth: 0 };
    for (let i = 0; i < perPhase; i++) {
      // Interleaved so machine noise hits both alike.
      for (const mode of ['plain', 'stealth'] as const) {
        const c0 = cpuSeconds();
        const t0 = performance.now();
        const markdown = await (mode === 'plain' ? plain : stealth)(`${path}?r=${i}`);
        wall[mode].push(performance.now() - t0);
        cpu[mode] += cpuSeconds() - c0;
        words = { ...words, [mode]: markdown.split(/\s+/).length };
      }
    }
    const p = median(wall.plain);
    const s = median(wall.stealth);
    console.log(
      `${path.padEnd(9)} plain p50 ${p.toFixed(1)} ms, ${((cpu.plain / perPhase) * 1000).toFixed(1)} ms CPU, ${words.plain} words` +
        ` | stealth p50 ${s.toFixed(1)} ms, ${((cpu.stealth / perPhase) * 1000).toFixed(1)} ms CPU, ${words.stealth} words` +
        ` | ratio wall ${(s / p).toFixed(1)}x, CPU ${(cpu.stealth / Math.max(cpu.plain, 1e-6)).toFixed(1)}x`,
    );
  }
  await renderer.close();
  await fetcher.close?.();
}

console.log(
  `renders per phase=${perPhase} node=${process.version} cpus=${(await import('node:os')).cpus().length} load=${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
);
const c1 = await rendersPerSecond(1);
const c4 = await rendersPerSecond(4);
console.log(`renders/s: concurrency 1 ${c1.toFixed(2)}, concurrency 4 ${c4.toFixed(2)} (x${(c4 / c1).toFixed(2)})`);
await extractCost();
await server.close();
