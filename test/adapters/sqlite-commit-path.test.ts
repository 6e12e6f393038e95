// How the SQLite ledger commits: a charging settlement alone (no other reservation of this handle in
// flight) is committed before settle() returns, with no event-loop turn; with others in flight it waits
// for the group commit. Under 'full', every durable commit (charges, new organizations, added credits)
// runs with synchronous=FULL (fsync), reservations with NORMAL.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Durability, openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import type { Ledger } from '../../src/ports/ledger.js';

let dir: string;
let store: SqliteDatabase | undefined;
let reader: Database.Database | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-settle-'));
});
afterEach(() => {
  reader?.close();
  store?.close();
  reader = store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function setup(durability: Durability): Promise<{ ledger: Ledger; balance: () => number; db: SqliteDatabase }> {
  const file = join(dir, 'ledger.db');
  store = openSqlite({ database: file, durability });
  const ledger = sqliteLedger(store);
  await ledger.createOrganization('acme', 100, 0);
  reader = new Database(file, { readonly: true });
  const read = reader.prepare('SELECT balance FROM organizations WHERE id = ?');
  return { ledger, db: store, balance: () => (read.get('acme') as { balance: number }).balance };
}

const charge = (ledger: Ledger, id: string, charged: number) =>
  ledger.settle({ id, organization: 'acme', kind: 'search', charged, answered: true });

describe('SQLite ledger: settle path', () => {
  it('commits a lone charging settlement before settle() returns', async () => {
    const { ledger, balance } = await setup('normal');
    await ledger.reserve({ id: 'r1', organization: 'acme', amount: 3 }, 0);
    const settled = charge(ledger, 'r1', 2);
    expect(balance()).toBe(98); // visible to another connection before any await
    expect(await settled).toBe(2);
  });

  it('batches a charging settlement while another reservation is in flight', async () => {
    const { ledger, balance } = await setup('normal');
    await ledger.reserve({ id: 'r1', organization: 'acme', amount: 1 }, 0);
    await ledger.reserve({ id: 'r2', organization: 'acme', amount: 1 }, 0);
    const first = charge(ledger, 'r1', 1);
    expect(balance()).toBe(100); // queued for the group commit
    const second = charge(ledger, 'r2', 1);
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(balance()).toBe(98);
    // Both settled: the next lone settlement commits at once again.
    await ledger.reserve({ id: 'r3', organization: 'acme', amount: 1 }, 0);
    const third = charge(ledger, 'r3', 1);
    expect(balance()).toBe(97);
    await third;
  });

  it("commits a lone charge with synchronous=FULL under durability 'full', NORMAL under 'normal'", async () => {
    for (const durability of ['full', 'normal'] as const) {
      const { ledger, db } = await setup(durability);
      await ledger.reserve({ id: `r-${durability}`, organization: 'acme', amount: 1 }, 0);
      expect(db.db.pragma('synchronous', { simple: true })).toBe(1); // a reservation is never fsynced
      await charge(ledger, `r-${durability}`, 1);
      expect(db.db.pragma('synchronous', { simple: true })).toBe(durability === 'full' ? 2 : 1);
      reader?.close();
      store?.close();
      reader = store = undefined;
      rmSync(join(dir, 'ledger.db'), { force: true });
      rmSync(join(dir, 'ledger.db-wal'), { force: true });
      rmSync(join(dir, 'ledger.db-shm'), { force: true });
    }
  });

  it("runs every durable commit with synchronous=FULL under 'full', from the first one after open", async () => {
    const { ledger, db } = await setup('full'); // open registers a session, then createOrganization
    expect(db.db.pragma('synchronous', { simple: true })).toBe(2);
    await ledger.addCredits('acme', 5);
    expect(db.db.pragma('synchronous', { simple: true })).toBe(2);
    await ledger.reserve({ id: 'r1', organization: 'acme', amount: 1 }, 0);
    expect(db.db.pragma('synchronous', { simple: true })).toBe(1);
    await ledger.addCredits('acme', 5);
    expect(db.db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('creates new files with 1 KiB pages and leaves an existing file its page size', async () => {
    const { db } = await setup('normal');
    expect(db.db.pragma('page_size', { simple: true })).toBe(1024);
    const old = join(dir, 'old.db');
    const raw = new Database(old);
    raw.pragma('journal_mode = WAL');
    raw.exec('CREATE TABLE before_websift (x)'); // an existing file, created with the default 4 KiB pages
    raw.close();
    const reopened = openSqlite({ database: old });
    try {
      expect(reopened.db.pragma('page_size', { simple: true })).toBe(4096);
    } finally {
      reopened.close();
    }
  });

  it('rejects (never throws) a bad charge, keeping the reservation', async () => {
    const { ledger, balance } = await setup('normal');
    await ledger.reserve({ id: 'r1', organization: 'acme', amount: 2 }, 0);
    let settled: Promise<number> | undefined;
    expect(() => {
      settled = charge(ledger, 'r1', 1.5);
    }).not.toThrow();
    await expect(settled).rejects.toThrow(RangeError);
    expect(await charge(ledger, 'r1', 2)).toBe(2);
    expect(balance()).toBe(98);
  });
});
