// Does a hot organization's committing statement cost more as the books grow? (issue 33, migration 4)
// Two schemas side by side in one process: `now` (this release's functions) and `before` (migration 4's
// planner settings reset: settle_many, release_holds and prune plan as they did). One connection each, the role
// of a ledger's pool connection: it first plans books_many on the small fresh table (8 batches: past
// PL/pgSQL's five custom plans, so the connection keeps a generic plan, as a warm-up or a fresh schema
// leaves it), then rounds of group-committed batches like the engine's at 32 in flight (16 reserves, then
// their 16 settlements), the two schemas interleaved, the order alternating per round. Per round: rows
// in each table and the CPU per search of each connection's backend (from /proc: what the machine's load
// inflates least), and their ratio; then the median (min–max) over rounds of each. synchronous_commit off
// (per session): the fsync is not the question.
//   npx tsx bench/plan-aging.ts [--rounds 8] [--searches 4000]
// Needs PostgreSQL (WEBSIFT_TEST_DATABASE_URL); its schemas are removed at the end.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrate } from '../src/adapters/postgres/schema.js';
import { POSTGRES_URL, uniqueName } from '../test/support/services.js';
import { spread } from './lib/rounds.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, searches: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 8);
const SEARCHES = Number(values.searches ?? 4000);
const BATCH = 16;
const OWNER = randomUUID();
const url = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c synchronous_commit=off')}`;

const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
const sides = ['now', 'before'] as const;
type Side = { s: string; client: pg.Client; pid: number };
const made: Record<string, Side> = {};
for (const name of sides) {
  const schema = uniqueName(`ws_aging_${name}`);
  const s = `"${schema}"`;
  await migrate(admin, schema);
  if (name === 'before') {
    await admin.query(`ALTER FUNCTION ${s}.settle_many(text[], text, boolean[], bigint[], boolean[], bigint) RESET ALL`);
    await admin.query(`ALTER FUNCTION ${s}.release_holds(text, uuid) RESET ALL`);
    await admin.query(`ALTER FUNCTION ${s}.prune(bigint, bigint, integer) RESET ALL`);
  }
  await admin.query(`INSERT INTO ${s}.organizations (id, balance, created_at) VALUES ('hot', 1000000000000, 0)`);
  await admin.query(`INSERT INTO ${s}.instances (id, lease_until) VALUES ($1, now() + interval '1 day')`, [OWNER]);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const pid = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  made[name] = { s, client, pid };
}

/** One committing statement: books_many with these settlements and reserves (1 credit each). */
async function books(side: Side, settle: string[], reserve: string[]): Promise<void> {
  await side.client.query(
    `SELECT ${side.s}.books_many('hot', $1::uuid, $2::bigint, $3::text[], $4::boolean[], $5::bigint[], $6::boolean[], $7::text[], $8::bigint[])`,
    [OWNER, Date.now(), settle, settle.map(() => true), settle.map(() => 1), settle.map(() => true), reserve, reserve.map(() => 1)],
  );
}
/** `n` searches as the engine's group commit sends them: each statement settles the previous batch and reserves the next. */
async function searches(side: Side, n: number): Promise<void> {
  let held: string[] = [];
  for (let i = 0; i < n / BATCH; i++) {
    const next = Array.from({ length: BATCH }, () => randomUUID());
    await books(side, held, next);
    held = next;
  }
  await books(side, held, []);
}
const cpuMs = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const rows = async (side: Side) => Number((await admin.query(`SELECT count(*) AS n FROM ${side.s}.reservations`)).rows[0].n);

try {
  // Planned on the small table, as a connection's first calls are.
  for (const name of sides) for (let i = 0; i < 8; i++) await searches(made[name]!, 4);
  console.log(`${ROUNDS} rounds of ${SEARCHES} searches per schema (batches of ${BATCH}); load ${loadavg()[0]!.toFixed(2)}`);
  console.log('round | rows now / before | backend CPU µs per search: now | before | before / now');
  const ratios: number[] = [];
  const perSide: Record<string, number[]> = { now: [], before: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const cpu: Record<string, number> = {};
    for (const name of round % 2 ? sides : [...sides].reverse()) {
      const side = made[name]!;
      const c0 = cpuMs(side.pid);
      await searches(side, SEARCHES);
      cpu[name] = ((cpuMs(side.pid) - c0) * 1000) / SEARCHES;
    }
    ratios.push(cpu['before']! / cpu['now']!);
    for (const name of sides) perSide[name]!.push(cpu[name]!);
    console.log(
      `${round} | ${await rows(made['now']!)} / ${await rows(made['before']!)} | ${cpu['now']!.toFixed(0)} | ${cpu['before']!.toFixed(0)} | ${ratios.at(-1)!.toFixed(2)}×`,
    );
  }
  console.log(
    `median (min–max) over rounds | | ${spread(perSide['now']!, 0)} | ${spread(perSide['before']!, 0)} | ${spread(ratios, (x) => `${x.toFixed(2)}×`)}`,
  );
  console.log(
    `load at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const name of sides) {
    await made[name]?.client.end();
    if (made[name]) await admin.query(`DROP SCHEMA IF EXISTS ${made[name]!.s} CASCADE`);
  }
  await admin.end();
}
