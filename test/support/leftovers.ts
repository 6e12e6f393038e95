// What a test run left on the developer's servers: the PostgreSQL schemas and Redis keys whose names
// carry the run's id (every name a test makes does: test/support/services.ts). Each suite removes its
// own; the global teardown (test/global-setup.ts) removes what is left and fails the run naming it.

import { Redis } from 'ioredis';
import pg from 'pg';
import { POSTGRES_URL, REDIS_URL } from './services.js';

/** Removes the schemas and keys of run `runId` and resolves their names (empty when the run cleaned up). */
export async function removeLeftovers(runId: string): Promise<string[]> {
  return [...(await postgresLeftovers(runId)), ...(await redisLeftovers(runId))];
}

async function postgresLeftovers(runId: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
  } catch {
    return []; // not reachable: the PostgreSQL suites skipped
  }
  try {
    const { rows } = await client.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE '%\\_' || $1 || '\\_%'", [
      runId,
    ]);
    for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
    return rows.map((r) => `PostgreSQL schema ${r.nspname}`);
  } finally {
    await client.end();
  }
}

async function redisLeftovers(runId: string): Promise<string[]> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {}); // an unreachable server is reported by connect()
  try {
    await redis.connect();
  } catch {
    return []; // not reachable: the Redis suites skipped
  }
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `*_${runId}_*`, 'COUNT', 1_000);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    return keys.map((key) => `Redis key ${key}`);
  } finally {
    redis.disconnect();
  }
}
