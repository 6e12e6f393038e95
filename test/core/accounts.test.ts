// engine.admin, engine.authenticate and engine.usage on a real SQLite file.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { ManualClock } from '../../src/testing/manual-clock.js';
import type { Engine } from '../../src/types/index.js';
import { rejection } from './helpers.js';

let dir: string;
let file: string;
let engine: Engine;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'websift-accounts-'));
  file = join(dir, 'websift.db');
  engine = createEngine({ database: file, clock: new ManualClock() });
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('organizations and credits', () => {
  it('creates, grants, lists', async () => {
    await engine.admin.createOrganization('acme', { credits: 100 });
    await engine.admin.createOrganization('globex');
    expect(await engine.admin.addCredits('acme', 50)).toBe(150);
    expect(await engine.admin.listOrganizations()).toEqual([
      { id: 'acme', balance: 150, used: 0 },
      { id: 'globex', balance: 0, used: 0 },
    ]);
    const usage = await engine.usage({ organization: 'acme' });
    expect(usage).toEqual({
      organization: 'acme',
      credits: { balance: 150, used: 0 },
      requests: { search: 0, extract: 0, total: 0, free: 0 },
      timestamp: '2026-01-01T00:00:00.000Z',
    });
  });

  it('refuses bad input with a 400 naming the field, and duplicates', async () => {
    for (const bad of ['', ' padded ', 'x'.repeat(129), 'tab\there', 42 as never]) {
      expect((await rejection(engine.admin.createOrganization(bad))).body.problems[0].field).toBe('id');
    }
    for (const credits of [-1, 1.5, Number.NaN, '5' as never]) {
      expect((await rejection(engine.admin.createOrganization('acme', { credits }))).status).toBe(400);
    }
    expect((await rejection(engine.admin.createOrganization('acme', 100 as never))).body.problems[0].field).toBe('options');
    await engine.admin.createOrganization('acme');
    const exists = await rejection(engine.admin.createOrganization('acme'));
    expect(exists.code).toBe('organization_exists');
    // Admin errors carry the engine clock's timestamp like every other error body.
    expect(exists.body.metadata.timestamp).toBe(new Date(Date.UTC(2026, 0, 1)).toISOString());
    expect((await rejection(engine.admin.addCredits('acme', -5))).status).toBe(400);
    expect((await rejection(engine.admin.addCredits('nobody', 5))).code).toBe('unknown_organization');
  });

  it('persists in the database file across engines', async () => {
    await engine.admin.createOrganization('acme', { credits: 9 });
    await engine.close();
    engine = createEngine({ database: file });
    expect((await engine.usage({ organization: 'acme' })).credits.balance).toBe(9);
  });
});

describe('API keys', () => {
  it('returns a ws_live_ key once, authenticates it, and stores only its SHA-256', async () => {
    await engine.admin.createOrganization('acme');
    const key = await engine.admin.createApiKey('acme');
    expect(key).toMatch(/^ws_live_[A-Za-z0-9_-]{32}$/);
    expect(await engine.admin.createApiKey('acme')).not.toBe(key);
    expect(await engine.authenticate(key)).toEqual({ organization: 'acme' });

    const raw = new Database(file, { readonly: true });
    const rows = raw.prepare('SELECT * FROM api_keys').all() as { hash: string }[];
    raw.close();
    const { createHash } = await import('node:crypto');
    expect(rows.map((r) => r.hash)).toContain(createHash('sha256').update(key).digest('hex'));
    for (const name of readdirSync(dir)) expect(readFileSync(join(dir, name)).includes(key)).toBe(false);
  });

  it('refuses unknown, malformed and revoked keys', async () => {
    await engine.admin.createOrganization('acme');
    const key = await engine.admin.createApiKey('acme');
    for (const bad of ['', 'ws_live_nope', key + 'x', key.toUpperCase(), 'x'.repeat(10_000), null as never]) {
      expect(await engine.authenticate(bad)).toBeNull();
    }
    expect(await engine.admin.revokeApiKey(key)).toBe(true);
    expect(await engine.admin.revokeApiKey(key)).toBe(false);
    expect(await engine.authenticate(key)).toBeNull();
  });

  it('refuses a key for an unknown organization', async () => {
    expect((await rejection(engine.admin.createApiKey('nobody'))).code).toBe('unknown_organization');
  });
});

