// The seeded fault-injection simulation of the books (issue 32). One run: an engine in this process and
// a second instance in a child process share one set of books (a real SQLite file, or real PostgreSQL
// behind the TCP fault proxy in a fresh schema) and take a seeded schedule of mixed calls (searches,
// charged, free repeats and with include_content; extracts against the loopback page server; with and
// without idempotency keys) while faults strike: connection resets, partitions, outages and
// commit-then-lose-reply for PostgreSQL; a write lock held past or within lockWaitMs for SQLite; and for
// both, the child SIGKILLed at a seeded moment (mid-call) and restarted. A client retries a keyed call
// that failed with the same key, and sometimes one that succeeded (as if its answer was lost).
// After the schedule: heal, drain the retries, let the instances go idle (bounded wait), then check the
// invariants (docs/operating.md, "Books under faults"). The seed fixes the schedule (which call, which
// fault, when the child dies, by call count); how calls interleave with a fault still depends on timing.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { contentPrice } from '../../../src/core/books/billing.js';
import { type PageServer, seededRandom, startPageServer } from '../../../src/testing/index.js';
import type { Engine } from '../../../src/types/index.js';
import { dropSchema, freshSchema, postgresProxy } from '../postgres.js';
import type { TcpProxy } from '../tcp-proxy.js';
import { type BooksReader, type BooksState, postgresBooks, sqliteBooks } from './books.js';
import { pageRoutes, runCall, type SimAnswer, type SimCall, type SimStorage, simEngine } from './world.js';

export interface SimOptions {
  ledger: 'sqlite' | 'postgres';
  seed: number;
  /** Calls scheduled (first attempts, retries and re-asks together; the final retries come on top). */
  calls: number;
  /** Calls in flight on the in-process engine (default 8); the child takes up to as many more. */
  concurrency?: number;
  /** SQLite: the engines' lockWaitMs (default: the shipped 5 s); the lock faults hold relative to it. */
  lockWaitMs?: number;
  /** PostgreSQL: the instances' lease (default 2 s, so a killed child's claims come free within a short run). */
  leaseMs?: number;
  /** Mean calls between two faults (default 40). */
  callsPerFault?: number;
  /** Mean calls between two kills of the child (default 120). */
  callsPerKill?: number;
  /** Bound of the final waits (retries answered, instances idle); default 60 s. */
  settleMs?: number;
}

export interface SimReport {
  ledger: SimOptions['ledger'];
  seed: number;
  /** Every attempt made, the final retries included. */
  calls: number;
  statuses: Record<string, number>;
  faults: Record<string, number>;
  kills: number;
  /** Σ over organizations of the balance drop. */
  charged: number;
  /** Σ credits_used of the answers callers received (a keyed call once). */
  told: number;
  /** Unkeyed calls whose process was killed before answering, and the most they could have charged. */
  unseen: number;
  unseenCredits: number;
  replays: number;
  violations: string[];
  ms: number;
}

const ORGS = ['org-a', 'org-b', 'org-c'];
const GRANT = 10_000_000;
const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const debug = process.env['WEBSIFT_SIM_DEBUG']
  ? (line: string) => console.error(`[sim ${new Date().toISOString()}] ${line}`)
  : () => undefined;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One line per run: what the issue asks to print per seed. */
export function summary(r: SimReport): string {
  const faults = Object.entries(r.faults)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const statuses = Object.entries(r.statuses)
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');
  return `seed=${r.seed} ledger=${r.ledger} calls=${r.calls} [${statuses}] replays=${r.replays} faults=${Object.values(r.faults).reduce((a, b) => a + b, 0)} (${faults}) kills=${r.kills} charged=${r.charged} told=${r.told} unseen=${r.unseen} (≤${r.unseenCredits} credits) violations=${r.violations.length} ${(r.ms / 1000).toFixed(1)}s`;
}

/** Worst case of a call: what an unseen (killed, unkeyed) call may have charged. */
function worstCase(call: SimCall): number {
  if (call.op === 'extract') return (call.params['urls'] as string[]).length;
  return call.params['include_content'] ? contentPrice(Number(call.params['content_results'] ?? 5)) : 1;
}

/** A keyed call as its client sees it: what it was told (once answered) and whether an attempt is out. */
interface Keyed {
  call: SimCall;
  told?: number;
  inFlight: boolean;
}

