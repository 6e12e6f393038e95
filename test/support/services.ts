// The shared servers of the scale-out tests (PostgreSQL, Redis). A suite that needs one asks here: when
// the server is unreachable it skips with one line saying how to run it, unless WEBSIFT_REQUIRE_SERVICES=1
// (set by .ci/run), which turns the skip into a failure so CI always exercises the shared adapters.

import { connect } from 'node:net';

export const POSTGRES_URL = process.env['WEBSIFT_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env['WEBSIFT_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const required = process.env['WEBSIFT_REQUIRE_SERVICES'] === '1';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port), timeout: 1_000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

const probes = new Map<string, Promise<boolean>>();

/**
 * Resolves true when the server answers. Otherwise prints how to run the suite and resolves false (skip),
 * or throws when WEBSIFT_REQUIRE_SERVICES=1.
 */
export async function serviceAvailable(name: 'PostgreSQL' | 'Redis'): Promise<boolean> {
  const url = name === 'PostgreSQL' ? POSTGRES_URL : REDIS_URL;
  let probe = probes.get(url);
  if (!probe) probes.set(url, (probe = reachable(url)));
  if (await probe) return true;
  const variable = name === 'PostgreSQL' ? 'WEBSIFT_TEST_DATABASE_URL' : 'WEBSIFT_TEST_REDIS_URL';
  const how = `${name} is not reachable at ${url}: start it or set ${variable} to run these tests`;
  if (required) throw new Error(`${how} (WEBSIFT_REQUIRE_SERVICES=1 forbids skipping)`);
  console.warn(`skipped: ${how}`);
  return false;
}

/**
 * This run's id: set once by test/global-setup.ts (so every worker of a run shares it), else made here
 * (a file run on its own). Every schema and key prefix a test makes starts with `<prefix>_<run id>_`.
 */
export const RUN_ID = (process.env['WEBSIFT_TEST_RUN'] ??= newRunId());

export function newRunId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A name unique to this test run and worker, for a PostgreSQL schema or a Redis key prefix. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${RUN_ID}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}
