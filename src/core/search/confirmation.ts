// Confirmed empty (spec "Empty search rules", contract §4.4), decided from the router's outcomes alone.

import type { SearchQuery } from '../../types/index.js';
import type { SourceOutcome } from '../router/index.js';

export type UnconfirmedReason = 'source_failed' | 'no_notice' | 'too_few_notices' | 'negative_site_only';

export type EmptyVerdict = { confirmed: true; notices: number } | { confirmed: false; reason: UnconfirmedReason };

/** Queries with ≥2 phrases, or filetype: plus a phrase: a source with unreliable empties doesn't count. */
export function unreliableShape(query: SearchQuery): boolean {
  return query.phrases.length >= 2 || (query.filetypes.length > 0 && query.phrases.length > 0);
}

/** Needs at least this many counting notices. */
export const NOTICES_REQUIRED = 2;

/** Call only when no outcome has results and at least one finished. */
export function judgeEmpty(query: SearchQuery, outcomes: readonly SourceOutcome[]): EmptyVerdict {
  if (query.excludedSites.length > 0 && query.sites.length === 0) {
    return { confirmed: false, reason: 'negative_site_only' };
  }
  if (outcomes.some((o) => o.status !== 'empty')) return { confirmed: false, reason: 'source_failed' };
  if (outcomes.some((o) => !o.noResultsNotice)) return { confirmed: false, reason: 'no_notice' };
  const skipUnreliable = unreliableShape(query);
  const notices = outcomes.filter((o) => !(skipUnreliable && o.unreliableEmpties)).length;
  return notices >= NOTICES_REQUIRED ? { confirmed: true, notices } : { confirmed: false, reason: 'too_few_notices' };
}

const reasonText: Record<UnconfirmedReason, string> = {
  source_failed: 'a search source was unavailable',
  no_notice: 'a search source returned an empty page without stating that there are no results',
  too_few_notices: 'fewer than two reliable search sources stated that there are no results',
  negative_site_only: 'queries with only -site: exclusions are never confirmed',
};

export type EmptyBilling = 'charged' | 'charged_from_cache' | 'free_repeat';

/** The one-sentence no_results message stating both flags. */
export function emptyMessage(verdict: EmptyVerdict, billing: EmptyBilling | 'free'): string {
  if (!verdict.confirmed) {
    return `No results found, but the empty answer could not be confirmed (${reasonText[verdict.reason]}), so nothing was charged.`;
  }
  const by = `confirmed by ${verdict.notices} sources`;
  switch (billing) {
    case 'free_repeat':
      return `No results found; the empty answer was ${by}, and this repeat within 5 minutes of the charged request was free.`;
    case 'charged_from_cache':
      return `No results found; the empty answer was ${by} and served from cache, so 1 credit was charged.`;
    default:
      return `No results found; the empty answer was ${by}, so 1 credit was charged.`;
  }
}
