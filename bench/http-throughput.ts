// HTTP throughput: requests/s of GET /api/search through createNodeHandler (real engine, SQLite in
// memory by default, a zero-latency scripted source) beside a bare node:http JSON echo, measured in the
// same run with the same keep-alive client. Target: websift ≥ 50% of the bare server.
//   npx tsx bench/http-throughput.ts [--requests 2000] [--connections 16] [--rounds 7]
//                                    [--durability full|normal] [--database file]
// Without --durability the ledger is in memory (nothing to fsync: durability does not apply). With it,
// the ledger runs on a fresh file in a temp directory (or on --database) in WAL mode with that durability.

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/engine.js';
import { createNodeHandler } from '../src/http/index.js';
import { scriptedSource } from '../src/testing/index.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    database: { type: 'string' },
    durability: { type: 'string' },
  },
});
const REQUESTS = Number(values.requests ?? 2000);
const CONNECTIONS = Number(values.connections ?? 16);
const ROUNDS = Number(values.rounds ?? 7);
const DURABILITY = values.durability ?? 'full';
if (DURABILITY !== 'full' && DURABILITY !== 'normal') throw new Error(`--durability must be full or normal, got ${DURABILITY}`);
const onFile = values.durability !== undefined || values.database !== undefined;
const scratch = onFile && values.database === undefined ? mkdtempSync(join(tmpdir(), 'websift-http-bench-')) : undefined;
const DATABASE = scratch ? join(scratch, 'bench.db') : values.database;

const RESULTS = Array.from({ length: 10 }, (_, i) => ({ title: `Result ${i}`, url: `https://bench.test/${i}`, snippet: `Snippet number ${i} of the benchmark` }));

async function listen(handler: RequestListener) {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Sends `total` GETs over `connections` keep-alive sockets; resolves to requests per second. */
async function load(port: number, path: (i: number) => string, headers: Record<string, string>, expected = 200): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let next = 0;
  let failures = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: path(i), headers, agent }, (res) => {
        if (res.statusCode !== expected) failures++;
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  const worker = async () => {
    while (next < REQUESTS) await one(next++);
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  if (failures > 0) throw new Error(`${failures} requests did not answer ${expected}`);
  return REQUESTS / seconds;
}

const bare = await listen((req, res) => {
  const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
  const body = JSON.stringify({ query: q, results: RESULTS });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
});

const engine = createEngine({
  ...(DATABASE !== undefined ? { database: DATABASE, durability: DURABILITY } : {}),
  sources: [scriptedSource('bench', () => ({ results: RESULTS }))],
  rateLimit: false,
});
await engine.admin.createOrganization('bench', { credits: 1_000_000_000 });
const key = await engine.admin.createApiKey('bench');
const websift = await listen(createNodeHandler(engine));
const auth = { authorization: `Bearer ${key}` };

type Variant = 'bare' | 'routing' | 'repeat' | 'distinct';
const runs: Record<Variant, () => Promise<number>> = {
  bare: () => load(bare.port, (i) => `/?q=term+${i}`, {}),
  // The binding alone: an unknown path is answered (404 JSON error body) before any engine call.
  routing: () => load(websift.port, () => '/api/nothing', auth, 404),
  // Same query every time: after the first, free repeats (cache path, no source call).
  repeat: () => load(websift.port, () => '/api/search?q=same+query', auth),
  // A new query every time: routed to the source and charged (reserve + settle in the ledger).
  distinct: () => load(websift.port, () => `/api/search?q=term+${serial++}`, auth),
};
const variants = Object.keys(runs) as Variant[];
let serial = 0;
const rps: Record<Variant, number[]> = { bare: [], routing: [], repeat: [], distinct: [] };
const ratios: Record<Variant, number[]> = { bare: [], routing: [], repeat: [], distinct: [] };
await runs.bare(); // warm-up of both servers
await runs.repeat();
// Rounds interleave the variants (in rotating order), so a burst of load elsewhere on the machine hits
// each variant alike; each round's ratios are taken against that round's bare figure.
for (let round = 0; round < ROUNDS; round++) {
  const figures = {} as Record<Variant, number>;
  for (let k = 0; k < variants.length; k++) {
    const v = variants[(round + k) % variants.length]!;
    figures[v] = await runs[v]();
  }
  for (const v of variants) {
    rps[v].push(figures[v]);
    ratios[v].push(figures[v] / figures.bare);
  }
}
bare.server.close();
websift.server.close();
await engine.close();
if (scratch) rmSync(scratch, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const row = (name: string, v: Variant) =>
  `| ${name} | ${Math.round(median(rps[v]))} | ${(median(ratios[v]) * 100).toFixed(0)}% (${(Math.min(...ratios[v]) * 100).toFixed(0)}–${(Math.max(...ratios[v]) * 100).toFixed(0)}%) |`;
const ledgerMode = DATABASE === undefined ? 'SQLite in memory (nothing to fsync)' : `SQLite file, durability ${DURABILITY}`;
console.log(`${REQUESTS} requests per variant per round, ${ROUNDS} interleaved rounds, ${CONNECTIONS} keep-alive connections, ${ledgerMode}, Node ${process.version}`);
console.log('| server | requests/s (median) | of bare: median (range) |\n|---|---|---|');
console.log(row('bare node:http JSON echo', 'bare'));
console.log(row('websift binding alone (unknown path → 404 JSON)', 'routing'));
console.log(row('websift search, repeated query (free repeat)', 'repeat'));
console.log(row('websift search, distinct queries (charged)', 'distinct'));
