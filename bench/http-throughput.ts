// HTTP throughput: requests/s and server CPU µs per request of GET /api/search through createNodeHandler
// and through createFetchHandler (behind a minimal node:http ⇄ Request/Response adapter, as a host would
// run it), beside a bare node:http JSON echo and a Fastify route that authenticates and calls
// engine.search itself (the floor a hand-written framework route sets), all in this process. The engine's
// repeat partition is filled (10,000 charged searches) before anything is timed: the steady state. The load client (autocannon's API)
// runs in a child process (this file with --client), so the server's figures hold none of its work.
//   npx tsx bench/http-throughput.ts [--seconds 2] [--connections 16] [--rounds 7]
//                                    [--durability full|normal] [--database file] [--no-fetch] [--baseline dist]
// A second Fastify route ("matched") also passes the engine a signal that aborts on client close and sends
// the handler's X-Request-Id and Cache-Control headers: the same engine call and answer bytes as the handler.
// Without --durability the ledger is in memory (nothing to fsync: durability does not apply). With it,
// the ledger runs on a fresh file in a temp directory (or on --database) in WAL mode with that durability.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { DEFAULT_MAX_PER_PARTITION } from '../src/adapters/partitioned-lru-store.js';
import { createFetchHandler, createNodeHandler, type FetchHandler } from '../src/http/index.js';
import { matchedSearchRoute } from './lib/handler-servers.js';
import { type ClientJob, type ClientReport, runClient } from './lib/load-client.js';
import { BENCH_RESULTS, searchBenchEngine } from './lib/search-bench.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    client: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    database: { type: 'string' },
    durability: { type: 'string' },
    'no-fetch': { type: 'boolean' },
    baseline: { type: 'string' },
  },
});
if (values.client !== undefined) await runClient(values.client);
const SECONDS = Number(values.seconds ?? 2);
const CONNECTIONS = Number(values.connections ?? 16);
const ROUNDS = Number(values.rounds ?? 7);
const DURABILITY = values.durability ?? 'full';
if (DURABILITY !== 'full' && DURABILITY !== 'normal') throw new Error(`--durability must be full or normal, got ${DURABILITY}`);
const onFile = values.durability !== undefined || values.database !== undefined;
const scratch = onFile && values.database === undefined ? mkdtempSync(join(tmpdir(), 'websift-http-bench-')) : undefined;
const DATABASE = scratch ? join(scratch, 'bench.db') : values.database;

async function listen(handler: RequestListener) {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** How a host serves a fetch handler on node:http (the shape of @hono/node-server, minus its shortcuts). */
function onNode(handle: FetchHandler): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const controller = new AbortController();
    res.once('close', () => res.writableFinished || controller.abort());
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      signal: controller.signal,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    });
    void handle(request).then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      const head: Record<string, string> = {};
      response.headers.forEach((value, name) => (head[name] = value));
      res.writeHead(response.status, head).end(body);
    });
  };
}

interface Sample {
  rps: number;
  /** CPU time of this (the server) process per request, user + system. */
  cpuUs: number;
}

/** Runs the load client in a child process against `path`; this (the server) process's CPU is read around it. */
function load(port: number, path: string, headers: Record<string, string>): Promise<Sample> {
  const job: ClientJob = { url: `http://127.0.0.1:${port}${path}`, headers, seconds: SECONDS, connections: CONNECTIONS };
  const args = [...process.execArgv, fileURLToPath(import.meta.url), '--client', JSON.stringify(job)];
  const before = process.cpuUsage();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, (error, stdout) => {
      const cpu = process.cpuUsage(before);
      if (error) return reject(error);
      const report = JSON.parse(stdout) as ClientReport;
      if (report.failed > 0) return reject(new Error(`${report.failed} of ${report.total} requests failed on ${path}`));
      resolve({ rps: report.total / report.seconds, cpuUs: (cpu.user + cpu.system) / report.total });
    });
  });
}

const bare = await listen((req, res) => {
  const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
  const body = JSON.stringify({ query: q, results: BENCH_RESULTS });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
});

