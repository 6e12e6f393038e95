// Latency of the page loader (address checks, robots.txt cache, redirects, size cap, type sniffing,
// charset decoding) against a bare undici request of the same page, both over loopback, in one run,
// request by request (interleaved, which goes first alternating). The requests are split into rounds: the
// p50 of each side and their ratio per round, median (min–max) over rounds; p95 over all requests.
// Run: npx tsx bench/extract-latency-fetch.ts [requests=300] [rounds=5]

import zlib from 'node:zlib';
import { Agent } from 'undici';
import { decodeBody } from '../src/fetch/charset.js';
import { createPageLoader } from '../src/fetch/load-page.js';
import { createUndiciFetcher } from '../src/fetch/undici-fetcher.js';
import { ManualClock } from '../src/testing/manual-clock.js';
import { startPageServer } from '../src/testing/page-server.js';
import { spread } from './lib/rounds.js';

const requests = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 5);
const page = `<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(1600)}</body></html>`;
const gz = zlib.gzipSync(page);

const server = await startPageServer({
  '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private\n' },
  '/page': { body: page },
  '/page-gz': { headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }, body: gz },
});

const agent = new Agent();
const baseline = async (path: string): Promise<number> => {
  const res = await agent.request({ origin: server.origin, path, method: 'GET' });
  const buf = Buffer.from(await res.body.arrayBuffer());
  const body = path.endsWith('-gz') ? zlib.gunzipSync(buf) : buf;
  return new TextDecoder().decode(body).length;
};

const fetcher = createUndiciFetcher({ allowEndpoints: [`127.0.0.1:${server.port}`] });
const loader = createPageLoader({ fetcher, clock: new ManualClock(), userAgent: 'websift-bench/1.0' });
const ours = async (path: string): Promise<number> => {
  const doc = await loader.load(server.url(path));
  return decodeBody(doc.body, doc.contentType).text.length;
};

const quantile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function measure(path: string): Promise<void> {
  const all = { baseline: [] as number[], ours: [] as number[] };
  const p50 = { baseline: [] as number[], ours: [] as number[] };
  for (let i = 0; i < 20; i++) {
    await baseline(path);
    await ours(path);
  }
  for (let r = 0; r < rounds; r++) {
    const times = { baseline: [] as number[], ours: [] as number[] };
    for (let i = 0; i < requests / rounds; i++) {
      // Interleaved so machine noise hits both alike.
      for (const which of i % 2 === 0 ? (['baseline', 'ours'] as const) : (['ours', 'baseline'] as const)) {
        const t = performance.now();
        await (which === 'baseline' ? baseline : ours)(path);
        times[which].push(performance.now() - t);
      }
    }
    for (const which of ['baseline', 'ours'] as const) {
      p50[which].push(quantile(times[which], 0.5));
      all[which].push(...times[which]);
    }
  }
  const ratios = p50.ours.map((o, r) => o / p50.baseline[r]!);
  console.log(
    `| ${path} | ${(page.length / 1024).toFixed(0)} KiB | ${spread(p50.baseline, 2)} | ${quantile(all.baseline, 0.95).toFixed(2)} | ${spread(p50.ours, 2)} | ${quantile(all.ours, 0.95).toFixed(2)} | ${spread(ratios, 2)} |`,
  );
}

console.log(
  `${requests} requests per side per page in ${rounds} rounds, node=${process.version}; p50 ms per round, median (min–max) over rounds`,
);
console.log('| page | size | bare undici p50 | p95 | page loader p50 | p95 | loader / bare p50, per round |');
console.log('|---|---|---|---|---|---|---|');
await measure('/page');
await measure('/page-gz');
await agent.close();
await fetcher.close?.();
await server.close();
