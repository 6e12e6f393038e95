// The books of one hot organization on PostgreSQL under group commit (issue 33), held apart from the
// conformance suite: three instances (this process and two child processes) charge ONE organization
// with 32 calls in flight each, the children are SIGKILLed mid-flight one after the other, and the books
// must come out exact: no overdraw at any moment, every acknowledged charge recorded once with its
// amount, no charge the instances did not make, the dead instances' holds released, and the totals
// adding up. Leases are 2 s of real time (the server's clock), so the dead instances' holds come
// free within the test.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { postgresLedger } from '../../src/postgres/index.js';
import { adminPool, dropSchema, freshSchema } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('PostgreSQL');
const WORKER = fileURLToPath(new URL('./fixtures/pg-hot-worker.ts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
// 2 s: long enough that a live instance's hold never lapses while a loaded machine (a full test run beside
// it) stalls its event loop or PostgreSQL; a lapsed live hold settles 0, which this test counts as a violation.
const LEASE_MS = 2_000;
const STREAMS = 32;
const CREDITS = 3_000;

/** What one instance was told: its granted holds, and its answered settlements. */
interface Told {
  holds: Map<string, number>;
  settled: Map<string, { charged: number; want: number; amount: number }>;
}
const told = (): Told => ({ holds: new Map(), settled: new Map() });

function record(t: Told, line: string): void {
  const [tag, id, ...n] = line.split(' ');
  if (tag === 'R') t.holds.set(id!, Number(n[0]));
  if (tag === 'S') t.settled.set(id!, { charged: Number(n[0]), want: Number(n[1]), amount: Number(n[2]) });
}

interface Worker {
  child: ChildProcess;
  told: Told;
  /** Resolves once the worker has printed `more` outcomes more (rejects if it exits on its own). */
  after(more: number): Promise<void>;
}

async function worker(schema: string): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, POSTGRES_URL, schema, 'hot', String(STREAMS), String(LEASE_MS)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanup.push(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'));
  const t = told();
  let lines = 0;
  const waiting: { lines: number; resolve: () => void }[] = [];
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') return ready();
    record(t, line);
    lines++;
    for (const w of waiting.filter((w) => lines >= w.lines)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => signal !== 'SIGKILL' && reject(new Error(`worker exited (${code ?? signal})`))),
  );
  await Promise.race([isReady, exited]);
  return {
    child,
    told: t,
    after: (more) => Promise.race([new Promise<void>((resolve) => waiting.push({ lines: lines + more, resolve })), exited]),
  };
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const cleanup: (() => unknown)[] = [];

describe.skipIf(!available)('PostgreSQL ledger: one hot organization, three instances, two of them killed', () => {
  afterEach(async () => {
    for (const undo of cleanup.splice(0).reverse()) await undo();
  });
  afterAll(() => adminPool().end());

  it('keeps exact books: no overdraw, every acknowledged charge once, dead holds released, totals add up', async () => {
    const schema = freshSchema();
    cleanup.push(() => dropSchema(schema));
    const s = `"${schema}"`;
    const ledger = postgresLedger({ connectionString: POSTGRES_URL, schema, leaseMs: LEASE_MS });
    cleanup.push(() => ledger.close());
    await ledger.createOrganization('hot', CREDITS, Date.now());
    const org = async () => (await adminPool().query(`SELECT * FROM ${s}.organizations WHERE id = 'hot'`)).rows[0];

    const [a, b] = await Promise.all([worker(schema), worker(schema)]);
    const mine = told();
    let added = 0;
    let doubles = 0;
    let refused = 0;
    let stop = false;
    const violations: string[] = [];
    // This instance: the same mix, plus settlements delivered twice at once and grants now and then.
    const stream = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const id = randomUUID();
        if (n === 0 && i % 20 === 0) {
          await ledger.addCredits('hot', 25);
          added += 25;
          continue;
        }
        if (i % 10 === 3) {
          record(mine, `S ${id} ${await ledger.settle({ id, organization: 'hot', kind: 'search', charged: 0, answered: true })} 0 0`);
          continue;
        }
        const amount = 1 + ((n + i) % 3);
        if (!(await ledger.reserve({ id, organization: 'hot', amount }, Date.now())).ok) {
          refused++;
          continue;
        }
        record(mine, `R ${id} ${amount}`);
        const want = (n * 7 + i) % (amount + 2);
        const settle = () => ledger.settle({ id, organization: 'hot', kind: 'extract', charged: want, answered: true });
        const charges = i % 10 === 7 ? await Promise.all([settle(), settle()]) : [await settle()];
        if (charges.length === 2) doubles++;
        const charged = charges[0]! + (charges[1] ?? 0);
        if (charged !== Math.min(want, amount)) violations.push(`${id}: charged ${charges.join('+')}, wanted ${want} of ${amount}`);
        record(mine, `S ${id} ${charged} ${want} ${amount}`);
      }
    };
    // No overdraw at any moment: sampled while everything runs.
    const samples: string[] = [];
    const watch = (async () => {
      while (!stop) {
        const o = await org();
        if (!(Number(o.balance) >= Number(o.reserved) && Number(o.reserved) >= 0)) samples.push(JSON.stringify(o));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const running = Promise.all(Array.from({ length: STREAMS }, (_, n) => stream(n)));

    await a.after(1_500);
    await kill(a.child); // mid-flight: 32 calls of its own in the air
    await b.after(1_500);
    await kill(b.child);
    const seen = mine.settled.size;
    while (mine.settled.size < seen + 1_000) await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await Promise.all([running, watch]);

    // The dead instances' holds come free once their leases run out (this instance's heartbeat sweeps).
    const start = Date.now();
    while (Number((await org()).reserved) !== 0) {
      if (Date.now() - start > 20_000) throw new Error(`holds still pending: ${JSON.stringify(await org())}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const o = await org();
    const { rows } = await adminPool().query(`SELECT id, amount, charged, finished FROM ${s}.reservations`);
    const byId = new Map(rows.map((r) => [r.id as string, { amount: Number(r.amount), charged: Number(r.charged), finished: r.finished }]));

    expect(violations).toEqual([]);
    expect(samples).toEqual([]);
    expect(rows.filter((r) => !r.finished)).toEqual([]);
    expect(Number(o.balance)).toBeGreaterThanOrEqual(0);
    expect(Number(o.balance) + Number(o.used)).toBe(CREDITS + added);
    // Every charge is on the trace, each id once (its primary key): nothing charged twice, nothing untraced.
    expect(rows.reduce((sum, r) => sum + Number(r.charged), 0)).toBe(Number(o.used));
    // Every acknowledged settlement is on the trace with the amount its caller was told (nothing lost).
    const dead = [a.told, b.told];
    for (const t of [mine, ...dead]) {
      for (const [id, st] of t.settled) {
        const row = byId.get(id);
        if (!row || row.charged !== st.charged || (st.amount > 0 && st.charged !== Math.min(st.want, st.amount)))
          violations.push(`told ${id} ${JSON.stringify(st)}, trace ${JSON.stringify(row)}`);
      }
    }
    // A charge no one was told of is a killed instance's settlement cut off before its answer: its id
    // is one of that instance's granted holds.
    const untold = rows.filter((r) => Number(r.charged) > 0 && ![mine, ...dead].some((t) => t.settled.has(r.id)));
    for (const r of untold) if (!dead.some((t) => t.holds.has(r.id))) violations.push(`untold charge ${JSON.stringify(r)}`);
    expect(violations).toEqual([]);
    expect(untold.length).toBeLessThanOrEqual(2 * STREAMS);
    // Requests: every answered settlement counted once (acknowledged ones, plus at most the cut-off ones).
    const counted = Number(o.search_requests) + Number(o.extract_requests);
    const acknowledged = [mine, ...dead].reduce((n, t) => n + t.settled.size, 0);
    expect(counted).toBeGreaterThanOrEqual(acknowledged);
    expect(counted).toBeLessThanOrEqual(acknowledged + 2 * STREAMS);
    // It did run hot: thousands of calls, the credits ran out and were refused (no overdraw to find otherwise).
    expect(doubles).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(acknowledged).toBeGreaterThan(4_000);
  }, 120_000);
});
