// The storage attack on idempotency keys (issue 32): one charged extract of 10 × 1 MiB pages, then 40
// free repeats of it, each under a fresh key. Each free answer used to be stored whole for 24 h (410 MB
// of ledger for 10 credits). A free answer is now stored as nothing (a retry reruns it free), so the
// ledger grows by a few rows. Measured on a real SQLite file and a real PostgreSQL schema.

import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, isIdempotentReplay } from '../../src/index.js';
import { openPostgres, postgresKeyStore, postgresLedger } from '../../src/postgres/index.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import type { Engine, ExtractResponse } from '../../src/types/index.js';
import { adminPool, dropSchema, freshSchema } from '../support/postgres.js';
import { POSTGRES_URL, serviceAvailable } from '../support/services.js';

const postgres = await serviceAvailable('PostgreSQL');
const MiB = 1024 * 1024;
const PAGES = 10;
const REPEATS = 40;

let server: PageServer;
const cleanup: (() => unknown)[] = [];

beforeEach(async () => {
  const routes: Parameters<typeof startPageServer>[0] = {};
  for (let i = 0; i < PAGES; i++) {
    // 1 MiB of text per page (plain text: cheap to convert, the answer carries it all).
    routes[`/p${i}`] = {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: `page ${i} `.repeat(MiB / 8).slice(0, MiB),
    };
  }
  server = await startPageServer(routes);
});
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
  await server.close();
});
afterAll(() => adminPool().end());

const urls = () => Array.from({ length: PAGES }, (_, i) => server.url(`/p${i}`));
const options = { rateLimit: false as const, allowPrivateNetwork: true, robots: false };

/** Runs the attack on `engine`; resolves after asserting it billed 10 credits once and every repeat was free. */
async function attack(engine: Engine): Promise<void> {
  await engine.admin.createOrganization('acme', { credits: 100 });
  const paid = (await engine.extract({ urls: urls() }, { organization: 'acme' })) as ExtractResponse;
  expect(paid.metadata.credits_used).toBe(PAGES);
  expect(JSON.stringify(paid).length).toBeGreaterThan(0.8 * PAGES * MiB); // the pages, in the answer
  for (let i = 0; i < REPEATS; i++) {
    const free = await engine.extract({ urls: urls() }, { organization: 'acme', idempotencyKey: `fresh-${i}` });
    expect(free.metadata.credits_used).toBe(0);
  }
  // A retry of a free keyed call reruns free (nothing stored to replay) and is counted once.
  const retry = await engine.extract({ urls: urls() }, { organization: 'acme', idempotencyKey: 'fresh-0' });
  expect(retry.metadata.credits_used).toBe(0);
  expect(isIdempotentReplay(retry)).toBe(false);
  const usage = await engine.usage({ organization: 'acme' });
  expect(usage.credits).toEqual({ balance: 100 - PAGES, used: PAGES });
  expect(usage.requests.total).toBe(1 + REPEATS);
}

