// Benchmark: the engine process while another process holds the database's write lock for HOLD_MS (as a
// bulk index add in one transaction did). One charge (reserve + settle) is asked for meanwhile; measured:
// the longest event-loop stall (largest gap between setImmediate turns, the charge's own call included),
// the turns while the charge waited,
// and when the charge finished. Baseline = the same charge on the unlocked file, in each round just before the
// locked one. Median (min–max) over rounds.
// Run: npx tsx bench/ledger-lock.ts [rounds=3]

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSqlite } from '../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../src/adapters/sqlite/ledger.js';
import { spread } from './lib/rounds.js';

const HOLD_MS = 2_000;
const ROUNDS = Number(process.argv[2] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'websift-ledger-lock-'));
const file = join(dir, 'websift.db');
const ledger = sqliteLedger(openSqlite({ database: file, durability: 'normal' }));
await ledger.createOrganization('acme', 1_000, 0);

let n = 0;
async function charge(): Promise<number> {
  const start = performance.now();
  const id = `c${n++}`;
  await ledger.reserve({ id, organization: 'acme', amount: 1 }, 0);
  await ledger.settle({ id, organization: 'acme', kind: 'search', charged: 1, answered: true });
  return performance.now() - start;
}

/** One round: the unlocked charge (the baseline), then a charge while another process holds the lock. */
async function round() {
  const unlocked = await charge();
  // The holder commits after HOLD_MS by its own timer.
  const holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
  import Database from 'better-sqlite3';
  const db = new Database(process.argv[1]);
  db.exec('BEGIN IMMEDIATE');
  process.stdout.write('locked\\n');
  setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${HOLD_MS});
`,
      file,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: process.cwd() },
  );
  // Listened for now: the holder often exits before the charge below returns, and a promise on an 'exit' that
  // already happened never settles (Node then ends the process with code 13 and prints nothing).
  const holderExited = new Promise<void>((resolve) => holder.once('exit', () => resolve()));
  await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));

  let turns = 0;
  let counting = true;
  let last = performance.now();
  let stall = 0;
  const count = () => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  let outcome: string;
  let ms: number;
  const start = performance.now();
  try {
    ms = await charge();
    outcome = 'charged';
  } catch (error) {
    ms = performance.now() - start;
    outcome = `rejected: ${(error as Error).name} ${(error as { code?: string }).code ?? ''}`;
  }
  counting = false;
  stall = Math.max(stall, performance.now() - last);
  await holderExited;
  return { unlocked, ms, outcome, stall, turns };
}

await charge(); // warm-up (statements prepared, pages cached), not counted
const rounds: Awaited<ReturnType<typeof round>>[] = [];
for (let r = 0; r < ROUNDS; r++) rounds.push(await round());
const of = (k: 'unlocked' | 'ms' | 'stall' | 'turns', digits = 0) =>
  spread(
    rounds.map((x) => x[k]),
    digits,
  );
console.log(`lock held ${HOLD_MS} ms by another process; ${ROUNDS} rounds, median (min–max) over rounds`);
console.log(`unlocked charge (baseline, same round): ${of('unlocked', 1)} ms`);
console.log(`charge while locked: ${[...new Set(rounds.map((x) => x.outcome))].join(', ')} after ${of('ms')} ms`);
console.log(`event loop: longest stall ${of('stall')} ms, ${of('turns')} turns while it waited`);
await ledger.close();
rmSync(dir, { recursive: true, force: true });
