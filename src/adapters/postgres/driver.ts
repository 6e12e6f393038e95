// The slice of node-postgres (`pg`) websift uses, typed structurally: the published declarations must
// compile without @types/pg, and a caller's own `pg.Pool` fits these shapes as it is. `pg` itself is an
// optional peer dependency, loaded with a dynamic import only when websift has to make a pool.

/** What a query resolves to (a `pg` QueryResult fits). */
export interface PostgresQueryResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** A connection checked out of a pool (a `pg` PoolClient fits). */
export interface PostgresPoolClient {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** Returns the connection to its pool; an error (or true) discards it instead. */
  release(error?: Error | boolean): void;
  /** `pg`'s: a connection cut while checked out is reported here (websift listens during its migration). */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/** The caller's pool (a `pg.Pool` fits). websift never ends a pool it did not make. */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  connect(): Promise<PostgresPoolClient>;
}

/** Settings of the pool websift makes from a connection string (passed to `new pg.Pool`). */
export interface PostgresPoolConfig {
  /** Most connections (pg's default: 10). */
  max?: number;
  /** How long a query waits for a connection, in ms, before it fails with LedgerUnavailableError (websift's default: 5,000; pg's own default waits forever). */
  connectionTimeoutMillis?: number;
  /** How long an idle connection stays open, in ms (pg's default: 10,000). */
  idleTimeoutMillis?: number;
  /** Server-side cap of one statement, in ms (websift's default: 4,000); past it the statement is cancelled and the call answers 503. */
  statement_timeout?: number;
  /** Client-side wait for a statement's reply, in ms (websift's default: 5,000); past it the connection is dropped and the call answers 503. */
  query_timeout?: number;
  /** TCP keepalive on the pool's connections (websift's default: true, first probe after keepAliveInitialDelayMillis = 10,000). */
  keepAlive?: boolean;
  keepAliveInitialDelayMillis?: number;
  /** Any other `pg.Pool` setting (ssl, statement_timeout, application_name…). */
  [setting: string]: unknown;
}

/** A pool websift made, and so ends on close. */
export interface OwnedPool extends PostgresPool {
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of the `pg` module websift needs. */
export interface PgModule {
  Pool: new (config: Record<string, unknown>) => OwnedPool;
}

/** Loads `pg` (replaceable in tests, to see what a missing package does). */
export type PgLoader = () => Promise<unknown>;

export const loadPg: PgLoader = () => import('pg');

export const PG_MISSING = "websift/postgres needs the 'pg' package (node-postgres): run `npm install pg`";

/** The `pg` module from `load`, or an Error that says how to install it. */
export async function pgModule(load: PgLoader): Promise<PgModule> {
  let loaded: unknown;
  try {
    loaded = await load();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new Error(PG_MISSING, { cause: error });
    throw error;
  }
  // ESM import of a CommonJS module: the exports are on `default` (and mostly mirrored by name).
  const mod = ((loaded as { default?: unknown }).default ?? loaded) as Partial<PgModule>;
  if (typeof mod.Pool !== 'function') throw new Error(`${PG_MISSING} (the loaded module has no Pool)`);
  return mod as PgModule;
}
