// The cost of watching a server (issue 30, "Measure"), three parts:
// 1. Server CPU µs per charged search over HTTP (websift serve's server: node handler, health routes)
//    with the access log (serve's JSON lines, buffered, to /dev/null), websift/metrics and websift/otel
//    (over the API's no-op tracer: websift's side; and with the SDK, spans to a discarding exporter) on,
//    each alone and together, against all of them off; one server process per variant (on for its whole
//    life, warmed up), rounds of a fixed number of requests interleaved in rotating order, each server's
//    CPU read around exactly its requests; the load client in a child process of its own.
//    Each figure: median (min–max) over the rounds, ratios against the same round's "off".
//    1b: the same variants through the fetch handler in-process (no sockets; variants switched per round).
// 2. The tracing channels with nobody listening: ns per traced call against the bare call, times the
//    traced calls of one charged search, against that search's CPU.
// 3. /readyz over PostgreSQL behind a fault proxy: its latency, and how long after the database goes
//    away (stopped, or partitioned) it answers 503, and after it comes back 200 (polled every 20 ms).
//   npx tsx bench/observability.ts [--requests 2000] [--rounds 15] [--warmup 3000] [--connections 16] [--outages 5]
//     [--skip-readyz] [--skip-inprocess] [--settle 0] [--only 1,2,…]
// Part 3 needs PostgreSQL at WEBSIFT_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).

import { type ChildProcess, fork } from 'node:child_process';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { CHANNEL_NAMES, traced } from '../src/channels.js';
import { bufferedLines } from '../src/cli/buffered-lines.js';
import { createRequestLog, type RequestLog } from '../src/cli/request-log.js';
import { startServer } from '../src/cli/server.js';
import { createEngine } from '../src/engine/create-engine.js';
import { createFetchHandler } from '../src/http/fetch-handler.js';
import { websiftMetrics } from '../src/metrics/index.js';
import { websiftTracing } from '../src/otel/index.js';
import { scriptedSource } from '../src/testing/index.js';
import { dropSchema, freshSchema, postgresProxy } from '../test/support/postgres.js';
import { sendCounted } from './lib/load-client.js';

const { values } = parseArgs({
  options: {
    client: { type: 'boolean' },
    requests: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    outages: { type: 'string' },
    'skip-readyz': { type: 'boolean' },
    settle: { type: 'string' },
    warmup: { type: 'string' },
    'variant-server': { type: 'string' },
    'skip-inprocess': { type: 'boolean' },
    only: { type: 'string' },
  },
});

interface ClientJob {
  url: string;
  headers: Record<string, string>;
  connections: number;
  requests: number;
}

/**
 * The load client, a child process for the whole run: told a server and a number of requests, it sends
 * them over `connections` kept-alive connections (each a new query: every one routed and charged) and
 * answers how many failed. Its CPU is its own, not the server's.
 */
function clientChild(): void {
  process.on('disconnect', () => process.exit(0)); // the parent gone: stop loading the servers
  process.on('message', (m: ClientJob) => {
    void sendCounted(m.url, m.headers, m.requests, m.connections).then((failed) => process.send!({ failed }));
  });
}
if (values.client) {
  clientChild();
  await new Promise(() => {}); // serves until the parent disconnects (then exits)
}

/** A child process: its messages answered in order (one request at a time). */
function childOf(args: string[]): { ask<T>(message: unknown): Promise<T>; next<T>(): Promise<T>; close(): void } {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), args, { execArgv: process.execArgv });
  child.on('disconnect', () => child.kill());
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  return {
    ask: <T>(message: unknown) => {
      const answer = next<T>();
      child.send(message as never);
      return answer;
    },
    next,
    close: () => child.disconnect(),
  };
}

const REQUESTS = Number(values.requests ?? 2000);
const CONNECTIONS = Number(values.connections ?? 16);
const ROUNDS = Number(values.rounds ?? 15);
const OUTAGES = Number(values.outages ?? 5);
/** Requests each variant's server answers before the rounds (part 1), so V8 has compiled its hot code. */
const WARMUP = Number(values.warmup ?? 3000);
/**
 * Part 1b (one process, variants switched per round): requests each round sends, unmeasured, after
 * turning its variant on: a switch makes new subscribers, so V8 throws optimized code away and compiles
 * it again (on its compiler threads, which process.cpuUsage counts too). 0 measures the switch as well.
 */
