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
// On the code as it ships (tsc's output; tsx's esbuild renames every function made at run time, ~27 µs a search:
// docs/benchmarks.md, "Observability: the code as it ships"): node bench/compiled.mjs observability [options].
//   npx tsx bench/observability.ts [--requests 1000] [--rounds 300] [--warmup 10000] [--connections 16] [--outages 5]
//     [--skip-readyz] [--skip-inprocess] [--only 1,2,…] [--allocations] [--tree-b DIR] [--processes 6] [--dump FILE]
//     [--upstream searxng|scripted|http://…]
// Since 2026-12-07 the defaults are short rounds (1,000 requests, ~0.1 s) many times over (300), V8's own GCs
// only, in 6 processes per variant: the forced full GC of the earlier method cost ~75 µs a request, as much
// as the search itself, and diluted every ratio (docs/benchmarks.md, "Observability: V8's own GCs").
// --processes K: part 1's rounds in K fresh processes per variant, one after another, the interval drawn over
// processes (one process's ±3–5 % of its own, which its rounds share, then counts).
// --upstream searxng (the default since 2026-12-07's third session): the servers' engine searches a SearXNG
// instance over loopback HTTP (websift's `searxng` source; the instance a child process answering ten results):
// a charged search with its upstream call, as in production, the search issue 30's goal is read on
// (docs/benchmarks.md, "Observability: the goal read on a search as the service makes it"); --upstream
// http://…: an instance of one's own; --upstream scripted: the in-memory scripted source, a search without
// its upstream call (the floor of a search's cost; the default before). A --tree-b tree from before that
// session knows no `scripted`: give it searxng or an address.
// --dump FILE: every round's µs per request (all threads, the main thread, a forced GC's) by variant, as JSON.
// --tree-b DIR: every chosen variant of part 1 twice, from this tree and from DIR's (rows `B: …`), in the
// same interleaved rounds; prints each tree's on/off and B/A per variant (a cut against its base).
// By default part 1 runs rows 1–4 (websift's: the log, metrics, otel no-op, the three together) and prints a
// verdict line for each; --only picks rows (5–6: otel with the SDK; 7–11: where the cost goes: 9–10 empty subscribers on half the channels, 11 on every start only;
// 12–14: two of websift's three together; 15: all websift's events, starts and notes with empty handlers).
// --allocations: instead of parts 1–3, bytes allocated per request by function, each variant against off.
// --forced-gc: one full GC forced midway through each round's requests, under load (the method from 2026-11-28
// to 2026-12-06, with --requests 2000); --idle-gc: forced before and after each round's requests, none in
// flight (the fifth round's, which made V8 recompile its hot code every round: docs/benchmarks.md, seventh
// round); default: none forced (`--natural-gc`, its old name, is accepted).
// VARIANT_FLAGS='--trace-opt --trace-deopt' (Node flags for the variant processes; VARIANT_FLAGS_FOR=<part of
// a variant's name>: that one only): its output marks each round's start with `ROUND-BEGIN <pid>`.
// Part 3 needs PostgreSQL at WEBSIFT_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).

import { type ChildProcess, fork } from 'node:child_process';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, resolve as resolvePath } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { CHANNEL_NAMES, readCallWork, traced, wantRequestStarts } from '../src/channels.js';
import { bufferedLines, lineDestination } from '../src/cli/buffered-lines.js';
import { createRequestLog, type RequestLog } from '../src/cli/request-log.js';
import { startServer } from '../src/cli/server.js';
import { createEngine } from '../src/engine/create-engine.js';
import { createFetchHandler } from '../src/http/fetch-handler.js';
import { websiftMetrics } from '../src/metrics/index.js';
import { websiftTracing } from '../src/otel/index.js';
import { searxng } from '../src/sources/searxng.js';
import { dropSchema, freshSchema, postgresProxy } from '../test/support/postgres.js';
import { sendCounted } from './lib/load-client.js';
import { searchBenchEngine, searxngUpstream } from './lib/search-bench.js';

