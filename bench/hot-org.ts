// One hot organization on PostgreSQL (issue 33): charged searches/s of ONE organization with 32 in flight,
// and where the PostgreSQL backends spent their time meanwhile. Interleaved in one process, the order
// rotating each round; each variant runs --seconds per round; median and range over --rounds:
//   engine        createEngine on postgres:// (in-process caches and rate limit), scripted source, no HTTP
//   engine+redis  the same with redis:// (repeat windows, rate limit, flight locks, key events in Redis)
//   ledger        postgresLedger alone: reserve + settle of 1 credit (the adapter's own ceiling)
//   bare 1 org    a bare pg loop of the one-call statements the ledger sent before (reserve, settle_traced)
//   bare 32 orgs  the same, each of the 32 streams on an organization of its own
// Every search is a new query, charged 1. Backend waits: pg_stat_activity sampled every 10 ms, rows of
// this run's connections only (their application_name), during every variant. Also per search: the
// statements that commit a charge (reserve/settle/books_many: one transaction, one WAL fsync each), the
// CPU of this process (engine + pg client + the load loop) and of this run's PostgreSQL backends (from
// /proc), so the figures can be read apart from the machine's load.
//   npx tsx bench/hot-org.ts [--seconds 3] [--rounds 5] [--concurrency 32]
// Needs PostgreSQL (WEBSIFT_TEST_DATABASE_URL) and Redis (WEBSIFT_TEST_REDIS_URL); runs in its own schemas
// and key prefix, removed at the end.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { postgresLedger } from '../src/adapters/postgres/ledger.js';
import { createEngine } from '../src/engine/create-engine.js';
import { scriptedSource } from '../src/testing/index.js';
import { POSTGRES_URL, REDIS_URL, uniqueName } from '../test/support/services.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, rounds: { type: 'string' }, concurrency: { type: 'string' } } });
const SECONDS = Number(values.seconds ?? 3);
const ROUNDS = Number(values.rounds ?? 5);
const CONCURRENCY = Number(values.concurrency ?? 32);

const APP = uniqueName('ws_hotorg');
const url = new URL(POSTGRES_URL);
url.searchParams.set('application_name', APP);
const DB_URL = url.toString();
const schemas = { engine: uniqueName('ws_hot'), redis: uniqueName('ws_hot'), ledger: uniqueName('ws_hot'), bare: uniqueName('ws_hot') };
const prefix = `${uniqueName('ws_hot')}:`;

const source = scriptedSource('web', () => ({ results: [{ title: 'A page', url: 'https://example.com/a', snippet: 'About it.' }] }));
const engine = createEngine({ database: DB_URL, postgres: { schema: schemas.engine }, rateLimit: false, sources: [source] });
const engineRedis = createEngine({
  database: DB_URL,
  postgres: { schema: schemas.redis },
  redis: REDIS_URL,
  redisPrefix: prefix,
  rateLimit: { limit: 1e9, window: 1 },
  sources: [source],
});
const ledger = postgresLedger({ connectionString: DB_URL, schema: schemas.ledger });
await engine.admin.createOrganization('hot', { credits: 1e12 });
await engineRedis.admin.createOrganization('hot', { credits: 1e12 });
await ledger.createOrganization('hot', 1e12, Date.now());

// The bare loops: the old one-call functions (migrations 1–2) in a schema of their own, made by a ledger.
const bareLedger = postgresLedger({ connectionString: DB_URL, schema: schemas.bare });
for (let i = 0; i < CONCURRENCY; i++) await bareLedger.createOrganization(`org${i}`, 1e12, Date.now());
await bareLedger.close();
const pool = new pg.Pool({ connectionString: DB_URL, max: 10 });
const b = `"${schemas.bare}"`;
const owner = randomUUID();
await pool.query(`INSERT INTO ${b}.instances (id, lease_until) VALUES ($1, now() + interval '1 hour')`, [owner]);
const bare = (org: (stream: number) => string) => async (stream: number) => {
  const id = randomUUID();
  const now = Date.now();
  await pool.query(`SELECT o_ok FROM ${b}.reserve($1, $2, $3::bigint, $4::uuid, $5::bigint)`, [id, org(stream), 1, owner, now]);
  await pool.query(`SELECT ${b}.settle_traced($1, $2, $3::boolean, $4::bigint, $5::boolean, $6::bigint, $7) AS charged`, [
    id,
    org(stream),
    true,
    1,
    true,
    now,
    null,
  ]);
};