const { engine, key } = await searchBenchEngine(DATABASE !== undefined ? { database: DATABASE, durability: DURABILITY } : {});
// Steady state: a full repeat partition, so every charged request evicts a window, as in a long-running server.
for (let i = 0; i < DEFAULT_MAX_PER_PARTITION; i++) await engine.search({ q: `fill ${i}` }, { organization: 'bench' });
const viaNode = await listen(createNodeHandler(engine));
const viaFetch = await listen(onNode(createFetchHandler(engine)));
// --baseline DIST: another build's createNodeHandler (a compiled dist/, e.g. main's) over the same engine, timed
// in the same rounds: a change to the handler against the code before it, in one process.
const baseline = values.baseline
  ? await listen(
      (
        (await import(pathToFileURL(join(values.baseline, 'http/index.js')).href)) as typeof import('../src/http/index.js')
      ).createNodeHandler(engine),
    )
  : undefined;

/** The same search as a Fastify route would serve it: bearer key, engine.search, the answer as JSON (Fastify's serializer). */
const fastify = Fastify();
fastify.get('/api/search', async (request, reply) => {
  const header = request.headers.authorization;
  const identity = header?.startsWith('Bearer ') ? await engine.authenticate(header.slice(7)) : null;
  if (!identity) return reply.code(401).send({ error: 'unauthorized' });
  return engine.search({ q: (request.query as { q: string }).q }, { organization: identity.organization });
});
await fastify.listen({ port: 0, host: '127.0.0.1' });
const viaFastify = { port: (fastify.server.address() as AddressInfo).port };

/**
 * The same route doing what the node handler does besides: the engine call gets a signal that aborts when
 * the client goes away (one per connection, as the handler's, the cheapest way), and the answer carries the
 * handler's headers (X-Request-Id, a new UUID, and Cache-Control: no-store): the same engine call and the
 * same answer bytes. The plain route above passes no signal and sends neither header.
 */
const matched = Fastify();
matched.get('/api/search', matchedSearchRoute(engine));
await matched.listen({ port: 0, host: '127.0.0.1' });
const viaMatched = { port: (matched.server.address() as AddressInfo).port };
const auth = { authorization: `Bearer ${key}` };

const VARIANTS = {
  bare: () => load(bare.port, '/?q=term+[<id>]', {}),
  // Same query every time: after the first, free repeats (cache path, no source call).
  'node-repeat': () => load(viaNode.port, '/api/search?q=same+query', auth),
  'fetch-repeat': () => load(viaFetch.port, '/api/search?q=same+query', auth),
  'fastify-repeat': () => load(viaFastify.port, '/api/search?q=same+query', auth),
  'matched-repeat': () => load(viaMatched.port, '/api/search?q=same+query', auth),
  // A new query every time: routed to the source and charged (reserve + settle in the ledger).
  'node-distinct': () => load(viaNode.port, '/api/search?q=term+[<id>]', auth),
  'baseline-repeat': () => load(baseline!.port, '/api/search?q=same+query', auth),
  'baseline-distinct': () => load(baseline!.port, '/api/search?q=term+[<id>]', auth),
  'fetch-distinct': () => load(viaFetch.port, '/api/search?q=term+[<id>]', auth),
  'fastify-distinct': () => load(viaFastify.port, '/api/search?q=term+[<id>]', auth),
  'matched-distinct': () => load(viaMatched.port, '/api/search?q=term+[<id>]', auth),
};
type Variant = keyof typeof VARIANTS;
// --no-fetch: without the fetch handler's rows (shorter runs when only the node handler is compared).
const variants = (Object.keys(VARIANTS) as Variant[]).filter(
  (v) => !(values['no-fetch'] && v.startsWith('fetch-')) && (baseline !== undefined || !v.startsWith('baseline-')),
);
const samples = Object.fromEntries(variants.map((v) => [v, [] as Sample[]])) as Record<Variant, Sample[]>;
const ratios = Object.fromEntries(variants.map((v) => [v, [] as { rps: number; cpu: number }[]])) as Record<
  Variant,
  { rps: number; cpu: number }[]
