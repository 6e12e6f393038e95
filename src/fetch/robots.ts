// robots.txt per RFC 9309: fetched through the same Fetcher (so the address policy applies), cached per
// origin on the injected Clock, 4xx → allow all, 5xx/429/a broken transfer → disallow all, a host that
// can't be connected to → the page's own `network` failure (not cached), at most 500 KiB parsed, matched
// on the product token (the user agent's first word, without its version).

import robotsParserModule from 'robots-parser';
import { type Fetcher, FetchFailure, type RawResponse } from '../ports/fetcher.js';
import { untilAborted } from '../signals.js';
import type { Clock } from '../types/index.js';
import { couldNotConnect, toFetchFailure } from './fetch-errors.js';
import { RedirectChain, redirectTarget } from './redirects.js';

export const ROBOTS_MAX_BYTES = 500 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
}
// robots-parser is CommonJS (`module.exports = fn`) but its typings declare an ES default export.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => Robot;

/** What one origin's robots.txt says. */
export type RobotsRules = { kind: 'parsed'; robot: Robot } | { kind: 'allow_all'; why: string } | { kind: 'disallow_all'; why: string };

export interface RobotsOptions {
  fetcher: Fetcher;
  clock: Clock;
  userAgent: string;
  /** Longest time a robots.txt answer is kept (RFC 9309: 24 h). */
  maxAgeMs?: number;
  /** How long a 5xx/unreachable answer (disallow all) is kept before asking again. Default 10 min. */
  failureMaxAgeMs?: number;
  /** Budget of one robots.txt fetch, redirects included. Default 10 s. */
  fetchTimeoutMs?: number;
  /** Origins remembered at most (oldest dropped first). Default 1,000. */
  maxOrigins?: number;
}

export interface RobotsPolicy {
  /** Resolves when `url` may be fetched; throws FetchFailure('robots_disallowed'), or 'blocked_address'/'timeout'. */
  check(url: URL, signal: AbortSignal): Promise<void>;
}

/** The product token robots.txt groups are matched on: `websift/0.1 (+…)` → `websift`. */
export const productToken = (userAgent: string): string => (userAgent.trim().split(/\s+/)[0] ?? '').split('/')[0] || '*';

/** Applies rules to a URL. robots-parser answers undefined for a URL of another origin: refuse it (fail closed). */
export function robotsAllow(rules: RobotsRules, url: URL, token: string): boolean {
  if (rules.kind !== 'parsed') return rules.kind === 'allow_all';
  return rules.robot.isAllowed(url.href, token) === true;
}

/** Cache lifetime of a 2xx answer: its Cache-Control max-age when shorter than the cap (at least 1 min). */
function freshFor(response: RawResponse, maxAgeMs: number): number {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(response.headers['cache-control'] ?? '');
  if (!match) return maxAgeMs;
  return Math.min(maxAgeMs, Math.max(60_000, Number(match[1]) * 1000));
}

