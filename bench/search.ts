// Search overhead: CPU per search through the engine (zero-latency scripted source) beside the same loop
// calling the source directly, in the steady state: each engine's organization has filled its repeat
// partition (10,000 charged searches, the store's bound) before anything is timed, so every charged search
// evicts a window, as in a long-running server. Each variant keeps one engine for the whole run; rounds
// run every variant in rotating order, and each round's ratio is taken against that round's baseline.
// Prints median (min–max) over rounds, Markdown for docs/benchmarks.md.
//   npx tsx bench/search.ts [--n 3000] [--rounds 7] [--only name,name]
// For instruction counts (the machine is shared, CPU time swings with it), run one variant alone under
// callgrind at two sizes and take the difference per search (the set-up cancels out):
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --import tsx bench/search.ts --only memory --rounds 1 --n 1000
//   (and --n 3000); instructions per search = (I(3000) − I(1000)) / 2000.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { lruCacheStore } from '../src/adapters/lru-cache-store.js';
import { DEFAULT_MAX_PER_PARTITION, repeatWindowStore } from '../src/adapters/partitioned-lru-store.js';
import { openSqlite } from '../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../src/adapters/sqlite/ledger.js';
import { systemClock } from '../src/adapters/system-clock.js';
import type { RepeatEntry } from '../src/core/books/index.js';
import { timeOrderedIds } from '../src/core/books/request-id.js';
import { createRouter } from '../src/core/router/router.js';
import { parseQuery } from '../src/core/search/query.js';
import { createEngine, type Engine } from '../src/index.js';
import type { CacheStore } from '../src/ports/cache.js';
import { scriptedSource } from '../src/testing/scripted-source.js';
import type { SearchSource } from '../src/types/index.js';

const { values } = parseArgs({ options: { n: { type: 'string' }, rounds: { type: 'string' }, only: { type: 'string' } } });
const N = Number(values.n ?? 3000);
const ROUNDS = Number(values.rounds ?? 7);
const results = Array.from({ length: 10 }, (_, i) => ({
  title: `Title ${i}`,
  url: `https://example.com/${i}`,
  snippet: 'A snippet of text.',
}));
const source = (): SearchSource => scriptedSource('zero', () => ({ results }));
const scratch = mkdtempSync(join(tmpdir(), 'websift-bench-'));

/** CPU µs (user + system) per call: steadier than wall time on a loaded machine. Wall µs beside it. */
interface Sample {
  cpu: number;
  wall: number;
}

async function timeLoop(n: number, body: (i: number) => Promise<unknown>): Promise<Sample> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await body(i);
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / n;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / n };
}

/** `concurrency` searches in flight at once (CPU per search over the whole batch). */
async function timeConcurrent(n: number, concurrency: number, body: (i: number) => Promise<unknown>): Promise<Sample> {
  let next = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await body(next++);
    }),
  );
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / n;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / n };
}

type Storage = { file?: 'full' | 'normal'; repeats?: CacheStore<RepeatEntry> };

/** An engine whose organization 'bench' has filled its repeat partition (charged searches of distinct queries). */
async function steadyEngine(name: string, storage: Storage): Promise<Engine> {
  const engine = createEngine({
    ...(storage.file ? { database: join(scratch, `${name}.db`), durability: storage.file } : {}),
    ...(storage.repeats ? { caches: { repeats: storage.repeats } } : {}),
    sources: [source()],
    rateLimit: false,
  });
  await engine.admin.createOrganization('bench', { credits: 1e12 });
  await timeConcurrent(DEFAULT_MAX_PER_PARTITION, 32, (i) => engine.search({ q: `fill ${i}` }, { organization: 'bench' }));
  return engine;
}

let serial = 0;
/** Distinct queries, never seen before: each is charged and opens (and evicts) a window. */
const charged = (engine: Engine) => (_: number) => engine.search({ q: `charged ${serial++}` }, { organization: 'bench' });

const engines: Engine[] = [];
const closers: (() => Promise<void>)[] = [];
async function engineOf(name: string, storage: Storage): Promise<Engine> {
  const engine = await steadyEngine(name, storage);
  engines.push(engine);
  return engine;
}

/** The ledger alone: one reserve and one charging settle per search (time-ordered ids, as the engine makes). */
async function ledgerOf(name: string, durability?: 'full' | 'normal', withoutPendingIndex = false) {
  const store = openSqlite(durability ? { database: join(scratch, `${name}.db`), durability } : {});
  if (withoutPendingIndex) store.db.exec('DROP INDEX reservations_pending');
  const ledger = sqliteLedger(store);
  closers.push(() => ledger.close());
  await ledger.createOrganization('bench', 1e12, 0);
  const ids = timeOrderedIds(systemClock);
  return async (_: number) => {
    const id = ids();
    await ledger.reserve({ id, organization: 'bench', amount: 1 }, 0);
    await ledger.settle({ id, organization: 'bench', kind: 'search', charged: 1, answered: true });
  };
}

/** A repeat-window store alone, full (10,000 windows of one organization), then one new window per call. */
function storeOf(store: CacheStore<RepeatEntry>) {
  const entry: RepeatEntry = { chargedAt: 0, value: results };
  const key = (i: number) => `search\u0000bench\u0000q${i}`;
  for (let i = 0; i < DEFAULT_MAX_PER_PARTITION; i++) void store.set(key(i), entry, 300_000);
  let i = DEFAULT_MAX_PER_PARTITION;
  return async (_: number) => {
    await store.get(key(i));
    await store.set(key(i++), entry, 300_000);
  };
}

