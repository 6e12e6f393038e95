// Fallback cost (real time, system clock): what a failing first source adds to a search answered by a
// healthy second one. Both sources call a loopback node:http server (the failing one gets a 503, the
// healthy one ten results), so each call is a real socket round trip. Baseline, in the same process and
// interleaved search by search (which goes first alternating): the healthy source alone. Measured through
// the router and through createEngine(...).search. The searches are split into rounds: each round's p50 and
// p99 of both and the difference, median (min–max) over rounds.
// Run: npx tsx bench/fallback.ts [searches=1000] [rounds=5]
//
// The failing source must be asked first, and retryable, on every search (as on a search soon after it
// broke): its breaker never opens (failureThreshold: 2^53 − 1; an open breaker would skip it, a half-open
// trial is not retried), and the clock the router sees jumps an hour ahead before each search, so its
// error rate fades and it keeps its rank. Only the router's bookkeeping reads that clock; its backoff
// sleeps are real timers.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '../src/adapters/system-clock.js';
import { createRouter } from '../src/core/router/router.js';
import { SourceError } from '../src/core/router/source-error.js';
import { parseQuery } from '../src/core/search/query.js';
import { createEngine } from '../src/index.js';
import type { Clock, SearchSource } from '../src/types/index.js';
import { spread } from './lib/rounds.js';

const N = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 5);
const routerOptions = { breaker: { failureThreshold: Number.MAX_SAFE_INTEGER } };
const WARMUP = 30;

const body = JSON.stringify({
  results: Array.from({ length: 10 }, (_, i) => ({ title: `Title ${i}`, url: `https://example.com/${i}`, snippet: 'A snippet.' })),
});
const server = createServer((req, res) => {
  if (req.url?.startsWith('/fail')) {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}');
  } else {
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const httpSource = (id: string, path: string): SearchSource => ({
  id,
  async search(query, ctx) {
    const res = await fetch(`${base}${path}?q=${encodeURIComponent(query.q)}`, { signal: ctx.signal });
    const text = await res.text();
    if (!res.ok) throw new SourceError(`${id}: HTTP ${res.status}`, { reason: 'unavailable', status: res.status });
    return JSON.parse(text) as { results: { title: string; url: string; snippet: string }[] };
  },
});

/** The system clock, seen an hour later after each `jump()` (see the header). */
function jumpingClock(): Clock & { jump(): void } {
  let skew = 0;
  return { now: () => Date.now() + skew, sleep: systemClock.sleep, jump: () => void (skew += 3_600_000) };
}

type Search = (i: number) => Promise<unknown>;

function routerSearch(sources: SearchSource[]): Search {
  const clock = jumpingClock();
  const router = createRouter(sources, { ...routerOptions, clock });
  return async (i) => {
    clock.jump();
    const r = await router.route(parseQuery(`query ${i}`), { limit: 10 });
    if (r.results.length === 0) throw new Error('no results');
  };
}

async function engineSearch(sources: SearchSource[]): Promise<{ search: Search; close: () => Promise<void> }> {
  const clock = jumpingClock();
  const engine = createEngine({ sources, clock, rateLimit: false, router: routerOptions });
  await engine.admin.createOrganization('bench', { credits: 1_000_000_000 });
  return {
    search: async (i) => {
      clock.jump();
      await engine.search({ q: `query ${i}` }, { organization: 'bench' });
    },
    close: () => engine.close(),
  };
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

type Rounds = { alone: number[]; fallback: number[] }[];

/** Runs the two configurations search by search, alternating which goes first; returns ms per search, per round. */
async function compare(alone: Search, fallback: Search, n: number): Promise<Rounds> {
  for (let i = 0; i < WARMUP; i++) {
    await alone(-1 - i);
    await fallback(-1 - i);
  }
  const rounds: Rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const out = { alone: [] as number[], fallback: [] as number[] };
    for (let k = 0; k < n / ROUNDS; k++) {
      const i = r * Math.ceil(n / ROUNDS) + k;
      for (const which of i % 2 === 0 ? (['alone', 'fallback'] as const) : (['fallback', 'alone'] as const)) {
        const t0 = process.hrtime.bigint();
        await (which === 'alone' ? alone : fallback)(i);
        out[which].push(ms(t0));
      }
    }
    rounds.push(out);
  }
  return rounds;
}

/** Added latency = the fallback configuration's percentile minus the healthy source's own, per round. */
function row(label: string, rounds: Rounds): string {
  const at = (p: number) =>
    rounds.map((r) => {
      const [a, f] = [r.alone, r.fallback].map((x) => [...x].sort((x1, x2) => x1 - x2)) as [number[], number[]];
      return { a: pct(a, p), f: pct(f, p) };
    });
  const [p50, p99] = [at(0.5), at(0.99)];
  return `| ${label} | ${spread(
    p50.map((x) => x.a),
    2,
  )} | ${spread(
    p99.map((x) => x.a),
    2,
  )} | ${spread(
    p50.map((x) => x.f),
    2,
  )} | ${spread(
    p99.map((x) => x.f),
    2,
  )} | ${spread(
    p50.map((x) => x.f - x.a),
    2,
  )} | ${spread(
    p99.map((x) => x.f - x.a),
    2,
  )} |`;
}

const healthy = () => httpSource('healthy', '/ok');
const failing = () => httpSource('failing', '/fail');
/** Fails without I/O (a refused key checked locally, a broken adapter): what is added is the router's own. */
const failingAtOnce = (): SearchSource => ({
  id: 'failing',
  search: async () => {
    throw new SourceError('failing: down', { reason: 'unavailable' });
  },
});

console.log(
  `${N} searches per configuration (after ${WARMUP} unmeasured), interleaved, in ${ROUNDS} rounds; ms per search, median (min–max) over rounds`,
);
console.log('| path | healthy alone p50 | p99 | [failing, healthy] p50 | p99 | added p50 | added p99 |');
console.log('|---|---|---|---|---|---|---|');
console.log(row('router.route, failing = HTTP 503', await compare(routerSearch([healthy()]), routerSearch([failing(), healthy()]), N)));
console.log(row('router.route, failing at once', await compare(routerSearch([healthy()]), routerSearch([failingAtOnce(), healthy()]), N)));
for (const [label, first] of [
  ['HTTP 503', failing],
  ['at once', failingAtOnce],
] as const) {
  const e1 = await engineSearch([healthy()]);
  const e2 = await engineSearch([first(), healthy()]);
  console.log(row(`engine.search, failing = ${label}`, await compare(e1.search, e2.search, N)));
  await Promise.all([e1.close(), e2.close()]);
}
server.close();