const { values } = parseArgs({
  options: {
    client: { type: 'boolean' },
    requests: { type: 'string' },
    connections: { type: 'string' },
    rounds: { type: 'string' },
    outages: { type: 'string' },
    'skip-readyz': { type: 'boolean' },
    warmup: { type: 'string' },
    'variant-server': { type: 'string' },
    'variant-fetch': { type: 'string' },
    'skip-inprocess': { type: 'boolean' },
    only: { type: 'string' },
    allocations: { type: 'boolean' },
    'natural-gc': { type: 'boolean' }, // the default since 2026-12-07; accepted for older commands
    'forced-gc': { type: 'boolean' },
    'idle-gc': { type: 'boolean' },
    'tree-b': { type: 'string' },
    processes: { type: 'string' },
    dump: { type: 'string' },
    upstream: { type: 'string' },
    'upstream-child': { type: 'boolean' },
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
function childOf(
  args: string[],
  flags: string[] = [],
  script = fileURLToPath(import.meta.url),
): { ask<T>(message: unknown): Promise<T>; next<T>(): Promise<T>; close(): void } {
  const child: ChildProcess = fork(script, args, { execArgv: [...process.execArgv, ...flags] });
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

const REQUESTS = Number(values.requests ?? 1000);
const CONNECTIONS = Number(values.connections ?? 16);
const ROUNDS = Number(values.rounds ?? 300);
const OUTAGES = Number(values.outages ?? 5);
/** Requests each variant's server answers before the rounds (part 1), so V8 has compiled its hot code. */
const WARMUP = Number(values.warmup ?? 10_000);
/**
 * --processes K (part 1): each variant's server replaced by a fresh process, warmed up again, K − 1 times at
 * equal steps of the rounds, and the 95 % interval drawn over those processes (their runs of rounds), not
 * over single rounds: one process carries ±3–5 % of its own that its rounds share (docs/benchmarks.md,
 * obs10), which an interval over one process's rounds leaves out.
 */
const PROCESSES = Math.max(1, Math.min(ROUNDS, Number(values.processes ?? 6)));
/** The process (0 … blocks − 1) that round r of `rounds` ran in. */
const blockOf = (r: number, rounds: number, blocks: number) => Math.floor((r * blocks) / rounds);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], f: (x: number) => string) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
const int = (x: number) => String(Math.round(x));
const one = (x: number) => x.toFixed(1);
const times = (x: number) => `${x.toFixed(3)}×`;

/** The goal (issue 30): observability on ≤ 1.05× of off. */
const GOAL = 1.05;

/**
 * A variant's ratio to off from its rounds' ratios: the mean of their logarithms with the 10 % highest
 * and lowest rounds left out (a round another process's burst landed in), and its 95 % interval by
 * bootstrap (rounds drawn again with replacement, 4,000 times, a fixed seed: the same rounds give the
 * same interval).
 */
function ratioEstimate(ratios: readonly number[], blocks = 1): { mid: number; low: number; high: number } {
  const trimmedMean = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const cut = Math.floor(sorted.length * 0.1);
    const kept = sorted.slice(cut, sorted.length - cut);
    return kept.reduce((a, b) => a + b, 0) / kept.length;
  };
  const logs = ratios.map(Math.log);
  let seed = 0x2f6b_9a1d;
  const random = () => {
    seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
    return seed / 2 ** 32;
  };
  const draws: number[] = [];
  if (blocks > 1) {
    // Whole processes drawn again: each draw is `blocks` processes' rounds, picked with replacement.
    const runs: number[][] = Array.from({ length: blocks }, () => []);
    logs.forEach((x, r) => runs[blockOf(r, logs.length, blocks)]!.push(x));
    for (let b = 0; b < 4000; b++) draws.push(trimmedMean(runs.flatMap(() => runs[Math.floor(random() * blocks)]!)));
  } else for (let b = 0; b < 4000; b++) draws.push(trimmedMean(logs.map(() => logs[Math.floor(random() * logs.length)]!)));
  draws.sort((a, b) => a - b);
  return { mid: Math.exp(trimmedMean(logs)), low: Math.exp(draws[100]!), high: Math.exp(draws[3899]!) };
}

/** Met when the whole interval is at or under the goal, not met when it is all over, else not resolved. */
const verdictOf = ({ low, high }: { low: number; high: number }) =>
  high <= GOAL
    ? `≤ ${GOAL}×: met`
    : low > GOAL
      ? `> ${GOAL}×: not met`
      : `not resolved (the interval holds ${GOAL}×: more rounds, or a quieter machine)`;

// ---- 1. On vs off over HTTP ----

/**
 * `--upstream searxng` (the default): the variant servers' engine searches a SearXNG instance (websift's
 * `searxng` source, its `fetch` to a loopback server in a child process of its own: `--upstream-child`): a
 * search as it runs in production, its upstream call in the server's CPU. The parent starts the upstream
 * and hands its address to the variant processes (`--upstream http://…`, which also names an instance of
 * one's own). `--upstream scripted`: the scripted source, answering from memory.
 */
if (values['upstream-child']) {
  process.on('disconnect', () => process.exit(0));
  const { url } = await searxngUpstream();
  process.send!({ url });
  await new Promise(() => {});
}
const UPSTREAM = values.upstream ?? 'searxng';
if (UPSTREAM !== 'searxng' && UPSTREAM !== 'scripted' && !UPSTREAM.startsWith('http://'))
  throw new Error('--upstream: searxng, scripted, or http://…');
// A variant process is handed `scripted` or the instance's address (startVariants): with `searxng`, which names an
// instance to start (the parent's job), it would build the scripted engine under the searxng source's name.
if (UPSTREAM === 'searxng' && (values['variant-server'] !== undefined || values['variant-fetch'] !== undefined))
  throw new Error('a variant process needs --upstream scripted or http://…');
const upstreamUrl = UPSTREAM.startsWith('http://') ? UPSTREAM : undefined;
const { engine, key } = await searchBenchEngine(upstreamUrl ? { sources: [searxng({ baseUrl: upstreamUrl })] } : {});
const auth = { authorization: `Bearer ${key}` };

type Part =
  | 'log'
  | 'metrics'
  | 'otel'
  | 'log-unwritten'
  | 'otel-noop'
  | 'empty'
  | 'empty-http'
  | 'empty-engine'
  | 'empty-start'
  | 'plumbing';
/** What one variant turned on, to turn off after its round. */
interface On {
  requestLog?: RequestLog;
  close(): Promise<void>;
}
/** Turns the given parts on (subscribing to the channels), as `websift serve` would. */
function turnOn(parts: readonly Part[]): On {
  const on = new Set(parts);
  // serve's destination (lines buffered, written together) over /dev/null instead of stdout.
  const lines = on.has('log') ? bufferedLines({ destination: lineDestination('/dev/null') }) : undefined;
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
  // Or on websift:http only, or on the engine's channels only: which half of the plumbing costs.
  const empty = on.has('empty')
    ? subscribeEmpty(() => true)
    : on.has('empty-http')
      ? subscribeEmpty((n) => n === CHANNEL_NAMES.http)
      : on.has('empty-engine')
        ? subscribeEmpty((n) => n !== CHANNEL_NAMES.http)
        : on.has('empty-start')
          ? subscribeEmpty(() => true, ['start'])
          : on.has('plumbing')
            ? websiftsPlumbing()
            : undefined;
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

/**
 * What the log, metrics and otel together make the engine and the bindings do, with handlers that do
 * nothing: a listener on each event one of them listens to, the request starts asked for (metrics), and a
 * reader of the call notes that wants their times (otel). The plumbing of all websift's, without its handlers.
 */
function websiftsPlumbing(): () => void {
  const theirs: string[] = [CHANNEL_NAMES.http, CHANNEL_NAMES.search, CHANNEL_NAMES.extract, CHANNEL_NAMES.page];
  const stopEvents = subscribeEmpty((n) => theirs.includes(n), ['start', 'asyncEnd', 'error']);
  const stopStarts = wantRequestStarts();
  const stopReading = readCallWork({ attempt: () => {}, charge: () => {} });
  return () => {
    stopEvents();
    stopStarts();
    stopReading();
  };
}

function subscribeEmpty(which: (channel: string) => boolean, events = ['start', 'end', 'asyncStart', 'asyncEnd', 'error']): () => void {
  const nothing = () => {};
  const names = Object.values(CHANNEL_NAMES)
    .filter(which)
    .flatMap((n) => events.map((e) => `tracing:${n}:${e}`));
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
  'empty subscribers on websift:http only': ['empty-http'],
  "empty subscribers on the engine's channels only": ['empty-engine'],
  // Every channel traced (contexts made, settlements chained) but only `start` published: the
  // publishing against the rest.
  "empty subscribers on every channel's start only": ['empty-start'],
  // Two of websift's three together: which pair makes all three cost more than each alone.
  'log + metrics': ['log', 'metrics'],
  'log + otel no-op tracer': ['log', 'otel-noop'],
  'metrics + otel no-op tracer (over HTTP)': ['metrics', 'otel-noop'],
  // The events, request starts and notes all websift's turn on, every handler doing nothing.
  "all websift's plumbing, handlers empty": ['plumbing'],
};
/** Part 1b's variants: no access log (it is node:http's), and metrics with otel no-op together. */
const IN_PROCESS_VARIANTS: Record<string, readonly Part[]> = {
  ...Object.fromEntries(Object.entries(ALL_VARIANTS).filter(([, parts]) => !parts.some((p) => p.startsWith('log')))),
  'metrics + otel no-op tracer': ['metrics', 'otel-noop'],
};
const OFF = Object.keys(ALL_VARIANTS)[0]!;
// --only 1,2,5: the variants by their row (1-based; off, row 0, is always in). Default: websift's own
// rows, the goal's (1–4).
const ONLY = (values.only ?? '1,2,3,4').split(',').map(Number);
const CHOSEN = Object.entries(ALL_VARIANTS).filter((_, i) => i === 0 || ONLY.includes(i));
/**
 * --tree-b DIR: each chosen variant also from another source tree (a worktree of the change, or of the
 * base), its servers this file of that tree (`B: ` before the variant's name), interleaved in the same
 * rounds: a cut against its base on the same machine, the same minutes. Part 1 only.
 */
const TREE_B = values['tree-b'];
const B = 'B: ';
const VARIANTS = Object.fromEntries([...CHOSEN, ...(TREE_B ? CHOSEN.map(([name, parts]) => [`${B}${name}`, parts] as const) : [])]);

/**
 * `--allocations`: V8's sampling heap profiler (inspector, one sample per 256 bytes on average, objects a
 * scavenge or a mark-compact already collected kept in the profile) around exactly the measured requests:
 * `sample` starts it, `sampled` stops it and answers the bytes allocated by each function (self).
 */
let session: Session | undefined;
async function sampling(m: 'sample' | 'sampled' | 'profile' | 'profiled'): Promise<unknown> {
  if (!session) {
    session = new Session();
    session.connect();
  }
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session!.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  // The CPU profiler (bench/observability-profile.ts): self µs by function, the idle time left out.
  if (m === 'profile') {
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 100 });
    await post('Profiler.start');
    return { started: true };
  }
  if (m === 'profiled') {
    const { profile } = (await post('Profiler.stop')) as { profile: CpuProfile };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const us: Record<string, number> = {};
    for (let i = 0; i < profile.samples.length; i++) {
      const { functionName, url, lineNumber, columnNumber } = byId.get(profile.samples[i]!)!.callFrame;
      if (functionName === '(idle)') continue;
      const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${lineNumber + 1}:${columnNumber + 1}`;
      us[site] = (us[site] ?? 0) + (profile.timeDeltas[i + 1] ?? 0);
    }
    return { us };
  }
  if (m === 'sample') {
    await post('HeapProfiler.startSampling', {
      samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return { started: true };
  }
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: { head: SampleNode } };
  const bytes: Record<string, number> = {};
  const walk = (node: SampleNode) => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${lineNumber + 1}:${columnNumber + 1}`;
    bytes[site] = (bytes[site] ?? 0) + node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return { bytes };
}
interface CpuProfile {
  nodes: { id: number; callFrame: SampleNode['callFrame'] }[];
  samples: number[];
  timeDeltas: number[];
}
interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: SampleNode[];
}

/**
 * A variant's process: that variant on for its whole life, as `websift serve` runs (until 2026-11-26 one
 * server switched variants per round: each switch made new subscribers, whose new symbols gave the contexts
 * new hidden classes, so V8 threw optimized code away each round and the contexts' property accesses went
 * megamorphic: a cost a server never pays, and the "on" variants paid it more than "off"). Every variant is
 * the same code: "off" too goes through a request log, one that opens no record and writes nothing.
 * Part 1 (`http`): it serves over HTTP and answers `begin`/`end` around the requests the load client sends
 * it. Part 1b (`fetch`): it answers `{ run: n }` by calling the fetch handler n times in-process.
 * Since 2026-12-07 no GC is forced: V8 collects as it would in a server (a major GC every ~50,000 requests
 * here), and the rounds are short (1,000 requests) and many, so the few a major GC lands in fall to the
 * trimmed mean's cut. From 2026-11-28 to 2026-12-06 (`--forced-gc`) every round of 2,000 held one full GC
 * forced under load: against 2,000-request rounds, natural major GCs had decided single rounds (0.5–2× of
 * off), but the forced one and what followed it (V8's helper threads, recompiled code) cost ~75 µs a
 * request, as much as the search, and halved every ratio's distance from 1. Before 2026-11-28 07:45 (the
 * fifth round's method, `--idle-gc`) the GCs were forced before and after the requests, none in flight:
 * every per-request object then died, with it the hidden classes only such objects used (transitions hold
 * their maps weakly), and V8 threw away the optimized code that embedded them ("weak objects", ~30–60 hot
 * functions per GC) and recompiled it in the next window (docs/benchmarks.md, seventh round).
 */
async function variantProcess(parts: readonly Part[], mode: 'http' | 'fetch'): Promise<never> {
  // By default no forced GC (V8's own, as a server runs); --forced-gc: one forced under load, midway
  // through each round (the method from 2026-11-28 to 2026-12-06); --idle-gc: forced before and after the
  // requests, with none in flight (the fifth round's method).
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (!exposed) throw new Error('a variant process needs --expose-gc');
  const idleGc = values['idle-gc'] ? exposed : () => {};
  const loadGc = values['forced-gc'] ? exposed : () => {};
  const on = turnOn(parts);
  process.on('disconnect', () => process.exit(0)); // the parent gone (killed, timed out): no orphan server
  // Major GCs that V8 started by itself inside a measured window (the forced ones excluded): the method
  // above means to leave none; the parent prints how many there were.
  const windows: [number, number][] = [];
  let natural = 0;
  const majors: number[] = [];
  // Scavenges (minor GCs) inside the windows and their pause time: whether a variant's allocation crosses
  // the young generation's size more often (the interaction of the three, docs/benchmarks.md, obs10).
  const minors: [number, number][] = [];
  let scavenges = 0;
  let scavengeMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors.push(e.startTime);
      else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minors.push([e.startTime, e.duration]);
    }
  }).observe({ entryTypes: ['gc'] });
  // The forced GCs under load fall inside the windows: not V8's own.
  let forcedInWindows = 0;
  const countNatural = () => {
    for (const t of majors.splice(0)) if (windows.some(([a, b]) => t >= a && t < b)) natural++;
    for (const [t, ms] of minors.splice(0))
      if (windows.some(([a, b]) => t >= a && t < b)) {
        scavenges++;
        scavengeMs += ms;
      }
    natural -= forcedInWindows;
    forcedInWindows = 0;
  };
  let before = process.cpuUsage();
  let mainBefore = mainThreadNs();
  let windowStart = 0;
  // Requests seen in the current window: the forced GC under load comes at the middle one.
  let seen = -1;
  const tick = () => {
    // Nothing inside the window unless a GC is forced there (no clock nor heap read with V8's own GCs).
    if (loadGc !== exposed || seen < 0 || ++seen !== REQUESTS >> 1) return;
    const beforeGc = process.cpuUsage();
    loadGc();
    forcedInWindows++;
    const gcCpu = process.cpuUsage(beforeGc);
    gcUs += gcCpu.user + gcCpu.system;
    heapAfter = process.memoryUsage().heapUsed;
  };
  const begin = () => {
    if (process.env.VARIANT_FLAGS) console.log(`ROUND-BEGIN ${process.pid}`);
    idleGc();
    seen = 0;
    gcAtBegin = gcUs;
    windowStart = performance.now();
    mainBefore = mainThreadNs();
    before = process.cpuUsage();
  };
  // CPU of the forced GCs inside the windows, and the heap they left, for the parent's diagnostics.
  let gcUs = 0;
  let gcAtBegin = 0;
  let heapAfter = 0;
  // Of the windows' CPU, how much the main thread ran (the rest: V8's compiler and GC helpers, libuv's pool).
  let mainUs = 0;
  let cpuUs = 0;
  const end = () => {
    windows.push([windowStart, performance.now()]); // before the forced GC: that one is not "natural"
    seen = -1;
    const beforeGc = process.cpuUsage();
    idleGc();
    const cpu = process.cpuUsage(before);
    mainUs += (mainThreadNs() - mainBefore) / 1000;
    const gcCpu = process.cpuUsage(beforeGc);
    gcUs += gcCpu.user + gcCpu.system;
    if (values['idle-gc']) heapAfter = process.memoryUsage().heapUsed;
    cpuUs += cpu.user + cpu.system;
    lastRound = { main: (mainThreadNs() - mainBefore) / 1000, gc: gcUs - gcAtBegin };
    return cpu.user + cpu.system;
  };
  let lastRound = { main: 0, gc: 0 };
  const stats = () => {
    countNatural();
    return { natural, gcUs, heapAfter, mainUs, cpuUs, scavenges, scavengeMs };
  };
  if (mode === 'fetch') {
    const handle = createFetchHandler(engine);
    let nextId = 0;
    const work = async (requests: number) => {
      let left = requests;
      const worker = async () => {
        while (left-- > 0) {
          tick();
          const res = await handle(new Request(`http://bench.test/api/search?q=term+${nextId++}`, { headers: auth }));
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`status ${res.status}`);
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, worker));
    };
    process.on('message', (m: { run?: number; stats?: true }) => {
      if (m.stats) {
        process.send!(stats());
        return;
      }
      void (async () => {
        begin();
        await work(m.run!);
        process.send!({ us: end() });
      })();
    });
    process.send!({ ready: true });
    return new Promise<never>(() => {});
  }
  const log = on.requestLog;
  const inner: RequestLog = log ?? {
    open: (req, res, next) => {
      next(req, res);
      return { req, res };
    },
    done: () => {},
    error: () => {},
    close: () => {},
  };
  // Every variant's requests pass here (off's too): the count that places the forced GC under load.
  const requestLog: RequestLog = {
    open: (req, res, next) => {
      tick();
      return inner.open(req, res, next);
    },
    done: (entry) => inner.done(entry),
    error: (error, request) => inner.error(error, request),
    close: () => inner.close(),
  };
  const server = await startServer({ engine, host: '127.0.0.1', port: 0, log: () => {}, requestLog });
  process.on('message', (m: 'begin' | 'end' | 'stats' | 'sample' | 'sampled' | 'profile' | 'profiled') => {
    if (m === 'sample' || m === 'sampled' || m === 'profile' || m === 'profiled') void sampling(m).then((answer) => process.send!(answer));
    else if (m === 'stats') process.send!(stats());
    else if (m === 'begin') {
      begin();
      process.send!({ us: 0 });
    } else process.send!({ us: end(), ...lastRound });
  });
  process.send!({ url: `${server.url}/api/search?q=term+`, headers: auth });
  return new Promise<never>(() => {});
}
if (values['variant-server'] !== undefined) await variantProcess(ALL_VARIANTS[values['variant-server']]!, 'http');
if (values['variant-fetch'] !== undefined) await variantProcess(IN_PROCESS_VARIANTS[values['variant-fetch']]!, 'fetch');

