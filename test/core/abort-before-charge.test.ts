// An abort that lands after the sources answered but before the charge begins (the client went away,
// or the server dropped the request at the end of its grace) is an error to the caller: nothing is
// charged and no free-repeat window is left. The server side of the same rule: test/cli/serve-drop-charge.test.ts.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repeatWindowStore } from '../../src/adapters/partitioned-lru-store.js';
import { openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import type { RepeatEntry } from '../../src/core/books/index.js';
import type { CacheStore } from '../../src/ports/cache.js';
import type { Ledger } from '../../src/ports/ledger.js';
import { ManualClock, type PageServer, startPageServer } from '../../src/testing/index.js';
import { type ScriptedSource, scriptedSource } from '../../src/testing/scripted-source.js';
import { hits, notice, rejection, type TestEngine, testEngine } from './helpers.js';

class Dropped extends Error {
  override name = 'Dropped';
}

const acme = { organization: 'acme' };
const other = { organization: 'other' };

let clock: ManualClock;
let ledger: Ledger;
let windows: CacheStore<RepeatEntry>;
let source: ScriptedSource;
let t: TestEngine | undefined;

beforeEach(async () => {
  clock = new ManualClock();
  ledger = sqliteLedger(openSqlite({ database: ':memory:', clock }), { clock });
  windows = repeatWindowStore<RepeatEntry>(clock);
  source = scriptedSource('main', { news: hits(3), nothing: notice });
  await ledger.createOrganization('acme', 10, clock.now());
  await ledger.createOrganization('other', 10, clock.now());
});
afterEach(async () => {
  await t?.engine.close();
  t = undefined;
  await ledger.close();
});

const balance = async (org = acme) => (await t!.engine.usage(org)).credits.balance;

describe('search: an abort after the answer, before the charge', () => {
  it('while the window is written: not charged, the window withdrawn', async () => {
    const controller = new AbortController();
    const aborting: CacheStore<RepeatEntry> = {
      get: (key) => windows.get(key),
      set: async (key, value, ttl) => {
        await windows.set(key, value, ttl);
        controller.abort(new Dropped()); // the connection goes while the window is being written
      },
      delete: (key) => windows.delete(key),
    };
    t = testEngine({ sources: [source], ledger, caches: { repeats: aborting } }, clock);
    await expect(t.run(t.engine.search({ q: 'news' }, { ...acme, signal: controller.signal }))).rejects.toBeInstanceOf(Dropped);
    expect(await balance()).toBe(10);
    expect((await t.engine.usage(acme)).requests.total).toBe(0);
    // No free window was left behind: the next search is a fresh, charged one.
    const next = await t.run(t.engine.search({ q: 'news' }, acme));
    expect(next.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(source.calls).toHaveLength(2);
  });

  it('while its credits are held (a confirmed empty from the cache): not charged', async () => {
    const controller = new AbortController();
    // The reservation of `other` is where the client goes away; every other call goes to the real ledger.
    const aborting = new Proxy(ledger, {
      get: (target, name) =>
        name === 'reserve'
          ? async (...args: Parameters<Ledger['reserve']>) => {
              const outcome = await target.reserve(...args);
              if (args[0].organization === 'other') controller.abort(new Dropped());
              return outcome;
            }
          : Reflect.get(target, name),
    });
    const second = scriptedSource('second', { nothing: notice }); // two notices confirm an empty
    t = testEngine({ sources: [source, second], ledger: aborting, caches: { repeats: windows } }, clock);
    const first = await t.run(t.engine.search({ q: 'nothing' }, acme)); // confirms the empty, cached for everyone
    expect(first.metadata).toMatchObject({ credits_used: 1, status: 'no_results' });
    const asked = source.calls.length + second.calls.length;
    const error = await rejection(t.run(t.engine.search({ q: 'nothing' }, { ...other, signal: controller.signal })));
    expect(error).toBeInstanceOf(Dropped);
    expect(source.calls.length + second.calls.length).toBe(asked); // answered from the confirmed-empty cache
    expect(await balance(other)).toBe(10);
    expect((await t.engine.usage(other)).requests.total).toBe(0);
  });
});

describe('extract: an abort after the pages, before the charge', () => {
  let server: PageServer;
  let fetches = 0;
  const page = `<!doctype html><html><head><title>Kept</title></head><body><article><h1>Kept</h1>
    <p>${'A paragraph long enough to be the main content of the page. '.repeat(8)}</p></article></body></html>`;
  beforeAll(async () => {
    server = await startPageServer({});
    server.route('/a', (_req, res) => {
      fetches++;
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
  });
  afterAll(async () => server.close());

  it('while the windows are written: not charged, the windows withdrawn', async () => {
    const controller = new AbortController();
    let abort = true;
    const aborting: CacheStore<RepeatEntry> = {
      get: (key) => windows.get(key),
      set: async (key, value, ttl) => {
        await windows.set(key, value, ttl);
        if (abort) controller.abort(new Dropped());
      },
      delete: (key) => windows.delete(key),
    };
    const options = { ledger, caches: { repeats: aborting }, allowEndpoints: [`127.0.0.1:${server.port}`], robots: false };
    t = testEngine(options, clock);
    const urls = [server.url('/a')];
    await expect(t.run(t.engine.extract({ urls }, { ...acme, signal: controller.signal }))).rejects.toBeInstanceOf(Dropped);
    expect(await balance()).toBe(10);
    expect((await t.engine.usage(acme)).requests.total).toBe(0);
    abort = false;
    const next = await t.run(t.engine.extract({ urls }, acme)); // no free window was left: fetched and charged
    expect(next.metadata.credits_used).toBe(1);
    expect(fetches).toBe(2);
  });
});
