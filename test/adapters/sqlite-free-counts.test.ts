// Count-only settlements (free repeats) on the SQLite ledger: counted in memory and written once per
// event-loop turn (src/adapters/sqlite/free-counts.ts). This handle's usage() is always exact; another
// handle sees the counts after the turn; close() writes them. Also: a database in memory never
// switches PRAGMA synchronous (nothing to fsync).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import type { Ledger, RequestKind } from '../../src/ports/ledger.js';

let dir: string;
let file: string;
const open: Ledger[] = [];
const ledgerOn = (database: string, durability: 'full' | 'normal' = 'full') => {
  const ledger = sqliteLedger(openSqlite({ database, durability }));
  open.push(ledger);
  return ledger;
};
const free = (ledger: Ledger, id: string, kind: RequestKind = 'search', answered = true) =>
  ledger.settle({ id, organization: 'acme', kind, charged: 0, answered });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-free-'));
  file = join(dir, 'ledger.db');
});
afterEach(async () => {
  for (const ledger of open.splice(0)) await ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('free request counters', () => {
  it("this handle's usage is exact at once; another handle sees the counts after the turn", async () => {
    const here = ledgerOn(file);
    await here.createOrganization('acme', 5, 0);
    const there = ledgerOn(file);
    await Promise.all([free(here, 'a'), free(here, 'b', 'extract'), free(here, 'c', 'search', false), free(here, 'a')]);
    const expected = { balance: 5, used: 0, requests: { search: 1, extract: 1 }, free: 2 };
    expect(await here.usage('acme')).toEqual(expected); // unanswered 'c' and the duplicate 'a' not counted
    expect(await there.usage('acme')).toEqual(expected); // here's usage() wrote them
    await free(here, 'd');
    await nextTurn();
    expect(await there.usage('acme')).toEqual({ ...expected, requests: { search: 2, extract: 1 }, free: 3 });
  });

  it('close writes the pending counts; an unknown organization is counted nowhere', async () => {
    const here = ledgerOn(file);
    await here.createOrganization('acme', 5, 0);
    await free(here, 'a');
    await here.settle({ id: 'x', organization: 'nobody', kind: 'search', charged: 0, answered: true });
    await here.close();
    open.splice(open.indexOf(here), 1);
    const again = ledgerOn(file);
    expect(await again.usage('acme')).toMatchObject({ requests: { search: 1, extract: 0 }, free: 1 });
    expect(await again.usage('nobody')).toBeNull();
  });

  it('batches free and charged settlements of one turn without mixing their counts', async () => {
    const here = ledgerOn(file);
    await here.createOrganization('acme', 10, 0);
    const ids = ['r1', 'r2', 'r3'];
    for (const id of ids) await here.reserve({ id, organization: 'acme', amount: 2 }, 0);
    const charged = await Promise.all([
      ...ids.map((id) => here.settle({ id, organization: 'acme', kind: 'search', charged: 2, answered: true })),
      ...['f1', 'f2'].map((id) => free(here, id)),
    ]);
    expect(charged).toEqual([2, 2, 2, 0, 0]);
    expect(await here.usage('acme')).toEqual({ balance: 4, used: 6, requests: { search: 5, extract: 0 }, free: 2 });
  });
});

describe('a database in memory', () => {
  it('never switches PRAGMA synchronous, whatever the durability', async () => {
    const store = openSqlite({ durability: 'full' });
    const ledger = sqliteLedger(store);
    open.push(ledger);
    const before = store.db.pragma('synchronous', { simple: true });
    await ledger.createOrganization('acme', 5, 0); // durable commit
    await ledger.reserve({ id: 'r', organization: 'acme', amount: 1 }, 0); // non-durable commit
    expect(store.db.pragma('synchronous', { simple: true })).toBe(before);
    await ledger.settle({ id: 'r', organization: 'acme', kind: 'search', charged: 1, answered: true });
    expect(store.db.pragma('synchronous', { simple: true })).toBe(before);
  });
});
