// createEngine's options (storage, sources, clock, rate limit, the injectable ports; the extraction
// options come from engine/extraction.ts) and their validation.

import type { PostgresOptions } from '../adapters/postgres/database.js';
import type { Durability } from '../adapters/sqlite/durability.js';
import { isPostgresUrl, isRedisUrl } from '../adapters/storage-urls.js';
import type { RepeatEntry } from '../core/books/index.js';
import type { CachedPage } from '../core/extract/run-extract.js';
import type { RateLimitPolicy } from '../core/rate-limit.js';
import type { RouterOptions } from '../core/router/index.js';
import type { ConfirmedEmpty, ContentFetcher } from '../core/search/index.js';
import type { CacheStore } from '../ports/cache.js';
import type { Flights } from '../ports/flights.js';
import type { KeyEvents } from '../ports/key-events.js';
import type { KeyStore } from '../ports/key-store.js';
import { type Ledger, storedAnswerCap } from '../ports/ledger.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { Clock, SearchSource } from '../types/index.js';
import { normalizeEndpoint } from './allow-endpoints.js';
import type { ExtractionOptions } from './extraction.js';

/** The PostgreSQL options createEngine passes on (it supplies the connection string and the clock). */
export type PostgresSettings = Pick<PostgresOptions, 'schema' | 'leaseMs' | 'poolConfig' | 'finishedRetentionMs' | 'maxStoredAnswerBytes'>;

/**
 * Options of `createEngine`; all optional. Bad values throw a TypeError or RangeError naming the option
 * when the engine is created. The extraction options (allowPrivateNetwork, allowEndpoints, fetcher,
 * renderer, userAgent, robots, deadlines, stealthRemovalDate…) are declared with the extraction
 * pipeline in src/engine/extraction.ts. Reference with defaults: docs/engine.md, "Options".
 */
export interface EngineOptions extends ExtractionOptions {
  /**
   * Where the books (ledger, keys, counters) live: a SQLite file (default ':memory:'), or a
   * `postgres://` / `postgresql://` URL to share them between instances (docs/scaling.md).
   */
  database?: string;
  /** PostgreSQL settings for a `postgres://` database: schema (default 'websift'), lease, pool (docs/postgres.md). */
  postgres?: PostgresSettings;
  /**
   * `redis://` or `rediss://` URL: the repeat windows, the confirmed-empty and page caches, the rate
   * limit, key revocations and single flight move to Redis, shared by every instance (docs/redis.md).
   * Ports given explicitly (caches, rateLimiter, keyEvents, flights) still win.
   */
  redis?: string;
  /** Prefix of every Redis key and channel (default 'websift:'): one Redis can serve several deployments. */
  redisPrefix?: string;
  /** fsync policy of charging commits on the SQLite file (default 'full'; see docs/engine.md). */
  durability?: Durability;
  /** How long a write waits, off the event loop, for a SQLite file locked by another writer (default 5 s); then 503 `ledger_unavailable`. */
  lockWaitMs?: number;
  /**
   * Bytes of first answers the books keep for one organization's idempotency keys (default 64 MiB);
   * past it a keyed retry reruns the call free instead of replaying it (docs/engine.md, "Idempotency
   * keys"). SQLite and PostgreSQL alike; `postgres.maxStoredAnswerBytes` wins for PostgreSQL.
   */
  maxStoredAnswerBytes?: number;
  /** Search sources (`websift/sources` or your own `SearchSource`), best first; the router may reorder by health. Default none: every search answers 503. */
  sources?: SearchSource[];
  /** Every time rule (repeat windows, caches, rate limit, stealth removal) reads it. Default: the system clock. `ManualClock` from websift/testing drives it in tests. */
  clock?: Clock;
  /** Per-organization token bucket; default { limit: 20, window: 2 } (10/s, burst 20). false: off. */
  rateLimit?: RateLimitPolicy | false;
  /**
   * Replaces the in-process limiter (e.g. `redisRateLimiter` from websift/redis, shared by every
   * instance); its `policy` is what `engine.rateLimit` reports. Not together with `rateLimit`.
   */
  rateLimiter?: RateLimiter;
  /** Results asked of the sources and returned per search: an integer 1–100 (default 10). */
  resultsPerSearch?: number;
  /** Replaces the SQLite ledger (balances, reservations, counters), e.g. `postgresLedger` from websift/postgres. Not closed by the engine. */
  ledger?: Ledger;
  /** Replaces the SQLite key store, e.g. `postgresKeyStore` from websift/postgres. Not closed by the engine. */
  keyStore?: KeyStore;
  /**
   * Revocations announced to every instance (e.g. `redisKeyEvents` from websift/redis): each one's
   * cache of authenticated keys drops a revoked key at once, not after its TTL. Not closed by the engine.
   */
  keyEvents?: KeyEvents;
  /**
   * Replace the in-process LRU caches (e.g. `redisCacheStore` from websift/redis, shared by every
   * instance). `pages`: extract's content cache behind free repeats (`cached_free`); default an LRU of
   * `pageCacheBytes`. Injected caches are not closed by the engine.
   */
  caches?: { repeats?: CacheStore<RepeatEntry>; confirmedEmpty?: CacheStore<ConfirmedEmpty>; pages?: CacheStore<CachedPage> };
  /**
   * Identical requests of one organization wait for each other (default: within this process). A
   * shared one (`redisFlights` from websift/redis) makes them wait across instances. Not closed by the engine.
   */
  flights?: Flights;
  /** Router tuning (the engine supplies the clock). */
  router?: Omit<RouterOptions, 'clock'>;
  /** Internal hook for include_content on search (default: the extraction pipeline's, once wired). */
  contentFetcher?: ContentFetcher;
}

