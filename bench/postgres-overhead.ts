// Engine overhead per charged search on PostgreSQL + Redis, against an honest floor: a bare loop that
// sends the same SQL statements (those the ledger sends for a charged search, captured from two engine
// searches and replayed with fresh ids and times: whatever the ledger's SQL becomes, the floor follows)
// on its own pg.Pool AND the same Redis commands (the search's enter and leave scripts, same key shapes, a window payload of the
// engine's size) on its own ioredis client, in the same order, with nothing else. Batched as the engine
// sends them: the ledger groups one organization's calls that arrive while its statement runs into the
// next one (group commit, src/adapters/postgres/group-commit.ts), so at concurrency 32 it sends ~1
// statement per 16 searches; the floor's statements go through the same GroupCommit, those of one
// statement text merged into one by concatenating their array parameters (scalars: the first call's),
// which is what books-batch.ts sends. One at a time, that is the captured statement unchanged.
// Its clients are configured as the engine's (the pool: DEFAULT_POOL_CONFIG, ioredis: clientOptions: the
// same timeouts); at concurrency 32 the rounds also run a floor on the libraries' default clients
// (`new pg.Pool`, `new Redis(url)`), and the engine's ratio to it is printed too.
//
// Per setting of synchronous_commit (on, off: set per session through the connection string's
// `options`, never on the database's defaults) and per concurrency (1, 32): ROUNDS rounds, each
// running the engine and the floor one after the other, the order alternating per round; printed: the
// median and range over the rounds of the wall time per search of each, and of their per-round ratio.
// Also the round trips per charged search of both (every pg.Pool#query and ioredis sendCommand of the
// process, counted over 500 searches one at a time; commands inside a Lua script are not round trips).
//   npx tsx bench/postgres-overhead.ts [--searches 1000] [--rounds 5] [--separate] [--sync on|off]
// --separate: the engine gets the one-key adapters injected (redisRateLimiter, redisFlights,
// redisCacheStore), i.e. the six Redis round trips per search of the path before the combined scripts,
// against the same floor. --sync: only that setting of synchronous_commit.
// Needs PostgreSQL (WEBSIFT_TEST_DATABASE_URL) and Redis (WEBSIFT_TEST_REDIS_URL); runs in schemas and a
// key prefix of its own, removed at the end.

