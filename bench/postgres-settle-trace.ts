// Benchmark: what recording a settlement's charge costs (issue 32, item 3). Migration 2 settles through
// settle_traced, which calls migration 1's settle and then writes the charge on the finished reservation
// row (already locked by the settle, in the same transaction), so a lost reply can be read back. Measured:
// reserve + settle of one credit, sequentially, through settle (the baseline) and through settle_traced,
// in alternating rounds on the same pool and schema; median (min–max) over rounds of the per-charge time of
// each and of their ratio per pair of rounds.
// Needs PostgreSQL (WEBSIFT_TEST_DATABASE_URL). Run: npx tsx bench/postgres-settle-trace.ts [--charges 1000] [--rounds 6]

import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openPostgres, postgresLedger } from '../src/postgres/index.js';
import { POSTGRES_URL, uniqueName } from '../test/support/services.js';
import { spread } from './lib/rounds.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CHARGES = arg('charges', 1_000);
const ROUNDS = arg('rounds', 6);
const schema = uniqueName('ws_trace');
const s = `"${schema}"`;
const handle = openPostgres({ connectionString: POSTGRES_URL, schema });
const ledger = postgresLedger(handle);
await ledger.createOrganization('bench', 1e12, 0);
const owner = randomUUID();
const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
await pool.query(`INSERT INTO ${s}.instances (id, lease_until) VALUES ($1, now() + interval '1 hour')`, [owner]);

async function round(fn: 'settle' | 'settle_traced'): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < CHARGES; i++) {
    const id = randomUUID();
    await pool.query(`SELECT o_ok FROM ${s}.reserve($1, 'bench', 1, $2::uuid, 0)`, [id, owner]);
    await pool.query(`SELECT ${s}.${fn}($1, 'bench', true, 1, true, 0, NULL)`, [id]);
  }
  return (performance.now() - started) / CHARGES;
}

const times: Record<'settle' | 'settle_traced', number[]> = { settle: [], settle_traced: [] };
await round('settle'); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  const order: ('settle' | 'settle_traced')[] = r % 2 === 0 ? ['settle', 'settle_traced'] : ['settle_traced', 'settle'];
  for (const fn of order) times[fn].push(await round(fn));
}
const ratios = times.settle_traced.map((t, r) => t / times.settle[r]!);
console.log(`${ROUNDS} rounds of ${CHARGES} sequential charges (reserve + settle), ms per charge, median (min–max) over rounds:`);
console.log(
  `settle (migration 1): ${spread(times.settle, 3)}  settle_traced (migration 2): ${spread(times.settle_traced, 3)}  ratio per round ${spread(
    ratios,
    (x) => `${x.toFixed(3)}×`,
  )}`,
);
await ledger.close();
await handle.close();
await pool.query(`DROP SCHEMA ${s} CASCADE`);
await pool.end();
