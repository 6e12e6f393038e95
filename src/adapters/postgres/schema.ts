// The PostgreSQL schema, versioned like the SQLite one: each migration runs once, in order, and
// `schema_version` records the highest applied. All of it lives in one schema of the caller's choice
// (default "websift"), so several websift deployments can share a database. Add migrations at the end;
// never edit old ones. The ledger's operations are PL/pgSQL functions created here (sql-functions.ts),
// so a reservation or a settlement is one statement: one round trip, one short transaction.

import type { PostgresPool, PostgresPoolClient } from './driver.js';
import { batchFunctions } from './sql-batches.js';
import { ledgerFunctions } from './sql-functions.js';
import { outcomeFunctions } from './sql-outcomes.js';
import { planSettings } from './sql-plan-settings.js';

/** A schema name websift accepts: a plain SQL identifier, so quoting it is all the escaping it needs. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Checks a schema name; throws a TypeError naming the rule. */
export function checkSchemaName(name: unknown): string {
  if (typeof name !== 'string' || !IDENTIFIER.test(name) || /^pg_/i.test(name)) {
    throw new TypeError(
      `websift/postgres: schema must be 1–63 letters, digits or underscores, not starting with a digit nor "pg_" (got ${JSON.stringify(name)})`,
    );
  }
  return name;
}

/** The schema's name quoted for SQL (checked by checkSchemaName: no quote can be inside). */
export const quoted = (schema: string): string => `"${schema}"`;

const migrations: readonly ((s: string, name: string) => string)[] = [
  // 1: organizations (balance, pending holds and request counters on one row, so a settlement updates
  // one row; fillfactor leaves room for those updates to stay HOT), the live instances with their
  // leases, reservations (pending, or finished: the trace that makes a settlement apply once),
  // idempotency claims, API keys, and the functions of the ledger.
  (s, name) => `
    CREATE TABLE ${s}.organizations (
      id text PRIMARY KEY,
      balance bigint NOT NULL,
      reserved bigint NOT NULL DEFAULT 0,
      used bigint NOT NULL DEFAULT 0,
      search_requests bigint NOT NULL DEFAULT 0,
      extract_requests bigint NOT NULL DEFAULT 0,
      free_requests bigint NOT NULL DEFAULT 0,
      created_at bigint NOT NULL,
      CHECK (reserved >= 0 AND balance >= reserved)
    ) WITH (fillfactor = 70);
    -- One row per live ledger instance; lease_until is server time (now()), renewed by its heartbeat.
    CREATE TABLE ${s}.instances (
      id uuid PRIMARY KEY,
      lease_until timestamptz NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now()
    );
    -- Pending: finished = false, owned by an instance. Finished (settled or released): owner NULL, kept
    -- as the trace of the id for an hour (created_at: ms of the ledger's Clock), then pruned.
    CREATE TABLE ${s}.reservations (
      id text PRIMARY KEY,
      organization text NOT NULL,
      amount bigint NOT NULL,
      owner uuid,
      created_at bigint NOT NULL,
      finished boolean NOT NULL DEFAULT false,
      CHECK (finished OR (amount > 0 AND owner IS NOT NULL))
    );
    -- Partial: only in-flight holds are in the first two, so they stay small however long the trace grows.
    CREATE INDEX reservations_pending_owner ON ${s}.reservations (owner) WHERE NOT finished;
    CREATE INDEX reservations_pending_organization ON ${s}.reservations (organization) WHERE NOT finished;
    CREATE INDEX reservations_finished_age ON ${s}.reservations (created_at) WHERE finished;
    -- One use of a key: running under owner (response NULL), paid (charged > 0), or done (response set).
    -- created_at is the \`now\` of the first use; forgotten after IDEMPOTENCY_TTL_MS.
    CREATE TABLE ${s}.idempotency_claims (
      organization text NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      owner uuid,
      charged bigint NOT NULL DEFAULT 0 CHECK (charged >= 0),
      response text,
      created_at bigint NOT NULL,
      PRIMARY KEY (organization, key)
    );
    CREATE INDEX idempotency_claims_age ON ${s}.idempotency_claims (created_at);
    CREATE TABLE ${s}.api_keys (
      hash text PRIMARY KEY,
      organization text NOT NULL REFERENCES ${s}.organizations (id),
      created_at bigint NOT NULL,
      revoked_at bigint
    );
    ${ledgerFunctions(s, name)}`,
  // 2: what each settlement charged and whether it was voided (on its finished row), so a settlement
  // whose reply was lost can be read back or voided; the bytes of stored idempotent answers per
  // organization, for their cap (sql-outcomes.ts).
  (s) => `
    ALTER TABLE ${s}.reservations ADD COLUMN charged bigint NOT NULL DEFAULT 0, ADD COLUMN voided boolean NOT NULL DEFAULT false;
    ALTER TABLE ${s}.organizations ADD COLUMN answer_bytes bigint NOT NULL DEFAULT 0;
    UPDATE ${s}.organizations o SET answer_bytes = c.bytes FROM (
      SELECT organization, sum(octet_length(response))::bigint AS bytes FROM ${s}.idempotency_claims
      WHERE response IS NOT NULL GROUP BY organization) c WHERE c.organization = o.id;
    ${outcomeFunctions(s)}`,
  // 3: group commit of one organization's reserves and settlements (sql-batches.ts), so a hot
  // organization's searches share a row lock and an fsync instead of queueing one by one (issue 33).
  (s) => batchFunctions(s),
  // 4: index plans only for the batch and release functions, whatever the tables' size when a
  // connection first planned them (sql-plan-settings.ts; issue 33).
  (s) => planSettings(s),
];

/** Version of the websift schema this release creates and upgrades to (the number of its migrations). */
export const SCHEMA_VERSION = migrations.length;

/**
 * Creates or upgrades the schema in one transaction. Concurrent openers (instances starting together)
 * queue on a transaction-level advisory lock keyed by the schema name, so exactly one runs each
 * migration; the others then find it done. Refuses a schema written by a newer websift. `target`: the
 * version to stop at (tests build an old schema with it; default: this release's).
 */
export async function migrate(pool: PostgresPool, schema: string, target = SCHEMA_VERSION): Promise<void> {
  const s = quoted(schema);
  const client = await pool.connect();
  // A checked-out client has no listener of the pool's: a connection cut mid-migration fails the
  // statement, then emits the socket's end as 'error', which unheard would kill the process.
  const ignore = () => undefined;
  client.on?.('error', ignore);
  let failure: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', ['websift.migrate', schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_version (version integer NOT NULL)`);
    const current = await versionOf(client, s);
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `websift/postgres: schema "${schema}" is at version ${current}, newer than this websift understands (${SCHEMA_VERSION}); upgrade websift`,
      );
    }
    for (let v = current; v < target; v++) await client.query(migrations[v]!(s, schema));
    if (current === 0) await client.query(`INSERT INTO ${s}.schema_version (version) VALUES ($1)`, [target]);
    else if (current < target) await client.query(`UPDATE ${s}.schema_version SET version = $1`, [target]);
    await client.query('COMMIT');
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A connection that failed mid-transaction is discarded rather than reused.
    client.release(failure);
    // Back in the pool, the pool's listener takes over; a discarded client keeps ours (its end may follow).
    if (!failure) client.removeListener?.('error', ignore);
  }
}

async function versionOf(client: PostgresPoolClient, s: string): Promise<number> {
  const { rows } = await client.query(`SELECT max(version) AS version FROM ${s}.schema_version`);
  return Number(rows[0]?.['version'] ?? 0);
}
