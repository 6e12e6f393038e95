// The SQLite ledger on real files: schema versioning, its own reserve/settle choices, group commit,
// sessions and crash recovery. The port's contract (reserve, settle, usage, concurrency, restarts, a
// second handle) is checked by the Ledger conformance suite in test/conformance/sqlite-ledger.test.ts.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import { SCHEMA_VERSION } from '../../src/adapters/sqlite/schema.js';
import type { Ledger } from '../../src/ports/ledger.js';

let dir: string;
let file: string;
const opened: SqliteDatabase[] = [];
const open = () => {
  const db = openSqlite({ database: file });
  opened.push(db);
  return { db, ledger: sqliteLedger(db) };
};
const pendingOf = (path: string, org: string) => {
  const raw = new Database(path, { readonly: true });
  try {
    return (
      raw.prepare('SELECT COALESCE(SUM(amount), 0) AS n FROM reservations WHERE organization = ? AND finished = 0').get(org) as {
        n: number;
      }
    ).n;
  } finally {
    raw.close();
  }
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-ledger-'));
  file = join(dir, 'ledger.db');
});
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('schema', () => {
  it('creates a versioned schema in WAL mode and keeps data across opens', async () => {
    const { db, ledger } = open();
    expect(db.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.db.prepare('SELECT version FROM schema_version').get()).toEqual({ version: SCHEMA_VERSION });
    await ledger.createOrganization('acme', 7, 0);
    db.close();
    const again = open();
    expect(await again.ledger.organization('acme')).toEqual({ id: 'acme', balance: 7, used: 0 });
  });

  it('refuses a file written by a newer schema', () => {
    open().db.close();
    const raw = new Database(file);
    raw.prepare('UPDATE schema_version SET version = 99').run();
    raw.close();
    expect(() => open()).toThrow(/schema version 99 is newer/);
  });
});

describe('reserve and settle', () => {
  let ledger: Ledger;
  beforeEach(async () => {
    ledger = open().ledger;
    await ledger.createOrganization('acme', 5, 0);
  });

  it('without a reservation, charges only what no one else holds (never negative)', async () => {
    await ledger.reserve({ id: 'other', organization: 'acme', amount: 4 }, 0);
    expect(await ledger.settle({ id: 'gone', organization: 'acme', kind: 'search', charged: 3, answered: true })).toBe(1);
    expect((await ledger.usage('acme'))!.balance).toBe(4);
  });

  it('fsyncs charging commits only (synchronous FULL), not reservations', async () => {
    const { db, ledger: l } = open();
    await l.reserve({ id: 'x', organization: 'acme', amount: 1 }, 0);
    expect(db.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    await l.settle({ id: 'x', organization: 'acme', kind: 'search', charged: 1, answered: true });
    expect(db.db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });
});

describe('group commit', () => {
  it('commits concurrent charges together, exactly, and isolates a bad settlement', async () => {
    const { ledger } = open();
    await ledger.createOrganization('acme', 100, 0);
    for (let i = 0; i < 40; i++) await ledger.reserve({ id: `r${i}`, organization: 'acme', amount: 2 }, 0);
    const settled = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        ledger.settle({ id: `r${i}`, organization: 'acme', kind: 'search', charged: i === 7 ? 1.5 : 1 + (i % 2), answered: true }),
      ),
    );
    expect(settled.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect((settled[7] as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
    const charged = settled.reduce((sum, r) => sum + (r.status === 'fulfilled' ? r.value : 0), 0);
    expect(charged).toBe(20 * 1 + 19 * 2); // even i: 1 each; odd i: 2 each, except i = 7 (rejected)
    const usage = (await ledger.usage('acme'))!;
    expect(usage.balance).toBe(100 - charged);
    expect(pendingOf(file, 'acme')).toBe(2); // the rejected one's reservation is still held until released
  });
});

describe('crash recovery', () => {
  it('releases the reservations of a killed process on the next open', async () => {
    const setup = open();
    await setup.ledger.createOrganization('acme', 5, 0);
    setup.db.close();

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url)), file, 'acme', '4'],
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
    expect(JSON.parse(line)).toEqual({ ok: true });
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(pendingOf(file, 'acme')).toBe(4); // stranded by the crash

    const after = open();
    expect(pendingOf(file, 'acme')).toBe(0);
    expect(await after.ledger.reserve({ id: 'next', organization: 'acme', amount: 5 }, 0)).toEqual({ ok: true });
  }, 20_000);

  it("releases a session that claims this pid but wasn't opened by this process (pid reuse)", async () => {
    const { db, ledger } = open();
    await ledger.createOrganization('acme', 5, 0);
    const ghost = db.db
      .prepare("INSERT INTO sessions (id, pid, host, started, opened_at) VALUES ('ghost', ?, ?, 'not-our-start', 0)")
      .run(process.pid, (await import('node:os')).hostname()).lastInsertRowid;
    db.db.prepare("INSERT INTO reservations (id, organization, amount, session, created_at) VALUES ('g1', 'acme', 5, ?, 0)").run(ghost);
    open();
    expect(pendingOf(file, 'acme')).toBe(0);
    expect(db.db.prepare("SELECT id FROM sessions WHERE id = 'ghost'").all()).toEqual([]);
  });

  it('keeps the reservations of sessions still open in this process, and a clean close releases its own', async () => {
    const first = open();
    await first.ledger.createOrganization('acme', 5, 0);
    await first.ledger.reserve({ id: 'held', organization: 'acme', amount: 2 }, 0);
    open(); // a second open must not take the first one's reservation away
    expect(pendingOf(file, 'acme')).toBe(2);
    const sessions = () => (open().db.db.prepare('SELECT id FROM sessions').all() as { id: string }[]).map((r) => r.id);
    expect(sessions()).toContain(first.db.session);
    first.db.close();
    expect(pendingOf(file, 'acme')).toBe(0);
    expect(sessions()).not.toContain(first.db.session);
  });
});
