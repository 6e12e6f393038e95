// The cache of live API keys (src/core/books/api-keys.ts KeyCache) behind engine.authenticate: it spares the
// key store a lookup per request, yet a revocation through this engine is immediate, one made by
// another process on the same file is seen within the TTL, and unknown keys are never cached.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { sqliteKeyStore } from '../../src/adapters/sqlite/key-store.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import { Accounts } from '../../src/core/books/accounts.js';
import { KeyCache } from '../../src/core/books/api-keys.js';
import { createEngine } from '../../src/index.js';
import type { KeyStore } from '../../src/ports/key-store.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

let dir: string;
let store: SqliteDatabase;
let clock: ManualClock;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-keycache-'));
  store = openSqlite({ database: join(dir, 'websift.db') });
  clock = new ManualClock();
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The real SQLite key store, counting lookups; `hold` makes the next find wait until released. */
function countingStore() {
  const real = sqliteKeyStore(store);
  const counted = { finds: 0, hold: null as Promise<void> | null };
  const keys: KeyStore = {
    insert: (...args) => real.insert(...args),
    revoke: (...args) => real.revoke(...args),
    async find(hash) {
      counted.finds++;
      const hold = counted.hold;
      const row = await real.find(hash);
      if (hold) await hold;
      return row;
    },
  };
  return { keys, counted };
}

async function accountsWith(keys: KeyStore, options: { max?: number; ttlMs?: number } = {}) {
  const accounts = new Accounts(sqliteLedger(store, { closeStore: false, clock }), keys, clock, options);
  await accounts.createOrganization('acme', { credits: 1 });
  return accounts;
}

describe('API key cache', () => {
  it('answers repeated lookups of a live key without the store, until its TTL passes', async () => {
    const { keys, counted } = countingStore();
    const accounts = await accountsWith(keys, { ttlMs: 5_000 });
    const key = await accounts.createApiKey('acme');
    for (let i = 0; i < 5; i++) expect(await accounts.authenticate(key)).toEqual({ organization: 'acme' });
    expect(counted.finds).toBe(1);
    await clock.advance(5_000);
    expect(await accounts.authenticate(key)).toEqual({ organization: 'acme' });
    expect(counted.finds).toBe(2);
  });

  it('never caches unknown or malformed keys', async () => {
    const { keys, counted } = countingStore();
    const accounts = await accountsWith(keys);
    for (let i = 0; i < 3; i++) expect(await accounts.authenticate('ws_live_not-a-key')).toBeNull();
    expect(counted.finds).toBe(3);
    expect(await accounts.authenticate('x'.repeat(300))).toBeNull(); // refused before any lookup
    expect(counted.finds).toBe(3);
  });

  it('a revocation through this engine is immediate, even for a lookup already in flight', async () => {
    const { keys, counted } = countingStore();
    const accounts = await accountsWith(keys);
    const key = await accounts.createApiKey('acme');
    expect(await accounts.authenticate(key)).toEqual({ organization: 'acme' });
    expect(await accounts.revokeApiKey(key)).toBe(true);
    expect(await accounts.authenticate(key)).toBeNull();

    // A lookup that read the key as live before the revocation must not cache that answer.
    const other = await accounts.createApiKey('acme');
    let release!: () => void;
    counted.hold = new Promise((resolve) => (release = resolve));
    const inFlight = accounts.authenticate(other); // has read the live row, waits
    counted.hold = null;
    await accounts.revokeApiKey(other);
    release();
    expect(await inFlight).toEqual({ organization: 'acme' }); // it started before the revocation
    expect(await accounts.authenticate(other)).toBeNull();
  });

  it('holds at most `max` keys, dropping the oldest', async () => {
    const { keys, counted } = countingStore();
    const accounts = await accountsWith(keys, { max: 2 });
    const [a, b, c] = [await accounts.createApiKey('acme'), await accounts.createApiKey('acme'), await accounts.createApiKey('acme')];
    for (const key of [a, b, c]) await accounts.authenticate(key);
    expect(counted.finds).toBe(3);
    await accounts.authenticate(c);
    await accounts.authenticate(b);
    expect(counted.finds).toBe(3); // b and c are cached
    await accounts.authenticate(a);
    expect(counted.finds).toBe(4); // a was dropped
  });

  it('KeyCache alone: expiry by the clock, eviction order, and a set from a stale epoch is ignored', () => {
    const cache = new KeyCache(clock, { max: 2, ttlMs: 100 });
    cache.set('d1', 'acme', cache.epoch);
    expect(cache.get('d1')).toBe('acme');
    const before = cache.epoch;
    cache.delete('d2');
    cache.set('d2', 'acme', before);
    expect(cache.get('d2')).toBeUndefined();
    cache.set('d2', 'acme', cache.epoch);
    cache.set('d3', 'acme', cache.epoch);
    expect([cache.get('d1'), cache.get('d2'), cache.get('d3')]).toEqual([undefined, 'acme', 'acme']);
  });
});

describe('two engines on one database file', () => {
  it('a key revoked by the other engine is refused here within the TTL (5 s by default)', async () => {
    const file = join(dir, 'shared.db');
    const [here, there] = [createEngine({ database: file, clock }), createEngine({ database: file, clock })];
    try {
      await here.admin.createOrganization('acme', { credits: 1 });
      const key = await here.admin.createApiKey('acme');
      expect(await here.authenticate(key)).toEqual({ organization: 'acme' });
      await there.admin.revokeApiKey(key);
      expect(await there.authenticate(key)).toBeNull();
      expect(await here.authenticate(key)).toEqual({ organization: 'acme' }); // the documented staleness
      await clock.advance(5_000);
      expect(await here.authenticate(key)).toBeNull();
    } finally {
      await here.close();
      await there.close();
    }
  });
});