let serial = 0;
const charged = (answer: { metadata: { credits_used: number } }) => {
  if (answer.metadata.credits_used !== 1) throw new Error(`not charged 1: ${answer.metadata.credits_used}`);
};
const variants: Record<string, (stream: number) => Promise<void>> = {
  engine: async () => charged(await engine.search({ q: `hot ${serial++}` }, { organization: 'hot' })),
  'engine+redis': async () => charged(await engineRedis.search({ q: `hot ${serial++}` }, { organization: 'hot' })),
  ledger: async () => {
    const id = randomUUID();
    const r = await ledger.reserve({ id, organization: 'hot', amount: 1 }, Date.now());
    if (!r.ok) throw new Error('refused');
    if ((await ledger.settle({ id, organization: 'hot', kind: 'search', charged: 1, answered: true })) !== 1)
      throw new Error('not charged');
  },
  'bare 1 org': bare(() => 'org0'),
  'bare 32 orgs': bare((stream) => `org${stream}`),
};
const names = Object.keys(variants);

// Committing statements: every pg.Pool#query of this process (the ledgers' pools are pg.Pools of this module).
let commits = 0;
const poolQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
  if (/\.(reserve|settle_traced|books_many)\(/.test(String(args[0]))) commits++;
  return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof poolQuery;

/** CPU ms so far of this run's PostgreSQL backends (USER_HZ 100), by pid. */
async function backendCpu(): Promise<Map<number, number>> {
  const { rows } = await sampler.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [APP]);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

// Wait sampling: one client of its own (not counted: another application_name).
const sampler = new pg.Client({ connectionString: POSTGRES_URL });
await sampler.connect();
type Waits = Map<string, number>;
const waits: Record<string, Waits> = Object.fromEntries(names.map((n) => [n, new Map()]));
async function sampleWhile(into: Waits, until: Promise<unknown>): Promise<void> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  while (!done) {
    const { rows } = await sampler.query(
      `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS w FROM pg_stat_activity
       WHERE application_name = $1 AND state = 'active'`,
      [APP],
    );
    for (const { w } of rows) into.set(w, (into.get(w) ?? 0) + 1);
    into.set('#samples', (into.get('#samples') ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let searches = 0;
async function run(work: (stream: number) => Promise<void>, seconds: number): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, stream) => {
      while (performance.now() < end) {
        await work(stream);
        done++;
        searches++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

try {
  console.log(`one organization, ${CONCURRENCY} in flight, ${SECONDS} s per variant per round, ${ROUNDS} rounds; load ${load()}`);
  for (const name of names) await run(variants[name]!, 0.5); // warm-up: connections, plans, JIT
  const rates: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const cost = Object.fromEntries(names.map((n) => [n, { searches: 0, commits: 0, nodeMs: 0, pgMs: 0 }]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) {
      const [s0, c0, cpu0, pg0] = [searches, commits, process.cpuUsage(), await backendCpu()];
      const measuring = run(variants[name]!, SECONDS);
      await sampleWhile(waits[name]!, measuring);
      rates[name]!.push(await measuring);
      const [cpu1, pg1] = [process.cpuUsage(cpu0), await backendCpu()];
      const c = cost[name]!;
      c.searches += searches - s0;
      c.commits += commits - c0;
      c.nodeMs += (cpu1.user + cpu1.system) / 1000;
      for (const [pid, ms] of pg1) c.pgMs += ms - (pg0.get(pid) ?? ms);
    }
    console.log(`round ${round + 1}: ${names.map((n) => `${n} ${rates[n]!.at(-1)!.toFixed(0)}`).join(' | ')}  (load ${load()})`);
  }
  console.log('\nvariant | searches/s median [min–max] | searches per commit | CPU µs per search: this process / PostgreSQL backends');
  for (const name of names) {
    const c = cost[name]!;
    const per = (ms: number) => ((ms * 1000) / c.searches).toFixed(0);
    const xs = rates[name]!;
    console.log(
      `${name} | ${median(xs).toFixed(0)} [${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}] | ${(c.searches / c.commits).toFixed(2)} | ${per(c.nodeMs)} / ${per(c.pgMs)}`,
    );
  }
  console.log('\nvariant | backends active: share of samples by wait (top 4)');
  for (const name of names) {
    const w = waits[name]!;
    const total = [...w].filter(([k]) => k !== '#samples').reduce((a, [, v]) => a + v, 0);
    const top = [...w]
      .filter(([k]) => k !== '#samples')
      .sort((x, y) => y[1] - x[1])
      .slice(0, 4)
      .map(([k, v]) => `${k} ${((v / total) * 100).toFixed(0)}%`)
      .join(', ');
    const lock = [...w].filter(([k]) => k.startsWith('Lock:')).reduce((a, [, v]) => a + v, 0);
    console.log(
      `${name} | Lock ${((lock / Math.max(1, total)) * 100).toFixed(0)}%; ${top}; mean active ${(total / Math.max(1, w.get('#samples') ?? 1)).toFixed(1)}`,
    );
  }
  console.log(`load at the end: ${load()}`);
} finally {
  await engine.close();
  await engineRedis.close();
  await ledger.close();
  await sampler.end();
  for (const schema of Object.values(schemas)) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  // In chunks: a quiet machine's run leaves ~10⁵ window keys, too many for one call's arguments.
  for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
  redis.disconnect();
}