export async function simulate(options: SimOptions): Promise<SimReport> {
  const started = Date.now();
  const random = seededRandom(options.seed);
  const int = (n: number) => Math.floor(random() * n);
  const chaos = seededRandom(options.seed ^ 0x5eed_fa17); // faults and kills: a stream of their own
  const chaosInt = (n: number) => Math.floor(chaos() * n);
  const concurrency = options.concurrency ?? 8;
  const settleMs = options.settleMs ?? 60_000;
  const violations: string[] = [];
  const statuses: Record<string, number> = {};
  const faults: Record<string, number> = {};
  const told = new Map<string, number>(ORGS.map((o) => [o, 0]));
  const unseenCredits = new Map<string, number>(ORGS.map((o) => [o, 0]));
  const keyed = new Map<string, Keyed>();
  const retries = new Set<string>(); // keys whose client still waits for an answer
  const answeredKeys: string[] = [];
  let unseen = 0;
  let replays = 0;
  let kills = 0;
  let serial = 0;

  const pages: PageServer = await startPageServer(pageRoutes());
  let proxy: TcpProxy | undefined;
  let dir: string | undefined;
  let storage: SimStorage;
  let books: BooksReader;
  let schema: string | undefined;
  if (options.ledger === 'postgres') {
    const through = await postgresProxy();
    proxy = through.proxy;
    schema = freshSchema();
    storage = { database: through.url, postgres: { schema, leaseMs: options.leaseMs ?? 2_000 } };
    books = postgresBooks(schema);
  } else {
    dir = mkdtempSync(join(tmpdir(), 'websift-sim-'));
    storage = { database: join(dir, 'books.db'), ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }) };
    books = { read: () => Promise.reject(new Error('not open yet')), close: () => undefined };
  }
  const lockWaitMs = options.lockWaitMs ?? 5_000;

  const engine: Engine = simEngine(storage, pages.origin);
  for (const org of ORGS) await engine.admin.createOrganization(org, { credits: GRANT });
  if (dir) books = sqliteBooks(storage.database);

  // ---- Answers: what each caller was told ----
  const record = (call: SimCall, answer: SimAnswer, where: string) => {
    const label = answer.ok ? '200' : `${answer.status} ${answer.code}`;
    statuses[label] = (statuses[label] ?? 0) + 1;
    if (answer.status === 0 || answer.status === 400 || answer.status === 402 || answer.status === 401) {
      violations.push(`call ${call.n} (${call.op}${call.key ? `, key ${call.key}` : ''}) on ${where}: unexpected ${label}`);
    }
    const k = call.key === undefined ? undefined : keyed.get(call.key);
    if (!k) {
      if (answer.ok) told.set(call.org, told.get(call.org)! + answer.credits);
      return;
    }
    k.inFlight = false;
    if (!answer.ok) {
      retries.add(call.key!); // a real client retries with the same key
      return;
    }
    if (answer.replay) replays++;
    retries.delete(call.key!);
    if (k.told === undefined) {
      k.told = answer.credits;
      told.set(call.org, told.get(call.org)! + answer.credits);
      answeredKeys.push(call.key!);
    } else if (answer.credits !== k.told) {
      violations.push(
        `key ${call.key} (${call.op} ${JSON.stringify(call.params)}): first told ${k.told} credits, then ${answer.credits} (${answer.replay ? 'replay' : 'rerun'}) on ${where}`,
      );
    }
  };

  // ---- The child instance ----
  let child: Child | undefined;
  const startChild = async () => {
    const at = Date.now();
    child = await Child.start(storage, pages.origin, (call, answer) => record(call, answer, 'child'));
    debug(`child ready after ${Date.now() - at} ms`);
  };
  await startChild();

  // ---- Faults ----
  let fault: Promise<void> = Promise.resolve();
  let faulting = false;
  const strike = (kind: string, run: () => Promise<void>) => {
    faults[kind] = (faults[kind] ?? 0) + 1;
    faulting = true;
    const at = Date.now();
    debug(`fault ${kind}`);
    fault = run().finally(() => {
      faulting = false;
      debug(`fault ${kind} healed after ${Date.now() - at} ms`);
    });
  };
  let faultTurn = chaosInt(4);
  const startFault = () => {
    if (proxy) {
      const p = proxy;
      const kinds = ['reset', 'partition', 'lose-reply', 'outage'] as const;
      const kind = kinds[faultTurn++ % kinds.length]!; // in turn: a few faults already see every kind
      const ms = 100 + chaosInt(1_400);
      if (kind === 'reset')
        strike(kind, async () => {
          await p.stop();
          await p.start();
        });
      if (kind === 'partition')
        strike(kind, async () => {
          p.mode = 'partition';
          await sleep(ms);
          p.mode = 'forward';
        });
      if (kind === 'lose-reply')
        strike(kind, async () => {
          p.loseNextReply();
          await sleep(ms);
          p.mode = 'forward';
        });
      if (kind === 'outage')
        strike(kind, async () => {
          await p.stop();
          await sleep(ms);
          await p.start();
        });
    } else {
      // Held past lockWaitMs: writes give up (503, holds released later); within it: writes wait, then pass.
      const past = faultTurn++ % 2 === 0;
      const ms = Math.round(lockWaitMs * (past ? 1.1 + chaos() * 0.4 : 0.1 + chaos() * 0.5));
      strike(past ? 'lock-past-wait' : 'lock-within-wait', () => holdWriteLock(storage.database, ms));
    }
  };

  // ---- Kills ----
  let restarting: Promise<void> | undefined;
  const killChild = (delayMs: number) => {
    const victim = child!;
    child = undefined;
    restarting = (async () => {
      await sleep(delayMs);
      const lost = await victim.kill();
      kills++;
      for (const call of lost) {
        if (call.key !== undefined) {
          keyed.get(call.key)!.inFlight = false;
          retries.add(call.key);
        } else {
          unseen++;
          unseenCredits.set(call.org, unseenCredits.get(call.org)! + worstCase(call));
        }
      }
      await fault; // a process manager restarts it; on SQLite its open releases the dead one's holds
      for (let attempt = 1; ; attempt++) {
        try {
          await startChild();
          break;
        } catch (error) {
          // An instance that dies on its own is a finding: report it, and restart it as a manager would.
          violations.push(`the child instance crashed while starting: ${String(error).split('\n').slice(0, 4).join(' | ')}`);
          if (attempt === 3) throw error;
        }
      }
    })().finally(() => {
      restarting = undefined;
    });
  };

  // ---- The schedule ----
  const newCall = (): SimCall => {
    const org = ORGS[int(ORGS.length)]!;
    let params: Record<string, unknown>;
    let op: SimCall['op'];
    if (random() < 0.6) {
      op = 'search';
      params = { q: random() < 0.1 ? `none${int(4)}` : `q${int(40)}` };
      if (random() < 0.25) Object.assign(params, { include_content: true, content_results: 1 + int(6) });
    } else {
      op = 'extract';
      const urls = new Set<string>();
      const count = 1 + int(3);
      while (urls.size < count) urls.add(random() < 0.1 ? pages.url('/gone') : pages.url(`/p/${int(12)}`));
      params = { urls: [...urls], ...(random() < 0.3 ? { format: 'html' } : {}) };
    }
    const n = serial++;
    const call: SimCall = { n, op, org, params, ...(random() < 0.6 ? { key: `sim-${options.seed}-${n}` } : {}) };
    if (call.key !== undefined) keyed.set(call.key, { call, inFlight: false });
    return call;
  };
  /** A client's retry: of a keyed call still unanswered, or (rarely) of one whose answer it lost. */
  const retryCall = (): SimCall | undefined => {
    const pool = retries.size > 0 && random() < 0.5 ? [...retries] : random() < 0.05 ? answeredKeys : [];
    if (pool.length === 0) return undefined;
    const k = keyed.get(pool[int(pool.length)]!)!;
    return k.inFlight ? undefined : { ...k.call, n: serial++ };
  };

  const inflight = new Set<Promise<void>>();
  const onMain = (call: SimCall) => {
    const done = runCall(engine, call).then((answer) => record(call, answer, 'main'));
    inflight.add(done);
    void done.finally(() => inflight.delete(done));
  };
  const callsPerFault = options.callsPerFault ?? 40;
  const callsPerKill = options.callsPerKill ?? 120;
  for (let step = 0; step < options.calls; step++) {
    while (inflight.size >= concurrency) await Promise.race(inflight);
    // Faults and kills fall due by call count (their own PRNG stream); one that falls due while another
    // fault runs, or on SQLite while the child restarts (its open waits only its busy timeout), is skipped.
    if (chaos() < 1 / callsPerFault && !faulting && !(restarting && !proxy)) startFault();
    if (chaos() < 1 / callsPerKill && child?.ready && !restarting) killChild(chaosInt(150));
    const call = retryCall() ?? newCall();
    if (call.key !== undefined) keyed.get(call.key)!.inFlight = true;
    const toChild = random() < 0.3;
    if (toChild && child?.ready && child.outstanding < concurrency) child.send(call);
    else onMain(call);
  }

  // ---- Heal, drain, go idle ----
  debug(`schedule done: ${options.calls} calls`);
  await fault;
  await restarting;
  await Promise.all(inflight);
  await child?.end();
  const deadline = Date.now() + settleMs;
  while (retries.size > 0 && Date.now() < deadline) {
    for (const key of [...retries]) {
      const k = keyed.get(key)!;
      const call = { ...k.call, n: serial++ };
      record(call, await runCall(engine, call), 'main');
    }
    if (retries.size > 0) await sleep(100); // 409: the dead owner's claim comes free (SQLite at once, PostgreSQL after its lease)
  }
  for (const key of retries)
    violations.push(`key ${key} (${JSON.stringify(keyed.get(key)!.call)}) never answered: its retries still fail after ${settleMs} ms`);

  debug(`retries drained`);
  // Background retries of the ledger (settlements and claim finishes the outage missed) end within the bound.
  let state: BooksState = await books.read();
  while (Date.now() < deadline && (state.pendingHolds > 0 || state.runningClaims > 0 || state.organizations.some((o) => o.reserved > 0))) {
    await sleep(100);
    state = await books.read();
  }
  if (state.pendingHolds > 0)
    violations.push(`${state.pendingHolds} holds still pending with every instance idle: ${state.pendingDetail.join('; ')}`);
  if (state.runningClaims > 0) violations.push(`${state.runningClaims} claims still running under a live, idle instance`);
  const charged = checkBooks(state, told, unseenCredits, violations);
  await engine.close();
  const closed = await books.read();
  if (closed.pendingHolds > 0 || closed.organizations.some((o) => o.reserved > 0)) {
    violations.push(`after close: ${closed.pendingHolds} pending holds, reserved ${closed.organizations.map((o) => o.reserved).join('/')}`);
  }
  books.close();
  await pages.close();
  await proxy?.close();
  if (schema) await dropSchema(schema);
  if (dir) rmSync(dir, { recursive: true, force: true });

  return {
    ledger: options.ledger,
    seed: options.seed,
    calls: serial,
    statuses,
    faults,
    kills,
    charged,
    told: [...told.values()].reduce((a, b) => a + b, 0),
    unseen,
    unseenCredits: [...unseenCredits.values()].reduce((a, b) => a + b, 0),
    replays,
    violations,
    ms: Date.now() - started,
  };
}

