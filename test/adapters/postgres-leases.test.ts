// Instance leases of the PostgreSQL ledger: a crashed instance (a real second process, SIGKILLed) must
// not strand its credits while the others keep running, and a live instance's holds are never released
// by anyone else. Leases here are 300 ms of real time (the server's clock), so each wait is short.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PostgresLedger, postgresLedger } from '../../src/postgres/index.js';
import { adminPool, dropSchema, freshSchema } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');
const HOLDER = fileURLToPath(new URL('./fixtures/pg-holder.ts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const LEASE_MS = 300;
const NOW = Date.UTC(2026, 0, 1);

let schema: string;
const cleanup: (() => unknown)[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The organization's pending sum and its pending reservation rows, read directly. */
async function holds(organization = 'acme'): Promise<{ reserved: number; rows: number }> {
  const { rows } = await adminPool().query(
    `SELECT o.reserved, (SELECT count(*) FROM "${schema}".reservations r WHERE r.organization = o.id AND NOT r.finished) AS rows
     FROM "${schema}".organizations o WHERE o.id = $1`,
    [organization],
  );
  return { reserved: Number(rows[0].reserved), rows: Number(rows[0].rows) };
}

async function instances(): Promise<string[]> {
  const { rows } = await adminPool().query(`SELECT id FROM "${schema}".instances ORDER BY id`);
  return rows.map((r) => r.id as string);
}

function ledger(leaseMs = LEASE_MS): PostgresLedger {
  const l = postgresLedger({ connectionString: POSTGRES_URL, schema, leaseMs });
  cleanup.push(() => l.close());
  return l;
}

/** A second process that reserves `amount` and then lives until killed. */
async function holderProcess(amount: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, POSTGRES_URL, schema, 'acme', String(amount), String(LEASE_MS)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanup.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) out.startsWith('held') ? resolve() : reject(new Error(out));
    });
    child.once('exit', (code) => reject(new Error(`holder exited (${code}) before holding: ${out}`)));
  });
  return child;
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function until(check: () => Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await sleep(25);
  }
  return Date.now() - start;
}

describe.skipIf(!available)('PostgreSQL ledger leases', () => {
  beforeEach(async () => {
    schema = freshSchema();
    const setup = postgresLedger({ connectionString: POSTGRES_URL, schema });
    await setup.createOrganization('acme', 10, NOW);
    await setup.close();
  });
  afterEach(async () => {
    for (const undo of cleanup.splice(0).reverse()) await undo();
    await dropSchema(schema);
  });
  afterAll(() => adminPool().end());

  it("a crashed instance's holds are released by another instance's heartbeat once its lease has run out", async () => {
    const other = ledger();
    expect((await other.reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW)).ok).toBe(true); // registers: heartbeats start
    const child = await holderProcess(6);
    expect(await holds()).toEqual({ reserved: 7, rows: 2 });
    await kill(child);
    const waited = await until(async () => (await holds()).reserved === 1, 3_000);
    expect(waited).toBeLessThan(3_000);
    expect(await holds()).toEqual({ reserved: 1, rows: 1 }); // only the live instance's hold is left
    expect(await instances()).toEqual([other.instance]); // the dead instance's row went with it
  });

  it('a reservation refused for want of credits first releases the holds of dead instances (no heartbeat needed)', async () => {
    const other = ledger(60_000); // heartbeats every 20 s: none during this test after the first
    expect((await other.reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW)).ok).toBe(true);
    const child = await holderProcess(6);
    // While the holder lives, its 6 are held: 3 left.
    expect(await other.reserve({ id: randomUUID(), organization: 'acme', amount: 9 }, NOW)).toEqual({
      ok: false,
      reason: 'insufficient_credits',
      available: 3,
    });
    await kill(child);
    await sleep(LEASE_MS + 100);
    expect(await other.reserve({ id: randomUUID(), organization: 'acme', amount: 9 }, NOW)).toEqual({ ok: true });
    expect(await holds()).toEqual({ reserved: 10, rows: 2 });
  });

  it("a live instance's holds are never released by the others, however many leases go by", async () => {
    const mine = ledger();
    const theirs = ledger();
    const held = randomUUID();
    expect((await mine.reserve({ id: held, organization: 'acme', amount: 6 }, NOW)).ok).toBe(true);
    expect((await theirs.reserve({ id: randomUUID(), organization: 'acme', amount: 1 }, NOW)).ok).toBe(true);
    await sleep(4 * LEASE_MS); // a dozen heartbeats of each, every one sweeping
    expect(await theirs.reserve({ id: randomUUID(), organization: 'acme', amount: 4 }, NOW)).toEqual({
      ok: false,
      reason: 'insufficient_credits',
      available: 3,
    });
    expect(await holds()).toEqual({ reserved: 7, rows: 2 });
    expect(await mine.settle({ id: held, organization: 'acme', kind: 'search', charged: 6, answered: true })).toBe(6);
    expect((await instances()).sort()).toEqual([mine.instance, theirs.instance].sort());
  });

  it('an instance taken for dead (its row swept while it stalled) registers again on its next heartbeat', async () => {
    const stalled = ledger();
    expect((await stalled.reserve({ id: randomUUID(), organization: 'acme', amount: 2 }, NOW)).ok).toBe(true);
    await adminPool().query(`DELETE FROM "${schema}".instances WHERE id = $1`, [stalled.instance]);
    await until(async () => (await instances()).includes(stalled.instance), 2_000);
    expect((await stalled.reserve({ id: randomUUID(), organization: 'acme', amount: 2 }, NOW)).ok).toBe(true);
  });

  it('a clean close releases its own holds at once and removes its instance row', async () => {
    const closing = ledger(60_000);
    const staying = ledger(60_000);
    await closing.reserve({ id: randomUUID(), organization: 'acme', amount: 4 }, NOW);
    await staying.reserve({ id: randomUUID(), organization: 'acme', amount: 3 }, NOW);
    await closing.close();
    expect(await holds()).toEqual({ reserved: 3, rows: 1 });
    expect(await instances()).toEqual([staying.instance]);
  });
});