>;
/** Per round: the node handler's server CPU per request over the Fastify route's (target ≤ 1). */
const nodeVsFastify = { repeat: [] as number[], distinct: [] as number[] };
/** The same against the matched route (same engine call, same answer bytes). */
const nodeVsMatched = { repeat: [] as number[], distinct: [] as number[] };
/** With --baseline: the node handler's CPU over the baseline build's. */
const nodeVsBaseline = { repeat: [] as number[], distinct: [] as number[] };
for (const v of variants) await VARIANTS[v](); // warm-up
// Rounds interleave the variants (in rotating order), so a burst of load elsewhere on the machine hits
// each variant alike; each round's ratios are taken against that round's bare figures.
for (let round = 0; round < ROUNDS; round++) {
  const figures = {} as Record<Variant, Sample>;
  for (let k = 0; k < variants.length; k++) {
    const v = variants[(round + k) % variants.length]!;
    figures[v] = await VARIANTS[v]();
  }
  for (const v of variants) {
    samples[v].push(figures[v]);
    ratios[v].push({ rps: figures[v].rps / figures.bare.rps, cpu: figures[v].cpuUs / figures.bare.cpuUs });
  }
  nodeVsFastify.repeat.push(figures['node-repeat'].cpuUs / figures['fastify-repeat'].cpuUs);
  nodeVsFastify.distinct.push(figures['node-distinct'].cpuUs / figures['fastify-distinct'].cpuUs);
  nodeVsMatched.repeat.push(figures['node-repeat'].cpuUs / figures['matched-repeat'].cpuUs);
  nodeVsMatched.distinct.push(figures['node-distinct'].cpuUs / figures['matched-distinct'].cpuUs);
  if (baseline) {
    nodeVsBaseline.repeat.push(figures['node-repeat'].cpuUs / figures['baseline-repeat'].cpuUs);
    nodeVsBaseline.distinct.push(figures['node-distinct'].cpuUs / figures['baseline-distinct'].cpuUs);
  }
}
for (const s of [bare, viaNode, viaFetch, ...(baseline ? [baseline] : [])]) s.server.close();
await fastify.close();
await matched.close();
await engine.close();
if (scratch) rmSync(scratch, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], f: (x: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
const int = (x: number) => String(Math.round(x));
const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
const times = (x: number) => `${x.toFixed(2)}×`;
const NAMES: Record<Variant, string> = {
  bare: 'bare node:http JSON echo',
  'node-repeat': 'node handler, repeated query (free repeat)',
  'fetch-repeat': 'fetch handler, repeated query (free repeat)',
  'node-distinct': 'node handler, distinct queries (charged)',
  'baseline-repeat': "baseline build's node handler, repeated query",
  'baseline-distinct': "baseline build's node handler, distinct queries",
  'fetch-distinct': 'fetch handler, distinct queries (charged)',
  'fastify-repeat': 'Fastify route + engine.search, repeated query',
  'fastify-distinct': 'Fastify route + engine.search, distinct queries',
  'matched-repeat': 'Fastify route, matched (signal, same headers), repeated query',
  'matched-distinct': 'Fastify route, matched (signal, same headers), distinct queries',
};
const ledgerMode = DATABASE === undefined ? 'SQLite in memory (nothing to fsync)' : `SQLite file, durability ${DURABILITY}`;
console.log(
  `${SECONDS} s per variant per round, ${ROUNDS} interleaved rounds, ${CONNECTIONS} connections (autocannon in a child process), ${ledgerMode}, Node ${process.version}`,
);
console.log('| server | requests/s | of bare | server CPU µs/request | CPU vs bare |\n|---|---|---|---|---|');
for (const v of variants) {
  const rps = samples[v].map((s) => s.rps);
  const cpu = samples[v].map((s) => s.cpuUs);
  console.log(
    `| ${NAMES[v]} | ${spread(rps, int)} | ${spread(
      ratios[v].map((r) => r.rps),
      pct,
    )} | ${spread(cpu, int)} | ${spread(
      ratios[v].map((r) => r.cpu),
      times,
    )} |`,
  );
}
console.log(
  `\nnode handler CPU / Fastify route CPU, per round: repeated ${spread(nodeVsFastify.repeat, times)}, distinct ${spread(nodeVsFastify.distinct, times)}`,
);
console.log(
  `node handler CPU / matched Fastify route CPU, per round: repeated ${spread(nodeVsMatched.repeat, times)}, distinct ${spread(nodeVsMatched.distinct, times)}`,
);
if (baseline) {
  console.log(
    `node handler CPU / baseline build's node handler CPU, per round: repeated ${spread(nodeVsBaseline.repeat, times)}, distinct ${spread(nodeVsBaseline.distinct, times)}`,
  );
}
