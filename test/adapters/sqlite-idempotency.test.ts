// The SQLite ledger's idempotency claims beyond the port's conformance suite: a claim left by a killed
// process (taken by an instance that was already open), a session that only claims our pid, the charge
// and its paid mark rolling back together, and pruning of expired claims by the claims' own `now`.

import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import { IDEMPOTENCY_TTL_MS, type Ledger } from '../../src/ports/ledger.js';

const NOW = Date.UTC(2026, 0, 1);
let dir: string;
let file: string;
const opened: SqliteDatabase[] = [];
const open = () => {
  const db = openSqlite({ database: file });
  opened.push(db);
  return { db, ledger: sqliteLedger(db, { closeStore: false }) };
};
const claim = (ledger: Ledger, key: string, now = NOW, fingerprint = 'f') => ledger.claim({ organization: 'acme', key, fingerprint }, now);
const claimRows = (db: SqliteDatabase) => db.db.prepare('SELECT key FROM idempotency_claims ORDER BY rowid').pluck().all() as string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-claims-'));
  file = join(dir, 'ledger.db');
});
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('claims of a dead process', () => {
  it('an instance open before the crash takes them: the charged one is paid, the uncharged one claimed afresh', async () => {
    const { ledger } = open(); // live all along: nothing reopens, only the crash rule tells
    await ledger.createOrganization('acme', 10, NOW);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/claim-crash-child.ts', import.meta.url)), file, String(NOW)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    expect(JSON.parse(line)).toEqual({ outcomes: [{ state: 'claimed' }, { state: 'claimed' }], charged: 3 });
    expect(await claim(ledger, 'paid')).toEqual({ state: 'in_progress' }); // the child is alive: it owns both
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(await claim(ledger, 'paid')).toEqual({ state: 'paid', charged: 3 });
    expect(await claim(ledger, 'unpaid', NOW, 'other')).toEqual({ state: 'claimed' });
    expect(await ledger.organization('acme')).toEqual({ id: 'acme', balance: 7, used: 3 });
  }, 20_000);

  it("a claim of a session that names this pid but wasn't opened by this process is taken", async () => {
    const { db, ledger } = open();
    const ghost = db.db
      .prepare("INSERT INTO sessions (id, pid, host, started, opened_at) VALUES ('ghost', ?, ?, 'not-our-start', 0)")
      .run(process.pid, hostname()).lastInsertRowid;
    const insert = db.db.prepare(
      "INSERT INTO idempotency_claims (organization, key, fingerprint, session, charged, created_at) VALUES ('acme', ?, 'f', ?, ?, ?)",
    );
    insert.run('ghost-paid', ghost, 2, NOW);
    insert.run('ghost-unpaid', ghost, 0, NOW);
    insert.run('nobody-paid', 0, 5, NOW); // session 0: given up after its charge
    expect(await claim(ledger, 'ghost-paid')).toEqual({ state: 'paid', charged: 2 });
    expect(await claim(ledger, 'ghost-unpaid')).toEqual({ state: 'claimed' });
    expect(await claim(ledger, 'nobody-paid')).toEqual({ state: 'paid', charged: 5 });
  });
});

describe('the paid mark and the charge', () => {
  it('commit or roll back together (a mark that fails takes the charge with it)', async () => {
    const { db, ledger } = open();
    await ledger.createOrganization('acme', 10, NOW);
    db.db.exec(`CREATE TRIGGER fail_mark BEFORE UPDATE OF charged ON idempotency_claims WHEN NEW.key = 'boom'
                BEGIN SELECT RAISE(ABORT, 'injected failure of the mark'); END`);
    expect(await claim(ledger, 'boom')).toEqual({ state: 'claimed' });
    await ledger.reserve({ id: 'r1', organization: 'acme', amount: 4 }, NOW);
    await expect(
      ledger.settle({ id: 'r1', organization: 'acme', kind: 'search', charged: 4, answered: true, idempotencyKey: 'boom' }),
    ).rejects.toThrow(/injected failure/);
    expect(await ledger.usage('acme')).toEqual({ balance: 10, used: 0, requests: { search: 0, extract: 0 }, free: 0 });
    await ledger.finishClaim('acme', 'boom', null, NOW);
    expect(await claim(ledger, 'boom')).toEqual({ state: 'claimed' }); // nothing marked: dropped and claimed again
    db.db.exec('DROP TRIGGER fail_mark');
    expect(
      await ledger.settle({ id: 'r1', organization: 'acme', kind: 'search', charged: 4, answered: true, idempotencyKey: 'boom' }),
    ).toBe(4);
    await ledger.finishClaim('acme', 'boom', null, NOW);
    expect(await claim(ledger, 'boom')).toEqual({ state: 'paid', charged: 4 });
  });
});

