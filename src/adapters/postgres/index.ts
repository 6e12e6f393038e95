// The PostgreSQL adapters: a ledger and a key store on one websift schema (docs/postgres.md).

export type { PostgresHandle, PostgresOptions } from './database.js';
export { openPostgres } from './database.js';
export type { PgLoader, PostgresPool, PostgresPoolClient, PostgresPoolConfig, PostgresQueryResult } from './driver.js';
export type { PostgresKeyStore } from './key-store.js';
export { postgresKeyStore } from './key-store.js';
export type { PostgresLedger } from './ledger.js';
export { postgresLedger } from './ledger.js';
export { SCHEMA_VERSION as POSTGRES_SCHEMA_VERSION } from './schema.js';
