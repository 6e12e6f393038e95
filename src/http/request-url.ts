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

/** The scheme and authority of an absolute http(s) URL. The host is not read: a fetch Request's URL parsed already. */
const ORIGIN = /^https?:\/\/[^/?#\\@\s]+/;

/**
 * The request's URL, or undefined for one that does not parse (the API handler answers it as an error).
 * A plain target (every API call a client library makes) is split without `new URL`, which cost ~3 µs a
 * request; the node binding's target is read as it came (no absolute URL is built for it).
 */
export function requestUrlOf(request: ApiRequest): RequestUrl | undefined {
  if (request.target !== undefined) {
    const plain = plainTarget(request.target);
    if (plain) return plain;
  }
  return parseUrl(request.url);
}

/**
 * A request-target (path and query) that `new URL` would leave as it is, split at its `?`: a path of
 * letters, digits, `_ - ~ /` (nothing to percent-encode, no `.` segment to resolve) and a query of
 * printable ASCII without `#` (what it would percent-encode, URLSearchParams decodes back). Undefined for
 * any other. Checked by a loop over the characters: the regular expression it replaces (with its match
 * array and captures) cost ~0.2 µs a request.
 */
export function plainTarget(target: string): RequestUrl | undefined {
  const mark = target.indexOf('?');
  const end = mark === -1 ? target.length : mark;
  if (end === 0 || target.charCodeAt(0) !== SLASH) return undefined;
  for (let i = 1; i < end; i++) if (!isPathCode(target.charCodeAt(i))) return undefined;
  if (mark === -1) return { pathname: target, query: '' };
  for (let i = mark + 1; i < target.length; i++) {
    const code = target.charCodeAt(i);
    if (code < 0x21 || code > 0x7e || code === HASH) return undefined;
  }
  return { pathname: target.slice(0, mark), query: target.slice(mark + 1) };
}

const SLASH = 0x2f;
const HASH = 0x23;

/** A path character `new URL` keeps as it is and that makes no dot segment: `A-Z a-z 0-9 _ - ~ /`. */
function isPathCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === SLASH ||
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x5f || // _
    code === 0x2d || // -
    code === 0x7e // ~
  );
}

/** An absolute URL as `requestUrlOf` reads it. */
export function parseUrl(url: string): RequestUrl | undefined {
  const origin = ORIGIN.exec(url);
  const plain = origin ? plainTarget(url.slice(origin[0].length)) : undefined;
  if (plain) return plain;
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