const SETTLE = Number(values.settle ?? 0);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], f: (x: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
const int = (x: number) => String(Math.round(x));
const one = (x: number) => x.toFixed(1);

// ---- 1. On vs off over HTTP ----

const RESULTS = Array.from({ length: 10 }, (_, i) => ({
  title: `Result ${i}`,
  url: `https://bench.test/${i}`,
  snippet: `Snippet number ${i} of the benchmark`,
}));
const engine = createEngine({ sources: [scriptedSource('bench', () => ({ results: RESULTS }))], rateLimit: false });
await engine.admin.createOrganization('bench', { credits: 1_000_000_000 });
const auth = { authorization: `Bearer ${await engine.admin.createApiKey('bench')}` };

type Part = 'log' | 'metrics' | 'otel' | 'log-unwritten' | 'otel-noop' | 'empty';
/** What one variant turned on, to turn off after its round. */
interface On {
  requestLog?: RequestLog;
  close(): Promise<void>;
}
/** Turns the given parts on (subscribing to the channels), as `websift serve` would. */
function turnOn(parts: readonly Part[]): On {
  const on = new Set(parts);
  // serve's destination (lines buffered, written together) over /dev/null instead of stdout.
  const lines = on.has('log') ? bufferedLines({ destination: pino.destination({ dest: '/dev/null', sync: true }) }) : undefined;
  const requestLog = lines
    ? createRequestLog({ format: 'json', stream: lines, say: () => {} })
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
  // Every event of every channel with a subscriber that does nothing: the plumbing's own cost.
  const empty = on.has('empty') ? subscribeEmpty() : undefined;
  return {
    ...(requestLog ? { requestLog } : {}),
    async close() {
      requestLog?.close();
      lines?.close();
      metrics?.close();
      tracing?.close();
      empty?.();
      await provider?.shutdown();
    },
  };
}

function subscribeEmpty(): () => void {
  const nothing = () => {};
  const names = Object.values(CHANNEL_NAMES).flatMap((n) =>
    ['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((e) => `tracing:${n}:${e}`),
  );
  for (const name of names) subscribe(name, nothing);
  return () => {
    for (const name of names) unsubscribe(name, nothing);
  };
}

const ALL_VARIANTS: Record<string, readonly Part[]> = {
  'off (no log, no metrics, no tracing)': [],
  'JSON access log (as serve: lines buffered, written together)': ['log'],
  'websift/metrics': ['metrics'],
  "websift/otel, no-op tracer (websift's side: no SDK)": ['otel-noop'],
  // The goal (issue 30): everything websift controls, together.
  "log + metrics + otel no-op tracer (all websift's)": ['log', 'metrics', 'otel-noop'],
  'websift/otel with the SDK (spans to a discarding exporter)': ['otel'],
  'all three, otel with the SDK': ['log', 'metrics', 'otel'],
  // Where the cost goes: lines made but not written, and every channel event with a subscriber that
  // does nothing (the channels' plumbing).
  'access log, lines not written': ['log-unwritten'],
  'empty subscribers on every channel': ['empty'],
};
// --only 1,2,5: the variants by their row (1-based; off, row 0, is always in).
const VARIANTS = values.only
  ? Object.fromEntries(Object.entries(ALL_VARIANTS).filter((_, i) => i === 0 || values.only!.split(',').map(Number).includes(i)))
  : ALL_VARIANTS;

/**
 * A variant's server, in a child process of its own with that variant on for its whole life, as
 * `websift serve` runs. (Until 2026-11-26 one server switched variants per round: each switch made new
 * subscribers, whose new symbols gave the contexts new hidden classes, so V8 threw optimized code away
 * each round and the contexts' property accesses went megamorphic over the run: a cost a server never
 * pays, and the "on" variants paid it more than "off".) Every variant's server is the same code: "off" too
 * goes through a request log, one that opens no record and writes nothing. It answers `begin`/`end` with
 * its CPU between them.
 */
async function variantServer(parts: readonly Part[]): Promise<never> {
  const on = turnOn(parts);
  const log = on.requestLog;
  const requestLog: RequestLog = log ?? {
    open: (req, res, next) => {
      next();
      return { req, res };
    },
    done: () => {},
    error: () => {},
    close: () => {},
  };
  const server = await startServer({ engine, host: '127.0.0.1', port: 0, log: () => {}, requestLog });
  let before = process.cpuUsage();
  process.on('message', (m: 'begin' | 'end') => {
    if (m === 'begin') before = process.cpuUsage();
    const cpu = process.cpuUsage(before);
    process.send!({ us: cpu.user + cpu.system });
  });
  process.send!({ url: `${server.url}/api/search?q=term+`, headers: auth });
  process.on('disconnect', () => process.exit(0)); // the parent gone (killed, timed out): no orphan server
  return new Promise<never>(() => {});
}
if (values['variant-server'] !== undefined) await variantServer(ALL_VARIANTS[values['variant-server']]!);

// One server process per variant (above), one load client child for the whole run, kept-alive
// connections: a round is a fixed number of requests to one variant's server, whose CPU is read around
// exactly them; each server is warmed up first (WARMUP requests) so V8 has compiled its hot code.
const client = childOf(['--client']);
const servers = Object.fromEntries(
  await Promise.all(
    Object.keys(VARIANTS).map(async (name) => {
      const child = childOf(['--variant-server', name]);
      const { url, headers } = await child.next<{ url: string; headers: Record<string, string> }>();
      return [name, { child, url, headers }] as const;
    }),
  ),
);
const send = async (name: string, requests: number) => {
  const { url, headers } = servers[name]!;
  const { failed } = await client.ask<{ failed: number }>({ url, headers, connections: CONNECTIONS, requests });
  if (failed > 0) throw new Error(`${failed} of ${requests} requests failed`);
};
for (const name of Object.keys(VARIANTS)) await send(name, WARMUP);

/** One round of a variant: µs of its server's CPU per request. */
async function round(name: string): Promise<number> {
  const { child } = servers[name]!;
  await child.ask('begin');
  await send(name, REQUESTS);
  const { us } = await child.ask<{ us: number }>('end');
  return us / REQUESTS;
}

/**
 * Rounds interleave the variants in rotating order, each ratio against the same round's "off"; prints
 * the table. `measure` runs one round of a variant.
 */
async function interleaved(title: string, variants: Record<string, readonly Part[]>, measure: (name: string) => Promise<number>) {
  const names = Object.keys(variants);
  for (const name of names) await measure(name); // warm-up
  const cpuOf = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  const ratioOf = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++) {
    const figures: Record<string, number> = {};
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      figures[name] = await measure(name);
    }
    for (const name of names) {
      cpuOf[name]!.push(figures[name]!);
      ratioOf[name]!.push(figures[name]! / figures[names[0]!]!);
    }
  }
  console.log(title);
  console.log('| observability | CPU µs/request | vs off (same round) |\n|---|---|---|');
  for (const name of names)
    console.log(`| ${name} | ${spread(cpuOf[name]!, one)} | ${spread(ratioOf[name]!, (x) => `${x.toFixed(3)}×`)} |`);
  return cpuOf[names[0]!]!;
}

