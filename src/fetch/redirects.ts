// Manual redirect handling shared by page loads and robots.txt fetches: at most 5 hops, no loops, and
// only http(s) targets. The caller re-checks each hop (extension, robots.txt, and the fetcher's address
// policy, which applies to every connection).

import type { RawResponse } from '../ports/fetcher.js';
import { FetchFailure } from '../ports/fetcher.js';

export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Where `response` redirects to, or null when it is not a redirect (3xx without Location counts as a
 * final response). A Location that is not an http(s) URL is 'invalid_url': it names nothing we fetch.
 */
export function redirectTarget(response: RawResponse, from: URL): URL | null {
  if (!REDIRECT_STATUSES.has(response.status)) return null;
  const location = response.headers['location'];
  if (location === undefined || location.trim() === '') return null;
  let target: URL;
  try {
    target = new URL(location.trim(), from);
  } catch {
    throw new FetchFailure('invalid_url', `Redirect to an invalid URL: ${location.slice(0, 200)}`, response.status);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new FetchFailure('invalid_url', `Redirect to a non-http(s) URL (${target.protocol})`, response.status);
  }
  target.hash = '';
  return target;
}

/** Counts hops of one load and refuses a 6th redirect or a revisited URL. */
export class RedirectChain {
  readonly #visited = new Set<string>();
  #hops = 0;

  constructor(start: URL) {
    this.#visited.add(withoutHash(start));
  }

  get hops(): number {
    return this.#hops;
  }

  /** Records a redirect to `target`; throws FetchFailure('too_many_redirects') on a loop or past the limit. */
  follow(target: URL, status: number): void {
    const key = withoutHash(target);
    if (this.#visited.has(key)) {
      throw new FetchFailure('too_many_redirects', `Redirect loop at ${key.slice(0, 200)}`, status);
    }
    if (this.#hops >= MAX_REDIRECTS) {
      throw new FetchFailure('too_many_redirects', `More than ${MAX_REDIRECTS} redirects`, status);
    }
    this.#hops++;
    this.#visited.add(key);
  }
}

function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}