/** A variant process's diagnostics: major GCs V8 began itself in a window, CPU µs of the forced GCs, heap after the last, the windows' CPU µs (all threads, and the main thread's). */
interface Stats {
  natural: number;
  /** Scavenges begun inside the windows, and their pauses' total ms. */
  scavenges: number;
  scavengeMs: number;
  gcUs: number;
  heapAfter: number;
  mainUs: number;
  cpuUs: number;
}

/**
 * ns of CPU the main thread ran (Linux: /proc/self/task/<pid>/schedstat, first field; 0 where there is no
 * /proc): process.cpuUsage() sums every thread, V8's background compiler and concurrent GC markers too,
 * and this says how much of it was the main thread's (docs/benchmarks.md, seventh round).
 */
function mainThreadNs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

/** --upstream as the variant processes get it: searxng's instance is a child process's, for the whole run. */
const upstreamAddress = UPSTREAM === 'searxng' ? (await childOf(['--upstream-child']).next<{ url: string }>()).url : UPSTREAM;

/** Starts one process per variant (`--variant-server`/`--variant-fetch` NAME), with --expose-gc, and waits for each to be ready. */
async function startVariants<T>(flag: string, names: readonly string[]) {
  return Object.fromEntries(
    await Promise.all(
      names.map(async (name) => {
        const extra =
          !process.env.VARIANT_FLAGS_FOR || name.includes(process.env.VARIANT_FLAGS_FOR)
            ? (process.env.VARIANT_FLAGS?.split(' ').filter(Boolean) ?? [])
            : [];
        // The options a variant process reads itself (it parses its own argv).
        const forwarded = [
          ...(values.requests ? ['--requests', values.requests] : []),
          // --natural-gc too: an older tree's servers (--tree-b) forced a GC a round unless told not to.
          ...(values['forced-gc'] ? ['--forced-gc'] : values['idle-gc'] ? [] : ['--natural-gc']),
          ...(values['idle-gc'] ? ['--idle-gc'] : []),
          '--upstream',
          upstreamAddress,
        ];
        const fromB = TREE_B !== undefined && name.startsWith(B);
        // This file in tree B, as this one runs: TypeScript (tsx), or compiled (bench/compiled.mjs hands DIR's output).
        const script = fromB ? resolvePath(TREE_B, 'bench', basename(fileURLToPath(import.meta.url))) : undefined;
        const child = childOf([flag, fromB ? name.slice(B.length) : name, ...forwarded], ['--expose-gc', ...extra], script);
        return [name, { child, ready: await child.next<T>() }] as const;
      }),
    ),
  );
}

