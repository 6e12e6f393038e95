// The SQLite ledger's trace of finished reservations (schema version 2: finished rows stay in
// `reservations`, flagged `finished`): migration of a version-1 file in place, duplicate
// settlements, reused ids, crash sweeps that must not touch the trace, and pruning by the injected
// Clock. The port rule itself ("a settlement is applied once") is in the Ledger conformance suite.

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { sqliteKeyStore } from '../../src/adapters/sqlite/key-store.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import { SCHEMA_VERSION } from '../../src/adapters/sqlite/schema.js';
import { OPEN_CHUNKS } from '../../src/adapters/sqlite/trace-pruner.js';
import { timeOrderedIds } from '../../src/core/books/request-id.js';
import type { Ledger } from '../../src/ports/ledger.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

/**
 * Written by websift at schema version 1 (before the trace): acme 93 left of 100, 7 used, 3 requests,
 * 1 free, and 4 credits held by a reservation whose session row is gone (a crash); globex 5; one key.
 */
const V1_FIXTURE = fileURLToPath(new URL('./fixtures/ledger-schema-v1.sqlite', import.meta.url));
const HOUR = 60 * 60 * 1000;

let dir: string;
let file: string;
const opened: SqliteDatabase[] = [];
const open = (options: Parameters<typeof sqliteLedger>[1] = {}) => {
  const db = openSqlite({ database: file });
  opened.push(db);
  return { db, ledger: sqliteLedger(db, { closeStore: false, ...options }) };
};
const traced = (db: SqliteDatabase) =>
  db.db.prepare('SELECT id FROM reservations WHERE finished = 1 ORDER BY id').pluck().all() as string[];
const charge = (ledger: Ledger, id: string, charged: number) =>
  ledger.settle({ id, organization: 'acme', kind: 'search', charged, answered: true });
/** A reservation released (a 503 answer): it leaves a finished row. */
const released = async (ledger: Ledger, id: string) => {
  await ledger.reserve({ id, organization: 'acme', amount: 1 }, 0);
  await charge(ledger, id, 0);
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-trace-'));
  file = join(dir, 'ledger.db');
});
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('migration from schema version 1', () => {
  it('upgrades the file in place and keeps balances, counters and keys', async () => {
    copyFileSync(V1_FIXTURE, file);
    const { db, ledger } = open();
    expect(SCHEMA_VERSION).toBe(5);
    expect(db.db.prepare('SELECT version FROM schema_version').all()).toEqual([{ version: 5 }]);
    expect(await ledger.usage('acme')).toEqual({ balance: 93, used: 7, requests: { search: 2, extract: 1 }, free: 1 });
    // The orphaned hold was carried over and released by the open: all 93 can be reserved.
    expect(db.db.prepare('SELECT id FROM reservations').pluck().all()).toEqual([]);
    expect(await ledger.reserve({ id: 'probe', organization: 'acme', amount: 94 }, 0)).toEqual({
      ok: false,
      reason: 'insufficient_credits',
      available: 93,
    });
    expect(await ledger.organization('globex')).toEqual({ id: 'globex', balance: 5, used: 0 });
    expect(await sqliteKeyStore(db).find('a'.repeat(64))).toEqual({ hash: 'a'.repeat(64), organization: 'acme', revoked: false });
    // The upgraded file has the trace: a duplicate settlement is applied once.
    await ledger.reserve({ id: 'after-upgrade', organization: 'acme', amount: 3 }, 0);
    expect(await charge(ledger, 'after-upgrade', 3)).toBe(3);
    expect(await charge(ledger, 'after-upgrade', 3)).toBe(0);
    expect(await ledger.usage('acme')).toEqual({ balance: 90, used: 10, requests: { search: 3, extract: 1 }, free: 1 });
    db.close();
    const again = open(); // a second open finds version 4 and migrates nothing
    expect(await again.ledger.organization('acme')).toEqual({ id: 'acme', balance: 90, used: 10 });
    expect(traced(again.db)).toEqual(['after-upgrade']);
  });
});

