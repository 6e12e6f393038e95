// A config value the engine cannot take is a usage error (exit 2) naming its key, whether the CLI sees
// it from the value's JSON shape (before anything is opened) or the engine refuses it when it starts.

import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mainCaptured } from './in-process.js';
import { runCli, tempDb } from './run-cli.js';

const withEngine = (engine: Record<string, unknown>): { db: string; config: string } => {
  const db = tempDb();
  const config = join(dirname(db), 'websift.json');
  writeFileSync(config, JSON.stringify({ engine }));
  return { db, config };
};

describe('config values: exit 2 naming the key', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    // The shape, checked when the config is read.
    [{ pageTimeoutMs: -5 }, /config .*websift\.json: "engine\.pageTimeoutMs" must be a number above 0, got -5$/],
    [{ robots: 'maybe' }, /"engine\.robots" must be true or false, got "maybe"$/],
    [{ conversionThreads: 'a' }, /"engine\.conversionThreads" must be an integer of at least 1, got "a"$/],
    [{ extractConcurrency: 0 }, /"engine\.extractConcurrency" must be an integer of at least 1, got 0$/],
    [{ rateLimit: 'x' }, /"engine\.rateLimit" must be false or \{"limit": N, "window": SECONDS\}, got "x"$/],
    [{ allowEndpoints: '127.0.0.1:80' }, /"engine\.allowEndpoints" must be an array of strings/],
    [{ router: 3 }, /"engine\.router" must be an object, got 3$/],
    // The finer rules, refused by createEngine.
    [{ resultsPerSearch: 500 }, /config: "engine\.resultsPerSearch": resultsPerSearch must be an integer from 1 to 100 \(got 500\)$/],
    [{ rateLimit: { limit: 0, window: 1 } }, /config: "engine\.rateLimit": rateLimit: limit must be an integer/],
    [{ allowEndpoints: ['localhost:80'] }, /config: "engine\.allowEndpoints": allowEndpoints entry "localhost:80" names a host/],
    [{ durability: 'sometimes' }, /config: "engine\.durability": durability must be "full" or "normal"$/],
    [{ stealthRemovalDate: 'someday' }, /config: "engine\.stealthRemovalDate": stealthRemovalDate is not a date$/],
    [{ postgres: { schema: 'x' } }, /config: "engine\.postgres": postgres settings need a postgres:\/\/ database URL$/],
  ];

  it.each(cases)('engine %j', async (engine, message) => {
    const { db, config } = withEngine(engine);
    const res = await mainCaptured(['org', 'create', 'acme', '--db', db, '--config', config]);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr.trim()).toMatch(message);
    expect(res.stdout).toBe('');
  });

  it('a shape error is found before the database is opened (nothing created)', async () => {
    const { db, config } = withEngine({ pageCacheBytes: -1 });
    expect((await mainCaptured(['org', 'create', 'acme', '--db', db, '--config', config])).code).toBe(2);
    expect(existsSync(db)).toBe(false);
  });

  it('the executable exits 2 too; a database that cannot be opened is still a failure (exit 1)', async () => {
    const { db, config } = withEngine({ resultsPerSearch: 0 });
    const bad = await runCli(['org', 'create', 'acme', '--db', db, '--config', config]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"engine\.resultsPerSearch"/);
    const unopenable = await mainCaptured(['org', 'create', 'acme', '--db', join(dirname(db), 'no', 'such', 'dir.db')]);
    expect(unopenable.code).toBe(1);
    expect(unopenable.stderr).toMatch(/cannot open database .*dir\.db/);
  });
});
