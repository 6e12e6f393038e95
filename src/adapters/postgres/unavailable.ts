// Which PostgreSQL failures mean "the ledger is unreachable or busy, retry later": those become
// LedgerUnavailableError (503 `ledger_unavailable`, retryable), so the engine answers them like a
// locked SQLite file and charges nothing. Everything else (a bad schema, a bug) stays as it is.

import { LedgerUnavailableError } from '../../errors.js';

/** Socket-level codes of Node (connect refused, reset, DNS, unreachable networks). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ENOTCONN',
]);

/**
 * SQLSTATEs after which nothing was committed and a retry may succeed: the server shutting down or
 * refusing connections, too many connections, a deadlock or serialization failure, a lock or
 * statement timeout. Class 08 (connection exceptions) is matched by prefix.
 */
const RETRYABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01', '55P03', '57014']);

/** Messages of node-postgres that carry no code: a dropped connection, a pool that found no connection in time. */
const DRIVER_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /not queryable/i,
  /query read timeout/i,
];

/** Failures before a statement left: no connection was made (refused, unresolvable, the pool's connect timeout). */
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN']);
const UNSENT_MESSAGES = [/timeout exceeded when trying to connect/i, /connection timeout/i];

export function isUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || RETRYABLE_STATES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && DRIVER_MESSAGES.some((m) => m.test(message))) return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (Array.isArray(errors) && errors.some((e) => isUnavailable(e, depth + 1))) return true;
  return isUnavailable(cause, depth + 1);
}

/** `error` as LedgerUnavailableError when it means the database is unreachable or busy; otherwise unchanged. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof LedgerUnavailableError || !isUnavailable(error)) return error;
  const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
  return new LedgerUnavailableError(
    `The credit ledger's PostgreSQL database is unreachable or busy${detail}; nothing was charged. Please retry.`,
    error,
  );
}

/**
 * Whether a failed statement may still have run and committed: its reply was lost (a connection cut or
 * timed out after it was sent). False when the server answered with an error (a SQLSTATE: rolled back)
 * or no connection was ever made.
 */
export function mayHaveRun(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return true;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && (/^[0-9A-Z]{5}$/.test(code) || UNSENT_CODES.has(code))) return false;
  if (typeof message === 'string' && UNSENT_MESSAGES.some((m) => m.test(message))) return false;
  if (Array.isArray(errors) && errors.length > 0 && errors.every((e) => !mayHaveRun(e, depth + 1))) return false;
  return cause === undefined ? true : mayHaveRun(cause, depth + 1);
}