import { createHash, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { DEFAULT_POOL_CONFIG } from '../src/adapters/postgres/database.js';
import { GroupCommit } from '../src/adapters/postgres/group-commit.js';
import { clientOptions } from '../src/adapters/redis/client.js';
import { ENTER_COMMAND, ENTER_LUA, LEAVE_COMMAND, LEAVE_LUA } from '../src/adapters/redis/search-scripts.js';
import { gcraInterval } from '../src/core/rate-limit.js';
import { createEngine } from '../src/engine/create-engine.js';
import { redisCacheStore, redisFlights, redisRateLimiter } from '../src/redis/index.js';
import { scriptedSource } from '../src/testing/index.js';
import { POSTGRES_URL, REDIS_URL, uniqueName } from '../test/support/services.js';

const { values } = parseArgs({
  options: { searches: { type: 'string' }, rounds: { type: 'string' }, separate: { type: 'boolean' }, sync: { type: 'string' } },
});
const SEARCHES = Number(values.searches ?? 1000);
const ROUNDS = Number(values.rounds ?? 5);
if (!(ROUNDS >= 5)) throw new RangeError('--rounds: at least 5 (a median and a range need them)');

const RATE = { limit: 1_000_000, window: 1 };
const LEASE_MS = 5_000; // redisFlights' default lease
const prefix = `${uniqueName('ws_overhead')}:`;
const source = scriptedSource('web', () => ({ results: [{ title: 'A page', url: 'https://example.com/a', snippet: 'About it.' }] }));

// Every query of this process goes through pg.Pool#query (the ledger's pool is a pg.Pool of this same module).
let pgQueries = 0;
/** While set, the statements of the engine's pools are recorded here. */
type Statements = { text: string; values: unknown[] }[];
let capture: Statements | undefined;
const floorPools = new WeakSet<pg.Pool>();
const poolQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
  pgQueries++;
  if (capture && !floorPools.has(this)) capture.push({ text: String(args[0]), values: [...((args[1] as unknown[]) ?? [])] });
  return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof poolQuery;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The statements of one charged search as a replayable template: from two searches' captures, values
 * equal in both are constants (the organization, the instance id, the amount); the others are the
 * search's own: a UUID becomes a fresh one per replay, a number (a time) is moved on by the time since
 * the capture, a string gets a per-replay suffix; equal values within one search stay equal.
 */
function template(a: Statements, b: Statements) {
  if (a.length !== b.length || a.some((x, i) => x.text !== b[i]!.text)) return undefined;
  const capturedAt = Date.now();
  return (serial: number) => {
    const fresh = new Map<unknown, unknown>();
    const renew = (value: unknown): unknown => {
      if (!fresh.has(value)) {
        if (typeof value === 'string' && UUID.test(value)) fresh.set(value, randomUUID());
        else if (typeof value === 'number') fresh.set(value, value + (Date.now() - capturedAt));
        else if (typeof value === 'string') fresh.set(value, `${value}#${serial}`);
        else fresh.set(value, value);
      }
      return fresh.get(value);
    };
    return b.map((x, i) => ({
      text: x.text,
      values: x.values.map((v, j) => (JSON.stringify(v) === JSON.stringify(a[i]!.values[j]) ? v : renew(v))),
    }));
  };
}
// Every Redis command of this process goes through Redis#sendCommand (the adapters' clients are ioredis
// clients of this same module).
let redisCommands = 0;
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<typeof sendCommand>) {
  redisCommands++;
  return sendCommand.apply(this, args);
};

type FloorClient = Redis & {
  [ENTER_COMMAND](...args: string[]): Promise<unknown[]>;
  [LEAVE_COMMAND](...args: string[]): Promise<number>;
};

interface Measured {
  perSearch: number;
  /** CPU time of this process (user + system) per search, µs: what the machine's load inflates least. */
  cpu: number;
  p50: number;
  p99: number;
  /** PostgreSQL statements per search: ~1 per 16 searches at 32 in flight, once grouped. */
  statements: number;
}

