// Where an engine keeps its state, from its options: the books (ledger, keys) in SQLite by default or in
// PostgreSQL for a `postgres://` database; the shared caches, the rate limit, key revocations and
// single flight in this process by default or in Redis for a `redis://` URL. An injected port always
// wins, and is never closed by the engine; what is built here is closed by `close()`.

import { lruCacheStore } from '../adapters/lru-cache-store.js';
import { repeatWindowStore } from '../adapters/partitioned-lru-store.js';
import { openPostgres, type PostgresDatabase } from '../adapters/postgres/database.js';
import { postgresKeyStore } from '../adapters/postgres/key-store.js';
import { postgresLedger } from '../adapters/postgres/ledger.js';
import { redisCacheStore } from '../adapters/redis/cache-store.js';
import { DEFAULT_PREFIX, type RedisClientLike, RedisConnection } from '../adapters/redis/client.js';
import { createRedisFlights } from '../adapters/redis/flights.js';
import { redisKeyEvents } from '../adapters/redis/key-events.js';
import { redisRateLimiter } from '../adapters/redis/rate-limiter.js';
import { redisSearchCoordination } from '../adapters/redis/search-coordination.js';
import { openSqlite, type SqliteDatabase } from '../adapters/sqlite/database.js';
import { sqliteKeyStore } from '../adapters/sqlite/key-store.js';
import { sqliteLedger } from '../adapters/sqlite/ledger.js';
import { isPostgresUrl } from '../adapters/storage-urls.js';
import type { RepeatEntry } from '../core/books/index.js';
import type { CachedPage } from '../core/extract/run-extract.js';
import { DEFAULT_RATE_LIMIT, InProcessRateLimiter } from '../core/rate-limit.js';
import type { ConfirmedEmpty } from '../core/search/index.js';
import { SingleFlight } from '../core/single-flight.js';
import type { CacheStore } from '../ports/cache.js';
import type { Flights } from '../ports/flights.js';
import type { KeyEvents } from '../ports/key-events.js';
import type { KeyStore } from '../ports/key-store.js';
import type { Ledger } from '../ports/ledger.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { SearchCoordination } from '../ports/search-coordination.js';
import type { Clock } from '../types/index.js';
import type { EngineOptions } from './options.js';
import type { Probe } from './readiness.js';

/** Largest page the Redis page cache keeps (a bigger one is re-fetched on a repeat, still free). */
const REDIS_PAGE_BYTES = 4 * 1024 * 1024;

export interface Storage {
  ledger: Ledger;
  keys: KeyStore;
  repeats: CacheStore<RepeatEntry>;
  empties: CacheStore<ConfirmedEmpty>;
  /** Undefined: the extraction pipeline's in-process page cache. */
  pages: CacheStore<CachedPage> | undefined;
  limiter: RateLimiter | undefined;
  keyEvents: KeyEvents | undefined;
  flights: Flights;
  /** A search's rate limit, flight and cache reads in one round trip: only when all of them are this Redis. */
  coordination: SearchCoordination | undefined;
  /** Readiness checks of the services built here (engine/readiness.ts): `database`, `redis`. */
  probes: Record<string, Probe>;
  /** Closes what was built here (never an injected port). */
  close(): Promise<void>;
}

