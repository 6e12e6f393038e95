// The cost of watching a server (issue 30, "Measure"), three parts:
// 1. Server CPU µs per charged search over HTTP (websift serve's server: node handler, health routes)
//    with the access log (pino JSON to /dev/null), websift/metrics and websift/otel (spans to a
//    discarding exporter) on, against all of them off; same process, rounds interleaved in rotating
//    order; the load client (autocannon) in a child process, so the figures are the server's alone.
// 2. The tracing channels with nobody listening: ns per traced call against the bare call, times the
//    traced calls of one charged search, against that search's CPU.
// 3. /readyz over PostgreSQL behind a fault proxy: its latency, and how long after the database goes
//    away (stopped, or partitioned) it answers 503, and after it comes back 200 (polled every 20 ms).
//   npx tsx bench/observability.ts [--seconds 2] [--rounds 7] [--connections 16] [--outages 5] [--skip-readyz]
// Part 3 needs PostgreSQL at WEBSIFT_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).

import { execFile } from 'node:child_process';
import { tracingChannel } from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { traced } from '../src/channels.js';
import { createRequestLog } from '../src/cli/request-log.js';
import { startServer } from '../src/cli/server.js';
import { createEngine } from '../src/engine/create-engine.js';
import { websiftMetrics } from '../src/metrics/index.js';
import { websiftTracing } from '../src/otel/index.js';
import { scriptedSource } from '../src/testing/index.js';
import { dropSchema, freshSchema, postgresProxy } from '../test/support/postgres.js';
import { type ClientJob, type ClientReport, runClient } from './lib/load-client.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    client: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    outages: { type: 'string' },
    'skip-readyz': { type: 'boolean' },
  },
});
if (values.client !== undefined) await runClient(values.client);
const SECONDS = Number(values.seconds ?? 2);
const CONNECTIONS = Number(values.connections ?? 16);
const ROUNDS = Number(values.rounds ?? 7);
const OUTAGES = Number(values.outages ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], f: (x: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
const int = (x: number) => String(Math.round(x));

// ---- 1. On vs off over HTTP ----

const RESULTS = Array.from({ length: 10 }, (_, i) => ({
  title: `Result ${i}`,
  url: `https://bench.test/${i}`,
  snippet: `Snippet number ${i} of the benchmark`,
}));
const engine = createEngine({ sources: [scriptedSource('bench', () => ({ results: RESULTS }))], rateLimit: false });
await engine.admin.createOrganization('bench', { credits: 1_000_000_000 });
const auth = { authorization: `Bearer ${await engine.admin.createApiKey('bench')}` };

/** Serves one load run with observability on or off; returns the server process's CPU µs per request. */
type Part = 'log' | 'metrics' | 'otel' | 'log-unwritten' | 'otel-noop';
/** Serves one load run with the given parts on; returns the server process's CPU µs per request. */
async function run(parts: readonly Part[]): Promise<{ cpuUs: number; rps: number }> {
  const on = new Set(parts);
  const requestLog = on.has('log')
    ? createRequestLog({ format: 'json', stream: pino.destination({ dest: '/dev/null', sync: true }), say: () => {} })
    : on.has('log-unwritten')
      ? createRequestLog({ format: 'json', stream: { write: () => {} }, say: () => {} })
      : undefined;
  const metrics = on.has('metrics') ? websiftMetrics({ engine }) : undefined;
  const provider = on.has('otel')
    ? new BasicTracerProvider({
        spanProcessors: [new BatchSpanProcessor({ export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} })],
      })
    : undefined;
  // No SDK registered: the API's no-op tracer, so only websift's side of the adapter is measured.
  const tracing = provider
    ? websiftTracing({ tracerProvider: provider })
    : on.has('otel-noop')
      ? websiftTracing({ tracerProvider: trace.getTracerProvider() })
      : undefined;
  const server = await startServer({ engine, host: '127.0.0.1', port: 0, log: () => {}, ...(requestLog ? { requestLog } : {}) });
  const job: ClientJob = { url: `${server.url}/api/search?q=term+[<id>]`, headers: auth, seconds: SECONDS, connections: CONNECTIONS };
  const args = [...process.execArgv, fileURLToPath(import.meta.url), '--client', JSON.stringify(job)];
  const before = process.cpuUsage();
  const report = await new Promise<ClientReport>((resolve, reject) =>
    execFile(process.execPath, args, (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as ClientReport))),
  );
  const cpu = process.cpuUsage(before);
  await server.close(1_000);
  requestLog?.close();
  metrics?.close();
  tracing?.close();
  await provider?.shutdown();
  if (report.failed > 0) throw new Error(`${report.failed} of ${report.total} requests failed`);
  return { cpuUs: (cpu.user + cpu.system) / report.total, rps: report.total / report.seconds };
}