/**
 * The books equal what callers were told: per organization, the balance drop is the credits the answers
 * reported (plus at most the worst case of the unseen calls), and used moved with it. Returns Σ drops.
 */
export function checkBooks(state: BooksState, told: Map<string, number>, unseen: Map<string, number>, violations: string[]): number {
  let charged = 0;
  for (const org of state.organizations) {
    const drop = GRANT - org.balance;
    charged += drop;
    const t = told.get(org.id)!;
    const slack = unseen.get(org.id)!;
    if (drop < t || drop > t + slack) {
      violations.push(`${org.id}: balance dropped ${drop}, callers were told ${t}${slack ? ` (+ at most ${slack} unseen)` : ''}`);
    }
    if (org.used !== drop) violations.push(`${org.id}: used ${org.used} but the balance dropped ${drop}`);
  }
  return charged;
}

/** Holds SQLite's write lock from another connection for `ms`, as another writer (a backup, a migration) would. */
async function holdWriteLock(file: string, ms: number): Promise<void> {
  const db = new Database(file, { timeout: 0 });
  try {
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        await sleep(2); // the engines' own writes: take the lock between two of them
      }
    }
    await sleep(ms);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/** The second instance: a child process running simEngine on the same books (child.ts). */
class Child {
  readonly #calls = new Map<number, SimCall>();
  #ready = false;
  private constructor(
    private readonly process: ChildProcess,
    private readonly exited: Promise<void>,
  ) {}

