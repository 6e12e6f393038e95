// What the router reports back to the search core: one outcome per source consulted.
// The core decides success / confirmed empty / unconfirmed empty / 503 from these alone.

import type { CallTraceContext } from '../../channels.js';
import type { SearchQuery, SourceHealth, SourceResult } from '../../types/index.js';

export interface SourceOutcome {
  /** The source's id. */
  source: string;
  unreliableEmpties: boolean;
  /** results: non-empty answer; empty: finished with no results; failed: error/timeout (its last call). */
  status: 'results' | 'empty' | 'failed';
  /** Non-empty only when status is 'results'. */
  results: SourceResult[];
  /** For 'empty': the source explicitly stated that the query has no results. */
  noResultsNotice: boolean;
  /** For 'failed': the last error. */
  error?: unknown;
  /** How many calls were made to this source for this query. */
  attempts: number;
}

export interface RouteResult {
  /** One per source consulted, in the order first consulted. Empty when no source could be asked. */
  outcomes: SourceOutcome[];
  /** The results to show: those of the first source that had any; [] when none had. */
  results: SourceResult[];
}

export interface RouteOptions {
  /** How many results the engine wants. */
  limit: number;
  /** The caller's: when it aborts, the calls in flight are aborted and route() rejects with its reason. */
  signal?: AbortSignal;
  /** The search's websift:search context, when someone listens: each source call's context names it. */
  trace?: CallTraceContext;
}

/**
 * Asks sources best-first. A source answering with results ends the route. A failed source or an empty
 * answer moves on to the next source at once, so that an empty result can be confirmed by further sources
 * or found non-empty elsewhere; failed sources are retried once no untried source is left. Never throws
 * for source failures: they are outcomes.
 */
export interface Router {
  route(query: SearchQuery, options: RouteOptions): Promise<RouteResult>;
  /** Health snapshot per source, in configured order. */
  health(): SourceHealth[];
}
