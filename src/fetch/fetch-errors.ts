// Maps what undici, node:net, node:dns and node:zlib throw to the per-URL `error_type` it stands for.
// One place, so every fetch path (pages, robots.txt) reports the same failure the same way.

import { FetchFailure } from '../ports/fetcher.js';
import { BlockedAddressError } from './guarded-connector.js';

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT', 'ABORT_ERR']);

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA']);
/** Besides DNS failures: nothing listens, or there is no route to the host. */
const REFUSED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);

/** Walks `err` and its `cause` chain (undici wraps socket errors). */
function* chain(err: unknown): Generator<unknown> {
  let current = err;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

const codeOf = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * The FetchFailure for `err`. `signal` is the per-URL deadline/caller signal: when it has fired, the
 * failure is a timeout whatever undici reports. `statusCode` is the response status if one was received.
 */
export function toFetchFailure(err: unknown, signal: AbortSignal | undefined, statusCode = 0): FetchFailure {
  if (err instanceof FetchFailure) return err;
  for (const e of chain(err)) {
    if (e instanceof BlockedAddressError) return new FetchFailure('blocked_address', e.message, 0, { cause: err });
  }
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    const isDeadline = reason instanceof Error && reason.name === 'TimeoutError';
    const text = isDeadline ? 'The page did not load within the time limit' : `The fetch was aborted: ${messageOf(reason)}`;
    return new FetchFailure('timeout', text, statusCode, { cause: err });
  }
  for (const e of chain(err)) {
    const code = codeOf(e);
    if (TIMEOUT_CODES.has(code) || (e instanceof Error && e.name === 'TimeoutError')) {
      return new FetchFailure('timeout', `Timed out: ${messageOf(e)}`, statusCode, { cause: err });
    }
    if (DNS_CODES.has(code)) return new FetchFailure('network', `DNS lookup failed: ${messageOf(e)}`, statusCode, { cause: err });
    if (code === 'UND_ERR_HEADERS_OVERFLOW') {
      // An oversized response head is a protocol failure, not the 10 MB page limit the spec's too_large names.
      return new FetchFailure('network', 'Response headers exceed 16 KiB', statusCode, { cause: err });
    }
  }
  const code = codeOf(err);
  return new FetchFailure('network', `Network error${code ? ` (${code})` : ''}: ${messageOf(err)}`, statusCode, { cause: err });
}

/** A `network` failure in which no connection to the host was made: its name does not resolve, or nothing listens. */
export function couldNotConnect(failure: FetchFailure): boolean {
  if (failure.type !== 'network') return false;
  for (const e of chain(failure)) {
    const code = codeOf(e);
    if (DNS_CODES.has(code) || REFUSED_CODES.has(code)) return true;
  }
  return false;
}