  static async start(storage: SimStorage, origin: string, onAnswer: (call: SimCall, answer: SimAnswer) => void): Promise<Child> {
    const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ storage, origin })], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // 'close': after its last line of output was read.
    const exited = new Promise<void>((resolve) => proc.once('close', () => resolve()));
    const child = new Child(proc, exited);
    let log = '';
    proc.stderr!.on('data', (d: Buffer) => {
      log = (log + d.toString()).slice(-4_000);
    });
    proc.stdin!.on('error', () => undefined); // written after a kill: nobody reads any more
    await new Promise<void>((resolve, reject) => {
      proc.once('exit', (code) => child.#ready || reject(new Error(`books-sim child exited (${code}) before ready:\n${log}`)));
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        if (line === 'ready') {
          child.#ready = true;
          resolve();
          return;
        }
        const { n, answer } = JSON.parse(line) as { n: number; answer: SimAnswer };
        const call = child.#calls.get(n);
        if (!call) return;
        child.#calls.delete(n);
        onAnswer(call, answer);
      });
    });
    return child;
  }

  get ready(): boolean {
    return this.#ready;
  }

  get outstanding(): number {
    return this.#calls.size;
  }

  send(call: SimCall): void {
    this.#calls.set(call.n, call);
    this.process.stdin!.write(`${JSON.stringify(call)}\n`);
  }

  /** SIGKILL mid-call: resolves to the calls it never answered. */
  async kill(): Promise<SimCall[]> {
    this.#ready = false;
    this.process.kill('SIGKILL');
    await this.exited;
    const lost = [...this.#calls.values()];
    this.#calls.clear();
    return lost;
  }

  /** End of input: it answers what it has, closes its engine and exits. */
  async end(): Promise<void> {
    this.#ready = false;
    this.process.stdin!.end();
    await this.exited;
  }
}
