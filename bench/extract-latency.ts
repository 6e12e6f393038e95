// Extract concurrency: a 10-URL extract against a loopback server that answers each page after
// 200 ms, beside a 1-URL extract in the same run. Wall time should be close to one page's, not ten.
// Run: npx tsx bench/extract-latency.ts [rounds]

import { createEngine } from '../src/index.js';
import { startPageServer } from '../src/testing/page-server.js';

const rounds = Number(process.argv[2] ?? 5);
const DELAY_MS = 200;
const page = (i: number) =>
  `<!doctype html><html><head><title>Page ${i}</title></head><body><article><h1>Page ${i}</h1>${'<p>Some words of the article body, long enough to count as content.</p>'.repeat(30)}</article></body></html>`;

const routes = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [
    `/p${i}`,
    (_req: unknown, res: import('node:http').ServerResponse) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(i)), DELAY_MS);
    },
  ]),
);
const server = await startPageServer(routes);
const engine = createEngine({ allowPrivateNetwork: true, robots: false, rateLimit: false });
await engine.admin.createOrganization('bench', { credits: 1_000_000 });
const ctx = { organization: 'bench' };
const urls = Array.from({ length: 10 }, (_, i) => server.url(`/p${i}`));

async function time(list: string[], round: number): Promise<number> {
  // A query string per round keeps every round a charged fetch, not a free repeat.
  const t0 = performance.now();
  const res = await engine.extract({ urls: list.map((u) => `${u}?r=${round}`) }, ctx);
  const ms = performance.now() - t0;
  if (res.metadata.successful_crawls !== list.length) throw new Error('bench: a page failed');
  return ms;
}

const one: number[] = [];
const ten: number[] = [];
for (let r = 0; r < rounds; r++) {
  one.push(await time(urls.slice(0, 1), r));
  ten.push(await time(urls, r));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`| extract of | median wall ms (${rounds} rounds) | × 1 URL |`);
console.log('|---|---|---|');
console.log(`| 1 URL (${DELAY_MS} ms server latency) | ${median(one).toFixed(0)} | 1.00 |`);
console.log(`| 10 URLs (${DELAY_MS} ms each) | ${median(ten).toFixed(0)} | ${(median(ten) / median(one)).toFixed(2)} |`);
await engine.close();
await server.close();