describe('migration', () => {
  it('a version-1 file, upgraded in place, takes claims and marks them paid', async () => {
    copyFileSync(fileURLToPath(new URL('./fixtures/ledger-schema-v1.sqlite', import.meta.url)), file);
    const { db, ledger } = open();
    expect(db.db.prepare('SELECT version FROM schema_version').pluck().get()).toBe(5);
    expect(await claim(ledger, 'k')).toEqual({ state: 'claimed' });
    await ledger.reserve({ id: 'r', organization: 'acme', amount: 2 }, NOW);
    await ledger.settle({ id: 'r', organization: 'acme', kind: 'search', charged: 2, answered: true, idempotencyKey: 'k' });
    await ledger.finishClaim('acme', 'k', null, NOW);
    expect(await claim(ledger, 'k')).toEqual({ state: 'paid', charged: 2 });
  });
});

describe('stored answer bytes', () => {
  const answerBytes = (db: SqliteDatabase) => db.db.prepare("SELECT answer_bytes FROM organizations WHERE id = 'acme'").pluck().get();

  it('a version-4 file gets the bytes its claims already store; pruning an expired claim gives its bytes back', async () => {
    let { db, ledger } = open();
    await ledger.createOrganization('acme', 10, NOW);
    await claim(ledger, 'k');
    await ledger.finishClaim('acme', 'k', '{"ü":1}', NOW); // 8 bytes in UTF-8, 7 characters
    expect(answerBytes(db)).toBe(8);
    // Back to version 4, as a file written before the column existed.
    db.db.exec('ALTER TABLE organizations DROP COLUMN answer_bytes; UPDATE schema_version SET version = 4');
    await ledger.close();
    db.close();
    ({ db, ledger } = open());
    expect(answerBytes(db)).toBe(8);
    await claim(ledger, 'later', NOW + IDEMPOTENCY_TTL_MS); // prunes k
    expect(claimRows(db)).toEqual(['later']);
    expect(answerBytes(db)).toBe(0);
  });
});

describe('pruning', () => {
  it('each claim forgets up to 4 of the oldest expired claims, judged by its own now', async () => {
    const { db, ledger } = open();
    for (let i = 0; i < 10; i++) await claim(ledger, `old-${i}`, NOW + i);
    await ledger.finishClaim('acme', 'old-0', '{}', NOW);
    expect(claimRows(db)).toHaveLength(10);
    await claim(ledger, 'late', NOW + IDEMPOTENCY_TTL_MS + 1); // old-0 and old-1 expired (created_at ≤ now − 24 h)
    expect(claimRows(db)).toEqual([...Array.from({ length: 8 }, (_, i) => `old-${i + 2}`), 'late']);
    await claim(ledger, 'later', NOW + IDEMPOTENCY_TTL_MS + 100);
    expect(claimRows(db)).toEqual(['old-6', 'old-7', 'old-8', 'old-9', 'late', 'later']);
    await claim(ledger, 'latest', NOW + 2 * IDEMPOTENCY_TTL_MS + 1); // late is expired too, but fifth from the front
    expect(claimRows(db)).toEqual(['late', 'later', 'latest']);
  });

  it('a claim taken afresh moves to the end of the table, so the oldest rows stay first', async () => {
    const { db, ledger } = open();
    await claim(ledger, 'a', NOW);
    await claim(ledger, 'b', NOW + 1);
    await ledger.finishClaim('acme', 'a', null, NOW);
    await claim(ledger, 'a', NOW + 2, 'other');
    expect(claimRows(db)).toEqual(['b', 'a']);
  });
});
