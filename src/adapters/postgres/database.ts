// A handle on one websift schema in PostgreSQL, shared by the ledger and the key store. Made
// synchronously (createEngine is synchronous): the first query loads `pg` if a pool has to be made,
// connects, and migrates; later queries go straight to the pool. A handle made from a connection
// string owns its pool and ends it on close; a pool the caller passed in is never ended by websift.

import { storedAnswerCap } from '../../ports/ledger.js';
import type { Clock } from '../../types/index.js';
import { systemClock } from '../system-clock.js';
import { loadPg, type OwnedPool, type PgLoader, type PostgresPool, type PostgresPoolConfig, pgModule } from './driver.js';
import { checkSchemaName, migrate, quoted } from './schema.js';
import { asUnavailable } from './unavailable.js';

export interface PostgresOptions {
  /** `postgres://user:password@host:5432/database`: websift makes (and later ends) a pg.Pool for it. */
  connectionString?: string;
  /** Or your own pool (a `pg.Pool`): used as it is, never ended by websift. */
  pool?: PostgresPool;
  /** Settings of the pool made from `connectionString` (ignored with `pool`). */
  poolConfig?: PostgresPoolConfig;
  /** The schema websift keeps its tables and functions in, created if missing (default 'websift'). */
  schema?: string;
  /** Dates reservations and drives the pruning of old ones (default: the system clock). */
  clock?: Clock;
  /**
   * How long, in ms, a ledger instance stays alive without renewing its lease (default 30,000). The
   * lease is renewed every leaseMs / 3; once it has run out, any other instance may release that
   * instance's holds. Measured by the PostgreSQL server's clock.
   */
  leaseMs?: number;
  /** How long a finished reservation id is remembered, so its settlement applies once (default 1 h). */
  finishedRetentionMs?: number;
  /**
   * Cap of the bytes of idempotent answers stored per organization (the last 24 h; default 64 MiB):
   * past it, a keyed call's answer is not stored and a retry reruns it free (docs/engine.md).
   */
  maxStoredAnswerBytes?: number;
  /** Loads the `pg` module (default: a dynamic import of it, on first use); for tests. */
  loadPg?: PgLoader;
}

/** What openPostgres returns: pass it to postgresLedger and postgresKeyStore to share one pool. */
export interface PostgresHandle {
  readonly schema: string;
  /** Connects and migrates now rather than on first use (resolves at once once done). */
  ready(): Promise<void>;
  /** Closes the ledgers and key stores made on this handle, then ends the pool if websift made it. */
  close(): Promise<void>;
}

/** Something made on a handle that closes with it (a ledger releases its holds). */
export interface HandleMember {
  close(): Promise<void>;
}

export const DEFAULT_SCHEMA = 'websift';
export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_RETENTION_MS = 60 * 60_000;
/**
 * websift's defaults for the pool it makes, so a partition (packets dropped, nothing reset) becomes a 503
 * within seconds rather than when TCP gives up (minutes): pg's own defaults wait forever.
 * - connectionTimeoutMillis: a new connection (or a free one from the pool) must come within 5 s.
 * - statement_timeout (server side): a statement running 4 s (a lock wait) is cancelled; the error says
 *   so, and nothing was committed.
 * - query_timeout (client side): a reply must come within 5 s, else the connection is dropped (the
 *   network is gone; the statement may still have run: the ledger reads it back, ledger.ts).
 * - keepAlive: TCP keepalive probes on idle connections (after 10 s), so dead ones are found and dropped.
 */
