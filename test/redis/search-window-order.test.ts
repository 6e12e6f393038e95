// The repeat window against the charge, on Redis with the engine's own search scripts: the window is
// written before the settlement, so an instance killed right after its charge has already left it; a
// window whose search still holds the flight's lock is not served lock-free, so a settlement that then
// fails (window withdrawn) never gives a concurrent repeat a free answer of an uncharged search.
// The in-memory path of the same rules: test/core/window-before-charge.test.ts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { LedgerUnavailableError } from '../../src/errors.js';
import type { Ledger } from '../../src/ports/ledger.js';
import { scriptedSource } from '../../src/testing/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { Engine, SearchSource } from '../../src/types/index.js';
import { withSettle } from '../core/helpers.js';
import { serviceAvailable } from '../support/services.js';
import { deleteKeys, flightWaiters, inspector, keysUnder, redisInstance, redisProxy, testPrefix, until } from './redis-kit.js';

const redis = await serviceAvailable('Redis');
const acme = { organization: 'acme' };

describe.skipIf(!redis)('the window is written before the charge', () => {
  let dir: string;
  let prefix: string;
  let admin: Redis;
  let ledger: Ledger;
  const closers: (() => Promise<unknown> | undefined)[] = [];
  const thaws: (() => void)[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'websift-window-order-'));
    prefix = testPrefix('winorder');
    admin = inspector();
    ledger = sqliteLedger(openSqlite({ database: join(dir, 'shared.db') }));
    await ledger.createOrganization('acme', 10, 0);
  });
  afterEach(async () => {
    for (const thaw of thaws.splice(0)) thaw();
    for (const close of closers.splice(0).reverse()) await close();
    await ledger.close();
    admin.disconnect();
    await deleteKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  const instance = (clock: ManualClock, sources: SearchSource[], options: EngineOptions = {}) =>
    redisInstance({ dir, prefix, closers }, clock, sources, { rateLimit: false, ...options });
  const one = () => scriptedSource('web', () => ({ results: [{ title: 'A', url: 'https://example.com/a', snippet: 'a' }] }));
  const balance = async (engine: Engine) => (await engine.usage(acme)).credits.balance;
  /** Waits until someone waits for a flight's release (a search queued behind a held lock). */
  const waiting = () => until(async () => (await flightWaiters(admin, prefix)) === 1);
  /** What the lease does when the lock's holder died: the lock goes, and its waiters are told. */
  async function leaseRunsOut(): Promise<void> {
    const [lock] = await keysUnder(admin, `${prefix}flight:`);
    await admin.del(lock!);
    await admin.publish(`${prefix}flight-released`, lock!);
  }

  it('an instance killed right after its charge has left its window: the repeat on another is free', async () => {
    const clock = new ManualClock();
    const source = one();
    let died!: () => void;
    const dead = new Promise<void>((resolve) => (died = resolve));
    const dying = instance(clock, [source], {
      ledger: withSettle(ledger, async (settlement) => {
        const charged = await ledger.settle(settlement); // committed
        died();
        return new Promise<number>((resolve) => thaws.push(() => resolve(charged))); // and nothing after it runs
      }),
    });
    void dying.search({ q: 'killed' }, acme);
    await dead;
    const survivor = instance(clock, [source]);
    expect(await balance(survivor)).toBe(9);
    await clock.advance(60_000);
    const repeat = survivor.search({ q: 'killed' }, acme);
    await waiting(); // the dead instance's lock: the repeat waits for its lease (a killed process renews nothing)
    await leaseRunsOut();
    expect((await repeat).metadata).toMatchObject({ credits_used: 0, from_cache: true });
    expect(await balance(survivor)).toBe(9);
    expect(source.calls).toHaveLength(1);
  });

  it('a repeat arriving while the charge is settling waits; the charge fails: the repeat is a fresh, charged search', async () => {
    const clock = new ManualClock();
    const source = one();
    let settling!: () => void;
    const reached = new Promise<void>((resolve) => (settling = resolve));
    let fail!: () => void;
    const failed = new Promise<void>((resolve) => (fail = resolve));
    const first = instance(clock, [source], {
      ledger: withSettle(ledger, async (settlement) => {
        if (settlement.charged === 0) return ledger.settle(settlement);
        settling();
        await failed;
        throw new LedgerUnavailableError();
      }),
    });
    const charged = first.search({ q: 'settling' }, acme);
    charged.catch(() => {});
    await reached;
    expect(await keysUnder(admin, `${prefix}repeat:`)).toHaveLength(1); // written before the charge
    const other = instance(clock, [source]);
    const repeat = other.search({ q: 'settling' }, acme);
    await waiting(); // not served from the window while its search holds the lock
    fail();
    await expect(charged).rejects.toMatchObject({ status: 503, code: 'ledger_unavailable' });
    expect((await repeat).metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(source.calls).toHaveLength(2);
    expect(await balance(other)).toBe(9);
  });

  it('Redis gone after the window write: the answer is delivered and charged, and its window stays', async () => {
    const proxy = await redisProxy();
    closers.push(() => proxy.close());
    const clock = new ManualClock();
    const source = one();
    const cut = instance(clock, [source], {
      redis: `redis://127.0.0.1:${proxy.port}`,
      ledger: withSettle(ledger, async (settlement) => {
        await proxy.stop(); // between the window and the charge
        return ledger.settle(settlement);
      }),
    });
    expect((await cut.search({ q: 'cut' }, acme)).metadata.credits_used).toBe(1);
    expect(await keysUnder(admin, `${prefix}repeat:`)).toHaveLength(1);
    const other = instance(clock, [source]);
    const repeat = other.search({ q: 'cut' }, acme);
    await leaseRunsOut().catch(() => {}); // the cut instance could not release its lock
    expect((await repeat).metadata).toMatchObject({ credits_used: 0, from_cache: true });
    expect(await balance(other)).toBe(9);
  });
});
