// The CLI on shared storage: --database with a postgres:// URL (or WEBSIFT_DATABASE_URL) keeps the books
// in PostgreSQL, --redis (or WEBSIFT_REDIS_URL) the shared caches; bad values are one-line usage errors.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeys } from '../redis/redis-kit.js';
import { adminPool, dropSchema } from '../support/postgres.js';
import { POSTGRES_URL, REDIS_URL, serviceAvailable, uniqueName } from '../support/services.js';
import { runCli } from './run-cli.js';

const available = (await serviceAvailable('PostgreSQL')) && (await serviceAvailable('Redis'));

describe('websift CLI flags for storage', () => {
  it('refuses a --redis that is not a redis URL, and --database together with --db', async () => {
    const bad = await runCli(['usage', '--redis', 'http://cache:6379']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--redis must be a redis:\/\/ or rediss:\/\/ URL/);
    const both = await runCli(['usage', '--database', 'a.db', '--db', 'b.db']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--database or --db, not both/);
  });
});

describe.skipIf(!available)('websift CLI on PostgreSQL and Redis', () => {
  const schema = uniqueName('ws_cli');
  const redisPrefix = `${uniqueName('ws_cli')}:`;
  const dir = mkdtempSync(join(tmpdir(), 'websift-cli-shared-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ localIndex: false, engine: { postgres: { schema }, redisPrefix } }));
  const index = join(dir, 'index.db');

  afterAll(async () => {
    await dropSchema(schema);
    await deleteKeys(redisPrefix);
  });

  it('provisions through one command and reads the same books through another (flags or environment)', async () => {
    const created = await runCli([
      'org',
      'create',
      'acme',
      '--credits',
      '7',
      '--database',
      POSTGRES_URL,
      '--redis',
      REDIS_URL,
      '--config',
      config,
      '--index',
      index,
    ]);
    expect(created.stderr).toBe('');
    expect(JSON.parse(created.stdout)).toEqual({ organization: 'acme', credits: 7 });
    const env = { WEBSIFT_DATABASE_URL: POSTGRES_URL, WEBSIFT_REDIS_URL: REDIS_URL, WEBSIFT_INDEX: index };
    const key = await runCli(['key', 'create', 'acme', '--config', config], env);
    expect(JSON.parse(key.stdout).key).toMatch(/^ws_live_/);
    const usage = await runCli(['usage', '--config', config], env);
    expect(JSON.parse(usage.stdout)).toMatchObject({ organization: 'acme', credits: { balance: 7, used: 0 } });
    const { rows } = await adminPool().query(`SELECT id, balance FROM "${schema}".organizations`);
    expect(rows).toEqual([{ id: 'acme', balance: '7' }]);
  }, 60_000);
});
