// A charged search always leaves its free-repeat window: the window is written before the settlement,
// and withdrawn when the settlement does not charge. Two engines share one ledger and one window store
// (as instances do); one of them "dies" right after its charge commits, or its window write fails, or
// its settlement fails. The Redis path of the same rules: test/redis/search-window-order.test.ts.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repeatWindowStore } from '../../src/adapters/partitioned-lru-store.js';
import { openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import type { RepeatEntry } from '../../src/core/books/index.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { LedgerUnavailableError } from '../../src/errors.js';
import type { CacheStore } from '../../src/ports/cache.js';
import type { Ledger } from '../../src/ports/ledger.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type ScriptedSource, scriptedSource } from '../../src/testing/scripted-source.js';
import { hits, notice, rejection, type TestEngine, testEngine, withSettle } from './helpers.js';

const acme = { organization: 'acme' };
const MIN = 60_000;

let clock: ManualClock;
let ledger: Ledger;
let windows: CacheStore<RepeatEntry>;
let source: ScriptedSource;
const engines: TestEngine[] = [];
const thaws: (() => void)[] = [];

/** Never resolves while the test runs (a killed process); afterwards, so that its engine can close. */
const frozen = (charged: number) => new Promise<number>((resolve) => thaws.push(() => resolve(charged)));

/** An instance on the shared books and windows. */
function instance(options: EngineOptions = {}): TestEngine {
  const t = testEngine({ sources: [source], ledger, caches: { repeats: windows }, ...options }, clock);
  engines.push(t);
  return t;
}
const balance = async () => (await engines[0]!.engine.usage(acme)).credits.balance;

beforeEach(async () => {
  clock = new ManualClock();
  ledger = sqliteLedger(openSqlite({ database: ':memory:', clock }), { clock });
  windows = repeatWindowStore<RepeatEntry>(clock);
  source = scriptedSource('main', { news: hits(3), nothing: notice });
  await ledger.createOrganization('acme', 10, clock.now());
});
afterEach(async () => {
  for (const thaw of thaws.splice(0)) thaw();
  for (const t of engines.splice(0)) await t.engine.close();
  await ledger.close();
});

describe('killed between the charge and the rest: the repeat is free', () => {
  it('an instance that never returns from its settlement has already opened the window', async () => {
    let died!: () => void;
    const dead = new Promise<void>((resolve) => (died = resolve));
    const dying = instance({
      ledger: withSettle(ledger, async (settlement) => {
        const charged = await ledger.settle(settlement); // committed: the credit is gone
        died();
        return frozen(charged); // and the process with it
      }),
    });
    void dying.engine.search({ q: 'news' }, acme);
    await dead;
    expect(await balance()).toBe(9);
    await clock.advance(4 * MIN);
    const survivor = instance();
    const repeat = await survivor.run(survivor.engine.search({ q: 'news' }, acme));
    expect(repeat.metadata).toMatchObject({ credits_used: 0, from_cache: true });
    expect(await balance()).toBe(9);
    expect(source.calls).toHaveLength(1);
  });

  it('the same for a confirmed empty', async () => {
    const other = scriptedSource('other', { nothing: notice });
    let died!: () => void;
    const dead = new Promise<void>((resolve) => (died = resolve));
    const dying = instance({
      sources: [source, other],
      ledger: withSettle(ledger, async (settlement) => {
        const charged = await ledger.settle(settlement);
        died();
        return frozen(charged);
      }),
    });
    void dying.engine.search({ q: 'nothing' }, acme);
    await dead;
    expect(await balance()).toBe(9);
    const survivor = instance({ sources: [source, other] });
    const repeat = await survivor.run(survivor.engine.search({ q: 'nothing' }, acme));
    expect(repeat.metadata).toMatchObject({ credits_used: 0, from_cache: true, status: 'no_results' });
    expect(await balance()).toBe(9);
  });
});

describe('a charge never lands without its window', () => {
  it('a window the store refuses: 503, nothing charged, and the repeat runs afresh', async () => {
    let refuse = true;
    const shaky: CacheStore<RepeatEntry> = {
      get: (key) => windows.get(key),
      set: async (key, value, ttl) => {
        if (refuse) throw new Error('store write timed out');
        await windows.set(key, value, ttl);
      },
      delete: (key) => windows.delete(key),
    };
    const t = instance({ caches: { repeats: shaky } });
    const error = await rejection(t.run(t.engine.search({ q: 'news' }, acme)));
    expect(error).toMatchObject({ status: 503, code: 'search_unavailable' });
    expect(await balance()).toBe(10);
    expect((await t.engine.usage(acme)).requests).toMatchObject({ search: 1, free: 1 }); // answered 503, free
    refuse = false;
    const again = await t.run(t.engine.search({ q: 'news' }, acme));
    expect(again.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(await balance()).toBe(9);
  });
});

describe('not charged: no window left behind', () => {
  it('a settlement that fails withdraws the window: the error is free, the next search is charged', async () => {
    let fail = true;
    const t = instance({
      ledger: withSettle(ledger, async (settlement) => {
        if (fail && settlement.charged > 0) throw new LedgerUnavailableError();
        return ledger.settle(settlement);
      }),
    });
    const error = await rejection(t.run(t.engine.search({ q: 'news' }, acme)));
    expect(error).toMatchObject({ status: 503, code: 'ledger_unavailable' });
    fail = false;
    const next = await t.run(t.engine.search({ q: 'news' }, acme));
    expect(next.metadata).toMatchObject({ credits_used: 1, from_cache: false }); // no free window was left
    expect(source.calls).toHaveLength(2);
  });

  it('a 503 (every source failed) is not charged and opens no window', async () => {
    let down = true;
    const flaky = scriptedSource('flaky', () => {
      if (down) throw new Error('source down');
      return hits(2);
    });
    const t = instance({ sources: [flaky] });
    const error = await rejection(t.run(t.engine.search({ q: 'news' }, acme)));
    expect(error).toMatchObject({ status: 503 });
    expect(await balance()).toBe(10);
    expect(await windows.get('search\u0000acme\u0000p|news')).toBeUndefined();
    down = false;
    const next = await t.run(t.engine.search({ q: 'news' }, acme));
    expect(next.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(await balance()).toBe(9);
  });
});