interface Variant {
  label: string;
  /** Makes the timed body (engines are built and filled here, once, before any round). */
  make: () => Promise<(i: number) => Promise<unknown>>;
  concurrency?: number;
}

const VARIANTS: Record<string, Variant> = {
  direct: {
    label: 'source called directly (baseline)',
    make: async () => {
      const s = source();
      const ctx = { signal: new AbortController().signal, limit: 10 };
      return (i) => s.search(parseQuery(`direct query ${serial++} ${i}`), ctx);
    },
  },
  memory: {
    label: 'engine, charged, ledger in memory (the target row)',
    make: async () => charged(await engineOf('memory', {})),
  },
  memoryLru: {
    label: 'engine, charged, in memory, one lru-cache for all windows (the old store, reference)',
    make: async () => charged(await engineOf('memoryLru', { repeats: lruCacheStore<RepeatEntry>() })),
  },
  repeat: {
    label: 'engine, free repeat, in memory',
    make: async () => {
      const engine = await engineOf('repeat', {});
      await engine.search({ q: 'same query' }, { organization: 'bench' });
      return () => engine.search({ q: 'same query' }, { organization: 'bench' });
    },
  },
  normal: { label: 'engine, charged, file, durability normal', make: async () => charged(await engineOf('normal', { file: 'normal' })) },
  full: { label: 'engine, charged, file, durability full (default)', make: async () => charged(await engineOf('full', { file: 'full' })) },
  concurrentFull: {
    label: 'engine, charged, file, full, 32 in flight (group commit)',
    make: async () => charged(await engineOf('concurrentFull', { file: 'full' })),
    concurrency: 32,
  },
  router: {
    label: 'part: router.route alone',
    make: async () => {
      const router = createRouter([source()], { clock: systemClock });
      return () => router.route(parseQuery(`router query ${serial++}`), { limit: 10 });
    },
  },
  ledgerMemory: { label: 'part: ledger reserve + settle, in memory', make: () => ledgerOf('ledgerMemory') },
  ledgerMemoryNoIndex: {
    label: 'part: ledger reserve + settle, in memory, pending-reservations index dropped (reference)',
    make: () => ledgerOf('ledgerMemoryNoIndex', undefined, true),
  },
  ledgerNormal: { label: 'part: ledger reserve + settle, file, normal', make: () => ledgerOf('ledgerNormal', 'normal') },
  ledgerNormalNoIndex: {
    label: 'part: ledger reserve + settle, file, normal, pending-reservations index dropped (reference)',
    make: () => ledgerOf('ledgerNormalNoIndex', 'normal', true),
  },
  ledgerFull: { label: 'part: ledger reserve + settle, file, full', make: () => ledgerOf('ledgerFull', 'full') },
  storePartitioned: {
    label: 'part: repeat store get + set, full partition (partitioned)',
    make: async () => storeOf(repeatWindowStore<RepeatEntry>(systemClock)),
  },
  storeLru: { label: 'part: repeat store get + set, full lru-cache (reference)', make: async () => storeOf(lruCacheStore<RepeatEntry>()) },
};

const names = values.only ? values.only.split(',') : Object.keys(VARIANTS);
for (const name of names) if (!VARIANTS[name]) throw new Error(`unknown variant ${name}; known: ${Object.keys(VARIANTS).join(', ')}`);
if (!names.includes('direct') && !values.only) names.unshift('direct');
const bodies = new Map<string, (i: number) => Promise<unknown>>();
for (const name of names) bodies.set(name, await VARIANTS[name]!.make());
const run = (name: string) => {
  const v = VARIANTS[name]!;
  const body = bodies.get(name)!;
  return v.concurrency ? timeConcurrent(N, v.concurrency, body) : timeLoop(N, body);
};
for (const name of names) await run(name); // warm-up round, not counted

const samples = new Map<string, Sample[]>(names.map((n) => [n, []]));
const ratios = new Map<string, number[]>(names.map((n) => [n, []]));
for (let round = 0; round < ROUNDS; round++) {
  const figures = new Map<string, Sample>();
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length]!;
    figures.set(name, await run(name));
  }
  for (const name of names) {
    samples.get(name)!.push(figures.get(name)!);
    const base = figures.get('direct');
    if (base) ratios.get(name)!.push(figures.get(name)!.cpu / base.cpu);
  }
}
await Promise.all(engines.map((e) => e.close()));
for (const close of closers) await close();
rmSync(scratch, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[], f: (x: number) => string) =>
  xs.length ? `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : '—';
const us = (x: number) => x.toFixed(1);
console.log(
  `N = ${N} per variant per round, ${ROUNDS} interleaved rounds (after a warm-up round), repeat partitions full ` +
    `(${DEFAULT_MAX_PER_PARTITION.toLocaleString('en-US')} windows) before timing, Node ${process.version}\n`,
);
console.log('| loop | CPU µs/search | CPU vs direct | wall µs/search |');
console.log('|---|---|---|---|');
for (const name of names) {
  const s = samples.get(name)!;
  console.log(
    `| ${VARIANTS[name]!.label} | ${spread(
      s.map((x) => x.cpu),
      us,
    )} | ${spread(ratios.get(name)!, (x) => `${x.toFixed(1)}×`)} | ${spread(
      s.map((x) => x.wall),
      us,
    )} |`,
  );
}
