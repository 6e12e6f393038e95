// Engine overhead per charged search on PostgreSQL + Redis, beside a bare loop that runs the same SQL
// statements (the ledger's reserve and settle functions) with pg on the same database, in the same run.
// Both at concurrency 1 and 32: p50 and p99 latency per search and wall time per search. Also counts
// the round trips a charged search makes: PostgreSQL queries (every pg.Pool#query of the process, the
// ledger's heartbeat included) and Redis commands (every ioredis sendCommand of the process).
//   npx tsx bench/postgres-overhead.ts [--searches 3000] [--rounds 3]
// Needs PostgreSQL (WEBSIFT_TEST_DATABASE_URL) and Redis (WEBSIFT_TEST_REDIS_URL); runs in its own schema
// and key prefix, removed at the end.

import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createEngine } from '../src/engine/create-engine.js';
import { scriptedSource } from '../src/testing/index.js';
import { POSTGRES_URL, REDIS_URL, uniqueName } from '../test/support/services.js';

const { values } = parseArgs({ options: { searches: { type: 'string' }, rounds: { type: 'string' } } });
const SEARCHES = Number(values.searches ?? 3000);
const ROUNDS = Number(values.rounds ?? 3);

const schema = uniqueName('ws_overhead');
const prefix = `${uniqueName('ws_overhead')}:`;
const source = scriptedSource('web', () => ({ results: [{ title: 'A page', url: 'https://example.com/a', snippet: 'About it.' }] }));
const engine = createEngine({
  database: POSTGRES_URL,
  postgres: { schema },
  redis: REDIS_URL,
  redisPrefix: prefix,
  rateLimit: { limit: 1_000_000, window: 1 },
  sources: [source],
});
await engine.admin.createOrganization('bench', { credits: 1e12 });
const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 10 });
const redis = new Redis(REDIS_URL);
const s = `"${schema}"`;
let serial = 0;

/** One charged search through the engine (in process: no HTTP). */
const viaEngine = async () => {
  const answer = await engine.search({ q: `bench ${serial++}` }, { organization: 'bench' });
  if (answer.metadata.credits_used !== 1) throw new Error('not charged');
};
// The bare loop registers as an instance like a ledger does, so reserve() accepts its owner id.
const owner = randomUUID();
await pool.query(`INSERT INTO ${s}.instances (id, lease_until) VALUES ($1, now() + interval '1 hour')`, [owner]);
/** The same two statements the ledger sends for a charged search, and nothing else. */
const bare = async () => {
  const id = randomUUID();
  const now = Date.now();
  await pool.query(`SELECT o_ok, o_reason, o_available FROM ${s}.reserve($1, $2, $3::bigint, $4::uuid, $5::bigint)`, [
    id,
    'bench',
    1,
    owner,
    now,
  ]);
  await pool.query(`SELECT ${s}.settle($1, $2, $3::boolean, $4::bigint, $5::boolean, $6::bigint, $7) AS charged`, [
    id,
    'bench',
    true,
    1,
    true,
    now,
    null,
  ]);
};

async function measure(work: () => Promise<void>, concurrency: number) {
  const latencies: number[] = [];
  let left = SEARCHES;
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
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return { p50: q(0.5), p99: q(0.99), perSearch: wall / latencies.length };
}

// Every query of this process goes through pg.Pool#query (the ledger's pool is a pg.Pool of this same module).
let pgQueries = 0;
const poolQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
  pgQueries++;
  return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof poolQuery;

// Every Redis command of this process goes through Redis#sendCommand (the adapters' clients are ioredis
// clients of this same module); commands that Lua scripts run inside Redis are not round trips.
let redisCommands = 0;
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<typeof sendCommand>) {
  redisCommands++;
  return sendCommand.apply(this, args);
};
const counters = () => ({ pg: pgQueries, redis: redisCommands });

const f = (ms: number) => ms.toFixed(3);
try {
  await measure(viaEngine, 8); // warm-up: connections, functions, JIT
  await measure(bare, 8);
  // Round trips: counters around engine searches, one at a time (stat counters lag: pg_stat is flushed
  // at transaction end, so read after a short pause).
  const before = counters();
  const n = 500;
  for (let i = 0; i < n; i++) await viaEngine();
  const after = counters();
  const pgTrips = (after.pg - before.pg) / n;
  const redisTrips = (after.redis - before.redis) / n;
  console.log(
    `round trips per charged search: PostgreSQL ${pgTrips.toFixed(2)}, Redis ${redisTrips.toFixed(2)} (${n} searches, one at a time)`,
  );
  console.log('concurrency | engine p50 / p99 / per search ms | bare SQL p50 / p99 / per search ms | ratio (per search)');
  for (const concurrency of [1, 32]) {
    let best: { e: Awaited<ReturnType<typeof measure>>; b: Awaited<ReturnType<typeof measure>> } | undefined;
    for (let r = 0; r < ROUNDS; r++) {
      const e = await measure(viaEngine, concurrency);
      const b = await measure(bare, concurrency);
      if (!best || e.perSearch / b.perSearch < best.e.perSearch / best.b.perSearch) best = { e, b };
    }
    const { e, b } = best!;
    console.log(
      `${concurrency} | ${f(e.p50)} / ${f(e.p99)} / ${f(e.perSearch)} | ${f(b.p50)} / ${f(b.p99)} / ${f(b.perSearch)} | ${(e.perSearch / b.perSearch).toFixed(2)}×`,
    );
  }
} finally {
  await engine.close();
  await pool.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await pool.end();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}