async function measure(work: () => Promise<void>, concurrency: number): Promise<Measured> {
  const latencies: number[] = [];
  let left = SEARCHES;
  const cpu0 = process.cpuUsage();
  const pg0 = pgQueries;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const t = performance.now();
        await work();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return {
    p50: q(0.5),
    p99: q(0.99),
    perSearch: wall / latencies.length,
    cpu: (cpu.user + cpu.system) / latencies.length,
    statements: (pgQueries - pg0) / latencies.length,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const spread = (xs: number[], digits: number) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

async function run(synchronousCommit: 'on' | 'off') {
  const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c synchronous_commit=${synchronousCommit}`)}`;
  const schema = uniqueName(`ws_overhead_${synchronousCommit}`);
  const s = `"${schema}"`;
  const on = (sub: string) => ({ url: REDIS_URL, prefix: `${prefix}${sub}` });
  const ports = values.separate
    ? ([
        redisRateLimiter(RATE, on('')),
        redisFlights(on('')),
        redisCacheStore<never>(on('repeat:')),
        redisCacheStore<never>(on('empty:')),
      ] as const)
    : undefined;
  const engine = createEngine({
    database: url,
    postgres: { schema },
    redis: REDIS_URL,
    redisPrefix: prefix,
    sources: [source],
    ...(ports
      ? { rateLimiter: ports[0], flights: ports[1], caches: { repeats: ports[2], confirmedEmpty: ports[3] } }
      : { rateLimit: RATE }),
  });
  const closeSeparate = async () => {
    await Promise.all((ports ?? []).map((port) => port.close?.()));
  };
  await engine.admin.createOrganization('bench', { credits: 1e12 });
  // The engine's statements and window, captured first (on the floor's admin pool).
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  floorPools.add(admin);
  const adminRedis = new Redis(REDIS_URL);
  const check = await admin.query('SHOW synchronous_commit');
  if (check.rows[0].synchronous_commit !== synchronousCommit) throw new Error('synchronous_commit was not set per session');

  let serial = 0;
  /** One charged search through the engine (in process: no HTTP). */
  const viaEngine = async () => {
    const answer = await engine.search({ q: `bench ${serial++}` }, { organization: 'bench' });
    if (answer.metadata.credits_used !== 1) throw new Error('not charged');
  };
  await viaEngine();
  await viaEngine();
  let statements: ReturnType<typeof template>;
  for (let attempt = 0; !statements; attempt++) {
    // Two searches' statements (again if a heartbeat of the ledger slipped in between).
    if (attempt === 5) throw new Error('could not capture the statements of a charged search');
    const a: Statements = [];
    const b: Statements = [];
    capture = a;
    await viaEngine();
    capture = b;
    await viaEngine();
    capture = undefined;
    statements = template(a, b);
  }
  console.log(
    `\nstatements of a charged search, replayed by the floor:\n${statements(0)
      .map((x) => `  ${x.text}`)
      .join('\n')}`,
  );
  // The floor writes a window of the engine's own size (the whole answer's snapshot).
  const [windowKey] = await adminRedis.keys(`${prefix}repeat:*`);
  const windowText = (await adminRedis.get(windowKey!))!;
  const interval = String(gcraInterval(RATE));
  const closers: (() => Promise<unknown>)[] = [];

  /** A floor on its own clients: configured as the engine's (`engine`), or the libraries' defaults. */
  async function makeFloor(clients: 'engine' | 'defaults') {
    // The ledger's pool: pg's default of 10 connections.
    const pool = new pg.Pool(
      clients === 'engine' ? { ...DEFAULT_POOL_CONFIG, connectionString: url, max: 10 } : { connectionString: url, max: 10 },
    );
    floorPools.add(pool);
    const redis = (clients === 'engine' ? new Redis(REDIS_URL, clientOptions(500)) : new Redis(REDIS_URL)) as FloorClient;
    if (clients === 'engine') await redis.connect();
    closers.push(
      () => pool.end(),
      async () => redis.disconnect(),
    );
    redis.defineCommand(ENTER_COMMAND, { numberOfKeys: 4, lua: ENTER_LUA });
    redis.defineCommand(LEAVE_COMMAND, { numberOfKeys: 2, lua: LEAVE_LUA });
    // The floor's group commit: per statement text, the calls that waited go in one statement, their array
    // parameters concatenated in call order (books_many's settle and reserve arrays), scalars the first's.
    type Statement = Statements[number];
    const merged = new GroupCommit<Statement, true>(async (_text, calls) => {
      const values = calls[0]!.values.map((v, j) => (Array.isArray(v) ? calls.flatMap((c) => c.values[j] as unknown[]) : v));
      await pool.query(calls[0]!.text, values);
      return calls.map(() => true as const);
    });
    /** The same SQL and Redis commands as a charged search, in the same order, and nothing else. */
    return async () => {
      const q = `floor ${serial++}`;
      const now = Date.now();
      const lock = `${prefix}flight:${createHash('sha256').update(`bench\u0000${q}`).digest('hex')}`;
      const window = `${prefix}repeat:cache:search\u0000bench\u0000${q}`;
      const token = randomUUID();
      const entered = await redis[ENTER_COMMAND](
        `${prefix}rate:bench`,
        window,
        lock,
        `${prefix}empty:cache:${q}`,
        String(now),
        interval,
        String(RATE.limit),
        '1',
        token,
        String(LEASE_MS),
      );
      if (entered[1] !== 'held') throw new Error('floor: lock not taken');
      const [reserve, ...rest] = statements!(serial);
      await merged.submit(reserve!.text, reserve!);
      await redis.set(window, windowText, 'PX', 300_000); // the window goes before the settlement (docs/engine.md)
      for (const statement of rest) await merged.submit(statement.text, statement);
      await redis[LEAVE_COMMAND](lock, window, token, `${prefix}flight-released`, '', '', '');
    };
  }
  const floor = await makeFloor('engine');
  const floorDefaults = await makeFloor('defaults');

  try {
    await measure(viaEngine, 8); // warm-up: connections, functions, scripts, JIT
    await measure(floor, 8);
    await measure(floorDefaults, 8);
    const trips = async (work: () => Promise<void>) => {
      const [pg0, r0] = [pgQueries, redisCommands];
      const n = 500;
      for (let i = 0; i < n; i++) await work();
      return `PostgreSQL ${((pgQueries - pg0) / n).toFixed(2)}, Redis ${((redisCommands - r0) / n).toFixed(2)}`;
    };
    console.log(`\nsynchronous_commit=${synchronousCommit}`);
    console.log(`round trips per charged search (500, one at a time): engine ${await trips(viaEngine)}; floor ${await trips(floor)}`);
    console.log(
      'concurrency | engine ms per search | floor ms per search | ratio engine/floor | engine p50 / p99 | floor p50 / p99 | process CPU µs per search, engine / floor | PostgreSQL statements per search, engine / floor (medians) | ratio engine / floor on default clients',
    );
    for (const concurrency of [1, 32]) {
      // At 32 also the floor on the libraries' default clients (no command or query timeouts: the engine's have them).
      const contenders = concurrency === 32 ? [viaEngine, floor, floorDefaults] : [viaEngine, floor];
      const runs: Measured[][] = contenders.map(() => []);
      for (let r = 0; r < ROUNDS; r++) {
        // Interleaved, the order rotating: none always runs first (warmer, or on a quieter machine).
        for (let k = 0; k < contenders.length; k++) {
          const i = (r + k) % contenders.length;
          runs[i]!.push(await measure(contenders[i]!, concurrency));
        }
      }
      const [e, f, d] = runs as [Measured[], Measured[], Measured[] | undefined];
      const ratios = e.map((x, i) => x.perSearch / f[i]!.perSearch);
      const per = (xs: Measured[], k: keyof Measured) => median(xs.map((x) => x[k])).toFixed(3);
      const defaults = d
        ? ` | ${spread(
            e.map((x, i) => x.perSearch / d[i]!.perSearch),
            2,
          )}× (floor ${spread(
            d.map((x) => x.perSearch),
            3,
          )}, CPU ${median(d.map((x) => x.cpu)).toFixed(0)} µs)`
        : ' | –';
      console.log(
        `${concurrency} | ${spread(
          e.map((x) => x.perSearch),
          3,
        )} | ${spread(
          f.map((x) => x.perSearch),
          3,
        )} | ${spread(ratios, 2)}× | ${per(e, 'p50')} / ${per(e, 'p99')} | ${per(f, 'p50')} / ${per(f, 'p99')} | ${median(e.map((x) => x.cpu)).toFixed(0)} / ${median(f.map((x) => x.cpu)).toFixed(0)} | ${per(e, 'statements')} / ${per(f, 'statements')}${defaults}`,
      );
    }
  } finally {
    await engine.close();
    await closeSeparate();
    for (const close of closers) await close();
    await admin.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await admin.end();
    const keys = await adminRedis.keys(`${prefix}*`);
    for (let i = 0; i < keys.length; i += 500) await adminRedis.del(...keys.slice(i, i + 500));
    adminRedis.disconnect();
  }
}

const modes = values.sync === undefined ? (['on', 'off'] as const) : ([values.sync] as ('on' | 'off')[]);
if (modes.some((m) => m !== 'on' && m !== 'off')) throw new TypeError('--sync: on or off');
console.log(
  `${SEARCHES} searches per measurement, ${ROUNDS} rounds; median (min–max) over rounds; engine: ${values.separate ? 'separate one-key adapters (6 Redis round trips)' : 'combined scripts'}`,
);
for (const mode of modes) await run(mode);