// Part 1: one load client child for the whole run, kept-alive connections: a round is a fixed number of
// requests to one variant's server, whose CPU is read around exactly them (and its forced GC, above);
// each server is warmed up first (WARMUP requests) so V8 has compiled its hot code.
const client = childOf(['--client']);
let servers = await startVariants<{ url: string; headers: Record<string, string> }>('--variant-server', Object.keys(VARIANTS));
const send = async (name: string, requests: number) => {
  const { url, headers } = servers[name]!.ready;
  const { failed } = await client.ask<{ failed: number }>({ url, headers, connections: CONNECTIONS, requests });
  if (failed > 0) throw new Error(`${failed} of ${requests} requests failed`);
};
for (const name of Object.keys(VARIANTS)) await send(name, WARMUP);

if (values.allocations) {
  // Bytes allocated per request, by function, each variant against off (sampled: a few % either way).
  const bytesOf: Record<string, Record<string, number>> = {};
  for (const name of Object.keys(VARIANTS)) {
    const { child } = servers[name]!;
    await child.ask('sample');
    await send(name, REQUESTS);
    bytesOf[name] = (await child.ask<{ bytes: Record<string, number> }>('sampled')).bytes;
  }
  const total = (b: Record<string, number>) => Object.values(b).reduce((x, y) => x + y, 0) / REQUESTS;
  const offBytes = bytesOf[OFF]!;
  console.log(
    `Bytes allocated per charged search over HTTP (server, sampling heap profiler), ${REQUESTS} requests per variant, Node ${process.version}`,
  );
  for (const name of Object.keys(VARIANTS)) {
    const b = bytesOf[name]!;
    console.log(`\n${name}: ${int(total(b))} bytes/request (off ${int(total(offBytes))})`);
    if (name === OFF) continue;
    const sites = new Set([...Object.keys(b), ...Object.keys(offBytes)]);
    const diffs = [...sites].map((site) => [site, ((b[site] ?? 0) - (offBytes[site] ?? 0)) / REQUESTS] as const);
    for (const [site, d] of diffs.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1])).slice(0, 25))
      console.log(`  ${d > 0 ? '+' : ''}${int(d)}  ${site}`);
  }
  client.close();
  for (const { child } of Object.values(servers)) child.close();
  process.exit(0);
}

