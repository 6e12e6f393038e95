// The API-key cache with KeyEvents (src/ports/key-events.ts), over an in-memory feed standing in for
// Redis pub/sub: a revocation anywhere reaches every instance's cache at once; while the feed is not
// live the cache is neither read nor filled; a reset empties it; a lost announcement fails nothing.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { sqliteKeyStore } from '../../src/adapters/sqlite/key-store.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import { Accounts } from '../../src/core/books/accounts.js';
import { keyDigest } from '../../src/core/books/api-keys.js';
import { createEngine } from '../../src/index.js';
import type { KeyEvents } from '../../src/ports/key-events.js';
import type { KeyStore } from '../../src/ports/key-store.js';
import { ManualClock } from '../../src/testing/manual-clock.js';

/** One in-memory feed; each instance gets its own KeyEvents on it. */
function feed() {
  const subscribers = new Set<{ onRevoked: (d: string) => void; onReset: () => void }>();
  const published: string[] = [];
  return {
    published,
    subscribers,
    instance(): KeyEvents & { live: boolean; failPublish: boolean } {
      return {
        live: true,
        failPublish: false,
        async publishRevoked(digest) {
          if (this.failPublish) throw new Error('publish failed');
          published.push(digest);
          for (const s of subscribers) s.onRevoked(digest);
        },
        subscribe(onRevoked, onReset) {
          const entry = { onRevoked, onReset };
          subscribers.add(entry);
          return () => subscribers.delete(entry);
        },
      };
    },
  };
}

let dir: string;
let db: SqliteDatabase;
let clock: ManualClock;
let finds: number;
let keys: KeyStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-keyevents-'));
  db = openSqlite({ database: join(dir, 'websift.db') });
  clock = new ManualClock();
  finds = 0;
  const real = sqliteKeyStore(db);
  keys = { insert: (...a) => real.insert(...a), revoke: (...a) => real.revoke(...a), find: (h) => (finds++, real.find(h)) };
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function instances(events: KeyEvents[]) {
  const ledger = sqliteLedger(db, { closeStore: false, clock });
  const all = events.map((e) => new Accounts(ledger, keys, clock, { events: e, ttlMs: 5_000 }));
  await all[0]!.createOrganization('acme', { credits: 1 });
  return all;
}

describe('KeyCache with KeyEvents', () => {
  it('a revocation on one instance drops the key from every instance cache at once', async () => {
    const bus = feed();
    const [a, b] = await instances([bus.instance(), bus.instance()]);
    const key = await a!.createApiKey('acme');
    expect(await b!.authenticate(key)).toEqual({ organization: 'acme' });
    expect(await b!.authenticate(key)).toEqual({ organization: 'acme' });
    expect(finds).toBe(1); // cached on b
    expect(await a!.revokeApiKey(key)).toBe(true);
    expect(bus.published).toEqual([keyDigest(key)]); // the digest, never the key
    expect(await b!.authenticate(key)).toBeNull(); // long before b's 5 s TTL
  });

  it('while the feed is not live, every lookup reads the store and nothing is cached', async () => {
    const bus = feed();
    const events = bus.instance();
    const [a] = await instances([events]);
    const key = await a!.createApiKey('acme');
    await a!.authenticate(key);
    expect(finds).toBe(1);
    events.live = false;
    for (let i = 0; i < 3; i++) expect(await a!.authenticate(key)).toEqual({ organization: 'acme' });
    expect(finds).toBe(4);
    await keys.revoke(keyDigest(key), clock.now()); // unannounced (as if published while we were away)
    expect(await a!.authenticate(key)).toBeNull();
  });

  it('a reset of the feed empties the cache', async () => {
    const bus = feed();
    const [a] = await instances([bus.instance()]);
    const key = await a!.createApiKey('acme');
    await a!.authenticate(key);
    await keys.revoke(keyDigest(key), clock.now()); // missed announcement
    expect(await a!.authenticate(key)).toEqual({ organization: 'acme' }); // still cached
    for (const s of bus.subscribers) s.onReset();
    expect(await a!.authenticate(key)).toBeNull();
  });

  it('a failed announcement does not fail the revocation, which is stored', async () => {
    const bus = feed();
    const events = bus.instance();
    events.failPublish = true;
    const [a] = await instances([events]);
    const key = await a!.createApiKey('acme');
    expect(await a!.revokeApiKey(key)).toBe(true);
    expect(await a!.authenticate(key)).toBeNull();
  });

  it('an engine with keyEvents listens until closed, and never closes the events port', async () => {
    const bus = feed();
    let closed = false;
    const events = { ...bus.instance(), close: async () => void (closed = true) };
    const engine = createEngine({ database: join(dir, 'engine.db'), clock, keyEvents: events, rateLimit: false });
    expect(bus.subscribers.size).toBe(1);
    await engine.close();
    expect(bus.subscribers.size).toBe(0);
    expect(closed).toBe(false);
  });
});
