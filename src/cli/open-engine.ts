// Builds the CLI's engine: on the embedded defaults, one SQLite file for the ledger, keys, counters and
// the local index; or, for several instances, a PostgreSQL database (a postgres:// URL) and Redis, with
// the local index in its own SQLite file. The local index is the first source, then the config's.

import { existsSync } from 'node:fs';
import { isPostgresUrl, isRedisUrl } from '../adapters/storage-urls.js';
import { createEngine } from '../engine/index.js';
import { type LocalIndex, localIndex } from '../sources/local-index.js';
import type { Engine, SearchSource } from '../types/index.js';
import { CliError } from './cli-error.js';
import type { CliConfig } from './config.js';
import { buildSource } from './source-factories.js';

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
  /**
   * The command only uses books that exist (usage, search, org list…): a SQLite database or an --index
   * file that is missing is an error naming it, not a new empty file (docs/cli.md, "The database").
   */
  existing?: boolean;
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
export function storageFlags(values: {
  database?: string | undefined;
  db?: string | undefined;
  redis?: string | undefined;
  index?: string | undefined;
}): StorageFlags {
  const env = process.env;
  if (values.database !== undefined && values.db !== undefined) throw new CliError('give --database or --db, not both');
  // An empty variable counts as unset (an empty path would open a temporary database).
  const database = values.database ?? values.db ?? (env['WEBSIFT_DATABASE_URL'] || env['WEBSIFT_DB'] || DEFAULT_DB);
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

function mustExist(file: string, what: string): void {
  if (file === ':memory:' || existsSync(file)) return;
  throw new CliError(`${what} ${file} does not exist; this command does not create it (org create, index add, serve and demo do)`);
}

/**
 * A refusal of createEngine that names a key the config set (a value out of range, say) is the
 * config's fault: a usage error (exit 2) naming it. Anything else (a database that cannot be opened)
 * is a failure (exit 1).
 */
function startError(error: Error, config: CliConfig): CliError {
  const message = error.message.replace(/^createEngine: /, '');
  const key = Object.keys(config.engine).find((k) => new RegExp(`\\b${k}\\b`).test(message));
  if (key !== undefined) return new CliError(`config: "engine.${key}": ${message}`);
  return new CliError(`cannot start the engine: ${message}`, 1);
}

export async function openEngine(options: OpenOptions): Promise<OpenedEngine> {
  // The config's sources first: a missing key variable must fail before anything is opened.
  const configured: SearchSource[] = [];
  for (const [i, entry] of options.config.sources.entries()) configured.push(await buildSource(entry, i));
  const shared = isPostgresUrl(options.database);
  const indexFile = options.index ?? (shared ? DEFAULT_INDEX_WITH_POSTGRES : options.database);
  if (options.existing) {
    if (!shared) mustExist(options.database, 'database');
    if (options.index !== undefined) mustExist(options.index, 'index');
  }
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
    throw startError(error as Error, options.config);
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
