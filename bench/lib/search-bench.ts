// The charged-search set-up the HTTP and observability benches share: ten scripted results, an engine without
// a rate limit, one organization with credits for any run, and its API key.

import { createEngine } from '../../src/engine/create-engine.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { scriptedSource } from '../../src/testing/index.js';

export const BENCH_RESULTS = Array.from({ length: 10 }, (_, i) => ({
  title: `Result ${i}`,
  url: `https://bench.test/${i}`,
  snippet: `Snippet number ${i} of the benchmark`,
}));

/** The engine (organization `bench`) and a key of it; `options` add to the engine's (a database, say). */
export async function searchBenchEngine(options: Partial<EngineOptions> = {}) {
  const engine = createEngine({ ...options, sources: [scriptedSource('bench', () => ({ results: BENCH_RESULTS }))], rateLimit: false });
  await engine.admin.createOrganization('bench', { credits: 1_000_000_000 });
  const key = await engine.admin.createApiKey('bench');
  return { engine, key };
}
