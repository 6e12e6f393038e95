// Building the spec's search bodies: success (200), empty (200, status no_results).

import { randomUUID } from 'node:crypto';
import type { EmptySearchResponse, SearchResponse, SearchResultItem, SourceResult } from '../../types/index.js';
import type { Timing } from '../timing.js';

/** Content counts, present only on include_content requests. */
export interface ContentCounts {
  requested: number;
  delivered: number;
}

/**
 * Spec result items from a source's answer: strings only, 1-based positions, no duplicate URLs,
 * at most `limit`. A user-written source may hand back anything, so every field is checked.
 */
export function toResultItems(results: readonly SourceResult[], limit: number): SearchResultItem[] {
  const items: SearchResultItem[] = [];
  const seen = new Set<string>();
  for (const r of results) {
    if (items.length >= limit) break;
    if (!r || typeof r.url !== 'string' || r.url.length === 0 || seen.has(r.url)) continue;
    seen.add(r.url);
    items.push({
      title: typeof r.title === 'string' ? r.title : '',
      url: r.url,
      snippet: typeof r.snippet === 'string' ? r.snippet : '',
      position: items.length + 1,
      engine: 'auto',
    });
  }
  return items;
}

export function successResponse(
  query: string,
  results: SearchResultItem[],
  billing: { credits: number; fromCache: boolean },
  timing: Timing,
  content?: ContentCounts,
): SearchResponse {
  return {
    id: randomUUID(),
    query,
    engines: ['auto'],
    results: results.map((r) => ({ ...r })),
    metadata: {
      number_of_results: results.length,
      credits_used: billing.credits,
      from_cache: billing.fromCache,
      status: 'success',
      ...timing,
      ...(content ? { content_requested: content.requested, content_delivered: content.delivered } : {}),
    },
  };
}

export function emptyResponse(
  query: string,
  flags: { credits: number; fromCache: boolean; verified: boolean; message: string },
  timing: Timing,
  content?: ContentCounts,
): EmptySearchResponse {
  return {
    query,
    results: [],
    message: flags.message,
    metadata: {
      number_of_results: 0,
      credits_used: flags.credits,
      from_cache: flags.fromCache,
      status: 'no_results',
      ...timing,
      ...(content ? { content_requested: content.requested, content_delivered: content.delivered } : {}),
      no_results_verified: flags.verified,
      charged: flags.credits > 0,
      message: flags.message,
    },
  };
}