export function createStorage(options: EngineOptions, clock: Clock): Storage {
  const owned: { close(): unknown }[] = [];
  const own = <T extends { close?(): unknown }>(port: T): T => {
    if (port.close) owned.push(port as T & { close(): unknown });
    return port;
  };
  const redis = options.redis;
  const on = (prefix: string) => ({ url: redis!, prefix: `${options.redisPrefix ?? DEFAULT_PREFIX}${prefix}` });
  // Built before any database is opened: a limiter refuses a bad policy.
  let limiter = options.rateLimiter;
  const policy = options.rateLimit === false ? undefined : (options.rateLimit ?? DEFAULT_RATE_LIMIT);
  if (!limiter && policy) limiter = redis ? own(redisRateLimiter(policy, on(''))) : new InProcessRateLimiter(policy);
  const probes: Record<string, Probe> = {};
  const database = options.database;
  const postgres = database !== undefined && isPostgresUrl(database);

  let ledger = options.ledger;
  let keys = options.keyStore;
  /** Closed before the rest: a ledger releases its holds (a PostgreSQL handle closes its ledger and keys). */
  let books: { close(): unknown } | undefined;
  let sqlite: SqliteDatabase | undefined;
  const cap = options.maxStoredAnswerBytes !== undefined ? { maxStoredAnswerBytes: options.maxStoredAnswerBytes } : {};
  if (postgres) {
    if (!ledger || !keys) {
      const handle = (books = openPostgres({ ...cap, ...options.postgres, connectionString: database, clock }));
      probes['database'] = () => (handle as PostgresDatabase).query('SELECT 1');
      ledger ??= postgresLedger(handle);
      keys ??= postgresKeyStore(handle);
    }
  } else if (!ledger || !keys) {
    sqlite = openSqlite({
      clock, // paces the waits for a database locked by another writer
      ...(database !== undefined ? { database } : {}),
      ...(options.durability !== undefined ? { durability: options.durability } : {}),
      ...(options.lockWaitMs !== undefined ? { lockWaitMs: options.lockWaitMs } : {}),
    });
    const file = sqlite.db.prepare('SELECT count(*) FROM sqlite_master');
    probes['database'] = () => file.get(); // reads the file's schema page: a removed or unreadable file fails
    if (!ledger) ledger = books = sqliteLedger(sqlite, { closeStore: false, clock, ...cap });
    keys ??= sqliteKeyStore(sqlite);
  }

  if (redis) {
    // A connection of its own: a probe must not wait behind (or be mistaken for) the stores' traffic.
    const probe = own(new RedisConnection({ url: redis, prefix: options.redisPrefix ?? DEFAULT_PREFIX }, 'readiness'));
    probes['redis'] = async () => {
      const client = await probe.client();
      // Not connected: ioredis refuses commands at once (no offline queue) with a message about streams.
      // A connection still being made (a server just started, a probe's first use) is waited for, within
      // the check's own timeout; a refused one fails at once, naming why.
      if (client.status !== 'ready') await connected(client);
      return client.get(`${probe.prefix}readiness`);
    };
  }
  const caches = options.caches ?? {};
  const repeats = caches.repeats ?? own(redis ? redisCacheStore<RepeatEntry>(on('repeat:')) : repeatWindowStore<RepeatEntry>(clock));
  const empties = caches.confirmedEmpty ?? own(redis ? redisCacheStore<ConfirmedEmpty>(on('empty:')) : lruCacheStore<ConfirmedEmpty>());
  const pages = caches.pages ?? (redis ? own(redisCacheStore<CachedPage>({ ...on('page:'), maxValueBytes: REDIS_PAGE_BYTES })) : undefined);
  const keyEvents = options.keyEvents ?? (redis ? own(redisKeyEvents(on(''))) : undefined);
  const redisFlights = redis && !options.flights ? own(createRedisFlights({ ...on(''), clock })) : undefined;
  const flights = options.flights ?? redisFlights ?? new SingleFlight();
  // The combined scripts read and write the others' keys: only when this engine built every one of them.
  const coordinated = redisFlights && !options.rateLimiter && !caches.repeats && !caches.confirmedEmpty;
  const coordination = coordinated
    ? own(
        redisSearchCoordination({
          ...on(''),
          flights: redisFlights,
          policy,
          windowsPrefix: on('repeat:').prefix,
          emptiesPrefix: on('empty:').prefix,
        }),
      )
    : undefined;

  return {
    ledger: ledger!,
    keys: keys!,
    repeats,
    empties,
    pages,
    limiter,
    keyEvents,
    flights,
    coordination,
    probes,
    async close() {
      // The books first (a ledger releases its holds), then the rest; the SQLite file last.
      await books?.close();
      await Promise.all(owned.map((port) => port.close()));
      sqlite?.close();
    },
  };
}

/** Resolves when the client is ready; rejects on its next error, or at once when it was closed. */
function connected(client: RedisClientLike): Promise<void> {
  if (client.status === 'end' || client.status === 'close') return Promise.reject(new Error(`not connected (${client.status})`));
  return new Promise((resolve, reject) => {
    const onReady = () => {
      stop();
      resolve();
    };
    const onError = (error: unknown) => {
      stop();
      reject(new Error(`not connected (${client.status}: ${error instanceof Error ? error.message : String(error)})`));
    };
    const stop = () => {
      client.off('ready', onReady);
      client.off('error', onError);
    };
    client.on('ready', onReady);
    client.on('error', onError);
  });
}
