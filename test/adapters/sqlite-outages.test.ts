// A keyed call on SQLite whose settlement and claim finish find the file locked (by another connection)
// past lockWaitMs: the call answers 503 and charges nothing, and the claim is finished in the background
// once the lock is gone, so a retry with the key runs (it used to get 409 until the process restarted).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_MS } from '../../src/adapters/retry-queue.js';
import { DEFAULT_LOCK_WAIT_MS } from '../../src/adapters/sqlite/lock-wait.js';
import { createEngine } from '../../src/engine/create-engine.js';
import { IdempotencyInProgressError, LedgerUnavailableError } from '../../src/errors.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import { scriptedSource } from '../../src/testing/scripted-source.js';
import type { Engine, SearchResponse } from '../../src/types/index.js';

let dir: string;
let file: string;
const cleanup: (() => unknown)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-outage-'));
  file = join(dir, 'websift.db');
});
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
  rmSync(dir, { recursive: true, force: true });
});

describe('a keyed call locked out of its settlement', () => {
  it('answers 503 charging nothing; once the lock is gone a retry runs (this handle or another), charged once', async () => {
    const clock = new ManualClock();
    const other = new Database(file);
    cleanup.push(() => other.close());
    let locked = false;
    const source = scriptedSource('s', (q, call) => {
      if (call === 0) {
        other.exec('BEGIN IMMEDIATE'); // during the work: the settlement and the claim finish wait, then give up
        locked = true;
      }
      return { results: [{ title: q.q, url: 'https://example.test/a', snippet: 'a' }] };
    });
    const open = (): Engine => {
      const engine = createEngine({ database: file, clock, sources: [source], rateLimit: false });
      cleanup.push(() => engine.close());
      return engine;
    };
    const engine = open();
    await engine.admin.createOrganization('acme', { credits: 10 });
    const ctx = { organization: 'acme', idempotencyKey: 'order-1' };
    const first = await clock.drive(engine.search({ q: 'locked' }, ctx)).catch((e: unknown) => e);
    expect(locked).toBe(true);
    expect(first).toBeInstanceOf(LedgerUnavailableError);
    expect(clock.now()).toBeGreaterThanOrEqual(2 * DEFAULT_LOCK_WAIT_MS); // the default waits, twice (settle, finish)
    other.exec('COMMIT');
    // Another handle on the file: once this one's background retry finished the claim (RETRY_MS of its
    // Clock), the key is free and the retry runs.
    const second = open();
    await clock.advance(RETRY_MS);
    const elsewhere = (await clock.drive(second.search({ q: 'locked' }, ctx))) as SearchResponse;
    expect(elsewhere).not.toBeInstanceOf(IdempotencyInProgressError);
    expect(elsewhere.metadata.credits_used).toBe(1);
    expect(await clock.drive(engine.search({ q: 'locked' }, ctx))).toEqual(elsewhere); // replayed
    expect((await engine.usage({ organization: 'acme' })).credits).toEqual({ balance: 9, used: 1 });
  });

  it('the same handle: a retry runs its pending finish first, so it is not 409 even before the background retry', async () => {
    const clock = new ManualClock();
    const other = new Database(file);
    cleanup.push(() => other.close());
    const source = scriptedSource('s', (q, call) => {
      if (call === 0) other.exec('BEGIN IMMEDIATE');
      return { results: [{ title: q.q, url: 'https://example.test/a', snippet: 'a' }] };
    });
    const engine = createEngine({ database: file, clock, sources: [source], rateLimit: false });
    cleanup.push(() => engine.close());
    await engine.admin.createOrganization('acme', { credits: 10 });
    const ctx = { organization: 'acme', idempotencyKey: 'order-1' };
    await expect(clock.drive(engine.search({ q: 'locked' }, ctx))).rejects.toBeInstanceOf(LedgerUnavailableError);
    other.exec('COMMIT');
    const answer = (await engine.search({ q: 'locked' }, ctx)) as SearchResponse; // no clock advance
    expect(answer.metadata.credits_used).toBe(1);
    expect((await engine.usage({ organization: 'acme' })).credits).toEqual({ balance: 9, used: 1 });
  });
});