/** One round of a variant: µs of its server's CPU per request. */
async function round(name: string): Promise<number> {
  const { child } = servers[name]!;
  await child.ask('begin');
  await send(name, REQUESTS);
  const { us, main, gc } = await child.ask<{ us: number; main?: number; gc?: number }>('end');
  // main and gc are undefined from an older tree's processes (--tree-b)
  (dumped[name] ??= []).push({ process: processNo, us: us / REQUESTS, main: (main ?? 0) / REQUESTS, gc: (gc ?? 0) / REQUESTS });
  return us / REQUESTS;
}
/** --dump FILE: every round's figures (µs/request: all threads, the main thread, the forced GC), by variant. */
const dumped: Record<string, { process: number; us: number; main: number; gc: number }[]> = {};
let processNo = 0;

/**
 * Rounds interleave the variants in rotating order, each ratio against the same round's "off"; prints
 * the table and, for each variant, the verdict against the goal. `measure` runs one round of a variant.
 */
async function interleaved(
  title: string,
  names: readonly string[],
  measure: (name: string) => Promise<number>,
  stats: (name: string) => Promise<Stats>,
  /** With --processes: replaces every variant's process (the next block of rounds runs in fresh ones). */
  replace?: () => Promise<void>,
) {
  const blocks = replace ? PROCESSES : 1;
  const cpuOf = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  const ratioOf = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++) {
    if (r > 0 && blockOf(r, ROUNDS, blocks) !== blockOf(r - 1, ROUNDS, blocks)) await replace!();
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
  const stated = await Promise.all(names.map(stats));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(title);
  console.log(
    '| observability | CPU µs/request | vs off: median of rounds | total CPU vs off | trimmed mean, 95 % interval |\n|---|---|---|---|---|',
  );
  const verdicts: string[] = [];
  for (const [i, name] of names.entries()) {
    const est = ratioEstimate(ratioOf[name]!, blocks);
    const total = sum(cpuOf[name]!) / sum(cpuOf[names[0]!]!);
    console.log(
      `| ${name} | ${spread(cpuOf[name]!, one)} | ${spread(ratioOf[name]!, times)} | ${times(total)} | ${times(est.mid)} (${times(est.low)}–${times(est.high)}) |`,
    );
    if (i > 0) verdicts.push(`verdict: ${name}: ${times(est.mid)} (95 %: ${times(est.low)}–${times(est.high)}) → ${verdictOf(est)}`);
  }
  console.log(
    `(main thread's share of each variant's CPU: ${names.map((n, i) => `${((stated[i]!.mainUs / stated[i]!.cpuUs) * 100).toFixed(1)} % (${one(stated[i]!.mainUs / (cpuOf[n]!.length * REQUESTS))} µs/request)`).join(', ')}; the rest is V8's and libuv's threads)`,
  );
  const forced = values['forced-gc'] || values['idle-gc'];
  console.log(
    `(${forced ? `forced GC's share of each variant's CPU: ${names.map((n, i) => `${((stated[i]!.gcUs / (sum(cpuOf[n]!) * REQUESTS)) * 100).toFixed(1)} %`).join(', ')}; heap after it: ${stated.map((s) => `${(s.heapAfter / 2 ** 20).toFixed(1)} MB`).join(', ')}` : 'no GC forced'}; V8's own major GCs inside the windows, all variants: ${sum(stated.map((s) => s.natural))})`,
  );
  console.log(
    `(scavenges per 1,000 requests in the windows, and their pause µs per request: ${names.map((n, i) => (stated[i]!.scavenges === undefined ? '— (an older tree)' : `${((stated[i]!.scavenges * 1000) / (cpuOf[n]!.length * REQUESTS)).toFixed(2)} (${((stated[i]!.scavengeMs * 1000) / (cpuOf[n]!.length * REQUESTS)).toFixed(1)} µs)`)).join(', ')})`,
  );
  for (const line of verdicts) console.log(line);
  if (TREE_B) {
    // Each tree's own on/off, round by round (B's rows above are against A's off).
    const own = (name: string) => (name.startsWith(B) ? `${B}${OFF}` : OFF);
    for (const name of names.filter((n) => n !== OFF && n !== `${B}${OFF}`)) {
      const est = ratioEstimate(
        cpuOf[name]!.map((x, r) => x / cpuOf[own(name)]![r]!),
        blocks,
      );
      console.log(`own off: ${name}: ${times(est.mid)} (95 %: ${times(est.low)}–${times(est.high)})`);
    }
    for (const name of names.filter((n) => !n.startsWith(B))) {
      const est = ratioEstimate(
        cpuOf[`${B}${name}`]!.map((x, r) => x / cpuOf[name]![r]!),
        blocks,
      );
      console.log(`B/A: ${name}: ${times(est.mid)} (95 %: ${times(est.low)}–${times(est.high)})`);
    }
  }
  return cpuOf[names[0]!]!;
}

