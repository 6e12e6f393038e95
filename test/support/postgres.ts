// Helpers of the PostgreSQL suites: a fresh schema per test, an admin pool to look inside and to drop it.

import pg from 'pg';
import { POSTGRES_URL, uniqueName } from './services.js';
import { type TcpProxy, tcpProxy } from './tcp-proxy.js';

let admin: pg.Pool | undefined;

/** A pool for the tests' own queries (never handed to websift unless a test says so). */
export function adminPool(): pg.Pool {
  admin ??= new pg.Pool({ connectionString: POSTGRES_URL, max: 4 });
  return admin;
}

/** The test server's URL with 127.0.0.1:`port` instead (a proxy in front of it, or a closed port). */
export function postgresUrlOn(port: number): string {
  const url = new URL(POSTGRES_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

/** A fault proxy in front of the test server, and the URL that goes through it (close the proxy after). */
export async function postgresProxy(): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(POSTGRES_URL);
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  return { proxy, url: postgresUrlOn(proxy.port) };
}

/** A schema name no other test uses. */
export const freshSchema = (): string => uniqueName('ws');

export async function dropSchema(schema: string): Promise<void> {
  await adminPool().query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** Every row of every table of `schema`, as JSON text. */
export async function dumpSchema(schema: string): Promise<string> {
  const { rows } = await adminPool().query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
    [schema],
  );
  const tables = await Promise.all(
    rows.map(async ({ table_name }) => (await adminPool().query(`SELECT * FROM "${schema}"."${table_name}"`)).rows),
  );
  return JSON.stringify(tables);
}
