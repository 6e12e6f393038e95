// What the Redis tests share: a plain ioredis client of their own (to inspect and clean up), a unique
// key prefix per test whose keys are deleted afterwards, and connections named after the test, so that
// a test that cuts connections cuts only its own (never another program's on the same server).

import { Redis } from 'ioredis';
import { REDIS_URL, uniqueName } from '../support/services.js';

export { REDIS_URL };

/** A test's own connection (not websift's), closed by the caller. */
export const inspector = () => new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });

/** A unique prefix for one test's keys and channels (only [a-z0-9_:], safe in a SCAN pattern). */
export const testPrefix = (what: string) => `${uniqueName(`websift_test_${what}`)}:`;

/** Every key under `prefix`. */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1_000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

export async function deleteKeys(prefix: string): Promise<void> {
  const redis = inspector();
  try {
    const keys = await keysUnder(redis, prefix);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  } finally {
    redis.disconnect();
  }
}

/** REDIS_URL with a connection name: every connection opened from it (duplicates too) carries the name. */
export function namedUrl(name: string): string {
  const url = new URL(REDIS_URL);
  url.searchParams.set('connectionName', name);
  return url.toString();
}

/** Kills the pub/sub connections named `name` (this test's own) and resolves how many it killed. */
export async function killSubscribers(redis: Redis, name: string): Promise<number> {
  const list = (await redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
  const ids = list
    .split('\n')
    .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=', 2) as [string, string])))
    .filter((client) => client['name'] === name)
    .map((client) => client['id']!);
  for (const id of ids) await redis.call('CLIENT', 'KILL', 'ID', id);
  return ids.length;
}
