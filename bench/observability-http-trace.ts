// What the websift:http trace costs per request, without the engine: two trees' API handlers
// (createApiHandler) in one process, each over a stub engine (authenticate and search answer resolved promises,
// a small fixed answer), answering GET /api/search in-process, 16 in flight. Sub-microsecond differences that
// the request benches (bench/observability.ts: ~120–200 µs a request, ±4–10 % between runs) cannot resolve
// show here. Variants: `off` (no subscriber), `empty-http` (a subscriber that does nothing on every websift:http
// event), `metrics` (that tree's websift/metrics alone), `log` (that tree's JSON access log, opened and written
// around each request as serve does, with stand-in req/res, lines written nowhere), `all` (log, metrics and
// websift/otel over the no-op tracer: with no engine, the HTTP part of each), each subscribed for its own
// tree's rounds only. Rounds
// interleave trees and variants in rotating order; prints CPU ns per request, median (min–max) of the rounds,
// each variant's on − off within its tree, and B/A paired by round.
//   npx tsx bench/observability-http-trace.ts --a /work/wt-base --b . [--rounds 15] [--requests 40000] [--variants off,empty-http,metrics]

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { trace } from '@opentelemetry/api';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    rounds: { type: 'string' },
    requests: { type: 'string' },
    warmup: { type: 'string' },
    variants: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds ?? 15);
const REQUESTS = Number(values.requests ?? 40000);
const WARMUP = Number(values.warmup ?? 40000);
const VARIANTS = (values.variants ?? 'off,empty-http,metrics').split(',');
const TREES = { A: resolve(values.a ?? '.'), B: resolve(values.b ?? '.') };

type Handler = (request: unknown) => Promise<{ status: number }>;
interface RequestLog {
  open(req: unknown, res: unknown, next: (req: unknown, res: unknown) => void): unknown;
  done(entry: unknown): void;
  close(): void;
}
interface Tree {
  handle: Handler;
  metrics: (options: { processMetrics: false }) => { close(): void };
  log: () => RequestLog;
  otel: () => { close(): void };
}

const ANSWER = { query: 'q', results: [{ title: 'Cats', url: 'https://cats.test/', snippet: 'meow' }], credits_used: 1 };
const engine = {
  authenticate: async () => ({ organization: 'acme' }),
  search: async () => ANSWER,
};

async function load(dir: string): Promise<Tree> {
  const { createApiHandler } = await import(`${dir}/src/http/api-handler.ts`);
  const { websiftMetrics } = await import(`${dir}/src/metrics/index.ts`);
  const { createRequestLog } = await import(`${dir}/src/cli/request-log.ts`);
  const { websiftTracing } = await import(`${dir}/src/otel/index.ts`);
  return {
    handle: createApiHandler(engine, { health: true }),
    metrics: websiftMetrics,
    log: () => createRequestLog({ format: 'json', stream: { write: () => {} }, say: () => {} }),
    otel: () => websiftTracing({ tracerProvider: trace.getTracerProvider() }),
  };
}
const trees: Record<string, Tree> = { A: await load(TREES.A), B: await load(TREES.B) };

const headers: Record<string, string> = { host: '127.0.0.1', authorization: 'Bearer k' };
const get = { get: (name: string) => headers[name] ?? null };
let id = 0;
/** The access log of the round, when its variant has one. */
let requestLog: RequestLog | undefined;
async function one(handle: Handler): Promise<void> {
  const target = `/api/search?q=term+${id++}`;
  const request = { method: 'GET', target, url: `http://127.0.0.1${target}`, headers: get, body: null };
  if (!requestLog) {
    const reply = await handle(request);
    if (reply.status !== 200) throw new Error(`status ${reply.status}`);
    return;
  }
  // As serve: the record opened around the hand-over to the bindings, the line written once answered.
  const req = { method: 'GET', url: target, headers };
  const res = { headersSent: false, statusCode: 200, header: undefined as string | undefined, getHeader: () => res.header };
  let replied!: Promise<{ status: number; headers?: Record<string, string> }>;
  const entry = requestLog.open(req, res, () => {
    replied = handle(request);
  });
  const reply = await replied;
  if (reply.status !== 200) throw new Error(`status ${reply.status}`);
  res.headersSent = true;
  res.header = reply.headers?.['x-request-id'];
  requestLog.done(entry);
}
async function run(handle: Handler, n: number): Promise<void> {
  let left = n;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) await one(handle);
    }),
  );
}

const nothing = () => {};
const HTTP_EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((e) => `tracing:websift:http:${e}`);
/** Turns a variant on for one tree's round; answers how to turn it off. */
function turnOn(variant: string, tree: Tree): () => void {
  if (variant === 'empty-http') {
    for (const name of HTTP_EVENTS) subscribe(name, nothing);
    return () => {
      for (const name of HTTP_EVENTS) unsubscribe(name, nothing);
    };
  }
  if (variant === 'metrics') {
    const metrics = tree.metrics({ processMetrics: false });
    return () => metrics.close();
  }
  if (variant === 'log' || variant === 'all') {
    const log = (requestLog = tree.log());
    const metrics = variant === 'all' ? tree.metrics({ processMetrics: false }) : undefined;
    const otel = variant === 'all' ? tree.otel() : undefined;
    return () => {
      requestLog = undefined;
      log.close();
      metrics?.close();
      otel?.close();
    };
  }
  return () => {};
}

async function round(variant: string, tree: Tree, n: number): Promise<number> {
  const off = turnOn(variant, tree);
  try {
    await run(tree.handle, Math.min(2000, n)); // a few requests first: this variant's code warm again
    const cpu = process.cpuUsage();
    await run(tree.handle, n);
    const used = process.cpuUsage(cpu);
    return ((used.user + used.system) * 1000) / n;
  } finally {
    off();
  }
}

const cells = VARIANTS.flatMap((v) => (['A', 'B'] as const).map((t) => ({ variant: v, tree: t })));
for (const cell of cells) await round(cell.variant, trees[cell.tree]!, WARMUP);
const ns: Record<string, number[]> = {};
for (let r = 0; r < ROUNDS; r++) {
  const order = cells.map((_, i) => cells[(i + r) % cells.length]!);
  for (const cell of order) {
    const key = `${cell.tree} ${cell.variant}`;
    (ns[key] ??= []).push(await round(cell.variant, trees[cell.tree]!, REQUESTS));
  }
  process.stderr.write(
    `round ${r + 1}: ${order.map((c) => `${c.tree} ${c.variant} ${Math.round(ns[`${c.tree} ${c.variant}`]!.at(-1)!)}`).join(', ')}\n`,
  );
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const span = (xs: number[], digits = 0) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
console.log(`CPU ns per request, ${ROUNDS} rounds × ${REQUESTS} requests, A = ${TREES.A}, B = ${TREES.B}, Node ${process.version}`);
console.log('| variant | A ns/request | B ns/request | A: on − off | B: on − off | B/A paired |');
console.log('|---|---|---|---|---|---|');
for (const v of VARIANTS) {
  const a = ns[`A ${v}`]!;
  const b = ns[`B ${v}`]!;
  const aOff = ns['A off'];
  const bOff = ns['B off'];
  const over = (xs: number[], off: number[] | undefined) => (off && v !== 'off' ? span(xs.map((x, i) => x - off[i]!)) : '—');
  console.log(
    `| ${v} | ${span(a)} | ${span(b)} | ${over(a, aOff)} | ${over(b, bOff)} | ${span(
      b.map((x, i) => x / a[i]!),
      3,
    )} |`,
  );
}
