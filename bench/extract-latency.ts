// Extract concurrency: a 10-URL extract against a loopback server that answers each page after
// 200 ms, beside a 1-URL extract in the same run (the baseline: each round runs both, which goes first
// alternating). Wall time should be close to one page's, not ten. Median (min–max) over rounds.
// Run: npx tsx bench/extract-latency.ts [rounds]

import { createEngine } from '../src/index.js';
import { startPageServer } from '../src/testing/page-server.js';
import { spread } from './lib/rounds.js';

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
  // A query string per round and per list keeps every extract a charged fetch, not a free repeat.
  const t0 = performance.now();
  const res = await engine.extract({ urls: list.map((u) => `${u}?r=${round}&of=${list.length}`) }, ctx);
  const ms = performance.now() - t0;
  if (res.metadata.successful_crawls !== list.length)
    throw new Error(`bench: a page failed: ${res.results.map((x) => x.error_type ?? 'ok').join(', ')}`);
  return ms;
}

await time(urls, -1); // warm-up: the conversion pool's start, not counted
const one: number[] = [];
const ten: number[] = [];
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    one.push(await time(urls.slice(0, 1), r));
    ten.push(await time(urls, r));
  } else {
    ten.push(await time(urls, r));
    one.push(await time(urls.slice(0, 1), r));
  }
}
console.log(`| extract of | wall ms, median (min–max) of ${rounds} rounds | × 1 URL, per round |`);
console.log('|---|---|---|');
console.log(`| 1 URL (${DELAY_MS} ms server latency) | ${spread(one, 0)} | 1.00 |`);
console.log(
  `| 10 URLs (${DELAY_MS} ms each) | ${spread(ten, 0)} | ${spread(
    ten.map((x, r) => x / one[r]!),
    2,
  )} |`,
);
await engine.close();
await server.close();
