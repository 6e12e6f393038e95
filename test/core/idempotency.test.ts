// Idempotency keys through the engine (core/books/idempotency.ts): every claim outcome, one charge per key,
// the first answer replayed exactly, the 24 h edges, two engines on one SQLite file, and a crash between
// the charge and the stored answer.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repeatWindowStore } from '../../src/adapters/partitioned-lru-store.js';
import { openSqlite } from '../../src/adapters/sqlite/database.js';
import { sqliteLedger } from '../../src/adapters/sqlite/ledger.js';
import { REPEAT_WINDOW_MS } from '../../src/core/books/billing.js';
import { createEngine, type EngineOptions, isIdempotentReplay } from '../../src/index.js';
import { IDEMPOTENCY_TTL_MS, type Ledger } from '../../src/ports/ledger.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { type PageServer, startPageServer } from '../../src/testing/page-server.js';
import { type ScriptedSource, scriptedSource } from '../../src/testing/scripted-source.js';
import type { Engine, SearchResponse } from '../../src/types/index.js';
import { drive, hits, rejection, type TestEngine, testEngine } from './helpers.js';

const MIN = 60_000;
const withKey = (idempotencyKey: string, organization = 'acme') => ({ organization, idempotencyKey });
const acme = { organization: 'acme' };

let source: ScriptedSource;
let t: TestEngine;
const usage = async (engine = t.engine) => {
  const u = await engine.usage(acme);
  return { balance: u.credits.balance, used: u.credits.used, ...u.requests };
};

beforeEach(async () => {
  source = scriptedSource('main', { news: hits(3), rust: hits(2), down: { fail: 'source down' } });
  t = testEngine({ sources: [source] });
  await t.engine.admin.createOrganization('acme', { credits: 10 });
  await t.engine.admin.createOrganization('globex', { credits: 10 });
});
afterEach(() => t.engine.close());

