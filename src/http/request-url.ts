// The request URL as the API handler reads it: its path and query.

import type { ApiRequest } from './exchange.js';

/**
 * What the handler reads of the request URL: the path, and the query as text (a plain URL's, after
 * the `?`; URLSearchParams parsing applies to it as is) or as the parsed URL's `searchParams`.
 */
export interface RequestUrl {
  readonly pathname: string;
  readonly query: string | URLSearchParams;
}

/**
 * A request-target (path and query) that `new URL` would leave as it is: a path of letters, digits,
 * `_ - ~ /` (nothing to percent-encode, no `.` segment to resolve) and a query of printable ASCII
 * without `#` (what it would percent-encode, URLSearchParams decodes back).
 */
const PLAIN_TARGET = /^(\/[\w~/-]*)(?:\?([\x21\x22\x24-\x7e]*))?$/;

/** An absolute http(s) URL with a plain target. The host is not read: a fetch Request's URL parsed already. */
const PLAIN_URL = /^https?:\/\/[^/?#\\@\s]+(\/[\w~/-]*)(?:\?([\x21\x22\x24-\x7e]*))?$/;

/**
 * The request's URL, or undefined for one that does not parse (the API handler answers it as an error).
 * A plain target (every API call a client library makes) is split without `new URL`, which cost ~3 µs a
 * request; the node binding's target is read as it came (no absolute URL is built for it).
 */
export function requestUrlOf(request: ApiRequest): RequestUrl | undefined {
  if (request.target !== undefined) {
    const plain = PLAIN_TARGET.exec(request.target);
    if (plain) return { pathname: plain[1]!, query: plain[2] ?? '' };
  }
  return parseUrl(request.url);
}

/** An absolute URL as `requestUrlOf` reads it. */
export function parseUrl(url: string): RequestUrl | undefined {
  const plain = PLAIN_URL.exec(url);
  if (plain) return { pathname: plain[1]!, query: plain[2] ?? '' };
  try {
    return strictUrl(url);
  } catch {
    return undefined;
  }
}

/** `url` parsed by `new URL` (which throws for one that does not parse). */
export function strictUrl(url: string): RequestUrl {
  const parsed = new URL(url);
  return { pathname: parsed.pathname, query: parsed.searchParams };
}