export const DEFAULT_POOL_CONFIG = {
  connectionTimeoutMillis: 5_000,
  statement_timeout: 4_000,
  query_timeout: 5_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;

export class PostgresDatabase implements PostgresHandle {
  readonly schema: string;
  /** The schema's name quoted for SQL. */
  readonly s: string;
  readonly clock: Clock;
  readonly leaseMs: number;
  readonly retentionMs: number;
  readonly maxStoredAnswerBytes: number;
  readonly #options: PostgresOptions;
  readonly #members = new Set<HandleMember>();
  #pool: PostgresPool | undefined;
  #owned: OwnedPool | undefined;
  #opening: Promise<void> | undefined;
  #open = false;
  #closed = false;

  constructor(options: PostgresOptions) {
    const hasString = typeof options.connectionString === 'string' && options.connectionString !== '';
    if (hasString === (options.pool !== undefined)) {
      throw new TypeError('websift/postgres: pass exactly one of connectionString and pool');
    }
    this.schema = checkSchemaName(options.schema ?? DEFAULT_SCHEMA);
    this.s = quoted(this.schema);
    this.clock = options.clock ?? systemClock;
    this.leaseMs = positive('leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS);
    this.retentionMs = positive('finishedRetentionMs', options.finishedRetentionMs ?? DEFAULT_RETENTION_MS);
    this.maxStoredAnswerBytes = storedAnswerCap(options.maxStoredAnswerBytes, 'websift/postgres');
    this.#options = options;
    this.#pool = options.pool;
  }

  get closed(): boolean {
    return this.#closed;
  }

  ready(): Promise<void> {
    if (this.#open) return Promise.resolve();
    if (this.#closed) return Promise.reject(closedError('database handle'));
    // A failed open is forgotten, so the next call tries again (PostgreSQL may be back by then).
    this.#opening ??= this.#connect().then(
      () => {
        this.#open = true;
      },
      (error: unknown) => {
        this.#opening = undefined;
        throw asUnavailable(error);
      },
    );
    return this.#opening;
  }

  /** Runs one statement (migrating first if needed); connection failures reject as LedgerUnavailableError. */
  async query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]> {
    if (this.#closed) throw closedError('database handle');
    if (!this.#open) await this.ready();
    try {
      return (await this.#pool!.query(text, values)).rows;
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  /** Registers a ledger or key store to close with this handle. */
  adopt(member: HandleMember): void {
    this.#members.add(member);
  }

  forget(member: HandleMember): void {
    this.#members.delete(member);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    // Members first, while the pool still works: a ledger releases its holds on the way out.
    await Promise.allSettled([...this.#members].map((m) => m.close()));
    this.#closed = true;
    await this.#opening?.catch(() => undefined);
    const owned = this.#owned;
    this.#owned = undefined;
    await owned?.end();
  }

  async #connect(): Promise<void> {
    if (!this.#pool) {
      const pg = await pgModule(this.#options.loadPg ?? loadPg);
      if (this.#closed) throw closedError('database handle');
      const pool = new pg.Pool({
        ...DEFAULT_POOL_CONFIG,
        ...this.#options.poolConfig,
        connectionString: this.#options.connectionString,
      });
      // An idle connection that dies (a server restart) is reported here; without a listener Node
      // would crash the process. The pool drops it, and the next query opens a fresh one.
      pool.on('error', () => undefined);
      this.#pool = this.#owned = pool;
    }
    await migrate(this.#pool, this.schema);
  }
}

export const closedError = (what: string): Error => new Error(`websift/postgres: the ${what} is closed`);

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`websift/postgres: ${name} must be a positive number of milliseconds (got ${value})`);
  }
  return value;
}

/** A handle: the one given, or a new one the caller's member owns (and closes). */
export function handleFrom(source: PostgresHandle | PostgresOptions): { db: PostgresDatabase; owned: boolean } {
  if (source instanceof PostgresDatabase) return { db: source, owned: false };
  if (typeof (source as PostgresHandle).ready === 'function') {
    throw new TypeError('websift/postgres: pass a handle made by openPostgres, or options');
  }
  return { db: new PostgresDatabase(source as PostgresOptions), owned: true };
}

/** Opens a handle on a websift schema; nothing connects until the first use. */
export function openPostgres(options: PostgresOptions): PostgresHandle {
  return new PostgresDatabase(options);
}