describe('duplicate settlements', () => {
  it('a free settlement of an unreserved id (a free repeat) counts once, in memory, and never charges later', async () => {
    const clock = new ManualClock();
    const { db, ledger } = open({ clock, finishedRetentionMs: HOUR });
    await ledger.createOrganization('acme', 5, 0);
    expect(await charge(ledger, 'repeat', 0)).toBe(0);
    expect(await charge(ledger, 'repeat', 0)).toBe(0);
    expect(await charge(ledger, 'repeat', 2)).toBe(0); // a late charge of the same request
    expect(await ledger.usage('acme')).toEqual({ balance: 5, used: 0, requests: { search: 1, extract: 0 }, free: 1 });
    expect(traced(db)).toEqual([]); // no page written for it
    // Forgotten after the retention, like the trace on disk.
    await clock.advance(HOUR);
    await charge(ledger, 'other', 0);
    expect(await charge(ledger, 'repeat', 0)).toBe(0);
    expect(await ledger.usage('acme')).toMatchObject({ requests: { search: 3, extract: 0 }, free: 3 });
  });

  it('a charging settlement of an unreserved id (its hold was released by a close) is traced on disk', async () => {
    const { db, ledger } = open();
    await ledger.createOrganization('acme', 5, 0);
    expect(await charge(ledger, 'late', 2)).toBe(2);
    expect(await charge(ledger, 'late', 2)).toBe(0);
    expect(traced(db)).toEqual(['late']);
    expect(await ledger.usage('acme')).toEqual({ balance: 3, used: 2, requests: { search: 1, extract: 0 }, free: 0 });
  });

  it('a finished id cannot be reserved again (a reused id is refused and holds nothing)', async () => {
    const { ledger } = open();
    await ledger.createOrganization('acme', 5, 0);
    await ledger.reserve({ id: 'reused', organization: 'acme', amount: 2 }, 0);
    expect(await charge(ledger, 'reused', 2)).toBe(2);
    await expect(ledger.reserve({ id: 'reused', organization: 'acme', amount: 3 }, 0)).rejects.toThrow();
    expect(await charge(ledger, 'reused', 3)).toBe(0);
    // Nothing stays held: the whole balance can be reserved.
    expect(await ledger.reserve({ id: 'all', organization: 'acme', amount: 3 }, 0)).toEqual({ ok: true });
    expect(await ledger.usage('acme')).toEqual({ balance: 3, used: 2, requests: { search: 1, extract: 0 }, free: 0 });
  });

  it('a clean close and the next open release pending holds only, and keep the trace', async () => {
    const { db, ledger } = open();
    await ledger.createOrganization('acme', 10, 0);
    await ledger.reserve({ id: 'settled', organization: 'acme', amount: 4 }, 0);
    expect(await charge(ledger, 'settled', 3)).toBe(3);
    await ledger.reserve({ id: 'pending', organization: 'acme', amount: 2 }, 0);
    db.close(); // releases 'pending'; 'settled' must neither be "released" again nor forgotten
    const again = open();
    expect(traced(again.db)).toEqual(['settled']);
    expect(await again.ledger.reserve({ id: 'all', organization: 'acme', amount: 7 }, 0)).toEqual({ ok: true });
    expect(await charge(again.ledger, 'settled', 3)).toBe(0);
    expect(await again.ledger.usage('acme')).toEqual({ balance: 7, used: 3, requests: { search: 1, extract: 0 }, free: 0 });
  });
});