/** The stats of the processes replaced so far (--processes), by variant, added to the last process's. */
const earlier: Record<string, Stats> = {};
const addStats = (a: Stats | undefined, b: Stats): Stats =>
  a === undefined
    ? b
    : {
        natural: a.natural + b.natural,
        // undefined from an older tree's processes (--tree-b), which do not count them
        scavenges: a.scavenges === undefined || b.scavenges === undefined ? (undefined as unknown as number) : a.scavenges + b.scavenges,
        scavengeMs: a.scavengeMs + b.scavengeMs,
        gcUs: a.gcUs + b.gcUs,
        heapAfter: b.heapAfter,
        mainUs: a.mainUs + b.mainUs,
        cpuUs: a.cpuUs + b.cpuUs,
      };
async function replaceServers(): Promise<void> {
  processNo++;
  for (const name of Object.keys(VARIANTS)) {
    earlier[name] = addStats(earlier[name], await servers[name]!.child.ask<Stats>('stats'));
    servers[name]!.child.close();
  }
  servers = await startVariants<{ url: string; headers: Record<string, string> }>('--variant-server', Object.keys(VARIANTS));
  for (const name of Object.keys(VARIANTS)) await send(name, WARMUP);
}
const off = await interleaved(
  `1. Charged searches over HTTP (loopback, keep-alive): server CPU per request, ${PROCESSES === 1 ? 'one process' : `${PROCESSES} processes one after another`} per variant, ${values['forced-gc'] ? "a full GC forced midway through each round's requests (under load)" : values['idle-gc'] ? 'a full GC forced before and after each round' : "V8's own GCs only"}, ${REQUESTS} requests per variant per round, ${ROUNDS} interleaved rounds, warm-up ${WARMUP}, ${CONNECTIONS} connections (client in a child process), the engine's source ${UPSTREAM === 'scripted' ? 'scripted, in memory (no upstream call)' : UPSTREAM === 'searxng' ? 'searxng, its instance a loopback server in a child process' : `searxng at ${UPSTREAM}`}, Node ${process.version}`,
  Object.keys(VARIANTS),
  round,
  async (name) => addStats(earlier[name], await servers[name]!.child.ask<Stats>('stats')),
  PROCESSES > 1 ? replaceServers : undefined,
);
client.close();
for (const { child } of Object.values(servers)) child.close();
if (values.dump) writeFileSync(values.dump, JSON.stringify(dumped));