export function createRobotsPolicy(options: RobotsOptions): RobotsPolicy {
  const maxAgeMs = options.maxAgeMs ?? DAY_MS;
  const failureMaxAgeMs = options.failureMaxAgeMs ?? 10 * 60 * 1000;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 10_000;
  const maxOrigins = options.maxOrigins ?? 1000;
  const token = productToken(options.userAgent);
  const cache = new Map<string, { rules: RobotsRules; expiresAt: number }>();
  const inFlight = new Map<string, Promise<{ rules: RobotsRules; ttl: number }>>();

  /** Fetches and classifies one origin's robots.txt, following up to 5 redirects (RFC 9309 §2.3.1.2). */
  async function load(origin: string): Promise<{ rules: RobotsRules; ttl: number }> {
    const signal = AbortSignal.timeout(fetchTimeoutMs);
    const start = new URL('/robots.txt', origin);
    const chain = new RedirectChain(start);
    let current = start;
    for (;;) {
      let response: RawResponse;
      try {
        response = await options.fetcher.fetch(current.href, {
          signal,
          maxBytes: ROBOTS_MAX_BYTES,
          truncate: true,
          headers: { 'user-agent': options.userAgent, accept: 'text/plain,*/*;q=0.5' },
        });
      } catch (err) {
        const failure = toFetchFailure(err, signal);
        // The site itself is off limits: say so rather than blaming robots.txt.
        if (failure.type === 'blocked_address' && chain.hops === 0) throw failure;
        // The site can't be reached at all (no such name, connection refused): the page could not be
        // fetched either. Report the network fault, and remember nothing: it is often transient.
        if (chain.hops === 0 && couldNotConnect(failure)) throw failure;
        return { rules: { kind: 'disallow_all', why: `robots.txt unreachable (${failure.message})` }, ttl: failureMaxAgeMs };
      }
      let next: URL | null;
      try {
        next = redirectTarget(response, current);
        if (next) chain.follow(next, response.status);
      } catch (err) {
        // RFC 9309: past five redirects the file may be taken as unavailable, i.e. no restrictions.
        const why = err instanceof Error ? err.message : String(err);
        return { rules: { kind: 'allow_all', why: `robots.txt unavailable (${why})` }, ttl: maxAgeMs };
      }
      if (next) {
        current = next;
        continue;
      }
      return { rules: classify(response, origin), ttl: response.status < 300 ? freshFor(response, maxAgeMs) : classifyTtl(response) };
    }
  }

  const classifyTtl = (response: RawResponse): number => (response.status >= 500 || response.status === 429 ? failureMaxAgeMs : maxAgeMs);

  function classify(response: RawResponse, origin: string): RobotsRules {
    const { status } = response;
    if (status >= 200 && status < 300) {
      let text = new TextDecoder('utf-8').decode(response.body);
      // Cut a truncated file at its last complete line so no half rule is read.
      if (response.body.length >= ROBOTS_MAX_BYTES) text = text.slice(0, Math.max(0, text.lastIndexOf('\n')));
      return { kind: 'parsed', robot: robotsParser(new URL('/robots.txt', origin).href, text) };
    }
    // 429 asks us to slow down; it says nothing about permission, so it is treated like a server error.
    if (status >= 500 || status === 429) return { kind: 'disallow_all', why: `robots.txt answered HTTP ${status}` };
    return { kind: 'allow_all', why: `robots.txt answered HTTP ${status}` };
  }

  function remember(origin: string, rules: RobotsRules, ttl: number): void {
    cache.delete(origin);
    cache.set(origin, { rules, expiresAt: options.clock.now() + ttl });
    while (cache.size > maxOrigins) cache.delete(cache.keys().next().value!);
  }

  async function rulesFor(origin: string, signal: AbortSignal): Promise<RobotsRules> {
    const hit = cache.get(origin);
    if (hit && hit.expiresAt > options.clock.now()) return hit.rules;
    let pending = inFlight.get(origin);
    if (!pending) {
      // One fetch per origin at a time, on its own timer, so one caller's abort does not fail the others.
      pending = load(origin).then((result) => {
        remember(origin, result.rules, result.ttl);
        return result;
      });
      pending.finally(() => inFlight.delete(origin)).catch(() => {});
      inFlight.set(origin, pending);
    }
    return (await raceSignal(pending, signal)).rules;
  }

  return {
    async check(url: URL, signal: AbortSignal): Promise<void> {
      const rules = await rulesFor(url.origin, signal);
      if (robotsAllow(rules, url, token)) return;
      const why = rules.kind === 'parsed' ? 'robots.txt disallows this URL' : rules.why;
      throw new FetchFailure('robots_disallowed', `Blocked by robots.txt: ${why}`);
    },
  };
}

/** `promise`, or a timeout FetchFailure as soon as `signal` aborts. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return untilAborted(promise, signal).catch((error: unknown) => {
    throw signal.aborted && error === signal.reason ? toFetchFailure(error, signal) : error;
  });
}
