// Group commit of reservations: the reservations of one event-loop turn are granted in one transaction
// on the next turn, in the order they were asked for; a failing one is retried alone and fails alone;
// close() grants what is queued instead of leaving it hanging.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import type { Ledger } from '../../src/ports/ledger.js';

let dir: string;
let reader: Database.Database | undefined;
const toClose: (() => unknown)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-reserve-'));
});
afterEach(async () => {
  for (const close of toClose.splice(0)) await close();
  reader?.close();
  reader = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A ledger on a real file, its transactions counted, and a second connection reading `reserved`. */
async function setup(credits: number): Promise<{ ledger: Ledger; transactions: () => number; reserved: () => number }> {
  const file = join(dir, 'ledger.db');
  const store = openSqlite({ database: file, durability: 'normal' });
  let count = 0;
  const counted: SqliteDatabase = {
    ...store,
    db: store.db,
    write: (fn) => {
      const tx = store.write(fn);
      return (durable, ...args) => {
        count++;
        return tx(durable, ...args);
      };
    },
  };
  const ledger = sqliteLedger(counted, { closeStore: false });
  toClose.push(
    () => ledger.close(),
    () => store.close(),
  );
  await ledger.createOrganization('acme', credits, 0);
  reader = new Database(file, { readonly: true });
  const read = reader.prepare('SELECT reserved FROM organizations WHERE id = ?');
  const before = count;
  return { ledger, transactions: () => count - before, reserved: () => (read.get('acme') as { reserved: number }).reserved };
}

const reserve = (ledger: Ledger, id: string, amount: number) => ledger.reserve({ id, organization: 'acme', amount }, 0);

describe('SQLite ledger: reservations of one turn', () => {
  it('are granted together in one transaction on the next turn, in the order asked', async () => {
    const { ledger, transactions, reserved } = await setup(5);
    const asks = [reserve(ledger, 'r1', 2), reserve(ledger, 'r2', 2), reserve(ledger, 'r3', 2)];
    expect(reserved()).toBe(0); // queued: nothing committed yet
    expect(await Promise.all(asks)).toEqual([{ ok: true }, { ok: true }, { ok: false, reason: 'insufficient_credits', available: 1 }]);
    expect(transactions()).toBe(1);
    expect(reserved()).toBe(4);
  });

  it('answer an unknown organization in the batch without failing the others', async () => {
    const { ledger } = await setup(5);
    const asks = [reserve(ledger, 'r1', 1), ledger.reserve({ id: 'x', organization: 'nobody', amount: 1 }, 0)];
    expect(await Promise.all(asks)).toEqual([{ ok: true }, { ok: false, reason: 'unknown_organization' }]);
  });

  it('retry each alone when the batch fails: only the failing reservation rejects, nothing is held twice', async () => {
    const { ledger, reserved } = await setup(10);
    // The same id twice: the second insert breaks the primary key, which rolls the whole batch back.
    const asks = [reserve(ledger, 'r1', 1), reserve(ledger, 'r1', 2), reserve(ledger, 'r2', 3)];
    const outcomes = await Promise.allSettled(asks);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(reserved()).toBe(4);
  });

  it('settle as a group commit once granted together', async () => {
    const { ledger, transactions } = await setup(10);
    await Promise.all([reserve(ledger, 'r1', 1), reserve(ledger, 'r2', 1)]);
    const settle = (id: string) => ledger.settle({ id, organization: 'acme', kind: 'search', charged: 1, answered: true });
    expect(await Promise.all([settle('r1'), settle('r2')])).toEqual([1, 1]);
    expect(transactions()).toBe(2); // one for both reservations, one for both settlements
    expect((await ledger.usage('acme'))?.balance).toBe(8);
  });

  it('are granted, not left hanging, when the ledger closes first', async () => {
    const { ledger } = await setup(5);
    const ask = reserve(ledger, 'r1', 1);
    await ledger.close();
    expect(await ask).toEqual({ ok: true });
  });
});
