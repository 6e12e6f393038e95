// Stealth rendering throughput and cost, over loopback, in one run:
//  - renders per second at concurrency 1 and 4 (fresh context per page, one browser per phase; the two
//    phases alternate which goes first, round by round);
//  - the cost of a stealth extract (render + Markdown) against a plain one (page loader + Markdown) of the
//    same pages, interleaved page by page, as ratios of wall time and of CPU time (Node + all Chromium
//    processes, from /proc), per round.
// Median (min–max) over rounds.
// Run: npx tsx bench/stealth.ts [renders-per-phase=24] [executablePath=/usr/bin/chromium] [rounds=3]

import { readdirSync, readFileSync } from 'node:fs';
import { documentToMarkdown } from '../src/convert/document-to-markdown.js';
import { decodeBody } from '../src/fetch/charset.js';
import { createPageLoader } from '../src/fetch/load-page.js';
import { createUndiciFetcher } from '../src/fetch/undici-fetcher.js';
import { createPlaywrightRenderer } from '../src/render/index.js';
import { ManualClock } from '../src/testing/manual-clock.js';
import { startPageServer } from '../src/testing/page-server.js';
import { median, spread } from './lib/rounds.js';

const perPhase = Number(process.argv[2] ?? 24);
const executablePath = process.argv[3] ?? '/usr/bin/chromium';
const ROUNDS = Number(process.argv[4] ?? 3);
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
    const perRound = { plainWall: [] as number[], stealthWall: [] as number[], plainCpu: [] as number[], stealthCpu: [] as number[] };
    let words = { plain: 0, stealth: 0 };
    for (let r = 0; r < ROUNDS; r++) {
      const wall = { plain: [] as number[], stealth: [] as number[] };
      const cpu = { plain: 0, stealth: 0 };
      for (let i = 0; i < perPhase; i++) {
        // Interleaved so machine noise hits both alike; which goes first alternates.
        for (const mode of (i + r) % 2 === 0 ? (['plain', 'stealth'] as const) : (['stealth', 'plain'] as const)) {
          const c0 = cpuSeconds();
          const t0 = performance.now();
          const markdown = await (mode === 'plain' ? plain : stealth)(`${path}?r=${r}-${i}`);
          wall[mode].push(performance.now() - t0);
          cpu[mode] += cpuSeconds() - c0;
          words = { ...words, [mode]: markdown.split(/\s+/).length };
        }
      }
      perRound.plainWall.push(median(wall.plain));
      perRound.stealthWall.push(median(wall.stealth));
      perRound.plainCpu.push((cpu.plain / perPhase) * 1000);
      perRound.stealthCpu.push((cpu.stealth / perPhase) * 1000);
    }
    const ratio = (a: number[], b: number[]) =>
      spread(
        a.map((x, r) => x / Math.max(b[r]!, 1e-3)),
        (x) => `${x.toFixed(1)}x`,
      );
    console.log(
      `${path.padEnd(9)} plain p50 ${spread(perRound.plainWall)} ms, ${spread(perRound.plainCpu)} ms CPU, ${words.plain} words` +
        ` | stealth p50 ${spread(perRound.stealthWall)} ms, ${spread(perRound.stealthCpu)} ms CPU, ${words.stealth} words` +
        ` | ratio per round wall ${ratio(perRound.stealthWall, perRound.plainWall)}, CPU ${ratio(perRound.stealthCpu, perRound.plainCpu)}`,
    );
  }
  await renderer.close();
  await fetcher.close?.();
}

console.log(
  `renders per phase=${perPhase} node=${process.version} cpus=${(await import('node:os')).cpus().length} load=${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
);
const rates = { c1: [] as number[], c4: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  for (const c of r % 2 === 0 ? ([1, 4] as const) : ([4, 1] as const)) rates[`c${c}`].push(await rendersPerSecond(c));
}
console.log(
  `renders/s, median (min–max) over ${ROUNDS} rounds: concurrency 1 ${spread(rates.c1, 2)}, concurrency 4 ${spread(rates.c4, 2)} (per round ${spread(
    rates.c4.map((x, r) => x / rates.c1[r]!),
    (x) => `x${x.toFixed(2)}`,
  )})`,
);
await extractCost();
await server.close();
