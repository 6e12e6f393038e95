// Builds the CLI's engine: on the embedded defaults, one SQLite file for the ledger, keys, counters and
// the local index; or, for several instances, a PostgreSQL database (a postgres:// URL) and Redis, with
// the local index in its own SQLite file. The local index is the first source, then the config's.

import { isPostgresUrl, isRedisUrl } from '../adapters/storage-urls.js';
import { createEngine } from '../engine/index.js';
import { localIndex, type LocalIndex } from '../sources/local-index.js';
import type { Engine, SearchSource } from '../types/index.js';
import { CliError } from './cli-error.js';
import { buildSource } from './source-factories.js';
import type { CliConfig } from './config.js';

export const DEFAULT_DB = './websift.db';

export const DEFAULT_INDEX_WITH_POSTGRES = './websift-index.db';

export interface OpenedEngine {
  engine: Engine;
  index: LocalIndex;
  database: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A SQLite file, or a postgres:// URL. */
  database: string;
  /** Redis URL: shared caches and rate limit. */
  redis?: string | undefined;
  /** SQLite file of the local index (default: the database file, or ./websift-index.db with PostgreSQL). */
  index?: string | undefined;
  config: CliConfig;
  /** Lets the engine fetch loopback/private addresses (the demo serves its corpus on 127.0.0.1). */
  allowPrivateNetwork?: boolean;
}

export interface StorageFlags {
  database: string;
  redis: string | undefined;
  index: string | undefined;
}

/**
 * Where the books live: --database (or its older name --db), else WEBSIFT_DATABASE_URL (or WEBSIFT_DB),
 * else ./websift.db; --redis else WEBSIFT_REDIS_URL; --index else WEBSIFT_INDEX.
 */
export function storageFlags(values: { database?: string | undefined; db?: string | undefined; redis?: string | undefined; index?: string | undefined }): StorageFlags {
  const env = process.env;
  if (values.database !== undefined && values.db !== undefined) throw new CliError('give --database or --db, not both');
  const database = values.database ?? values.db ?? env['WEBSIFT_DATABASE_URL'] ?? env['WEBSIFT_DB'] ?? DEFAULT_DB;
  const redis = values.redis ?? (env['WEBSIFT_REDIS_URL'] || undefined);
  if (redis !== undefined && !isRedisUrl(redis)) throw new CliError(`--redis must be a redis:// or rediss:// URL, got '${redis}'`);
  return { database, redis, index: values.index ?? (env['WEBSIFT_INDEX'] || undefined) };
}

/** What the log may show of a database: a URL without its password. */
export function databaseLabel(database: string): string {
  if (!isPostgresUrl(database)) return database;
  try {
    const url = new URL(database);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://…';
  }
}

export async function openEngine(options: OpenOptions): Promise<OpenedEngine> {
  // The config's sources first: a missing key variable must fail before anything is opened.
  const configured: SearchSource[] = [];
  for (const [i, entry] of options.config.sources.entries()) configured.push(await buildSource(entry, i));
  const shared = isPostgresUrl(options.database);
  const indexFile = options.index ?? (shared ? DEFAULT_INDEX_WITH_POSTGRES : options.database);
  let index: LocalIndex;
  try {
    index = localIndex({ database: indexFile });
  } catch (error) {
    throw new CliError(`cannot open database ${indexFile}: ${(error as Error).message}`, 1);
  }
  const sources: SearchSource[] = options.config.localIndex ? [index, ...configured] : configured;
  let engine: Engine;
  try {
    engine = createEngine({
      ...options.config.engine,
      database: options.database,
      ...(options.redis !== undefined ? { redis: options.redis } : {}),
      sources,
      ...(options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
    });
  } catch (error) {
    await index.close();
    throw new CliError(`cannot start the engine: ${(error as Error).message}`, 1);
  }
  return {
    engine,
    index,
    database: databaseLabel(options.database),
    async close() {
      await engine.close();
      await index.close();
    },
  };
}
