// The SQLite ledger against the Ledger conformance suite: on a temp file (durability 'full' and
// 'normal', with restarts and a second live handle) and in memory.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Durability, openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import { describeLedgerConformance } from '../../src/testing/index.js';
import { SQLITE_LEDGER_GAPS } from './sqlite-gaps.js';

function onFile(durability: Durability) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'websift-conformance-'));
    const open = async () => sqliteLedger(openSqlite({ database: join(dir, 'ledger.db'), durability }));
    return {
      ledger: await open(),
      reopen: open,
      openAnother: open,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  };
}

describeLedgerConformance('SQLite file, durability full', onFile('full'), { knownGaps: SQLITE_LEDGER_GAPS });
describeLedgerConformance('SQLite file, durability normal', onFile('normal'), { knownGaps: SQLITE_LEDGER_GAPS });
describeLedgerConformance(
  'SQLite :memory: (the default database)',
  async () => ({ ledger: sqliteLedger(openSqlite()), cleanup: async () => {} }),
  { knownGaps: SQLITE_LEDGER_GAPS },
);