// 1b. The same without sockets: the fetch handler called in-process (16 requests in flight), so the
// kernel's and node:http's work leave the figure; one process per variant as in part 1 (until
// 2026-11-28 one process switched variants per round). No access log here (it is node:http's).
if (!values['skip-inprocess']) {
  // With --only: the chosen rows that run in-process, and metrics + otel no-op when both are chosen.
  const both = Object.values(VARIANTS).some((p) => p.includes('metrics')) && Object.values(VARIANTS).some((p) => p.includes('otel-noop'));
  const names = Object.keys(IN_PROCESS_VARIANTS).filter(
    (n) => n === OFF || Object.hasOwn(VARIANTS, n) || (both && n === 'metrics + otel no-op tracer'),
  );
  const fetchers = await startVariants<{ ready: true }>('--variant-fetch', names);
  const run = async (name: string, requests: number) => (await fetchers[name]!.child.ask<{ us: number }>({ run: requests })).us / requests;
  for (const name of names) await run(name, WARMUP);
  await interleaved(
    `\n1b. The same through the fetch handler in-process (no sockets): CPU per request, one process per variant, ${REQUESTS} requests per variant per round, ${ROUNDS} rounds`,
    names,
    (name) => run(name, REQUESTS),
    (name) => fetchers[name]!.child.ask<Stats>({ stats: true }),
  );
  for (const { child } of Object.values(fetchers)) child.close();
}

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