describe('charged extract, then 40 free repeats under fresh keys', () => {
  it('SQLite: the ledger file grows by kilobytes, not 400 MB, and stores no answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'websift-attack-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'websift.db');
    const engine = createEngine({ ...options, database: file });
    cleanup.push(() => engine.close());
    const size = () => statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    await engine.admin.createOrganization('warmup', { credits: 1 });
    const before = size();
    await attack(engine);
    const grown = size() - before;
    expect(grown).toBeLessThan(MiB); // was ~410 MB
    const raw = new Database(file, { readonly: true });
    cleanup.push(() => raw.close());
    expect(raw.prepare('SELECT count(*) AS n, sum(length(response)) AS bytes FROM idempotency_claims').get()).toEqual({
      n: REPEATS,
      bytes: 0,
    });
    expect(raw.prepare("SELECT answer_bytes FROM organizations WHERE id = 'acme'").pluck().get()).toBe(0);
  }, 120_000);

  describe.skipIf(!postgres)('PostgreSQL', () => {
    it('the claims table grows by kilobytes, not 400 MB, and stores no answer', async () => {
      const schema = freshSchema();
      const db = openPostgres({ connectionString: POSTGRES_URL, schema });
      cleanup.push(
        () => dropSchema(schema),
        () => db.close(),
      );
      const engine = createEngine({ ...options, ledger: postgresLedger(db), keyStore: postgresKeyStore(db) });
      cleanup.push(() => engine.close());
      await db.ready();
      const size = async () =>
        Number((await adminPool().query(`SELECT pg_total_relation_size('"${schema}".idempotency_claims') AS n`)).rows[0].n);
      const before = await size();
      await attack(engine);
      expect((await size()) - before).toBeLessThan(MiB); // was ~410 MB
      const { rows } = await adminPool().query(
        `SELECT count(*)::int AS n, coalesce(sum(octet_length(response)), 0)::int AS bytes FROM "${schema}".idempotency_claims`,
      );
      expect(rows[0]).toEqual({ n: REPEATS, bytes: 0 });
      const org = await adminPool().query(`SELECT answer_bytes FROM "${schema}".organizations WHERE id = 'acme'`);
      expect(Number(org.rows[0].answer_bytes)).toBe(0);
    }, 120_000);
  });
});

describe('createEngine({ maxStoredAnswerBytes })', () => {
  /** A keyed charged extract of two 1 MiB pages, then its retry: billed once either way. */
  async function keyedTwice(engine: Engine): Promise<{ first: ExtractResponse; retry: ExtractResponse }> {
    await engine.admin.createOrganization('acme', { credits: 100 });
    const call = { organization: 'acme', idempotencyKey: 'big-answer' };
    const first = (await engine.extract({ urls: urls().slice(0, 2) }, call)) as ExtractResponse;
    const retry = (await engine.extract({ urls: urls().slice(0, 2) }, call)) as ExtractResponse;
    expect(first.metadata.credits_used).toBe(2);
    expect(retry.metadata.credits_used).toBe(2); // what was paid, reported again
    expect((await engine.usage({ organization: 'acme' })).credits.balance).toBe(98); // charged once
    return { first, retry };
  }

  it('SQLite: an answer over the engine’s cap is not stored; the retry reruns free instead of replaying', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'websift-cap-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'websift.db');
    const engine = createEngine({ ...options, database: file, maxStoredAnswerBytes: MiB });
    cleanup.push(() => engine.close());
    const { retry } = await keyedTwice(engine);
    expect(isIdempotentReplay(retry)).toBe(false);
    const raw = new Database(file, { readonly: true });
    cleanup.push(() => raw.close());
    expect(raw.prepare("SELECT answer_bytes FROM organizations WHERE id = 'acme'").pluck().get()).toBe(0);
  }, 120_000);

  it('SQLite: under the default cap the same answer is stored and replayed', async () => {
    const engine = createEngine({ ...options });
    cleanup.push(() => engine.close());
    const { first, retry } = await keyedTwice(engine);
    expect(isIdempotentReplay(retry)).toBe(true);
    expect(retry.metadata.timestamp).toBe(first.metadata.timestamp);
  }, 120_000);

  it.skipIf(!postgres)(
    'PostgreSQL: the engine option reaches the PostgreSQL ledger too',
    async () => {
      const schema = freshSchema();
      cleanup.push(() => dropSchema(schema));
      const engine = createEngine({ ...options, database: POSTGRES_URL, postgres: { schema }, maxStoredAnswerBytes: MiB });
      cleanup.push(() => engine.close());
      const { retry } = await keyedTwice(engine);
      expect(isIdempotentReplay(retry)).toBe(false);
    },
    120_000,
  );

  it('refuses a cap that is not a non-negative integer, naming the option', () => {
    expect(() => createEngine({ maxStoredAnswerBytes: -1 })).toThrow(/maxStoredAnswerBytes/);
    expect(() => createEngine({ maxStoredAnswerBytes: 1.5 })).toThrow(RangeError);
  });
});
