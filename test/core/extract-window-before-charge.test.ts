// A charged extract always leaves its URLs' free-repeat windows: they are opened before the settlement and
// withdrawn when it does not charge (as for search: test/core/window-before-charge.test.ts). Two engines
// share one ledger and one window store (as instances do), real pages from a loopback server.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repeatWindowStore } from '../../src/adapters/partitioned-lru-store.js';
import { openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import type { RepeatEntry } from '../../src/core/books/index.js';
import { createEngine } from '../../src/engine/create-engine.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { CacheUnavailableError, LedgerUnavailableError } from '../../src/errors.js';
import type { CacheStore } from '../../src/ports/cache.js';
import type { Ledger } from '../../src/ports/ledger.js';
import { ManualClock, type PageServer, startPageServer } from '../../src/testing/index.js';
import type { Engine, ExtractResponse } from '../../src/types/index.js';
import { withSettle } from './helpers.js';

const acme = { organization: 'acme' };
const MIN = 60_000;
const page = `<!doctype html><html><head><title>Kept</title></head><body><article><h1>Kept</h1>
  <p>${'A paragraph long enough to be the main content of the page. '.repeat(8)}</p></article></body></html>`;

let server: PageServer;
let clock: ManualClock;
let ledger: Ledger;
let windows: CacheStore<RepeatEntry>;
const engines: Engine[] = [];
const thaws: (() => void)[] = [];
let fetches = 0;

function instance(options: EngineOptions = {}): Engine {
  const engine = createEngine({
    clock,
    ledger,
    caches: { repeats: windows },
    allowEndpoints: [`127.0.0.1:${server.port}`],
    rateLimit: false,
    robots: false,
    ...options,
  });
  engines.push(engine);
  return engine;
}
const balance = async () => (await engines[0]!.usage(acme)).credits.balance;
const extract = (engine: Engine) =>
  clock.drive(engine.extract({ urls: [server.url('/a'), server.url('/b')] }, acme)) as Promise<ExtractResponse>;

beforeAll(async () => {
  server = await startPageServer({});
  for (const path of ['/a', '/b']) {
    server.route(path, (_req, res) => {
      fetches++;
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
  }
});
afterAll(async () => server.close());
beforeEach(async () => {
  fetches = 0;
  clock = new ManualClock('2026-03-01T12:00:00Z');
  ledger = sqliteLedger(openSqlite({ database: ':memory:', clock }), { clock });
  windows = repeatWindowStore<RepeatEntry>(clock);
  await ledger.createOrganization('acme', 10, clock.now());
});
afterEach(async () => {
  for (const thaw of thaws.splice(0)) thaw();
  for (const engine of engines.splice(0)) await engine.close();
  await ledger.close();
});

describe('extract: the windows are opened before the charge', () => {
  it('an instance that never returns from its settlement has already opened its URLs’ windows', async () => {
    let died!: () => void;
    const dead = new Promise<void>((resolve) => (died = resolve));
    const dying = instance({
      ledger: withSettle(ledger, async (settlement) => {
        const charged = await ledger.settle(settlement); // committed: the credits are gone
        died();
        return new Promise<number>((resolve) => thaws.push(() => resolve(charged))); // and the process with it
      }),
    });
    void extract(dying).catch(() => {});
    await dead;
    expect(await balance()).toBe(8);
    await clock.advance(4 * MIN);
    const repeat = await extract(instance());
    expect(repeat.metadata.credits_used).toBe(0);
    expect(repeat.results.every((r) => r.success)).toBe(true);
    expect(await balance()).toBe(8);
  });

  it('a window the store refuses fails the call before anything is charged', async () => {
    const refusing: CacheStore<RepeatEntry> = new Proxy(windows, {
      get: (target, name) => (name === 'set' ? async () => Promise.reject(new Error('store down')) : Reflect.get(target, name)),
    });
    const engine = instance({ caches: { repeats: refusing } });
    await expect(extract(engine)).rejects.toMatchObject({ status: 503, code: 'cache_unavailable', retryable: true });
    expect(await balance()).toBe(10);
  });

  it('a window read the store fails (required): 503 cache_unavailable before anything is reserved or fetched', async () => {
    const failing: CacheStore<RepeatEntry> = new Proxy(windows, {
      get: (target, name) =>
        name === 'get'
          ? async (key: string, options?: { required?: boolean }) =>
              options?.required ? Promise.reject(new Error('read timed out')) : target.get(key)
          : Reflect.get(target, name),
    });
    const engine = instance({ caches: { repeats: failing } });
    const refused = await extract(engine).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CacheUnavailableError);
    expect((refused as CacheUnavailableError).cause).toMatchObject({ message: 'read timed out' });
    expect(fetches).toBe(0);
    expect(await balance()).toBe(10);
    expect((await engines[0]!.usage(acme)).requests.extract).toBe(0);
  });

  it('a failing settlement charges nothing and leaves no window: the next call pays once', async () => {
    const failing = instance({
      ledger: withSettle(ledger, async () => Promise.reject(new LedgerUnavailableError())),
    });
    await expect(extract(failing)).rejects.toBeInstanceOf(LedgerUnavailableError);
    expect(await balance()).toBe(10);
    const paying = await extract(instance());
    expect(paying.metadata.credits_used).toBe(2);
    expect(await balance()).toBe(8);
    expect(fetches).toBe(4);
  });

  it('a charged extract’s repeat within 5 minutes is free (the windows it opened hold)', async () => {
    const engine = instance();
    expect((await extract(engine)).metadata.credits_used).toBe(2);
    await clock.advance(5 * MIN - 1);
    expect((await extract(engine)).metadata.credits_used).toBe(0);
    await clock.advance(1);
    expect((await extract(engine)).metadata.credits_used).toBe(2);
  });
});
