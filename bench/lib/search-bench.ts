// The charged-search set-up the HTTP and observability benches share: ten scripted results (or a SearXNG
// answer of them, `searxngUpstream`), an engine without a rate limit, one organization with credits for
// any run, and its API key.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine } from '../../src/engine/create-engine.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { scriptedSource } from '../../src/testing/index.js';

export const BENCH_RESULTS = Array.from({ length: 10 }, (_, i) => ({
  title: `Result ${i}`,
  url: `https://bench.test/${i}`,
  snippet: `Snippet number ${i} of the benchmark`,
}));

/**
 * The engine (organization `bench`) and a key of it; `options` add to the engine's (a database, say).
 * Its source: the ten scripted results, or, given `options.sources`, those.
 */
export async function searchBenchEngine(options: Partial<EngineOptions> = {}) {
  const sources = options.sources ?? [scriptedSource('bench', () => ({ results: BENCH_RESULTS }))];
  const engine = createEngine({ ...options, sources, rateLimit: false });
  await engine.admin.createOrganization('bench', { credits: 1_000_000_000 });
  const key = await engine.admin.createApiKey('bench');
  return { engine, key };
}

/** SearXNG's JSON answer with the ten results (what `searxngUpstream` serves for every query). */
const SEARXNG_BENCH_BODY = JSON.stringify({
  query: 'bench',
  number_of_results: BENCH_RESULTS.length,
  results: BENCH_RESULTS.map((r) => ({ url: r.url, title: r.title, content: r.snippet, engine: 'bench', engines: ['bench'], score: 1 })),
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: [],
  unresponsive_engines: [],
});

/** A loopback HTTP server answering SearXNG's `/search?format=json` with the ten results; resolves to its base URL. */
export async function searxngUpstream(): Promise<{ url: string; server: Server }> {
  const body = Buffer.from(SEARXNG_BENCH_BODY);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