describe('a retry with the same key and parameters', () => {
  it('answers the first answer exactly, charges and counts once, and asks no source again', async () => {
    const first = (await t.run(t.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse;
    expect(first.metadata.credits_used).toBe(1);
    expect(isIdempotentReplay(first)).toBe(false);
    await t.clock.advance(10 * MIN); // past the 5-minute free-repeat window: the key still answers
    const again = await t.run(t.engine.search({ q: 'news' }, withKey('k1')));
    expect(again).toEqual(first); // same id, credits_used, timestamp and response_time
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(isIdempotentReplay(again)).toBe(true);
    expect(source.calls).toHaveLength(1);
    expect(await usage()).toEqual({ balance: 9, used: 1, search: 1, extract: 0, total: 1, free: 0 });
  });

  it('is the same call whether defaults are written out or left out (and `engine` is ignored)', async () => {
    const first = await t.run(t.engine.search({ q: 'news' }, withKey('k1')));
    const spelled = { q: '  news ', include_content: false, content_results: 5, engine: 'google' };
    expect(await t.run(t.engine.search(spelled, withKey('k1')))).toEqual(first);
    expect(await usage()).toMatchObject({ balance: 9, total: 1 });
  });

  it('does not store an answer that was free (a free repeat): a retry reruns it free, counted once, also past the repeat window', async () => {
    await t.run(t.engine.search({ q: 'news' }, acme)); // charged, opens the repeat window
    const free = (await t.run(t.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse;
    expect(free.metadata).toMatchObject({ credits_used: 0, from_cache: true });
    const again = (await t.run(t.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse;
    expect(isIdempotentReplay(again)).toBe(false);
    expect(again.metadata.credits_used).toBe(0);
    expect(again.results).toEqual(free.results);
    await t.clock.advance(REPEAT_WINDOW_MS + 1); // no longer a free repeat: the key's rerun is still free
    const late = (await t.run(t.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse;
    expect(late.metadata.credits_used).toBe(0);
    expect(await usage()).toEqual({ balance: 9, used: 1, search: 2, extract: 0, total: 2, free: 1 });
  });

  it('is remembered for 24 h from the first use: replayed at 24 h − 1 ms, a new call at exactly 24 h', async () => {
    const first = await t.run(t.engine.search({ q: 'news' }, withKey('k1')));
    await t.clock.advance(IDEMPOTENCY_TTL_MS - 1);
    expect(await t.run(t.engine.search({ q: 'news' }, withKey('k1')))).toEqual(first);
    await t.clock.advance(1);
    const later = (await t.run(t.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse;
    expect(later.id).not.toBe((first as SearchResponse).id);
    expect(later.metadata.credits_used).toBe(1);
    expect(await usage()).toMatchObject({ balance: 8, total: 2 });
  });

  it('keys belong to one organization', async () => {
    await t.run(t.engine.search({ q: 'news' }, withKey('k1')));
    const theirs = (await t.run(t.engine.search({ q: 'rust' }, withKey('k1', 'globex')))) as SearchResponse;
    expect(theirs.metadata.credits_used).toBe(1);
    expect(isIdempotentReplay(theirs)).toBe(false);
  });

  it('usage ignores the key', async () => {
    const once = await t.engine.usage(withKey('k1'));
    await t.run(t.engine.search({ q: 'news' }, withKey('k1')));
    expect((await t.engine.usage(withKey('k1'))).credits.balance).toBe(once.credits.balance - 1);
  });
});

describe('refusals', () => {
  it('the same key with other parameters: 400 invalid_request naming the reuse; nothing charged or counted', async () => {
    await t.run(t.engine.search({ q: 'news' }, withKey('k1')));
    for (const params of [{ q: 'rust' }, { q: 'news', include_content: true }]) {
      const error = await rejection(t.run(t.engine.search(params, withKey('k1'))));
      expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(error.problems).toEqual([
        { field: 'idempotencyKey', message: expect.stringMatching(/already used with other parameters in the last 24 hours/) },
      ]);
    }
    // Search and extract are other calls too.
    expect(await rejection(t.engine.extract({ urls: ['https://example.com/'] }, withKey('k1')))).toMatchObject({ status: 400 });
    expect(source.calls).toHaveLength(1);
    expect(await usage()).toMatchObject({ balance: 9, total: 1 });
  });

  it('a key that is not 1–255 printable ASCII characters: 400 on idempotencyKey, nothing claimed', async () => {
    for (const key of ['', 'x'.repeat(256), 'line\nbreak', 'tab\t', 'clé', 42, null]) {
      const error = await rejection(t.engine.search({ q: 'news' }, { organization: 'acme', idempotencyKey: key as string }));
      expect(error, String(key)).toMatchObject({ status: 400, code: 'invalid_request', problems: [{ field: 'idempotencyKey' }] });
    }
    const longest = ` ~${'x'.repeat(253)}`;
    expect(((await t.run(t.engine.search({ q: 'news' }, withKey(longest)))) as SearchResponse).metadata.credits_used).toBe(1);
    expect(source.calls).toHaveLength(1);
  });

  it('while the first use runs: 409 idempotency_in_progress (retryable, nothing charged); afterwards the retry replays', async () => {
    const slow = scriptedSource('slow', { news: hits(3) }, { latencyMs: 1_000, clock: t.clock });
    const s = testEngine({ sources: [slow] }, t.clock);
    await s.engine.admin.createOrganization('acme', { credits: 10 });
    const running = s.engine.search({ q: 'news' }, withKey('k1'));
    while (slow.calls.length === 0) await new Promise((r) => setImmediate(r));
    const busy = await rejection(s.engine.search({ q: 'news' }, withKey('k1')));
    expect(busy).toMatchObject({ status: 409, code: 'idempotency_in_progress', retryable: true });
    expect(busy.body).toMatchObject({ status: 'error', code: 'idempotency_in_progress', retryable: true });
    const first = await drive(t.clock, running);
    expect(await s.run(s.engine.search({ q: 'news' }, withKey('k1')))).toEqual(first);
    expect(await usage(s.engine)).toMatchObject({ balance: 9, total: 1 });
    await s.engine.close();
  });
});

describe('a first use that failed', () => {
  it('a 503 is never charged: the retry with the key runs afresh (and is charged once when it succeeds)', async () => {
    let up = false;
    const flaky = scriptedSource('flaky', () => (up ? hits(2) : { fail: 'down' }));
    const f = testEngine({ sources: [flaky], router: { retries: 0 } }, t.clock);
    await f.engine.admin.createOrganization('acme', { credits: 10 });
    expect(await rejection(f.run(f.engine.search({ q: 'news' }, withKey('k1'))))).toMatchObject({ status: 503 });
    up = true;
    const ok = (await f.run(f.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse;
    expect(ok.metadata.credits_used).toBe(1);
    expect(await f.run(f.engine.search({ q: 'news' }, withKey('k1')))).toEqual(ok);
    expect(await usage(f.engine)).toEqual({ balance: 9, used: 1, search: 2, extract: 0, total: 2, free: 1 }); // the 503 counts as free
    await f.engine.close();
  });

  it('a 402 leaves the key free, also for other parameters', async () => {
    await t.engine.admin.createOrganization('poor', { credits: 0 });
    const poor = (key: string) => ({ organization: 'poor', idempotencyKey: key });
    expect(await rejection(t.run(t.engine.search({ q: 'news' }, poor('k1'))))).toMatchObject({ status: 402 });
    await t.engine.admin.addCredits('poor', 1);
    expect(((await t.run(t.engine.search({ q: 'rust' }, poor('k1')))) as SearchResponse).metadata.credits_used).toBe(1);
  });
});

describe('two engines on one SQLite file', () => {
  let dir: string;
  let file: string;
  const opened: { close(): Promise<void> }[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'websift-idem-'));
    file = join(dir, 'websift.db');
  });
  afterEach(async () => {
    for (const o of opened.splice(0).reverse()) await o.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const engineOn = (clock: ManualClock, options: EngineOptions = {}): TestEngine => {
    const e = testEngine({ database: file, sources: [source], ...options }, clock);
    opened.push(e.engine);
    return e;
  };

  it('a retry that lands on the other engine replays the first answer, charged once', async () => {
    const clock = new ManualClock();
    const a = engineOn(clock);
    const b = engineOn(clock);
    await a.engine.admin.createOrganization('acme', { credits: 10 });
    const first = await a.run(a.engine.search({ q: 'news' }, withKey('k1')));
    expect(await b.run(b.engine.search({ q: 'news' }, withKey('k1')))).toEqual(first);
    expect(await usage(b.engine)).toMatchObject({ balance: 9, total: 1 });
    expect(source.calls).toHaveLength(1);
  });

  /** A ledger that records the charge but dies before the answer is stored (finishClaim never lands). */
  const dyingAfterCharge = (clock: ManualClock): Ledger => {
    const ledger = sqliteLedger(openSqlite({ database: file, clock }), { clock });
    opened.push(ledger);
    return { ...ledger, finishClaim: () => Promise.reject(new Error('killed before the answer was stored')) };
  };

  it('charged but the answer never stored: in_progress while that engine lives, then paid: delivered again, never charged twice', async () => {
    const clock = new ManualClock();
    const dying = dyingAfterCharge(clock);
    const a = engineOn(clock, { ledger: dying });
    const b = engineOn(clock);
    await b.engine.admin.createOrganization('acme', { credits: 10 });
    const lost = (await a.run(a.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse; // the client never got this
    expect(lost.metadata.credits_used).toBe(1);
    expect(await rejection(b.run(b.engine.search({ q: 'news' }, withKey('k1'))))).toMatchObject({ status: 409 });
    await a.engine.close();
    await dying.close(); // the instance is gone (a crash is the same to the ledger: tested in test/adapters)
    const delivered = (await b.run(b.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse;
    expect(delivered.results).toEqual(lost.results);
    expect(delivered.metadata).toMatchObject({ credits_used: 1, from_cache: false });
    expect(source.calls).toHaveLength(2); // run again, for free
    expect(await usage(b.engine)).toEqual({ balance: 9, used: 1, search: 1, extract: 0, total: 1, free: 0 });
    // From now on it is the rerun's answer that replays.
    expect(await b.run(b.engine.search({ q: 'news' }, withKey('k1')))).toEqual(delivered);
    expect(await usage(b.engine)).toMatchObject({ balance: 9, total: 1 });
  });

  it('a paid rerun answered as a free repeat of the lost answer still reports what was paid', async () => {
    const clock = new ManualClock();
    const repeats = repeatWindowStore(clock); // shared, as a Redis store would be
    const dying = dyingAfterCharge(clock);
    const a = engineOn(clock, { ledger: dying, caches: { repeats } });
    const b = engineOn(clock, { caches: { repeats } });
    await b.engine.admin.createOrganization('acme', { credits: 10 });
    await a.run(a.engine.search({ q: 'news' }, withKey('k1')));
    await a.engine.close();
    await dying.close();
    const delivered = (await b.run(b.engine.search({ q: 'news' }, withKey('k1')))) as SearchResponse;
    expect(delivered.metadata).toMatchObject({ credits_used: 1, from_cache: true });
    expect(source.calls).toHaveLength(1);
    expect(await usage(b.engine)).toMatchObject({ balance: 9, total: 1, free: 0 });
  });
});

describe('extract', () => {
  let server: PageServer;
  let e: Engine;
  beforeEach(async () => {
    server = await startPageServer({
      '/a': {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><body><article><h1>A</h1><p>Alpha text here.</p></article></body></html>',
      },
      '/b': { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Beta' },
    });
    e = createEngine({ clock: new ManualClock(), rateLimit: false, allowPrivateNetwork: true, robots: false });
    await e.admin.createOrganization('acme', { credits: 10 });
  });
  afterEach(async () => {
    await e.close();
    await server.close();
  });

  it('replays the first answer without fetching again; defaults spelled out are the same call; other URLs are refused', async () => {
    const urls = [server.url('/a'), server.url('/b')];
    const first = await e.extract({ urls }, withKey('x1'));
    expect(first.metadata.credits_used).toBe(2);
    const again = await e.extract({ urls, format: 'markdown', stealth: false }, withKey('x1'));
    expect(again).toEqual(first);
    expect(isIdempotentReplay(again)).toBe(true);
    expect(server.requests.filter((r) => r.path === '/a')).toHaveLength(1);
    const reordered = await rejection(e.extract({ urls: [...urls].reverse() }, withKey('x1')));
    expect(reordered).toMatchObject({ status: 400, problems: [{ field: 'idempotencyKey' }] });
    expect((await e.usage(acme)).credits.balance).toBe(8);
    expect((await e.usage(acme)).requests.extract).toBe(1);
  });
});