describe('pruning by the Clock', () => {
  it('a reopened ledger forgets ids older than the retention and keeps younger ones', async () => {
    const clock = new ManualClock();
    const first = open({ clock, finishedRetentionMs: 10 * HOUR });
    await first.ledger.createOrganization('acme', 5, 0);
    await released(first.ledger, 'old');
    await clock.advance(2 * HOUR);
    await released(first.ledger, 'young');
    first.db.close();
    await clock.advance(8 * HOUR + 1); // 'old' is now 10 h + 1 ms old, 'young' 8 h + 1 ms
    const second = open({ clock, finishedRetentionMs: 10 * HOUR });
    expect(traced(second.db)).toEqual(['young']);
  });

  it('a long-lived ledger prunes from its settlements, a chunk every 64, never a pending reservation', async () => {
    const clock = new ManualClock();
    const { db, ledger } = open({ clock, finishedRetentionMs: HOUR });
    await ledger.createOrganization('acme', 5, 0);
    await ledger.reserve({ id: 'held', organization: 'acme', amount: 4 }, 0); // pending, older than the retention
    const old = Array.from({ length: 10 }, (_, i) => `old-${i}`);
    for (const id of old) await released(ledger, id);
    await clock.advance(HOUR + 1); // the old ids are past the retention
    const young = Array.from({ length: 53 }, (_, i) => `young-${String(i).padStart(2, '0')}`);
    for (const id of young) await released(ledger, id); // settlements 11…63: no prune yet
    expect(traced(db)).toHaveLength(63);
    await released(ledger, 'young-zz'); // the 64th: one chunk (the whole small table) is pruned
    expect(traced(db)).toEqual([...young, 'young-zz']);
    expect(await ledger.usage('acme')).toMatchObject({ balance: 5, free: 64 });
    expect(await charge(ledger, 'held', 4)).toBe(4); // the pending reservation survived the prune
  });

  it('an open prunes a bounded number of old ids (the oldest first); later settlements prune the rest', async () => {
    const clock = new ManualClock();
    const first = open({ clock, finishedRetentionMs: HOUR });
    await first.ledger.createOrganization('acme', 5, 0);
    // History written straight into the table (as years of settlements would leave it): time-ordered ids.
    const ids = timeOrderedIds(clock);
    const insert = first.db.db.prepare(
      "INSERT INTO reservations (id, organization, amount, session, created_at, finished) VALUES (?, 'acme', 1, 0, ?, 1)",
    );
    const OLD = OPEN_CHUNKS * 1000 + 500;
    first.db.db.transaction(() => {
      for (let i = 0; i < OLD; i++) insert.run(ids(), clock.now());
    })();
    await clock.advance(HOUR + 1);
    const young = ids();
    insert.run(young, clock.now());
    first.db.close();
    const second = open({ clock, finishedRetentionMs: HOUR });
    // Bounded: OPEN_CHUNKS chunks of 1,000 went, the oldest; 500 old ids and the young one are left.
    expect(traced(second.db)).toHaveLength(501);
    for (let i = 0; i < 64; i++) await released(second.ledger, `later-${i}`);
    // The 64th settlement pruned the next chunk: only ids within the retention are left.
    expect(traced(second.db)).toEqual([young, ...Array.from({ length: 64 }, (_, i) => `later-${i}`)].sort());
  });

  it('opening and closing release pending holds from the pending index, without reading the trace', () => {
    const { db } = open();
    // The sweep's statements (database.ts): a scan of the partial index of pending rows, never of the table.
    const whose = '((@session IS NULL AND session NOT IN (SELECT n FROM sessions)) OR session = @session)';
    for (const sql of [
      `SELECT organization, SUM(amount) AS amount FROM reservations WHERE finished = 0 AND ${whose} GROUP BY organization`,
      `DELETE FROM reservations WHERE finished = 0 AND ${whose}`,
    ]) {
      const plan = (db.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ session: 1 }) as { detail: string }[]).map((r) => r.detail);
      expect(plan.filter((d) => /\breservations\b/.test(d))).toEqual(['SCAN reservations USING INDEX reservations_pending']);
    }
  });

  it('refuses a retention that is not a positive number', () => {
    const { db } = open();
    for (const bad of [0, -1, Number.NaN]) {
      expect(() => sqliteLedger(db, { closeStore: false, finishedRetentionMs: bad })).toThrow(RangeError);
    }
  });
});
