// Search overhead: searches per second through the engine (zero-latency scripted source, SQLite
// ledger on a file) beside the same loop calling the source directly. Run: npx tsx bench/search.ts [N]
// Prints a Markdown table for docs/benchmarks.md.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../src/adapters/sqlite/ledger.js';
import { systemClock } from '../src/adapters/system-clock.js';
import { createRouter } from '../src/core/router/router.js';
import { parseQuery } from '../src/core/search/query.js';
import { createEngine } from '../src/index.js';
import { scriptedSource } from '../src/testing/scripted-source.js';
import type { SearchSource } from '../src/types/index.js';

const N = Number(process.argv[2] ?? 5000);
const results = Array.from({ length: 10 }, (_, i) => ({
  title: `Title ${i}`,
  url: `https://example.com/${i}`,
  snippet: 'A snippet of text.',
}));
const source = (): SearchSource => scriptedSource('zero', () => ({ results }));

interface Sample {
  /** Wall-clock µs per call (includes fsync waits and time the shared machine gave to others). */
  wall: number;
  /** CPU µs (user + system) per call: steadier than wall time on a loaded machine. */
  cpu: number;
}

async function timeLoop(n: number, body: (i: number) => Promise<unknown>): Promise<Sample> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await body(i);
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / n;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / n };
}

async function direct(run: number): Promise<Sample> {
  const s = source();
  const ctx = { signal: new AbortController().signal, limit: 10 };
  return timeLoop(N, (i) => s.search(parseQuery(`direct ${run} query ${i}`), ctx));
}

/**
 * The router alone (same zero-latency source): its share of the engine's overhead. With two sources the
 * first answers every search, and after 20 searches a hedge mark exists (the hedging path runs).
 */
async function routerLoop(run: number, sources = 1): Promise<Sample> {
  const router = createRouter(
    Array.from({ length: sources }, (_, k) => scriptedSource(`zero${k}`, () => ({ results }))),
    { clock: systemClock },
  );
  return timeLoop(N, (i) => router.route(parseQuery(`router ${run} query ${i}`), { limit: 10 }));
}

/** The ledger alone: one reserve and one charging settle per search, on a file. */
async function ledgerLoop(run: number, durability: 'full' | 'normal'): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'websift-bench-'));
  const ledger = sqliteLedger(openSqlite({ database: join(dir, 'ledger.db'), durability }));
  try {
    await ledger.createOrganization('bench', 10 * N, 0);
    return await timeLoop(N, async (i) => {
      const id = `r${run}-${i}`;
      await ledger.reserve({ id, organization: 'bench', amount: 1 }, 0);
      await ledger.settle({ id, organization: 'bench', kind: 'search', charged: 1, answered: true });
    });
  } finally {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `concurrency` searches in flight at once (wall and CPU per search over the whole batch). */
async function engineConcurrent(run: number, concurrency: number, durability: 'full' | 'normal'): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'websift-bench-'));
  const engine = createEngine({ database: join(dir, 'bench.db'), durability, sources: [source()], rateLimit: false });
  try {
    await engine.admin.createOrganization('bench', { credits: 10 * N });
    let next = 0;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < N) await engine.search({ q: `concurrent ${run} query ${next++}` }, { organization: 'bench' });
      }),
    );
    const wall = Number(process.hrtime.bigint() - t0) / 1000 / N;
    const c = process.cpuUsage(c0);
    return { wall, cpu: (c.user + c.system) / N };
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function engineLoop(run: number, durability: 'full' | 'normal', repeat: boolean): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'websift-bench-'));
  const engine = createEngine({ database: join(dir, 'bench.db'), durability, sources: [source()], rateLimit: false });
  try {
    await engine.admin.createOrganization('bench', { credits: 10 * N });
    await engine.search({ q: 'warm up' }, { organization: 'bench' });
    return await timeLoop(N, (i) => engine.search({ q: repeat ? 'same query' : `engine ${run} query ${i}` }, { organization: 'bench' }));
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, Sample[]> = {
  direct: [],
  full: [],
  normal: [],
  repeat: [],
  concurrent: [],
  concurrentNormal: [],
  router: [],
  router2: [],
  ledgerFull: [],
  ledgerNormal: [],
};
// Interleaved runs, medians: the machine is shared and noisy.
for (let run = 0; run < 3; run++) {
  rows.direct!.push(await direct(run));
  rows.full!.push(await engineLoop(run, 'full', false));
  rows.normal!.push(await engineLoop(run, 'normal', false));
  rows.repeat!.push(await engineLoop(run, 'full', true));
  rows.concurrent!.push(await engineConcurrent(run, 32, 'full'));
  rows.concurrentNormal!.push(await engineConcurrent(run, 32, 'normal'));
  rows.router!.push(await routerLoop(run));
  rows.router2!.push(await routerLoop(run, 2));
  rows.ledgerFull!.push(await ledgerLoop(run, 'full'));
  rows.ledgerNormal!.push(await ledgerLoop(run, 'normal'));
}
const med = (name: string) => ({ wall: median(rows[name]!.map((r) => r.wall)), cpu: median(rows[name]!.map((r) => r.cpu)) });
const base = med('direct');
const line = (label: string, name: string) => {
  const m = med(name);
  return `| ${label} | ${Math.round(1e6 / m.wall).toLocaleString('en-US')} | ${m.wall.toFixed(1)} | ${m.cpu.toFixed(1)} | ${(m.cpu - base.cpu).toFixed(1)} | ${(m.cpu / base.cpu).toFixed(1)}× |`;
};
console.log(`N = ${N} searches per run, median of 3 interleaved runs, Node ${process.version}\n`);
console.log('| loop | searches/s (wall) | wall µs/search | CPU µs/search | engine CPU overhead µs | CPU vs direct |');
console.log('|---|---|---|---|---|---|');
console.log(line('source called directly (baseline)', 'direct'));
console.log(line('engine, charged, durability full (default)', 'full'));
console.log(line('engine, charged, durability normal', 'normal'));
console.log(line('engine, free repeat', 'repeat'));
console.log(line('engine, charged, full, 32 in flight (group commit)', 'concurrent'));
console.log(line('engine, charged, normal, 32 in flight', 'concurrentNormal'));
console.log(line('part: router.route alone', 'router'));
console.log(line('part: router.route, 2 sources (hedging on)', 'router2'));
console.log(line('part: ledger reserve + settle, full', 'ledgerFull'));
console.log(line('part: ledger reserve + settle, normal', 'ledgerNormal'));