const VARIANTS: Record<string, readonly Part[]> = {
  'off (no log, no metrics, no tracing)': [],
  'JSON access log only': ['log'],
  'websift/metrics only': ['metrics'],
  'websift/otel only (spans to a discarding exporter)': ['otel'],
  'all three': ['log', 'metrics', 'otel'],
  // Where the rest goes: the access log with its lines made but not written, websift/otel over a no-op tracer.
  'access log, lines not written': ['log-unwritten'],
  'websift/otel, no-op tracer (no SDK)': ['otel-noop'],
};
const names = Object.keys(VARIANTS);
for (const name of names) await run(VARIANTS[name]!); // warm-up
const cpuOf = Object.fromEntries(names.map((n) => [n, [] as number[]]));
const ratioOf = Object.fromEntries(names.map((n) => [n, [] as number[]]));
// Rounds interleave the variants in rotating order; each ratio is against the same round's "off".
for (let round = 0; round < ROUNDS; round++) {
  const figures: Record<string, number> = {};
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length]!;
    figures[name] = (await run(VARIANTS[name]!)).cpuUs;
  }
  for (const name of names) {
    cpuOf[name]!.push(figures[name]!);
    ratioOf[name]!.push(figures[name]! / figures[names[0]!]!);
  }
}
const off = cpuOf[names[0]!]!;
console.log(
  `1. Charged searches over HTTP: ${SECONDS} s per variant per round, ${ROUNDS} interleaved rounds, ${CONNECTIONS} connections (autocannon in a child process), Node ${process.version}`,
);
console.log('| observability | server CPU µs/request | vs off (same round) |\n|---|---|---|');
for (const name of names) console.log(`| ${name} | ${spread(cpuOf[name]!, int)} | ${spread(ratioOf[name]!, (x) => `${x.toFixed(2)}×`)} |`);

// ---- 2. No subscribers ----

const idle = tracingChannel<unknown, { n: number }>('websift:bench-idle');
const work = async () => 1;
const CALLS = 2_000_000;
const timeLoop = async (f: () => Promise<number>) => {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await f();
  const cpu = process.cpuUsage(start);
  return ((cpu.user + cpu.system) * 1000) / CALLS; // ns per call
};
const bareNs: number[] = [];
const tracedNs: number[] = [];
for (let round = 0; round < 5; round++) {
  bareNs.push(await timeLoop(work));
  tracedNs.push(await timeLoop(() => traced(idle, () => ({ n: 1 }), work)));
}
const extraNs = median(tracedNs) - median(bareNs);
// One charged search through HTTP makes 4 traced calls: websift:http, :search, :source, :charge.
const perSearchUs = (4 * Math.max(0, extraNs)) / 1000;
console.log(
  `\n2. No subscribers: an awaited call ${spread(bareNs, (x) => x.toFixed(0))} ns, through traced() ${spread(tracedNs, (x) => x.toFixed(0))} ns (${CALLS} calls × 5 rounds);`,
);
console.log(
  `   4 traced calls per charged search ≈ ${perSearchUs.toFixed(3)} µs = ${((perSearchUs / median(off)) * 100).toFixed(3)} % of its ${int(median(off))} µs`,
);
await engine.close();

// ---- 3. /readyz over PostgreSQL ----

if (!values['skip-readyz']) {
  const { proxy, url } = await postgresProxy();
  const schema = freshSchema();
  const pgEngine = createEngine({ database: url, postgres: { schema }, rateLimit: false });
  const server = await startServer({ engine: pgEngine, host: '127.0.0.1', port: 0, log: () => {} });
  const readyz = async () => {
    const started = performance.now();
    const res = await fetch(`${server.url}/readyz`);
    const body = (await res.json()) as { checks: { database: { latency_ms: number } } };
    return { status: res.status, ms: performance.now() - started, probeMs: body.checks.database.latency_ms };
  };
  const until = async (status: number) => {
    const started = performance.now();
    for (;;) {
      if ((await readyz()).status === status) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await until(200);
  const latencies: number[] = [];
  const probes: number[] = [];
  for (let i = 0; i < 200; i++) {
    const r = await readyz();
    latencies.push(r.ms);
    probes.push(r.probeMs);
  }
  const toDown: number[] = [];
  const toUp: number[] = [];
  const partitionDown: number[] = [];
  const partitionUp: number[] = [];
  for (let i = 0; i < OUTAGES; i++) {
    await new Promise((r) => setTimeout(r, 300 * (i + 1))); // the outage begins at a different point of the 1 s cache each time
    await proxy.stop();
    toDown.push(await until(503));
    await proxy.start();
    toUp.push(await until(200));
    proxy.mode = 'partition';
    partitionDown.push(await until(503));
    proxy.mode = 'forward';
    partitionUp.push(await until(200));
  }
  await server.close(1_000);
  await pgEngine.close();
  await proxy.close();
  await dropSchema(schema);
  const ms = (x: number) => x.toFixed(1);
  console.log(
    `\n3. /readyz on PostgreSQL through a TCP proxy (answers cached 1 s, checks time out after 1 s; polled every 20 ms; ${OUTAGES} outages)`,
  );
  console.log('| | ms |\n|---|---|');
  console.log(`| /readyz round trip (200 requests, mostly the cached answer) | ${spread(latencies, ms)} |`);
  console.log(`| the database check itself (SELECT 1), as reported | ${spread(probes, ms)} |`);
  console.log(`| database stopped → first 503 | ${spread(toDown, int)} |`);
  console.log(`| database back → first 200 | ${spread(toUp, int)} |`);
  console.log(`| network partition → first 503 | ${spread(partitionDown, int)} |`);
  console.log(`| partition healed → first 200 | ${spread(partitionUp, int)} |`);
}
process.exit(0);