export const DEFAULT_RESULTS_PER_SEARCH = 10;

/** Checks the options the core reads; bad options fail at construction, naming the option. */
export function checkEngineOptions(options: EngineOptions): void {
  if (options === null || typeof options !== 'object') throw new TypeError('createEngine: options must be an object');
  const n = options.resultsPerSearch;
  if (n !== undefined && !(Number.isInteger(n) && n >= 1 && n <= 100)) {
    throw new RangeError(`createEngine: resultsPerSearch must be an integer from 1 to 100 (got ${String(n)})`);
  }
  if (options.sources !== undefined && !Array.isArray(options.sources)) {
    throw new TypeError('createEngine: sources must be an array of SearchSource');
  }
  checkStorageOptions(options);
  if (options.rateLimiter !== undefined) {
    if (options.rateLimit !== undefined)
      throw new TypeError('createEngine: give rateLimit or rateLimiter, not both (the limiter carries its policy)');
    if (typeof options.rateLimiter?.take !== 'function')
      throw new TypeError('createEngine: rateLimiter must implement take(organization, now)');
  }
  const c = options.clock;
  if (c !== undefined && (typeof c?.now !== 'function' || typeof c?.sleep !== 'function')) {
    throw new TypeError('createEngine: clock must implement now() and sleep()');
  }
  checkExtractionOptions(options);
  const wait = options.lockWaitMs;
  if (wait !== undefined && !(Number.isFinite(wait) && wait >= 0)) {
    throw new RangeError(`createEngine: lockWaitMs must be a non-negative number of milliseconds (got ${String(wait)})`);
  }
  if (options.durability !== undefined && options.durability !== 'full' && options.durability !== 'normal') {
    throw new RangeError('createEngine: durability must be "full" or "normal"');
  }
  storedAnswerCap(options.maxStoredAnswerBytes, 'createEngine');
}

function checkStorageOptions(options: EngineOptions): void {
  const { database, redis } = options;
  if (database !== undefined && typeof database !== 'string')
    throw new TypeError('createEngine: database must be a SQLite file path or a postgres:// URL');
  const postgres = database !== undefined && isPostgresUrl(database);
  if (options.postgres !== undefined && !postgres) throw new TypeError('createEngine: postgres settings need a postgres:// database URL');
  if (postgres && (options.durability !== undefined || options.lockWaitMs !== undefined)) {
    throw new TypeError('createEngine: durability and lockWaitMs apply to a SQLite database, not PostgreSQL');
  }
  if (redis !== undefined && (typeof redis !== 'string' || !isRedisUrl(redis))) {
    throw new TypeError(
      `createEngine: redis must be a redis:// or rediss:// URL (got ${typeof redis === 'string' ? `'${redis}'` : typeof redis})`,
    );
  }
  if (options.redisPrefix !== undefined && (typeof options.redisPrefix !== 'string' || redis === undefined)) {
    throw new TypeError('createEngine: redisPrefix is a string, and needs redis');
  }
}

function checkExtractionOptions(options: EngineOptions): void {
  if (options.allowPrivateNetwork !== undefined && typeof options.allowPrivateNetwork !== 'boolean') {
    throw new TypeError('createEngine: allowPrivateNetwork must be true or false');
  }
  const endpoints = options.allowEndpoints;
  if (endpoints !== undefined) {
    if (!Array.isArray(endpoints)) throw new TypeError("createEngine: allowEndpoints must be an array of 'ip:port' strings");
    for (const entry of endpoints) normalizeEndpoint(entry);
  }
  const ua = options.userAgent;
  // Control characters would make an invalid header (undici refuses it on every request).
  // eslint-disable-next-line no-control-regex
  if (ua !== undefined && (typeof ua !== 'string' || ua.trim() === '' || /[\u0000-\u001f\u007f]/.test(ua))) {
    throw new TypeError('createEngine: userAgent must be a non-empty string without control characters');
  }
  if (options.chromiumPath !== undefined && (typeof options.chromiumPath !== 'string' || options.chromiumPath === '')) {
    throw new TypeError('createEngine: chromiumPath must be the path of a Chromium executable');
  }
}
