// Shared helpers for the router tests: a parsed query, a seeded random source, an event log.

import type { SourceAttemptEvent } from '../../src/core/router/router.js';
import { seededRandom } from '../../src/testing/seeded-random.js';
import type { SearchQuery, SourceResult } from '../../src/types/index.js';

export const query = (q: string): SearchQuery => ({
  q,
  phrases: [],
  sites: [],
  excludedSites: [],
  filetypes: [],
  terms: q.split(/\s+/),
});

export const hit = (n: number, from = 'x'): SourceResult => ({
  title: `${from} ${n}`,
  url: `https://${from}.example/${n}`,
  snippet: `snippet ${n}`,
});

export { seededRandom as seeded };

export function eventLog(): { events: SourceAttemptEvent[]; onSourceAttempt: (e: SourceAttemptEvent) => void } {
  const events: SourceAttemptEvent[] = [];
  return { events, onSourceAttempt: (e) => events.push(e) };
}

/** Settles a promise while the manual clock is driven through every pending timer. */
export async function settle<T>(clock: { runAll(limitMs?: number): Promise<void> }, p: Promise<T>): Promise<T> {
  let done = false;
  const tracked = p.finally(() => {
    done = true;
  });
  tracked.catch(() => {});
  for (let i = 0; i < 1000 && !done; i++) await clock.runAll();
  return tracked;
}
