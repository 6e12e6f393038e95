// Benchmark: what opening (and closing) the SQLite ledger costs against the size of its trace of finished
// reservations, and what the pending-reservations index (schema migration 3) costs a charged request.
// Open: a file with 10⁴ and one with 10⁶ finished rows, all young (kept) or all past the retention (to be
// pruned); openSqlite + sqliteLedger, then close, each on a fresh copy of the file; the 10⁴ file is the
// baseline, the two sizes alternating (which goes first too); median (min–max) over --reps, and of the ratio per rep.
// Charge: reserve + settle of 1 credit, one after another, on a file, durability 'normal'; baseline = the
// same loop on a file whose pending index was dropped (the schema before migration 3), same process,
// alternating; median (min–max) over --charge-rounds loops of --charges each, and of the ratio per round.
// Run: npx tsx bench/ledger-open.ts [--reps 9] [--charges 5000] [--charge-rounds 3]

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openSqlite } from '../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../src/adapters/sqlite/ledger.js';
import { timeOrderedIds } from '../src/core/books/request-id.js';
import { spread } from './lib/rounds.js';

const { values } = parseArgs({ options: { reps: { type: 'string' }, charges: { type: 'string' }, 'charge-rounds': { type: 'string' } } });
const REPS = Number(values.reps ?? 9);
const CHARGES = Number(values.charges ?? 5_000);
const CHARGE_ROUNDS = Number(values['charge-rounds'] ?? 3);
const HOUR = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'websift-ledger-open-'));

/** A ledger file holding `rows` finished reservations dated `age` ms ago. */
function build(rows: number, age: number): string {
  const file = join(dir, `trace-${rows}-${age}.db`);
  const store = openSqlite({ database: file });
  store.db.prepare("INSERT INTO organizations (id, balance, created_at) VALUES ('acme', 10, 0)").run();
  const at = Date.now() - age;
  const ids = timeOrderedIds({ now: () => at, sleep: async () => {} });
  const insert = store.db.prepare(
    "INSERT INTO reservations (id, organization, amount, session, created_at, finished) VALUES (?, 'acme', 1, 0, ?, 1)",
  );
  store.db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(ids(), at);
  })();
  store.close();
  return file;
}

/** Opens and closes a fresh copy of `template` (an open prunes: each run must find the same file). */
async function openClose(template: string): Promise<number> {
  const file = `${template}.copy`;
  copyFileSync(template, file);
  const start = performance.now();
  const store = openSqlite({ database: file });
  const ledger = sqliteLedger(store, { closeStore: true });
  await ledger.close();
  return performance.now() - start;
}

for (const [label, age] of [
  ['young (kept)', 60_000],
  ['old (pruned)', 2 * HOUR],
] as const) {
  const small = build(10_000, age);
  const large = build(1_000_000, age);
  const runs: Record<'small' | 'large', number[]> = { small: [], large: [] };
  // Interleaved, so a burst of load on the machine (fsync times vary most) hits both sizes alike.
  for (let i = 0; i < REPS; i++) {
    for (const size of i % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const))
      runs[size].push(await openClose(size === 'small' ? small : large));
  }
  const ratio = spread(
    runs.large.map((l, i) => l / runs.small[i]!),
    (x) => `${x.toFixed(2)}×`,
  );
  console.log(`open + close, trace ${label}: 10^4 rows ${spread(runs.small)} ms, 10^6 rows ${spread(runs.large)} ms (${ratio})`);
}

async function chargeLoop(dropIndex: boolean, n: number): Promise<number> {
  const file = join(dir, `charge-${dropIndex}-${Math.random()}.db`);
  const store = openSqlite({ database: file, durability: 'normal' });
  if (dropIndex) store.db.exec('DROP INDEX IF EXISTS reservations_pending');
  const ledger = sqliteLedger(store);
  await ledger.createOrganization('acme', 10 * n, 0);
  const ids = timeOrderedIds({ now: () => Date.now(), sleep: async () => {} });
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const id = ids();
    await ledger.reserve({ id, organization: 'acme', amount: 1 }, 0);
    await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 1, answered: true });
  }
  const us = ((performance.now() - start) * 1000) / n;
  await ledger.close();
  return us;
}
const without: number[] = [];
const withIndex: number[] = [];
for (let i = 0; i < CHARGE_ROUNDS; i++) {
  if (i % 2 === 0) {
    without.push(await chargeLoop(true, CHARGES));
    withIndex.push(await chargeLoop(false, CHARGES));
  } else {
    withIndex.push(await chargeLoop(false, CHARGES));
    without.push(await chargeLoop(true, CHARGES));
  }
}
const ratio = spread(
  withIndex.map((b, i) => b / without[i]!),
  (x) => `${x.toFixed(2)}×`,
);
console.log(`reserve + settle × ${CHARGES}: without pending index ${spread(without)} µs, with ${spread(withIndex)} µs (${ratio})`);
console.log(`median (min–max) over ${REPS} opens per file and ${CHARGE_ROUNDS} charge loops per schema`);
rmSync(dir, { recursive: true, force: true });
