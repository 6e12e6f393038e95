// The PostgreSQL adapters: a ledger and a key store on one websift schema (docs/postgres.md).
export { openPostgres } from './database.js';
export type { PostgresHandle, PostgresOptions } from './database.js';
export { postgresLedger } from './ledger.js';
export type { PostgresLedger } from './ledger.js';
export { postgresKeyStore } from './key-store.js';
export type { PostgresKeyStore } from './key-store.js';
export type { PostgresPool, PostgresPoolClient, PostgresPoolConfig, PostgresQueryResult, PgLoader } from './driver.js';
export { SCHEMA_VERSION as POSTGRES_SCHEMA_VERSION } from './schema.js';