describe('engine lifecycle', () => {
  it('rejects calls after close', async () => {
    await engine.admin.createOrganization('acme');
    await engine.close();
    await expect(engine.usage({ organization: 'acme' })).rejects.toThrow(/closed/);
    await engine.close(); // idempotent
  });

  it('refuses bad options at construction', () => {
    expect(() => createEngine({ resultsPerSearch: 0 })).toThrow(/resultsPerSearch/);
    expect(() => createEngine({ clock: {} as never })).toThrow(/clock/);
    expect(() => createEngine({ sources: 'x' as never })).toThrow(/sources/);
    expect(() => createEngine({ lockWaitMs: -1 })).toThrow(/lockWaitMs/);
    expect(() => createEngine({ conversionThreads: 0 })).toThrow(/conversionThreads/);
    expect(() => createEngine({ conversionMemoryMb: 4 })).toThrow(/conversionMemoryMb/);
  });
});

describe('close with calls in flight', () => {
  it('lets running searches finish and settle before closing the database', async () => {
    const { scriptedSource } = await import('../../src/testing/scripted-source.js');
    const clock = new ManualClock();
    const slow = scriptedSource('slow', () => ({ results: [{ title: 't', url: 'https://x/', snippet: '' }] }), { latencyMs: 1000, clock });
    const e = createEngine({ database: join(dir, 'inflight.db'), clock, sources: [slow] });
    await e.admin.createOrganization('acme', { credits: 2 });
    const search = e.search({ q: 'x' }, { organization: 'acme' });
    await clock.advance(10);
    const closing = e.close();
    await clock.advance(1000);
    expect((await search).metadata.credits_used).toBe(1);
    await closing;
    const reopened = createEngine({ database: join(dir, 'inflight.db') });
    expect((await reopened.admin.listOrganizations())[0]).toEqual({ id: 'acme', balance: 1, used: 1 });
    expect(reopened.sources()).toEqual([]);
    await reopened.close();
  });

  it('reports source health in configured order', async () => {
    const { scriptedSource } = await import('../../src/testing/scripted-source.js');
    const e = createEngine({ sources: [scriptedSource('b', {}), scriptedSource('a', {})] });
    expect(e.sources().map((s) => [s.id, s.state])).toEqual([
      ['b', 'closed'],
      ['a', 'closed'],
    ]);
    await e.close();
  });
});

describe('two engines on one database file', () => {
  it('share balances and never overdraw or double-count under concurrent searches', async () => {
    const { scriptedSource } = await import('../../src/testing/scripted-source.js');
    const clock = new ManualClock();
    const make = () =>
      createEngine({
        database: file,
        clock,
        rateLimit: false,
        sources: [
          scriptedSource('s', (q) => ({ results: [{ title: q.q, url: `https://x/${encodeURIComponent(q.q)}`, snippet: '' }] }), {
            latencyMs: 50,
            clock,
          }),
        ],
      });
    const [one, other] = [make(), make()];
    await one.admin.createOrganization('acme', { credits: 7 });
    const calls = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? one : other).search({ q: `query ${i}` }, { organization: 'acme' }).then(
        (r) => r.metadata.credits_used,
        (e) => (e as { status: number }).status,
      ),
    );
    const outcomes = await clock.drive(Promise.all(calls));
    expect(outcomes.filter((o) => o === 1)).toHaveLength(7);
    expect(outcomes.filter((o) => o === 402)).toHaveLength(13);
    expect((await other.admin.listOrganizations())[0]).toEqual({ id: 'acme', balance: 0, used: 7 });
    await Promise.all([one.close(), other.close()]);
  });
});
