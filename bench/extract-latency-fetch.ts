// Latency of the page loader (address checks, robots.txt cache, redirects, size cap, type sniffing,
// charset decoding) against a bare undici request of the same page, both over loopback, in one run.
// Run: npx tsx bench/extract-latency-fetch.ts [rounds]

import zlib from 'node:zlib';
import { Agent } from 'undici';
import { decodeBody } from '../src/fetch/charset.js';
import { createPageLoader } from '../src/fetch/load-page.js';
import { createUndiciFetcher } from '../src/fetch/undici-fetcher.js';
import { ManualClock } from '../src/testing/manual-clock.js';
import { startPageServer } from '../src/testing/page-server.js';

const rounds = Number(process.argv[2] ?? 300);
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
  const times = { baseline: [] as number[], ours: [] as number[] };
  for (let i = 0; i < 20; i++) {
    await baseline(path);
    await ours(path);
  }
  for (let i = 0; i < rounds; i++) {
    // Interleaved so machine noise hits both alike.
    let t = performance.now();
    await baseline(path);
    times.baseline.push(performance.now() - t);
    t = performance.now();
    await ours(path);
    times.ours.push(performance.now() - t);
  }
  const b50 = quantile(times.baseline, 0.5);
  const o50 = quantile(times.ours, 0.5);
  console.log(
    `${path.padEnd(9)} ${(page.length / 1024).toFixed(0)} KiB  baseline p50 ${b50.toFixed(2)} ms p95 ${quantile(times.baseline, 0.95).toFixed(2)} ms` +
      ` | loader p50 ${o50.toFixed(2)} ms p95 ${quantile(times.ours, 0.95).toFixed(2)} ms | ratio p50 ${(o50 / b50).toFixed(2)}`,
  );
}

console.log(`rounds=${rounds} node=${process.version}`);
await measure('/page');
await measure('/page-gz');
await agent.close();
await fetcher.close?.();
await server.close();