const off = await interleaved(
  `1. Charged searches over HTTP (loopback, keep-alive): server CPU per request, ${REQUESTS} requests per variant per round, ${ROUNDS} interleaved rounds, ${CONNECTIONS} connections (client in a child process), Node ${process.version}`,
  VARIANTS,
  round,
);
client.close();
for (const { child } of Object.values(servers)) child.close();

// 1b. The same without sockets: the fetch handler called in-process (16 requests in flight), so the
// kernel's and node:http's work, which varies most on a loaded machine, leaves the figure. No access log
// here (it is node:http's).
const handle = createFetchHandler(engine);
let nextId = 0;
async function inProcess(parts: readonly Part[]): Promise<number> {
  const on = turnOn(parts);
  const work = async (requests: number) => {
    let left = requests;
    const worker = async () => {
      while (left-- > 0) {
        const res = await handle(new Request(`http://bench.test/api/search?q=term+${nextId++}`, { headers: auth }));
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  };
  if (SETTLE > 0) await work(SETTLE);
  const before = process.cpuUsage();
  await work(REQUESTS);
  const cpu = process.cpuUsage(before);
  await on.close();
  return (cpu.user + cpu.system) / REQUESTS;
}
if (values['skip-inprocess']) {
  await engine.close();
  process.exit(0);
}
const inProcessVariants: Record<string, readonly Part[]> = {
  ...Object.fromEntries(Object.entries(VARIANTS).filter(([, parts]) => !parts.some((p) => p.startsWith('log')))),
  'metrics + otel no-op tracer': ['metrics', 'otel-noop'],
};
await interleaved(
  `\n1b. The same through the fetch handler in-process (no sockets): CPU per request, ${REQUESTS} requests per variant per round, ${ROUNDS} rounds`,
  inProcessVariants,
  (name) => inProcess(inProcessVariants[name]!),
);

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
